"""Verdicts that survive other reasonable choices: choice sets, calibrations, self-checks, intervals.

**Choice sets.**  Where a source leaves an analysis choice open (an outlier rule, a reading of a
formula, a smoothing, a simulator parameter), the book names the choice and its plausible options
in ``book/scorecards/readings/choices.csv`` (:data:`CHOICE_COLUMNS`: ``chapter``, ``choice``,
``option``, ``why`` -- one sentence on why the option is plausible).  In the chapter's registry a
claim tested under every option has one row per option, each with the columns ``choice`` (the
choice's name), ``option`` (the option's name) and ``of`` (the id of the claim the rows are
options of; a new slug, not a row id).  Every option of the choice must have a row.  The
scorecard shows one row for the claim, id ``of``, with its **multiverse verdict** (:func:`verdict`):

- ``robust``: every option agrees (status ``agrees``);
- ``choice-dependent``: some options agree and some do not (status ``choice-dependent``; the
  row says which);
- ``no option``: no option agrees (status ``differs``, or ``fragile`` if an option is fragile).

The options follow it as rows whose ``option of`` column names the claim; they are never counted
in a headline (:func:`claim_rows`), so each claim counts once.

**Calibration.**  A parameter of a simulator or substitute set so that a result comes near the
source's is a ``calibration`` row: its ``justification`` column gives the parameter's independent
justification (or says there is none), and the claim is a choice set whose options span the
parameter's plausible range.  Calibration rows are never counted as agreements (only
``reproduction`` rows make a headline).

**Rows that can fail.**  Every reproduction row tested in code (``compare = holds``) carries in
``can_fail`` the short argument of which plausible outcome would make it differ; a row that
cannot fail by construction is a ``self-check``.

**Prediction intervals.**  A reproduction or calibration row that depends on noise is judged
over at least :data:`MIN_NOISE_SEEDS` seeds (:data:`MIN_COSTLY_SEEDS` when its ``seed_seconds``
column says one seed costs more than :data:`COSTLY_SECONDS` s on 2 cores).  Beside the per-seed
count, :func:`prediction_interval` gives the source's value as a percentile of our seeds and
whether it lies in our 95% prediction interval: the t-based interval for one new draw,
``mean ± t(0.975, n-1) · s · sqrt(1 + 1/n)`` (Patil, Peng & Leek 2016).  A difference is put down
to ``noise`` only when the source's value lies inside it: otherwise the row's cause is shown as
``unexplained`` (:func:`effective_cause`), and the report counts unexplained differences apart
from the causes.

Rules not yet applied to a chapter's registry are listed, by chapter, in :data:`RULES_PENDING`;
its scorecard says so under each row concerned.
"""
from __future__ import annotations

import math
import re
import os
from pathlib import Path

import numpy as np
import pandas as pd

from ._claim import Seeds, _parse_printed, _problem, readings_dir

# The public names are listed once, in the ``__all__`` of :mod:`privlib.scorecard`.

#: The columns of ``choices.csv``.
CHOICE_COLUMNS = ["chapter", "choice", "option", "why"]
#: The registry columns of this module (after :data:`~privlib.scorecard.READING_COLUMNS`' first 14).
MULTIVERSE_COLUMNS = ["choice", "option", "of", "can_fail", "justification", "seed_seconds"]
#: A claim's multiverse verdicts.
VERDICTS = ("robust", "choice-dependent", "no option")
#: The fewest seeds of a noise-dependent reproduction or calibration row.
MIN_NOISE_SEEDS = 20
#: The fewest seeds when one seed of the claim costs more than :data:`COSTLY_SECONDS`.
MIN_COSTLY_SEEDS = 10
#: Seconds of one seed (on 2 cores) above which :data:`MIN_COSTLY_SEEDS` suffice.
COSTLY_SECONDS = 5.0
#: Rules not yet applied to a chapter's registry: ``"seeds"`` (:data:`MIN_NOISE_SEEDS`) and
#: ``"can_fail"``.  Each entry is a debt, shown under the rows concerned.
RULES_PENDING = {
}

_SLUG_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789-")


def _choices_path(directory) -> Path:
    return (Path(directory) if directory is not None else readings_dir()) / "choices.csv"


