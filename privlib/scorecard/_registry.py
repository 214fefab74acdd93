"""The registry of readings: every scorecard row written down as data (changes committed before the values).

One CSV file per chapter, ``book/scorecards/readings/<chapter>.csv``, one row per claim of the
source, with the columns :data:`READING_COLUMNS` (the package docstring explains each).  A reading
changed after any result had been seen gets a row of the reading history,
``book/scorecards/readings/history.csv`` (:data:`HISTORY_COLUMNS`).
"""
from __future__ import annotations

import csv
import math
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._validation import _fmt
from ._claim import CAUSES, CLAIM_KINDS, COMPARISONS, Claim, Seeds, _problem, half_unit, readings_dir
from ._multiverse import MULTIVERSE_COLUMNS, RULES_PENDING, choice_problems, load_choices

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


__all__ = [
    "READING_COLUMNS",
    "HISTORY_COLUMNS",
    "REGISTRY_COMPARES",
    "MIN_SEEDS",
    "readings_dir",
    "load_readings",
    "validate_readings",
    "write_readings",
    "load_history",
]

#: The columns of a chapter's registry of readings, in order.
READING_COLUMNS = ["id", "where", "quote", "claim", "kind", "variant", "reading", "compare", "source",
                   "tolerance", "seeds", "explains", "cause", "reason", *MULTIVERSE_COLUMNS]
#: The columns of the reading history.
HISTORY_COLUMNS = ["chapter", "id", "old_reading", "old_status", "new_reading", "why", "new_status"]
#: The history's columns before ``new_status`` (a file with these is read with it blank).
_HISTORY_V1 = HISTORY_COLUMNS[:-1]
#: The comparisons a registry may name: those of :func:`privlib.scorecard.status`, a table
#: compared cell by cell, and ``none`` (not reproduced, with a reason).
REGISTRY_COMPARES = (*COMPARISONS, "table", "none")
#: The fewest seeds a value that depends on noise is judged on.
MIN_SEEDS = 5

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_REQUIRED = ("id", "where", "claim", "kind", "reading", "compare")


