"""The reproduction scorecard every chapter ends with.

A chapter collects one row per claim of its source: the claim, the source's value, our
value (computed in the build), a tolerance and how to compare.  The *status* is always
computed here, never typed in a notebook:

============ ===========================================================================
kind          agrees when
============ ===========================================================================
``abs``       ``|ours - source| <= tolerance``
``rel``       ``|ours - source| <= tolerance * |source|``
``at_least``  ``ours >= source - tolerance``
``at_most``   ``ours <= source + tolerance``
``range``     ``source = (lo, hi)`` and ``lo - tolerance <= ours <= hi + tolerance``
``holds``     ``ours`` is a boolean that is True (a qualitative claim checked in code)
============ ===========================================================================

Statuses: ``agrees``, ``differs``, or ``not computed`` when our value is ``None``/NaN.
:meth:`Scorecard.save` writes ``book/scorecards/<chapter>.csv`` so that the book's
reproduction report (``book/reproducibility.ipynb``) can gather every chapter's rows.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ._validation import check_in, check_positive

__all__ = ["Claim", "Scorecard", "status", "scorecard_dir", "load_scorecards"]

KINDS = ("abs", "rel", "at_least", "at_most", "range", "holds")
COLUMNS = ["claim", "source value", "our value", "tolerance", "status", "note"]


def _isnan(x) -> bool:
    try:
        return x is None or (isinstance(x, float) and math.isnan(x))
    except TypeError:  # pragma: no cover
        return False


def status(source, ours, tolerance=0.0, kind: str = "abs") -> str:
    """Compare ``ours`` with ``source`` and return ``"agrees"``, ``"differs"`` or ``"not computed"``."""
    check_in(kind, "kind", KINDS)
    if _isnan(ours):
        return "not computed"
    if kind == "holds":
        if not isinstance(ours, (bool, np.bool_)):
            raise TypeError(f"ours: a 'holds' claim needs a boolean, got {type(ours).__name__} {ours!r}")
        return "agrees" if bool(ours) else "differs"
    tol = check_positive(tolerance, "tolerance", allow_zero=True)
    ours = float(ours)
    if kind == "range":
        lo, hi = (float(x) for x in source)
        ok = lo - tol <= ours <= hi + tol
    else:
        src = float(source)
        if kind == "abs":
            ok = abs(ours - src) <= tol + 1e-12
        elif kind == "rel":
            ok = abs(ours - src) <= tol * abs(src) + 1e-12
        elif kind == "at_least":
            ok = ours >= src - tol
        else:  # at_most
            ok = ours <= src + tol
    return "agrees" if ok else "differs"


def _fmt_value(v, digits: int) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "holds" if v else "does not hold"
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(_fmt_value(x, digits) for x in v) + "]"
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}"
    if isinstance(v, (float, np.floating)):
        if _isnan(float(v)):
            return "n/a"
        return f"{float(v):.{digits}g}"
    return "" if v is None else str(v)


def _fmt_tol(tol, kind) -> str:
    if kind == "holds":
        return "-"
    if kind == "rel":
        return f"±{100 * float(tol):.3g}%"
    sym = {"abs": "±", "at_least": "≥ source −", "at_most": "≤ source +", "range": "range ±"}[kind]
    return f"{sym}{float(tol):.3g}"


@dataclass(frozen=True)
class Claim:
    """One row of a scorecard."""

    claim: str
    source: object
    ours: object
    tolerance: float = 0.0
    kind: str = "abs"
    note: str = ""

    @property
    def status(self) -> str:
        return status(self.source, self.ours, self.tolerance, self.kind)


@dataclass
class Scorecard:
    """An ordered collection of :class:`Claim` rows for one chapter.

    Examples
    --------
    >>> card = Scorecard("t-closeness")
    >>> card.add("D[P1, Q], ordered distance", 0.375, 0.375, 5e-4)
    >>> card.to_frame()["status"].tolist()
    ['agrees']
    """

    chapter: str
    digits: int = 4
    claims: list = field(default_factory=list)

    def add(self, claim: str, source, ours, tolerance: float = 0.0, kind: str = "abs", note: str = "") -> Claim:
        """Add a row; ``source`` is the value the source states, ``ours`` the computed one."""
        row = Claim(claim, source, ours, tolerance, kind, note)
        row.status  # validate now, not at display time
        self.claims.append(row)
        return row

    def to_frame(self) -> pd.DataFrame:
        rows = [{
            "claim": c.claim,
            "source value": _fmt_value(c.source, self.digits),
            "our value": _fmt_value(c.ours, self.digits),
            "tolerance": _fmt_tol(c.tolerance, c.kind),
            "status": c.status,
            "note": c.note,
        } for c in self.claims]
        return pd.DataFrame(rows, columns=COLUMNS)

    def summary(self) -> str:
        s = self.to_frame()["status"].value_counts()
        return (f"{self.chapter}: {len(self.claims)} claims, {int(s.get('agrees', 0))} agree, "
                f"{int(s.get('differs', 0))} differ, {int(s.get('not computed', 0))} not computed")

    def save(self, directory=None) -> Path:
        """Write the scorecard to ``<directory>/<chapter>.csv`` (default :func:`scorecard_dir`)."""
        directory = Path(directory) if directory is not None else scorecard_dir()
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{self.chapter}.csv"
        frame = self.to_frame()
        frame.insert(0, "chapter", self.chapter)
        frame.to_csv(path, index=False, lineterminator="\n")
        return path

    def _repr_html_(self):  # pragma: no cover - display only
        return self.to_frame().to_html(index=False)


def scorecard_dir() -> Path:
    """``book/scorecards`` of the compendium: found from ``$PRIVLIB_BOOK_ROOT``, or by walking
    up from the working directory to the folder holding ``_toc.yml``, or beside the package."""
    env = os.environ.get("PRIVLIB_BOOK_ROOT")
    if env:
        return Path(env) / "book" / "scorecards"
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / "_toc.yml").exists():
            return d / "book" / "scorecards"
    return Path(__file__).resolve().parents[1] / "book" / "scorecards"


def load_scorecards(directory=None) -> pd.DataFrame:
    """Concatenate every chapter's saved scorecard (empty frame if there is none)."""
    directory = Path(directory) if directory is not None else scorecard_dir()
    files = sorted(directory.glob("*.csv")) if directory.exists() else []
    if not files:
        return pd.DataFrame(columns=["chapter", *COLUMNS])
    return pd.concat([pd.read_csv(f, keep_default_na=False) for f in files], ignore_index=True)
