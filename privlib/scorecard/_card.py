"""The scorecard and its rows (the package docstring of :mod:`privlib.scorecard` explains them)."""
from __future__ import annotations

import math
import numbers
import os
import re
from dataclasses import dataclass, field
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._validation import _fmt, check_in, check_positive

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "Claim",
    "Scorecard",
    "Seeds",
    "status",
    "half_unit",
    "scorecard_dir",
    "load_scorecards",
    "headline",
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


@dataclass
class Scorecard:
    """The ordered, typed claims inventory of one chapter.

    Parameters
    ----------
    chapter : str
        The chapter's name (the file name of :meth:`save`).
    digits : int
        Significant digits of the values shown.
    claims : list of Claim
        The rows (default: none; add them with the methods below).

    Examples
    --------
    >>> card = Scorecard("t-closeness")
    >>> _ = card.add("D[P1, Q], ordered distance", "0.375", 0.375, "printed", kind="reproduction",
    ...              where="Section 4")
    >>> _ = card.add("Carl's posterior changes with the knowledge", True, True, compare="holds",
    ...              kind="reproduction", where="Slide 9")
    >>> _ = card.not_reproduced("Census experiment", "Figure 6", reason="the extract is not public")
    >>> card.to_frame()["status"].tolist()
    ['agrees', 'agrees', 'not reproduced']
    >>> card.counts()["reproduction"]
    {'claims': 3, 'agrees': 2, 'differs': 0, 'fragile': 0, 'choice-dependent': 0, 'not reproduced': 1}
    """

    chapter: str
    digits: int = 4
    claims: list = field(default_factory=list)
    #: the registry of readings the rows come from (:meth:`from_readings`), or None
    readings: pd.DataFrame | None = field(default=None, repr=False)
    _readings_directory: object = field(default=None, repr=False)

    def __post_init__(self):
        if self.readings is not None:      # the registry's rules hold however the card is built
            from ._multiverse import RULES_PENDING
            from ._multiverse import load_choices
            from ._registry import validate_readings
            if not isinstance(self.readings, pd.DataFrame):
                raise TypeError(f"readings: expected a registry DataFrame (load_readings), got "
                                f"{type(self.readings).__name__}")
            self.readings = validate_readings(
                self.readings.astype(str), chapter=str(self.chapter),
                choices=load_choices(directory=self._readings_directory),
                pending=RULES_PENDING.get(str(self.chapter), ()))

    # ------------------------------------------------------------------ from a registry
    @classmethod
    def from_readings(cls, chapter: str, /, *, directory: str | os.PathLike | None = None,
                      digits: int = 4) -> Scorecard:
        """A scorecard whose rows come from the chapter's registry of readings.

        The registry (:func:`privlib.scorecard.load_readings`) fixes every row's claim, kind,
        reading, comparison, source value and tolerance before any value is computed; the
        notebook then gives each registered claim its value with :meth:`record` or
        :meth:`record_table`, and :meth:`check_complete` refuses a registered claim without one.
        Claims the registry marks ``compare = none`` are rows "not reproduced" with its reason.

        Parameters
        ----------
        chapter : str
            The registry's name (``<directory>/<chapter>.csv``).
        directory : str or path-like, optional
            Where the registries are (default :func:`privlib.scorecard.readings_dir`).
        digits : int
            Significant digits of the values shown.

        Returns
        -------
        Scorecard
            Empty but for the rows not reproduced; :meth:`record` adds the others.

        Examples
        --------
        >>> import tempfile
        >>> from privlib.scorecard import write_readings
        >>> d = tempfile.mkdtemp()
        >>> _ = write_readings("demo", [{"id": "d-p1", "where": "Section 4", "quote": "D[P1,Q] = 0.375",
        ...     "claim": "D[P1, Q] = 0.375", "kind": "reproduction", "reading": "ordered EMD",
        ...     "compare": "abs", "source": "0.375", "tolerance": "printed"}], directory=d)
        >>> card = Scorecard.from_readings("demo", directory=d)
        >>> card.record("d-p1", 0.3751).status
        'agrees'
        """
        from ._registry import load_readings, not_reproduced_rows
        frame = load_readings(chapter, directory=directory)
        card = cls(chapter, digits=digits, readings=frame, _readings_directory=directory)
        card.claims.extend(not_reproduced_rows(frame, chapter))
        return card

    def record(self, id: str, ours: object, /, *, note: str = "") -> Claim:
        """Give the registered claim ``id`` its computed value (a number, a bool or :class:`Seeds`).

        Parameters
        ----------
        id : str
            The claim's id in the registry.
        ours : float, int, bool or Seeds
            Our value; :class:`Seeds` (exactly the registry's number of seeds) when the claim
            depends on noise.
        note : str
            What the reader should know about the value (computed detail).

        Returns
        -------
        Claim
            The row added.

        Raises
        ------
        KeyError
            ``id`` is not registered.
        ValueError
            ``id`` already has a value, is a table or not-reproduced claim, or ``ours`` does
            not match the registry's seeds.
        """
        from ._registry import claim_from_reading
        row = claim_from_reading(self, id, ours, note=note)
        self.claims.append(row)
        return row

    def record_table(self, id: str, ours: ArrayLike, /, *, source: ArrayLike | None = None,
                     note: str = "") -> Claim:
        """Give the registered table claim ``id`` (``compare = table``) its computed cells.

        ``source`` holds the cells as printed (default: the registry's ``;``-separated cells);
        every cell is compared with the registry's tolerance (``printed``: half a unit of the
        cell's own last digit).

        Returns
        -------
        Claim
            The row added.
        """
        from ._registry import table_from_reading
        row = table_from_reading(self, id, ours, source=source, note=note)
        self.claims.append(row)
        return row

    def check_complete(self) -> None:
        """Refuse a registered claim without a value, and a differing row without its cause.

        Raises
        ------
        ValueError
            Naming the claims without a value, or the rows that differ or are fragile but have
            no cause in the registry.
        """
        from ._registry import check_complete
        check_complete(self)

    # ------------------------------------------------------------------ adding rows
    def add(self, claim: str, source: object, ours: object, tolerance: float | str = 0.0, compare: str = "abs", *,
            kind: str | None = None,
            where: str = "", note: str = "", reason: str = "") -> Claim:
        """Add one claim.

        Parameters
        ----------
        claim : str
            The claim, in the source's words where possible.
        source : float, str, tuple or bool
            The source's value; a str is the number as printed (``"85.3"``).
        ours : float, bool or Seeds
            Our value, computed in the build; :class:`Seeds` for a value that depends on noise.
        tolerance : float or "printed"
            ``"printed"``: half a unit of the last digit of ``source`` (which must be a str).
        compare : str
            One of :data:`COMPARISONS`.
        kind : str
            One of :data:`CLAIM_KINDS` (required).
        where : str
            Where the claim stands in the source ("Table 3", "Figure 5(a)", "Section 4.2").
        note, reason : str
            Free text; ``reason`` is required when a row is not a plain reproduction of a
            printed number by a different tolerance (see the policy).

        Returns
        -------
        Claim
            The row added.

        Raises
        ------
        ValueError
            Unknown ``kind`` or ``compare``, no ``where``, or no computed value.
        """
        if kind in COMPARISONS:  # first-generation call: kind=<comparison>, no claim kind
            compare, kind = kind, None
        if kind is None:
            kind = _LEGACY
        else:
            check_in(kind, "kind", CLAIM_KINDS)
            _check_where(where, claim)
        check_in(compare, "compare", COMPARISONS)
        if isinstance(tolerance, str):
            check_in(tolerance, "tolerance", ("printed",))
            if compare == "range":
                tolerance = max(half_unit(x) for x in source)
            elif not isinstance(source, str):
                raise TypeError(f"source: tolerance='printed' needs the source's number as printed (a str), "
                                f"got {type(source).__name__} {_fmt(source)}")
            else:
                tolerance = half_unit(source)
        row = Claim(claim, source, ours, tolerance, compare, kind, where, note, reason)
        st = row.status  # validate now, not at display time
        if st == "not computed" and kind != _LEGACY:
            raise ValueError(f"ours: claim {claim!r} has no computed value; use not_reproduced(..., reason=...) "
                             "for a claim that cannot be checked here")
        self.claims.append(row)
        return row

    def add_table(self, claim: str, source: ArrayLike, ours: ArrayLike, tolerance: float | str = "printed", *,
                  kind: str = "reproduction",
                  where: str = "", note: str = "", reason: str = "") -> Claim:
        """Add a whole table or figure as one claim: it agrees when every cell is within tolerance.

        ``source`` holds the cells as printed (strings, for ``tolerance="printed"``: each cell is
        then compared within half a unit of its own last digit) or as numbers with a float
        ``tolerance``; ``ours`` the same cells as numbers.  The row shows the number of cells and
        the largest absolute error.

        Returns
        -------
        Claim
            The row added.
        """
        check_in(kind, "kind", CLAIM_KINDS)
        _check_where(where, claim)
        src = np.asarray(source, dtype=object)
        mine = np.asarray(ours, dtype=float)
        if src.shape != mine.shape or src.size == 0:
            raise ValueError(f"ours: expected the shape of the source table {src.shape}, got {mine.shape}")
        if np.isnan(mine).any():
            raise ValueError(f"ours: claim {claim!r} has NaN cells ({int(np.isnan(mine).sum())} of {mine.size})")
        flat = src.ravel()
        if isinstance(tolerance, str):
            check_in(tolerance, "tolerance", ("printed",))
            if not all(isinstance(x, str) for x in flat):
                raise TypeError("source: tolerance='printed' needs every cell as printed (a str)")
            tol = np.array([half_unit(x) for x in flat])
        else:
            tol = np.full(flat.size, check_positive(tolerance, "tolerance", allow_zero=True))
        vals = np.array([_parse_printed(x) if isinstance(x, str) else float(x) for x in flat])
        err = np.abs(mine.ravel() - vals)
        bad = int((err > tol + 1e-12).sum())
        cells = (int(flat.size), float(err.max()), bad)
        shown_tol = float(tol.max())
        row = Claim(claim, f"{flat.size} cells", f"largest error {_fmt_value(float(err.max()), 3)}", shown_tol,
                    "abs", kind, where, note, reason, cells)
        self.claims.append(row)
        return row

    def not_reproduced(self, claim: str, where: str, *, reason: str, source: object = "",
                       kind: str = "reproduction") -> Claim:
        """Record a claim of the source that cannot be checked here, with the reason.

        Returns
        -------
        Claim
            The row added (status ``not reproduced``).
        """
        check_in(kind, "kind", CLAIM_KINDS)
        _check_where(where, claim)
        if not isinstance(reason, str) or not reason.strip():
            raise ValueError(f"reason: a claim that is not reproduced needs its reason, got {_fmt(reason)}")
        row = Claim(claim, source, None, 0.0, "abs", kind, where, "", reason.strip())
        self.claims.append(row)
        return row

    # ------------------------------------------------------------------ views
    def to_frame(self) -> pd.DataFrame:
        """One row per claim: where, claim, kind, source value, our value, tolerance, status, note, reason."""
        rows = []
        claims = self.claims
        if self.readings is not None:  # the registry's order (the source's order)
            order = {rid: i for i, rid in enumerate(self.readings["id"])}
            claims = sorted(claims, key=lambda c: order.get(c.id, len(order)))
        from ._multiverse import effective_cause, interval_note, multiverse_rows, pending_note
        for c in claims:
            st = c.status
            note = "; ".join(x for x in (c.seed_note, interval_note(c), pending_note(c), c.note) if x)
            if c.cells is not None:
                n, worst, bad = c.cells
                note = "; ".join(x for x in (f"{n} cells, {bad} outside tolerance", note) if x)
            rows.append({
                "id": c.id,
                "where": c.where,
                "quote": c.quote,
                "claim": c.claim,
                "kind": c.kind,
                "variant": c.variant,
                "reading": c.reading,
                "source value": _fmt_value(c.source, self.digits),
                "our value": "-" if st == "not reproduced" else _fmt_value(c.ours, self.digits),
                "tolerance": "-" if st == "not reproduced" else _fmt_tol(c.tolerance, c.compare),
                "status": st,
                "cause": effective_cause(c, st),
                "note": note,
                "reason": c.reason,
                "option of": c.option_of,
                "option": c.option,
                "verdict": "",
                "can fail": c.can_fail,
                "justification": c.justification,
                "choice": c.choice,
            })
        rows = multiverse_rows(self, rows)
        return pd.DataFrame(rows, columns=COLUMNS)

    def counts(self) -> dict:
        """``{kind: {"claims": n, status: n, ...}}`` for every kind present (reproduction first)."""
        return _counts(self.to_frame())

    def summary(self) -> str:
        """The chapter's headline sentence (reproduction claims and their statuses)."""
        return _summary_text(self.chapter, self.counts())

    def save(self, *, directory: str | os.PathLike | None = None) -> Path:
        """Write the scorecard to ``<directory>/<chapter>.csv`` (default :func:`scorecard_dir`)."""
        from ._files import scorecard_dir
        directory = Path(directory) if directory is not None else scorecard_dir()
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{self.chapter}.csv"
        frame = self.to_frame()
        frame.insert(0, "chapter", self.chapter)
        # atomically: the report may read this file while a chapter executes in parallel
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        frame.to_csv(tmp, index=False, lineterminator="\n")
        os.replace(tmp, path)
        return path

    def _repr_html_(self):  # pragma: no cover - display only
        return self.to_frame().to_html(index=False)