def validate_readings(frame: pd.DataFrame, /, *, chapter: str = "registry", choices: pd.DataFrame | None = None,
                      pending: tuple = ()) -> pd.DataFrame:
    """Check a registry of readings against the book's rules and return it (strings, ``""`` for blank).

    Rules: the columns :data:`READING_COLUMNS`; ids unique slugs; ``kind`` one of
    :data:`~privlib.scorecard.CLAIM_KINDS`; ``compare`` one of :data:`REGISTRY_COMPARES`;
    a ``holds`` claim's source is ``true``; a number is as printed; ``tolerance`` is
    ``printed`` or a non-negative number (blank for ``holds`` and ``none``); ``seeds`` blank or
    a whole number of at least :data:`MIN_SEEDS`; a ``none`` claim has a reason; a
    ``hypothesis`` names in ``explains`` the claim it tests; ``cause`` blank or one of
    :data:`~privlib.scorecard.CAUSES`, and an ``unexplained`` claim is explained by a hypothesis.

    Parameters
    ----------
    frame : pandas.DataFrame
        The registry (as read from its CSV file).
    chapter : str
        The chapter's name (for the messages, and the ``chapter`` of ``choices``).
    choices : pandas.DataFrame, optional
        The book's choice sets (:func:`privlib.scorecard.load_choices`): every option row's
        choice must be there, with a row for each of its options.  Without it only the
        option rows' own rules are checked.
    pending : tuple of str
        Rules of :data:`~privlib.scorecard.RULES_PENDING` not applied (``"seeds"``, ``"can_fail"``).

    Returns
    -------
    pandas.DataFrame
        The registry, every cell a stripped string.

    Notes
    -----
    The rules of choice sets, calibrations, ``can_fail`` and seeds of noise-dependent
    reproduction rows are those of ``privlib.scorecard._multiverse``.

    Raises
    ------
    ValueError
        Listing every rule broken, with the claim's id.

    Examples
    --------
    >>> row = {"id": "t5", "where": "Table 5", "claim": "0.167-closeness", "kind": "reproduction",
    ...        "reading": "largest per-class EMD", "compare": "abs", "source": "0.167",
    ...        "tolerance": "printed"}
    >>> validate_readings(pd.DataFrame([row]))["tolerance"].tolist()
    ['printed']
    >>> validate_readings(pd.DataFrame([{**row, "kind": "self-check", "seeds": "3"}]))
    Traceback (most recent call last):
    ...
    ValueError: registry: reading 't5': seeds must be a whole number >= 5, got '3'
    >>> validate_readings(pd.DataFrame([{**row, "seeds": "8"}]))
    Traceback (most recent call last):
    ...
    ValueError: registry: reading 't5': a noise-dependent reproduction row is judged over at least 20 seeds (10 if seed_seconds > 5), got 8
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame: expected a pandas DataFrame, got {type(frame).__name__}")
    unknown = [c for c in frame.columns if c not in READING_COLUMNS]
    missing = [c for c in _REQUIRED if c not in frame.columns]
    if unknown or missing:
        raise ValueError(f"{chapter}: the registry's columns must be {READING_COLUMNS}; "
                         f"unknown {unknown}, missing {missing}")
    frame = frame.reindex(columns=READING_COLUMNS).astype(object).fillna("").astype(str)
    frame = frame.apply(lambda col: col.str.strip())
    problems = []
    ids = frame["id"].tolist()
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        problems.append(f"{chapter}: duplicate ids {dup}")
    explained = set(frame.loc[frame["kind"] == "hypothesis", "explains"])
    for r in frame.itertuples(index=False):
        bad = []
        if not _ID.match(r.id):
            bad.append(f"id must be a slug [a-z0-9-], got {r.id!r}")
        for col in ("where", "claim", "reading"):
            if not getattr(r, col):
                bad.append(f"{col} is blank")
        if r.kind not in CLAIM_KINDS:
            bad.append(f"kind must be one of {CLAIM_KINDS}, got {r.kind!r}")
        if r.compare not in REGISTRY_COMPARES:
            bad.append(f"compare must be one of {REGISTRY_COMPARES}, got {r.compare!r}")
        elif r.compare == "none":
            if not r.reason:
                bad.append("a claim not reproduced (compare none) needs its reason")
            if r.seeds or r.tolerance:
                bad.append("a claim not reproduced has no seeds or tolerance")
        elif r.compare == "holds":
            if r.source.lower() != "true":
                bad.append(f"a holds claim's source is 'true', got {r.source!r}")
            if r.tolerance:
                bad.append(f"a holds claim has no tolerance, got {r.tolerance!r}")
        else:
            if r.compare != "table" or r.source:
                parts = r.source.split(";")
                if r.compare == "range" and len(parts) != 2:
                    bad.append(f"a range claim's source is 'lo;hi', got {r.source!r}")
                elif r.compare not in ("range", "table") and len(parts) != 1:
                    bad.append(f"source must be one number as printed, got {r.source!r}")
                for x in parts:
                    try:
                        half_unit(x)
                    except ValueError:
                        bad.append(f"source must be numbers as printed, got {r.source!r}")
                        break
            if r.tolerance != "printed":
                try:
                    tol = float(r.tolerance)
                    ok = math.isfinite(tol) and tol >= 0
                except ValueError:
                    ok = False
                if not ok:
                    bad.append(f"tolerance must be 'printed' or a number >= 0, got {r.tolerance!r}")
        if r.seeds and not (r.seeds.isascii() and r.seeds.isdigit() and int(r.seeds) >= MIN_SEEDS):
            bad.append(f"seeds must be a whole number >= {MIN_SEEDS}, got {r.seeds!r}")
        if r.seeds and r.compare == "table":
            bad.append("a table claim is not judged over seeds (give one row per seed-dependent value)")
        if r.kind == "hypothesis":
            if not r.explains:
                bad.append("a hypothesis names in 'explains' the claim whose reading it tests")
            elif r.explains not in ids or r.explains == r.id:
                bad.append(f"explains names no other claim of the registry: {r.explains!r}")
        elif r.explains:
            bad.append(f"only a hypothesis explains another claim, this is a {r.kind}")
        if r.cause:
            if r.cause not in CAUSES:
                bad.append(f"cause must be one of {CAUSES}, got {r.cause!r}")
            elif r.cause == "unexplained" and r.id not in explained:
                bad.append("an unexplained difference needs a hypothesis row that tests a candidate "
                           "explanation (explains = this id)")
        problems.extend(_problem(chapter, r.id, b) for b in bad)
    problems.extend(choice_problems(frame, choices, chapter=chapter, pending=tuple(pending)))
    if problems:
        raise ValueError("\n".join(problems))
    return frame.reset_index(drop=True)


def load_readings(chapter: str, /, *, directory: str | os.PathLike | None = None) -> pd.DataFrame:
    """Read and validate the registry of readings ``<directory>/<chapter>.csv``.

    Parameters
    ----------
    chapter : str
        The registry's name.
    directory : str or path-like, optional
        Default :func:`readings_dir`.

    Returns
    -------
    pandas.DataFrame
        As :func:`validate_readings`.

    Raises
    ------
    FileNotFoundError
        No registry for ``chapter``.
    ValueError
        A rule of :func:`validate_readings` is broken.

    Examples
    --------
    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> _ = write_readings("demo", [{"id": "a", "where": "Table 1", "claim": "c", "kind": "self-check",
    ...                              "reading": "r", "compare": "holds", "source": "true"}], directory=d)
    >>> load_readings("demo", directory=d)["compare"].tolist()
    ['holds']
    """
    if not isinstance(chapter, str) or not chapter.strip():
        raise ValueError(f"chapter: expected the registry's name, got {_fmt(chapter)}")
    directory = Path(directory) if directory is not None else readings_dir()
    path = directory / f"{chapter}.csv"
    if not path.exists():
        raise FileNotFoundError(f"chapter: no registry of readings for {chapter!r} at {path}")
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"chapter: the registry {path} is not UTF-8 text (byte "
                         f"{exc.object[exc.start:exc.start + 1]!r} at offset {exc.start}); re-save it as UTF-8") from None
    return validate_readings(frame, chapter=chapter, choices=load_choices(directory=directory),
                             pending=RULES_PENDING.get(chapter, ()))


def write_readings(chapter: str, rows: list[dict] | pd.DataFrame, /, *,
                   directory: str | os.PathLike | None = None) -> Path:
    """Validate ``rows`` and write them as the registry ``<directory>/<chapter>.csv``.

    Returns
    -------
    pathlib.Path
        The file written.

    Examples
    --------
    >>> import tempfile
    >>> write_readings("demo", [{"id": "a", "where": "Table 1", "claim": "c", "kind": "self-check",
    ...                          "reading": "r", "compare": "holds", "source": "true"}],
    ...                directory=tempfile.mkdtemp()).name
    'demo.csv'
    """
    directory = Path(directory) if directory is not None else readings_dir()
    frame = validate_readings(pd.DataFrame(rows), chapter=chapter, choices=load_choices(directory=directory),
                              pending=RULES_PENDING.get(chapter, ()))
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{chapter}.csv"
    frame.to_csv(path, index=False, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    return path


def load_history(*, directory: str | os.PathLike | None = None) -> pd.DataFrame:
    """The reading history: every reading changed after a result had been seen.

    Parameters
    ----------
    directory : str or path-like, optional
        Default :func:`readings_dir`; the file is ``history.csv`` there.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`HISTORY_COLUMNS` (empty when there is no history).

    Examples
    --------
    >>> import tempfile
    >>> load_history(directory=tempfile.mkdtemp()).columns.tolist()
    ['chapter', 'id', 'old_reading', 'old_status', 'new_reading', 'why', 'new_status']
    """
    directory = Path(directory) if directory is not None else readings_dir()
    path = directory / "history.csv"
    if not path.exists():
        return pd.DataFrame(columns=HISTORY_COLUMNS)
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    if list(frame.columns) == _HISTORY_V1:
        frame["new_status"] = ""
    if list(frame.columns) != HISTORY_COLUMNS:
        raise ValueError(f"history: expected the columns {HISTORY_COLUMNS}, got {list(frame.columns)}")
    blank = [f"{r.chapter}/{r.id}" for r in frame.itertuples() if not (r.chapter and r.id and r.why)]
    if blank:
        raise ValueError(f"history: entries without a chapter, id or why: {blank}")
    return frame


# ---------------------------------------------------------------------- used by Scorecard
def _reading(card: object, rid: str) -> pd.Series:
    if card.readings is None:
        raise ValueError("record: this scorecard has no registry; build it with Scorecard.from_readings")
    match = card.readings.loc[card.readings["id"] == rid]
    if match.empty:
        raise KeyError(f"id: {rid!r} is not a registered claim of {card.chapter!r}; register its reading "
                       f"in the chapter's registry first")
    row = match.iloc[0]
    if row["compare"] == "none":
        raise ValueError(f"id: {rid!r} is registered with compare='none': it is not reproduced (no value)")
    if any(c.id == rid for c in card.claims):
        raise ValueError(f"id: {rid!r} already has a value (each claim is recorded once)")
    return row


def _common(r: pd.Series, chapter: str = "") -> dict:
    return dict(kind=r["kind"], where=r["where"], reason=r["reason"], id=r["id"], quote=r["quote"],
                variant=r["variant"], reading=r["reading"], cause=r["cause"], choice=r["choice"],
                option=r["option"], option_of=r["of"], can_fail=r["can_fail"],
                justification=r["justification"], pending=RULES_PENDING.get(chapter, ()))


def not_reproduced_rows(frame: pd.DataFrame, chapter: str = "") -> list[Claim]:
    return [Claim(r["claim"], "", None, 0.0, "abs", **_common(r, chapter))
            for _, r in frame.loc[frame["compare"] == "none"].iterrows()]


def claim_from_reading(card: object, rid: str, ours: object, *, note: str = "") -> Claim:
    r = _reading(card, rid)
    compare = r["compare"]
    if compare == "table":
        raise ValueError(f"id: {rid!r} is registered with compare='table': use record_table")
    n_seeds = int(r["seeds"]) if r["seeds"] else 0
    if n_seeds:
        if not isinstance(ours, Seeds) or len(ours) != n_seeds:
            got = f"Seeds of {len(ours)}" if isinstance(ours, Seeds) else type(ours).__name__
            raise ValueError(f"ours: {rid!r} is judged over {n_seeds} seeds (registry); expected Seeds of "
                             f"{n_seeds} values, got {got}")
    elif isinstance(ours, Seeds):
        raise ValueError(f"ours: {rid!r} has no seeds in the registry, got Seeds of {len(ours)} values; "
                         "register the number of seeds before computing")
    if isinstance(ours, (str, bytes)) or ours is None:
        raise TypeError(f"ours: {rid!r} needs a computed number or boolean, got {_fmt(ours)}")
    if isinstance(ours, Seeds):
        gaps = [i for i, v in enumerate(ours) if v is None or (isinstance(v, (float, np.floating)) and not math.isfinite(v))]
        if gaps:
            raise ValueError(f"ours: {rid!r} has no finite value in seed(s) {gaps} (NaN, inf or None); expected "
                             f"a computed value in every seed")
    if compare == "holds":
        source, tol = True, 0.0
    elif compare == "range":
        source = tuple(x.strip() for x in r["source"].split(";"))
        tol = max(half_unit(x) for x in source) if r["tolerance"] == "printed" else float(r["tolerance"])
    else:
        source = r["source"]
        tol = half_unit(source) if r["tolerance"] == "printed" else float(r["tolerance"])
    claim = Claim(r["claim"], source, ours, tol, compare, note=note, **_common(r, card.chapter))
    if claim.status == "not computed":
        raise ValueError(f"ours: {rid!r} has no computed value (None or NaN)")
    return claim


def _cells(ours, rid) -> np.ndarray:
    """The table's computed cells as floats; strings, objects and booleans are refused."""
    arr = np.asarray(ours)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"ours: {rid!r} needs computed numbers in every cell, got dtype {arr.dtype} "
                        f"{_fmt(ours)}")
    return arr.astype(float)


