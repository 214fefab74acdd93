"""A scorecard's rows (:class:`Claim`, :class:`Seeds`), their statuses and where scorecards live.

Private module of :mod:`privlib.scorecard`, below the scorecard itself (:mod:`._card`), the
choice sets (:mod:`._multiverse`), the registry (:mod:`._registry`) and the files (:mod:`._files`).
"""
from __future__ import annotations

import math
import numbers
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._validation import _fmt, check_in, check_positive

__all__ = [
    "Claim",
    "Seeds",
    "status",
    "half_unit",
    "scorecard_dir",
    "readings_dir",
    "CLAIM_KINDS",
    "COMPARISONS",
    "STATUSES",
    "TOLERANCE_POLICY",
]

#: The kinds of row of a scorecard (only ``reproduction`` rows count in the headline).
CLAIM_KINDS = ("reproduction", "source arithmetic", "self-check", "hypothesis", "cross-source", "calibration")
#: The comparisons of :meth:`Scorecard.add` (``compare=``).
COMPARISONS = ("abs", "rel", "at_least", "at_most", "range", "holds")
#: The statuses of a row.
STATUSES = ("agrees", "differs", "fragile", "choice-dependent", "not reproduced")
#: The columns of a scorecard, in order.
COLUMNS = ["id", "where", "quote", "claim", "kind", "variant", "reading", "source value", "our value",
           "tolerance", "status", "cause", "note", "reason", "option of", "option", "verdict", "can fail",
           "justification"]
#: The causes of a difference (a row that differs or is fragile names one).
CAUSES = ("substitute data", "source slip", "unstated choice", "noise", "method deviation", "unexplained")

#: The book's tolerance policy, as printed under every scorecard.
TOLERANCE_POLICY = (
    "A number printed by the source agrees when ours lies within half a unit of its last printed "
    "digit (85.3 agrees with 85.25 to 85.35). A wider tolerance is stated in the row's note with "
    "its reason. A qualitative claim is a test written next to it, its reading written in the chapter's "
    "registry; a test that passes whatever the data is a self-check, not an agreement. A "
    "value that depends on noise is computed over several seeds: it agrees (or differs) only if it "
    "does in every seed, and is fragile otherwise."
)

#: a comma only separates thousands ("1,005"): "0,375" (a decimal comma) is not a printed number
_NUMBER = re.compile(r"^[+-]?([1-9]\d{0,2}(?:,\d{3})+|\d+)?(\.(\d*))?([eE][+-]?\d+)?%?$")

# The comparisons of the first scorecards (kept so that older calls keep their meaning).
_LEGACY = "untyped"


def half_unit(printed: str) -> float:
    """Half a unit of the last digit of a number as the source prints it.

    Parameters
    ----------
    printed : str
        The number as the source prints it (``"85.3"``, ``"1,005"``, ``"2.5e-3"``, ``"12%"``).

    Returns
    -------
    float
        The tolerance of :data:`TOLERANCE_POLICY` for that number.

    Raises
    ------
    TypeError
        ``printed`` is not a str.
    ValueError
        ``printed`` is not a printed number.

    Examples
    --------
    >>> half_unit("0.278"), half_unit("85.3"), half_unit("180"), half_unit("1,005"), half_unit("2.5e-3")
    (0.0005, 0.05, 0.5, 0.5, 5e-05)
    """
    if not isinstance(printed, str):
        raise TypeError(f"printed: expected the number as the source prints it (a str), got "
                        f"{type(printed).__name__} {_fmt(printed)}")
    text = printed.strip()
    m = _NUMBER.match(text)
    if not text or m is None or not (m.group(1) or m.group(3)):
        raise ValueError(f"printed: expected a printed number such as '0.278' or '85.3', got {_fmt(printed)}")
    decimals = len(m.group(3) or "")
    exponent = int(m.group(4)[1:]) if m.group(4) else 0
    return 0.5 * 10.0 ** (exponent - decimals)


def _parse_printed(printed: str) -> float:
    half_unit(printed)  # validates
    return float(printed.strip().replace(",", "").rstrip("%"))


def _isnan(x) -> bool:
    return x is None or (isinstance(x, (float, np.floating)) and math.isnan(float(x)))


