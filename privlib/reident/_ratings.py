"""Ratings reduced to observations (private; Section IV)."""
from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

from .._validation import (
    _fmt,
    check_columns,
    check_in,
    check_no_nan,
    check_nonempty,
    check_unique_columns,
)

#: Granularities of :func:`rating_observations`: the grade dropped, liked / disliked, or kept.
GRANULARITIES = ("no-grade", "like-dislike", "5-star")
#: Ratings accepted by :func:`rating_observations` (half stars from 0.5, as MovieLens, to 5).
RATING_RANGE = (0.5, 5.0)


def _check_ratings(values: np.ndarray, name: str) -> None:
    """Ratings within :data:`RATING_RANGE` (a value outside was once clipped silently)."""
    lo, hi = RATING_RANGE
    bad = (values < lo) | (values > hi)
    if bad.any():
        shown = sorted(set(values[bad].tolist()))[:5]
        raise ValueError(f"{name}: expected ratings in [{lo:g}, {hi:g}] (half stars from 0.5 to 5), got "
                         f"{int(bad.sum())} value(s) outside, e.g. {shown}; rescale or drop them first")


def _grade(rating: np.ndarray, granularity: str) -> np.ndarray:
    if granularity == "no-grade":
        return np.ones(len(rating), dtype=np.int8)
    if granularity == "like-dislike":
        return np.where(rating >= 4, 2, 1).astype(np.int8)   # like = grade >= 4 (Section IV)
    return np.clip(np.floor(rating), 1, 5).astype(np.int8)   # half stars rounded down, 0.5 -> 1


def rating_observations(ratings: pd.DataFrame, *, granularity: str, categories: Sequence[str] | None = None,
                        user: Hashable = "user", genres: Hashable = "genres", rating: Hashable = "rating",
                        sep: str = "|") -> pd.DataFrame:
    """The source's reduction of ratings to observations (Section IV).

    Each rated movie becomes one row: the user and one column per category, holding the
    grade when the movie belongs to the category and 0 otherwise.  Movie identity and
    date are dropped.  Grades by ``granularity``:

    * ``"no-grade"``: 1 for every category of the movie (profiles depend only on types);
    * ``"like-dislike"``: 2 (like) when ``rating >= 4``, else 1 (dislike);
    * ``"5-star"``: ``floor(rating)`` with 0.5 raised to 1, so half stars are rounded
      down (0.5 -> 1, 3.5 -> 3, 4.5 -> 4) and "star >= 4" is exactly "like".

    Rows keep the order of ``ratings`` (sort by time first to cut "the first N_o").

    Parameters
    ----------
    ratings : DataFrame
        One row per rating: user, ``sep``-separated genres and the rating.
    granularity : {"no-grade", "like-dislike", "5-star"}
        The grades kept (:data:`GRANULARITIES`).
    categories : sequence of str, optional
        The category columns, in order (default: the genres found, sorted).
    user, genres, rating : hashable
        The column names.
    sep : str, default "|"
        The separator of the genres.

    Returns
    -------
    DataFrame
        The user column and one int8 column per category, index of ``ratings``.

    Raises
    ------
    ValueError
        A rating outside ``[0.5, 5]`` (:data:`RATING_RANGE`), NaN values, an empty table,
        duplicated or missing columns, an empty ``genres`` string (a movie with no
        category), unknown genres when ``categories`` is given.
    TypeError
        Non-numeric ratings or non-string genres.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.reident import rating_observations
    >>> r = pd.DataFrame({"user": [1, 1, 2], "genres": ["A|B", "B", "A"], "rating": [4.5, 2.0, 0.5]})
    >>> rating_observations(r, granularity="5-star")
       user  A  B
    0     1  4  4
    1     1  0  2
    2     2  1  0
    """
    if not isinstance(ratings, pd.DataFrame):
        raise TypeError(f"ratings: expected a pandas DataFrame, got {type(ratings).__name__}")
    check_in(granularity, "granularity", GRANULARITIES)
    check_unique_columns(ratings, "ratings")
    check_columns(ratings, [user, genres, rating], "ratings")
    check_nonempty(ratings, "ratings")
    check_no_nan(ratings, "ratings", [user, genres, rating])
    rv = ratings[rating]
    if not (pd.api.types.is_numeric_dtype(rv) and not pd.api.types.is_bool_dtype(rv)):
        raise TypeError(f"rating: expected numeric ratings in column {rating!r}, got dtype {rv.dtype}")
    _check_ratings(rv.to_numpy(), "rating")  # native dtype: no float copy held
    gcode, gvals = pd.factorize(ratings[genres])
    nonstr = [g for g in gvals if not isinstance(g, str)]  # loop over distinct strings, not records
    if nonstr:
        raise TypeError(f"genres: expected {sep!r}-separated strings in column {genres!r}, got e.g. "
                        f"{type(nonstr[0]).__name__} {_fmt(nonstr[0])}")
    dummies = pd.Series(gvals, dtype=object).str.get_dummies(sep=sep)  # one row per distinct string
    if categories is None:
        categories = list(dummies.columns)
    else:
        categories = list(categories)
        if len(set(categories)) < len(categories):
            raise ValueError(f"categories: duplicated name(s) {sorted({c for c in categories if categories.count(c) > 1})}")
        unknown = sorted(set(dummies.columns) - set(categories))
        if unknown:
            raise ValueError(f"ratings: genre(s) {unknown} are not among the categories {categories}")
        dummies = dummies.reindex(columns=categories, fill_value=0)
    if user in categories:
        raise ValueError(f"categories: a category is named like the user column {user!r}; pass another user= name")
    none = np.flatnonzero(dummies.to_numpy().sum(axis=1) == 0)  # per distinct string
    if len(none):
        raise ValueError(f"genres: {_fmt(gvals[none[0]])} names no category (rows "
                         f"{int(np.isin(gcode, none).sum())}); drop those ratings or give them a category")
    ind = dummies.to_numpy(dtype=np.int8)                  # distinct strings x categories
    grade = _grade(ratings[rating].to_numpy(dtype=float), granularity)
    gcode = np.asarray(gcode)
    # one contiguous column per category (Fortran order): column scans downstream read
    # only their own column, never the whole table
    wide = np.empty((len(gcode), len(categories)), dtype=np.int8, order="F")
    for j in range(len(categories)):  # loop over categories, not records
        np.multiply(ind[:, j][gcode], grade, out=wide[:, j])
    out = pd.DataFrame(wide, columns=categories, index=ratings.index, copy=False)
    out.insert(0, user, ratings[user].to_numpy())
    return out
