"""Scorecards on disk: where they live, reading them back, and the book's headline table."""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ._card import Scorecard, _counts  # noqa: F401  (Scorecard: the doctests)
from ._claim import _LEGACY, CAUSES, CLAIM_KINDS, COLUMNS, STATUSES, scorecard_dir
from ._multiverse import claim_rows

__all__ = ["headline", "load_scorecards", "cause_counts"]


def headline(cards: pd.DataFrame) -> pd.DataFrame:
    """Per chapter: reproduction claims and their statuses, then the other kinds (the report's table).

    Parameters
    ----------
    cards : pandas.DataFrame
        Scorecards as :func:`load_scorecards` returns them.

    Returns
    -------
    pandas.DataFrame
        One row per chapter and a last row ``"all chapters"``.

    Examples
    --------
    >>> card = Scorecard("demo")
    >>> _ = card.add("a", "0.5", 0.5, "printed", kind="reproduction", where="Table 1")
    >>> frame = card.to_frame()
    >>> frame.insert(0, "chapter", "demo")
    >>> headline(frame)[["claims", "agrees"]]
                  claims  agrees
    demo               1       1
    all chapters       1       1
    """
    rows = {}
    for chapter, frame in cards.groupby("chapter", sort=False):
        c = _counts(frame)
        rep = c.get("reproduction", {})
        row = {"claims": rep.get("claims", 0), **{s: rep.get(s, 0) for s in STATUSES}}
        for k in CLAIM_KINDS[1:]:
            row[k] = c.get(k, {}).get("claims", 0)
        if _LEGACY in c:
            row[_LEGACY] = c[_LEGACY]["claims"]
        rows[chapter] = row
    table = pd.DataFrame.from_dict(rows, orient="index").fillna(0).astype(int)
    if len(table):
        table.loc["all chapters"] = table.sum()
    return table


def load_scorecards(*, directory: str | os.PathLike | None = None) -> pd.DataFrame:
    """Concatenate every chapter's saved scorecard (empty frame if there is none).

    Scorecards saved before rows had a kind are read with ``kind = "untyped"``.

    Parameters
    ----------
    directory : str or path-like, optional
        Where the ``<chapter>.csv`` files are (default :func:`scorecard_dir`).

    Returns
    -------
    pandas.DataFrame
        Column ``chapter`` then the columns of :meth:`Scorecard.to_frame`.

    Examples
    --------
    >>> import tempfile
    >>> directory = tempfile.mkdtemp()
    >>> _ = Scorecard("demo").save(directory=directory)
    >>> load_scorecards(directory=directory).shape
    (0, 20)
    """
    directory = Path(directory) if directory is not None else scorecard_dir()
    files = sorted(directory.glob("*.csv")) if directory.exists() else []
    if not files:
        return pd.DataFrame(columns=["chapter", *COLUMNS])
    frames = []
    for f in files:
        frame = pd.read_csv(f, keep_default_na=False)
        for col in COLUMNS:
            if col not in frame.columns:
                frame[col] = _LEGACY if col == "kind" else ""
        frame = frame.astype({col: str for col in COLUMNS})
        frames.append(frame[["chapter", *COLUMNS]])
    return pd.concat(frames, ignore_index=True)


def cause_counts(cards: pd.DataFrame, /, *, kinds: tuple = ("reproduction",)) -> pd.DataFrame:
    """Per chapter, the claims that differ, are fragile or choice-dependent, counted by their cause.

    Each claim counts once (the options of a choice set are not counted).  ``unexplained`` is
    a column like the causes, but it is not a cause: the report shows it apart.

    Parameters
    ----------
    cards : pandas.DataFrame
        Scorecards as :func:`load_scorecards` returns them.
    kinds : tuple of str
        The kinds of row counted (default: the reproduction rows of the headline).

    Returns
    -------
    pandas.DataFrame
        One row per chapter and a last row ``"all chapters"``, one column per cause of
        :data:`~privlib.scorecard.CAUSES` (and ``"no cause"`` if a row lacks one).

    Examples
    --------
    >>> frame = pd.DataFrame({"chapter": ["a", "a", "b"], "kind": ["reproduction"] * 3,
    ...                       "status": ["differs", "agrees", "fragile"], "cause": ["noise", "", "noise"]})
    >>> cause_counts(frame)["noise"].tolist()
    [1, 1, 2]
    """
    cards = claim_rows(cards)
    rows = cards.loc[cards["kind"].isin(kinds)
                     & cards["status"].isin(["differs", "fragile", "choice-dependent"])].copy()
    rows["cause"] = rows["cause"].replace("", "no cause")
    columns = [*CAUSES, *(["no cause"] if (rows["cause"] == "no cause").any() else [])]
    chapters = list(dict.fromkeys(cards["chapter"]))
    table = (rows.groupby(["chapter", "cause"]).size().unstack(fill_value=0)
             .reindex(index=chapters, columns=columns, fill_value=0).fillna(0).astype(int))
    if len(table):
        table.loc["all chapters"] = table.sum()
    return table