def load_choices(*, directory: str | os.PathLike | None = None) -> pd.DataFrame:
    """The book's choice sets: ``choices.csv`` beside the registries (empty if there is none).

    Parameters
    ----------
    directory : str or path-like, optional
        Default :func:`privlib.scorecard.readings_dir`.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`CHOICE_COLUMNS`, every cell a stripped string.

    Raises
    ------
    ValueError
        Other columns, a blank cell, or an option named twice in one choice.

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "choices.csv").write_text("chapter,choice,option,why\\n"
    ...     "demo,outliers,floor,an outlier counts with the smallest probability\\n"
    ...     "demo,outliers,drop,outliers are left out as in the cited work\\n")
    >>> load_choices(directory=d)["option"].tolist()
    ['floor', 'drop']
    """
    path = _choices_path(directory)
    if not path.exists():
        return pd.DataFrame(columns=CHOICE_COLUMNS)
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    if list(frame.columns) != CHOICE_COLUMNS:
        raise ValueError(f"choices: expected the columns {CHOICE_COLUMNS}, got {list(frame.columns)}")
    frame = frame.apply(lambda col: col.str.strip())
    blank = [f"{r.chapter}/{r.choice}/{r.option}" for r in frame.itertuples() if not all(r[1:])]
    if blank:
        raise ValueError(f"choices: every option needs a chapter, choice, option and why: {blank}")
    dup = frame.duplicated(["chapter", "choice", "option"])
    if dup.any():
        raise ValueError(f"choices: options named twice: {frame.loc[dup, 'option'].tolist()}")
    return frame.reset_index(drop=True)


def choice_problems(frame: pd.DataFrame, choices: pd.DataFrame | None, *, chapter: str,
                    pending: tuple = ()) -> list[str]:
    """The rules of this module broken by a registry (used by ``validate_readings``)."""
    problems = []
    ids = set(frame["id"])
    for r in frame.itertuples(index=False):
        bad = []
        set_ = [bool(r.choice), bool(r.option), bool(getattr(r, "of"))]
        if any(set_) and not all(set_):
            bad.append("an option row names its choice, option and of (the claim it is an option of)")
        if r.of:
            if not set(r.of) <= _SLUG_CHARS or r.of in ids:
                bad.append(f"of must be a new slug (not a row id), got {r.of!r}")
            if r.compare == "none":
                bad.append("an option is computed (compare none is not an option)")
            if r.kind not in ("reproduction", "calibration", "hypothesis"):
                bad.append(f"options are reproduction, calibration or hypothesis rows, got {r.kind!r}")
        if r.kind == "calibration":
            if not r.justification:
                bad.append("a calibration names the parameter's independent justification (or says there is none)")
            if not r.of:
                bad.append("a calibration is a choice set over the parameter's plausible range (choice, option, of)")
        if r.seed_seconds:
            try:
                ok = math.isfinite(float(r.seed_seconds)) and float(r.seed_seconds) > 0
            except ValueError:
                ok = False
            if not ok:
                bad.append(f"seed_seconds must be a positive number, got {r.seed_seconds!r}")
        if r.seeds and r.kind in ("reproduction", "calibration") and "seeds" not in pending:
            costly = bool(r.seed_seconds) and _float(r.seed_seconds) > COSTLY_SECONDS
            need = MIN_COSTLY_SEEDS if costly else MIN_NOISE_SEEDS
            if r.seeds.isascii() and r.seeds.isdigit() and int(r.seeds) < need:
                bad.append(f"a noise-dependent {r.kind} row is judged over at least {need} seeds"
                           + ("" if costly else f" ({MIN_COSTLY_SEEDS} if seed_seconds > {COSTLY_SECONDS:g})")
                           + f", got {r.seeds}")
        if (r.kind == "reproduction" and r.compare == "holds" and not r.can_fail
                and "can_fail" not in pending):
            bad.append("a reproduction tested in code says in can_fail which plausible outcome would make it "
                       "differ (a row that cannot fail is a self-check)")
        problems.extend(_problem(chapter, r.id, b) for b in bad)
    groups = frame.loc[frame["of"] != ""].groupby("of", sort=False)
    mine = choices.loc[choices["chapter"] == chapter] if choices is not None else None
    for of, g in groups:
        if g["choice"].nunique() != 1 or g["kind"].nunique() != 1:
            problems.append(f"{chapter}: claim {of!r}: its options share one choice and one kind, got "
                            f"{sorted(set(g['choice']))} / {sorted(set(g['kind']))}")
            continue
        if g["option"].duplicated().any():
            problems.append(f"{chapter}: claim {of!r}: an option has two rows")
        if mine is not None:
            registered = mine.loc[mine["choice"] == g["choice"].iloc[0], "option"].tolist()
            if not registered:
                problems.append(f"{chapter}: claim {of!r}: choice {g['choice'].iloc[0]!r} is not in choices.csv")
            elif sorted(registered) != sorted(g["option"]):
                problems.append(f"{chapter}: claim {of!r}: every option of {g['choice'].iloc[0]!r} runs: "
                                f"registered {registered}, rows {g['option'].tolist()}")
        if len(g) < 2:
            problems.append(f"{chapter}: claim {of!r}: a choice set has at least two options")
    return problems