def status(source: object, ours: object, *, tolerance: float = 0.0, compare: str = "abs") -> str:
    """Compare ``ours`` with ``source``: ``"agrees"`` or ``"differs"`` (``"not computed"`` for None/NaN).

    Parameters
    ----------
    source : float, str or (float, float)
        The source's value (a str: as printed); with ``compare="range"`` the pair ``(lo, hi)``.
    ours : float or bool
        Our value; a bool with ``compare="holds"``.
    tolerance : float
        Non-negative; its meaning depends on ``compare`` (module docstring).
    compare : str
        One of :data:`COMPARISONS`.

    Returns
    -------
    str
        ``"agrees"``, ``"differs"`` or ``"not computed"``.

    Raises
    ------
    ValueError
        Unknown ``compare`` or a negative ``tolerance``.
    TypeError
        A ``"holds"`` claim whose ``ours`` is not a boolean.

    Examples
    --------
    >>> status(0.375, 0.3751, tolerance=5e-4), status((3.57, 4.8), 5.5, compare="range")
    ('agrees', 'differs')
    """
    check_in(compare, "compare", COMPARISONS)
    if _isnan(ours):
        return "not computed"
    if compare == "holds":
        if not isinstance(ours, (bool, np.bool_)):
            raise TypeError(f"ours: a 'holds' claim needs a boolean, got {type(ours).__name__} {ours!r}")
        return "agrees" if bool(ours) else "differs"
    tol = check_positive(tolerance, "tolerance", allow_zero=True)
    if isinstance(ours, (bool, np.bool_)) or not isinstance(ours, (numbers.Real, np.integer, np.floating)):
        raise TypeError(f"ours: a {compare!r} claim needs a number, got {type(ours).__name__} {_fmt(ours)}")
    ours = float(ours)
    if not math.isfinite(ours):
        # an infinite value ("no point gets there") can only make a claim differ: it is refused
        # where the comparison would count it as agreement (inf "at least 0.8")
        if (compare, ours > 0) in (("at_least", True), ("at_most", False)):
            raise ValueError(f"ours: expected a finite number (an infinite value would agree with an "
                             f"{compare!r} claim), got {ours!r}")
        return "differs"
    if compare == "range":
        lo, hi = (float(_parse_printed(x) if isinstance(x, str) else x) for x in source)
        ok = lo - tol <= ours <= hi + tol
    else:
        src = float(_parse_printed(source) if isinstance(source, str) else source)
        if compare == "abs":
            ok = abs(ours - src) <= tol + 1e-12
        elif compare == "rel":
            ok = abs(ours - src) <= tol * abs(src) + 1e-12
        elif compare == "at_least":
            ok = ours >= src - tol
        else:  # at_most
            ok = ours <= src + tol
    return "agrees" if ok else "differs"


class Seeds(tuple):
    """Our value computed once per seed (a status that depends on noise is measured over seeds).

    Parameters
    ----------
    values : iterable of float or bool
        The value in each seed (at least 2).

    Raises
    ------
    ValueError
        Fewer than 2 values.

    Examples
    --------
    >>> Seeds([0.8, 0.9, 1.1]).summary(3)
    'median 0.9 (0.8 to 1.1, 3 seeds)'
    """

    def __new__(cls, values: Iterable[object]) -> Seeds:
        values = tuple(values)
        if len(values) < 2:
            raise ValueError(f"values: expected the value in at least 2 seeds, got {len(values)}")
        return super().__new__(cls, values)

    def summary(self, digits: int = 4) -> str:
        """The median and range over the seeds (for booleans: in how many seeds the claim holds)."""
        if all(isinstance(v, (bool, np.bool_)) for v in self):
            return f"holds in {sum(bool(v) for v in self)} of {len(self)} seeds"
        arr = np.asarray(self, dtype=float)
        return (f"median {_fmt_value(float(np.median(arr)), digits)} "
                f"({_fmt_value(float(arr.min()), digits)} to {_fmt_value(float(arr.max()), digits)}, "
                f"{len(self)} seeds)")


def _fmt_value(v, digits: int) -> str:
    if isinstance(v, Seeds):
        return v.summary(digits)
    if isinstance(v, (bool, np.bool_)):
        return "holds" if v else "does not hold"
    if isinstance(v, str):
        return v
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(_fmt_value(x, digits) for x in v) + "]"
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}"
    if isinstance(v, (float, np.floating)):
        if _isnan(float(v)):
            return "n/a"
        return f"{float(v):.{digits}g}"
    return "" if v is None else str(v)


def _fmt_tol(tol, compare) -> str:
    if compare == "holds":
        return "-"
    if compare == "rel":
        return f"±{100 * float(tol):.3g}%"
    sym = {"abs": "±", "at_least": "≥ source −", "at_most": "≤ source +", "range": "range ±"}[compare]
    return f"{sym}{float(tol):.3g}"