def _counts(frame: pd.DataFrame) -> dict:
    from ._multiverse import claim_rows
    frame = claim_rows(frame)  # each claim once: the options of a choice set are not counted
    out = {}
    kinds = [k for k in (*CLAIM_KINDS, _LEGACY) if k in set(frame["kind"])]
    for k in kinds:
        st = frame.loc[frame["kind"] == k, "status"].value_counts()
        row = {"claims": int(st.sum())}
        for s in (*STATUSES, "not computed"):
            if s != "not computed" or st.get(s, 0):
                row[s] = int(st.get(s, 0))
        out[k] = row
    return out


def _summary_text(chapter: str, counts: dict) -> str:
    rep = counts.get("reproduction", {"claims": 0})
    head = (f"{chapter}: {rep['claims']} reproduction claims: {rep.get('agrees', 0)} agree, "
            f"{rep.get('differs', 0)} differ, {rep.get('fragile', 0)} fragile, "
            + (f"{rep['choice-dependent']} choice-dependent, " if rep.get("choice-dependent") else "")
            + f"{rep.get('not reproduced', 0)} not reproduced")
    others = [f"{c['claims']} {k} ({c.get('agrees', 0)} agree)" for k, c in counts.items() if k != "reproduction"]
    return head + ("; also " + ", ".join(others) if others else "")