def _float(x) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return float("nan")


def verdict(statuses) -> tuple[str, str]:
    """The multiverse verdict of a claim from its options' statuses, and the claim's status.

    Parameters
    ----------
    statuses : sequence of str
        The status of each option (``agrees``, ``differs`` or ``fragile``).

    Returns
    -------
    (str, str)
        One of :data:`VERDICTS` and the status the claim counts with in a headline.

    Raises
    ------
    ValueError
        Fewer than two options, or a status an option cannot have.

    Examples
    --------
    >>> verdict(["agrees", "agrees"]), verdict(["agrees", "differs"]), verdict(["differs", "fragile"])
    (('robust', 'agrees'), ('choice-dependent', 'choice-dependent'), ('no option', 'fragile'))
    """
    statuses = list(statuses)
    if len(statuses) < 2:
        raise ValueError(f"statuses: a choice set has at least two options, got {statuses!r}")
    odd = [s for s in statuses if s not in ("agrees", "differs", "fragile")]
    if odd:
        raise ValueError(f"statuses: an option agrees, differs or is fragile, got {odd!r}")
    n_ok = statuses.count("agrees")
    if n_ok == len(statuses):
        return "robust", "agrees"
    if n_ok:
        return "choice-dependent", "choice-dependent"
    return "no option", "fragile" if "fragile" in statuses else "differs"


def _percentile(values: np.ndarray, x: float) -> float:
    return 100.0 * (np.sum(values < x) + 0.5 * np.sum(values == x)) / values.size


def prediction_interval(values, source, *, level: float = 0.95) -> dict:
    """Where the source's value falls among our per-seed values, and our prediction interval.

    The interval is t-based for one new draw of the same protocol:
    ``mean ± t((1 + level) / 2, n - 1) · s · sqrt(1 + 1/n)`` (Patil, Peng & Leek 2016); the
    percentile counts ties as half.  A source range ``(lo, hi)`` is inside when it overlaps the
    interval.

    Parameters
    ----------
    values : sequence of float
        Our value in each seed (at least 2, finite).
    source : float or (float, float)
        The source's value, or its range.
    level : float
        The interval's coverage, in (0, 1).

    Returns
    -------
    dict
        ``percentile`` (of the source's value, or of each end of its range: a tuple),
        ``lo``, ``hi`` (the interval) and ``inside`` (bool).

    Raises
    ------
    ValueError
        Fewer than two values, a non-finite value, or ``level`` outside (0, 1).

    Examples
    --------
    >>> pi = prediction_interval([1.0, 2.0, 3.0, 4.0, 5.0], 6.5)
    >>> round(pi["percentile"]), round(pi["lo"], 3), round(pi["hi"], 3), pi["inside"]
    (100, -1.809, 7.809, True)
    >>> prediction_interval([1.0, 1.0, 1.0], 1.5)["inside"]
    False
    """
    from scipy import stats
    v = np.asarray(values, dtype=float)
    if v.ndim != 1 or v.size < 2 or not np.isfinite(v).all():
        raise ValueError(f"values: expected at least 2 finite values, got {values!r}")
    if not (isinstance(level, float) and 0.0 < level < 1.0):
        raise ValueError(f"level: expected a coverage in (0, 1), got {level!r}")
    n = v.size
    half = float(stats.t.ppf((1 + level) / 2, n - 1)) * float(v.std(ddof=1)) * math.sqrt(1 + 1 / n)
    lo, hi = float(v.mean()) - half, float(v.mean()) + half
    if isinstance(source, tuple):
        a, b = (float(x) for x in source)
        return {"percentile": (_percentile(v, a), _percentile(v, b)), "lo": lo, "hi": hi,
                "inside": bool(a <= hi and b >= lo)}
    s = float(source)
    return {"percentile": _percentile(v, s), "lo": lo, "hi": hi, "inside": bool(lo <= s <= hi)}