@dataclass(frozen=True)
class Claim:
    """One row of a scorecard (see the module docstring for ``kind``, ``compare`` and statuses).

    Built by :meth:`Scorecard.add`, :meth:`Scorecard.add_table` and
    :meth:`Scorecard.not_reproduced`; its :attr:`status` is computed, never stored.

    Attributes
    ----------
    claim : str
        The claim, in the source's words.
    source, ours : object
        The source's value and ours.
    tolerance : float
        As :func:`status`.
    compare : str
        One of :data:`COMPARISONS`.
    kind : str
        One of :data:`CLAIM_KINDS`.
    where, note, reason : str
        Where the claim stands in the source; free text; why it is not reproduced.
    cells : tuple or None
        For a table: (number of cells, largest error, cells outside tolerance).

    Examples
    --------
    >>> Claim("D[P1, Q]", 0.375, 0.3751, 5e-4).status
    'agrees'
    """

    claim: str
    source: object
    ours: object
    tolerance: float = 0.0
    compare: str = "abs"
    kind: str = _LEGACY
    where: str = ""
    note: str = ""
    reason: str = ""
    #: set by :meth:`Scorecard.add_table`: (number of cells, largest error, cells outside tolerance)
    cells: tuple | None = None
    #: the registry's id, quote, variant, reading and cause (rows built from a registry of readings)
    id: str = ""
    quote: str = ""
    variant: str = ""
    reading: str = ""
    cause: str = ""
    #: a choice set's option row (``privlib.scorecard._multiverse``): its choice, option, the
    #: claim it is an option of; the argument that the row can fail; a calibration's justification
    choice: str = ""
    option: str = ""
    option_of: str = ""
    can_fail: str = ""
    justification: str = ""
    #: rules of :data:`~privlib.scorecard.RULES_PENDING` not yet applied to the row's registry
    pending: tuple = ()

    @property
    def seed_statuses(self) -> list:
        """The status in each seed (empty unless ``ours`` is :class:`Seeds`)."""
        if not isinstance(self.ours, Seeds):
            return []
        return [status(self.source, v, tolerance=self.tolerance, compare=self.compare) for v in self.ours]

    @property
    def status(self) -> str:
        """``agrees``, ``differs``, ``fragile`` or ``not reproduced`` (module docstring)."""
        if self.reason and self.ours is None:
            return "not reproduced"
        if self.cells is not None:
            return "agrees" if self.cells[2] == 0 else "differs"
        if isinstance(self.ours, Seeds):
            st = self.seed_statuses
            if all(s == "agrees" for s in st):
                return "agrees"
            if all(s == "differs" for s in st):
                return "differs"
            return "fragile"
        return status(self.source, self.ours, tolerance=self.tolerance, compare=self.compare)

    @property
    def seed_note(self) -> str:
        """``"agrees in k of n seeds"`` for a value given over seeds, else ``""``."""
        st = self.seed_statuses
        return f"agrees in {st.count('agrees')} of {len(st)} seeds" if st else ""


def _check_where(where, claim) -> None:
    if not isinstance(where, str) or not where.strip():
        raise ValueError(f"where: say where claim {claim!r} stands in the source (\"Table 3\", \"Figure 5(a)\", "
                         f"\"Section 4.2\", \"slide 'Noise Factor Distribution'\"), got {_fmt(where)}")


def scorecard_dir() -> Path:
    """``book/scorecards`` of the compendium: found from ``$PRIVLIB_BOOK_ROOT``, or by walking
    up from the working directory to the folder holding ``_toc.yml``, or beside the package.

    Returns
    -------
    pathlib.Path
        The folder (it may not exist yet).

    Examples
    --------
    >>> scorecard_dir().parts[-2:]
    ('book', 'scorecards')
    """
    env = os.environ.get("PRIVLIB_BOOK_ROOT")
    if env:
        return Path(env) / "book" / "scorecards"
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / "_toc.yml").exists():
            return d / "book" / "scorecards"
    return Path(__file__).resolve().parents[2] / "book" / "scorecards"


def readings_dir() -> Path:
    """``book/scorecards/readings`` of the compendium (see :func:`privlib.scorecard.scorecard_dir`).

    Returns
    -------
    pathlib.Path
        The folder (it may not exist yet).

    Examples
    --------
    >>> readings_dir().parts[-3:]
    ('book', 'scorecards', 'readings')
    """
    return scorecard_dir() / "readings"


def _problem(chapter, rid, text) -> str:
    return f"{chapter}: reading {rid!r}: {text}"
