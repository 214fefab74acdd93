"""Data swapping within users (private; Section VI, after Reiss [9])."""
from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

from .._validation import as_generator, check_columns, check_no_nan, check_nonempty, check_unique_columns
from ._folds import _shuffle_within


def swap(obs: pd.DataFrame, characteristics: Sequence[Hashable], *, rng: int | np.random.Generator,
         user: Hashable = "user") -> pd.DataFrame:
    """Data swapping within users (Section VI, after Reiss [9]).

    For each characteristic ``c`` independently, the values ``o(c)`` are permuted at
    random among the observations of the same user.  Every user's (hence the global)
    first-order histogram of ``(c, o(c))`` is unchanged, while the correlations between
    characteristics within observations are broken.  Rows stay in place (same index,
    same user); only characteristic values move.  ``rng`` (required, keyword-only; int
    seed or Generator) draws the permutations.

    Parameters
    ----------
    obs : DataFrame
        The long table (a user column and characteristic columns).
    characteristics : sequence of column names
        The characteristics to swap (not the user column).
    rng : int or numpy.random.Generator
        Seed or generator of the permutations (required).
    user : hashable, default "user"
        The user column.

    Returns
    -------
    DataFrame
        A copy of ``obs`` with the values of ``characteristics`` permuted within users.

    Raises
    ------
    ValueError
        An empty table, missing or duplicated columns, the user column among
        ``characteristics``, missing values.
    TypeError
        ``obs`` not a DataFrame.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.reident import swap
    >>> obs = pd.DataFrame({"user": [1, 1, 1, 2, 2, 2], "A": [1, 2, 3, 4, 5, 6]})
    >>> out = swap(obs, ["A"], rng=0)
    >>> out.groupby("user")["A"].apply(sorted).tolist()    # values stay with their user
    [[1, 2, 3], [4, 5, 6]]
    """
    gen = as_generator(rng)
    if not isinstance(obs, pd.DataFrame):
        raise TypeError(f"obs: expected a pandas DataFrame (long table), got {type(obs).__name__}")
    check_nonempty(obs, "obs")
    check_unique_columns(obs, "obs")
    check_columns(obs, [user], "user")
    characteristics = check_columns(obs, characteristics, "characteristics")
    if user in characteristics:
        raise ValueError(f"characteristics: the user column {user!r} cannot be swapped")
    if len(set(characteristics)) < len(characteristics):
        raise ValueError(f"characteristics: duplicated name(s) in {characteristics}")
    check_no_nan(obs, "obs", [user, *characteristics])
    ucode, _ = pd.factorize(obs[user], sort=True)
    counts = np.bincount(ucode)
    out = obs.copy()
    if np.all(ucode[1:] >= ucode[:-1]) and np.all(counts == counts[0]):
        # users contiguous with equal counts: permute the rows of a (users x N_o) view
        for c in characteristics:  # loop over characteristics, not records
            col = obs[c].to_numpy()
            out[c] = gen.permuted(col.reshape(len(counts), counts[0]), axis=1).ravel()
        return out
    base = np.argsort(ucode, kind="stable")
    for c in characteristics:  # loop over characteristics, not records
        perm = _shuffle_within(ucode, gen)
        col = obs[c].to_numpy()
        new = col.copy()
        new[base] = col[perm]
        out[c] = new
    return out