def seed_interval(claim) -> dict | None:
    """The prediction interval of a claim over numeric seeds (None for booleans and single values)."""
    if not isinstance(claim.ours, Seeds) or claim.compare == "holds":
        return None
    if any(isinstance(v, (bool, np.bool_)) for v in claim.ours):
        return None
    src = claim.source
    if claim.compare == "range":
        src = tuple(float(_parse_printed(x) if isinstance(x, str) else x) for x in src)
    else:
        src = float(_parse_printed(src) if isinstance(src, str) else src)
    return prediction_interval([float(x) for x in claim.ours], src)


def interval_note(claim) -> str:
    """The sentence shown beside the k-of-n count: percentile and interval."""
    pi = seed_interval(claim)
    if pi is None:
        return ""
    p = pi["percentile"]
    where = (f"the source's range spans percentiles {p[0]:.0f} to {p[1]:.0f}" if isinstance(p, tuple)
             else f"the source's value is at percentile {p:.0f}")
    inside = "inside" if pi["inside"] else "outside"
    return (f"{where} of our {len(claim.ours)} seeds, {inside} our 95% prediction interval "
            f"[{pi['lo']:.4g}, {pi['hi']:.4g}] (t-based)")


def effective_cause(claim, st: str) -> str:
    """The cause shown: a registered ``noise`` stands only if the source's value is in our interval.

    Returns ``""`` for a row that agrees; ``"unexplained"`` for a ``noise`` row whose source value
    lies outside our 95% prediction interval; else the registered cause.
    """
    if st not in ("differs", "fragile"):
        return ""
    if claim.cause == "noise":
        pi = seed_interval(claim)
        if pi is not None and not pi["inside"]:
            return "unexplained"
    return claim.cause


