"""The scorecard (the package docstring of :mod:`privlib.scorecard` explains it)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._validation import _fmt, check_in, check_positive
from ._claim import (_LEGACY, CLAIM_KINDS, COLUMNS, COMPARISONS, STATUSES, Claim, _check_where, _fmt_tol,
                     _fmt_value, _parse_printed, half_unit, scorecard_dir)
from ._multiverse import (RULES_PENDING, claim_rows, effective_cause, interval_note, load_choices, multiverse_rows,
                          pending_note)
from ._registry import (check_complete, claim_from_reading, load_readings, not_reproduced_rows, table_from_reading,
                        validate_readings)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["Scorecard"]


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