def table_from_reading(card: object, rid: str, ours: ArrayLike, *, source=None, note: str = "") -> Claim:
    r = _reading(card, rid)
    if r["compare"] != "table":
        raise ValueError(f"id: {rid!r} is registered with compare={r['compare']!r}, not 'table': use record")
    if source is None:
        if not r["source"]:
            raise ValueError(f"source: {rid!r} has no cells in the registry; pass the source's cells")
        source = [x.strip() for x in r["source"].split(";")]
        mine = _cells(ours, rid).ravel()
    else:
        mine = _cells(ours, rid)
    tolerance = "printed" if r["tolerance"] == "printed" else float(r["tolerance"])
    scratch = type(card)(card.chapter)
    row = scratch.add_table(r["claim"], source, mine, tolerance, kind=r["kind"], where=r["where"],
                            note=note, reason=r["reason"])
    return Claim(row.claim, row.source, row.ours, row.tolerance, row.compare, note=note, cells=row.cells,
                 **_common(r, card.chapter))


def check_complete(card: object) -> None:
    if card.readings is None:
        return
    have = {c.id for c in card.claims}
    missing = [i for i in card.readings["id"] if i not in have]
    if missing:
        raise ValueError(f"{card.chapter}: registered claims without a value: {missing}")
    frame = card.to_frame()
    uncaused = frame.loc[frame["status"].isin(["differs", "fragile", "choice-dependent"]) & (frame["cause"] == "")
                         & (frame["option of"] == ""), "id"].tolist()
    if uncaused:
        raise ValueError(f"{card.chapter}: rows that differ or are fragile need a cause in the registry "
                         f"(one of {CAUSES}): {uncaused}")