def claim_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows a headline counts: every claim once (options of a choice set left out).

    Examples
    --------
    >>> claim_rows(pd.DataFrame({"option of": ["", "c", "c"], "status": ["agrees"] * 3})).shape[0]
    1
    """
    if "option of" not in frame.columns:
        return frame
    return frame.loc[frame["option of"].fillna("").astype(str) == ""]


def pending_note(claim) -> str:
    """Says which of the book's rules the row's registry does not meet yet (:data:`RULES_PENDING`)."""
    notes = []
    if ("seeds" in claim.pending and isinstance(claim.ours, Seeds) and claim.kind in ("reproduction", "calibration")
            and len(claim.ours) < MIN_NOISE_SEEDS):
        notes.append(f"judged on {len(claim.ours)} seeds, fewer than the {MIN_NOISE_SEEDS} "
                     f"({MIN_COSTLY_SEEDS} for a costly seed) the book's rule asks")
    if "can_fail" in claim.pending and claim.kind == "reproduction" and claim.compare == "holds" and not claim.can_fail:
        notes.append("no argument yet that a plausible outcome would make this test fail")
    return "; ".join(notes)


def multiverse_rows(card, rows: list[dict]) -> list[dict]:
    """Insert one claim row (its verdict) before the options of every choice set of ``rows``."""
    out, done = [], set()
    by_of: dict[str, list[dict]] = {}
    for r in rows:
        if r["option of"]:
            by_of.setdefault(r["option of"], []).append(r)
    choices = None
    for r in rows:
        of = r["option of"]
        if of and of not in done:
            done.add(of)
            opts = by_of[of]
            v, st = verdict([o["status"] for o in opts])
            good = [o["option"] for o in opts if o["status"] == "agrees"]
            bad = [o["option"] for o in opts if o["status"] != "agrees"]
            if choices is None:
                try:
                    choices = load_choices(directory=card._readings_directory)
                except (OSError, ValueError):
                    choices = pd.DataFrame(columns=CHOICE_COLUMNS)
            if v == "robust":
                note = f"robust: every option of '{opts[0]['choice']}' agrees ({', '.join(good)})"
            elif v == "choice-dependent":
                note = (f"choice-dependent on '{opts[0]['choice']}': agrees under {', '.join(good)}; "
                        f"not under {', '.join(bad)}")
            else:
                note = f"reproduced by no option of '{opts[0]['choice']}' ({', '.join(bad)})"
            first = opts[0]
            causes = sorted({o["cause"] for o in opts if o["cause"]})
            if v == "choice-dependent":
                causes = ["unstated choice"]
            out.append({**first, "id": of, "variant": "", "option of": "", "option": "",
                        "verdict": v, "status": st,
                        "source value": first["source value"], "our value": "; ".join(f"{o['option']}: {o['our value']}" for o in opts),
                        "tolerance": first["tolerance"], "cause": "; ".join(causes) if st != "agrees" else "",
                        "note": note, "reason": ""})
        out.append(r)
    return out


# ---------------------------------------------------------------------- the reading history
_RANK = {"agrees": 2, "choice-dependent": 1, "fragile": 1, "differs": 0}
#: The directions of a changed reading (:func:`change_direction`).
DIRECTIONS = ("stricter", "more favourable", "unchanged", "unclear")


def _rank(text: str):
    text = text.lower()
    found = {s for s in _RANK if re.search(rf"\b{re.escape(s)}\b", text)}
    if "not reproduced" in text or not found:
        return None
    ranks = {_RANK[s] for s in found}
    return ranks.pop() if len(ranks) == 1 else None


def change_direction(old_status: str, new_status: str) -> str:
    """Whether a changed reading made a claim's verdict stricter, more favourable or neither.

    Statuses rank ``agrees`` > ``fragile`` = ``choice-dependent`` > ``differs``.  A claim
    that agreed and now counts outside the headline (a self-check, hypothesis or calibration:
    ``new_status`` ends with the kind in brackets) is stricter: an agreement left the headline.
    Free-text or mixed statuses that name no single rank are ``unclear``.

    Examples
    --------
    >>> change_direction("agrees", "fragile"), change_direction("differs", "agrees")
    ('stricter', 'more favourable')
    >>> change_direction("agrees", "agrees (self-check)"), change_direction("differs", "differs")
    ('stricter', 'unchanged')
    >>> change_direction("agrees (HI), differs (PI)", "differs")
    'unclear'
    """
    old, new = _rank(old_status or ""), _rank(new_status or "")
    moved = bool(re.search(r"\((self-check|hypothesis|calibration|source arithmetic)\)\s*$", new_status or ""))
    if old is None or new is None:
        return "unclear"
    if moved and old == 2:
        return "stricter"
    return "stricter" if new < old else "more favourable" if new > old else "unchanged"


def history_status(history: pd.DataFrame, cards: pd.DataFrame) -> pd.Series:
    """The present status of each history entry's claim, from the saved scorecards.

    ``"<status>"`` for a reproduction row, ``"<status> (<kind>)"`` for a row of another kind,
    ``""`` when the claim has no row of its own (removed, or merged into another).

    Examples
    --------
    >>> h = pd.DataFrame({"chapter": ["c", "c"], "id": ["a", "gone"]})
    >>> k = pd.DataFrame({"chapter": ["c"], "id": ["a"], "kind": ["self-check"], "status": ["agrees"]})
    >>> history_status(h, k).tolist()
    ['agrees (self-check)', '']
    """
    look = {(r.chapter, r.id): (r.status if r.kind == "reproduction" else f"{r.status} ({r.kind})")
            for r in cards.itertuples()}
    return pd.Series([look.get((r.chapter, r.id), "") for r in history.itertuples()], index=history.index)
