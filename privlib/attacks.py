"""Attacks on anonymized releases: the naive-Bayes adversary of empirical privacy.

Cormode, Procopiuc, Shen, Srivastava & Yu, *Empirical privacy and empirical utility of
anonymized data* (ICDE Workshops 2013), Section II "Attack model".  The adversary reads a
spatial decomposition (leaves = boxes over the quasi-identifiers, each with a histogram of
the sensitive attribute) and builds a naive-Bayes classifier from it with a *kernel*
approach: the ``n`` occurrences of SA value ``v`` in a leaf covering ``[x, y]`` along QI
``j`` are spread uniformly, weight ``n / |[x, y]|`` on every code of the range.  Summing
the kernels over the leaves gives the joint ``Pr[t.S = v, t.j = u]``; then

    p_i = Pr[S = v_i] prod_j Pr[t.j = tau.j | S = v_i] / sum_v Pr[S = v] prod_j Pr[t.j = tau.j | S = v]

(the source's belief formula), with ``Pr[t.j = u | S = v] = Pr[S = v, t.j = u] / Pr[S = v]``.
Negative noisy counts (differential privacy) are rounded up to zero first.

:func:`leaf_majority` is a second, simpler classifier of the same release (each record gets the
most frequent SA value of the leaf that contains it), for the source's remark that "different
classifiers achieve similar levels of empirical privacy, varying only by low single digit
percentages" (Section II, "Attack model").
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from numpy.typing import ArrayLike

from ._docs import shared_doc
from ._validation import check_columns, check_finite, check_in, check_nonempty
from .partition import Decomposition, qi_codes

__all__ = ["Prediction", "naive_bayes", "leaf_majority", "kernel_conditionals", "AttackResult", "SAMPLERS", "RULES",
           "float_laplace_attack", "mironov_experiment", "mironov_curve"]

#: Largest (codes x SA values) table :func:`kernel_conditionals` builds for one QI; wider QIs
#: (e.g. timestamps) are evaluated only at the attacked codes by :func:`naive_bayes`.
_DENSE_CELLS = 5e7

#: The release and records every example of the attacks on a release reads.
TOY_ATTACK_DOC = """
Examples
--------
>>> import pandas as pd
>>> from privlib.partition import mondrian
>>> df = pd.DataFrame({"x": range(8), "s": list("aaabbbba")})
"""


def _check_release(decomposition) -> None:
    """TypeError unless ``decomposition`` is a privlib Decomposition (the release attacked)."""
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")


@dataclass(frozen=True)
@shared_doc(toy_attack=TOY_ATTACK_DOC)
class Prediction:
    """The attack's output: one prediction per attacked record.

    Attributes
    ----------
    predicted : ndarray
        The SA value with the highest belief (ties: the first in ``sa_values`` order).
    confidence : ndarray of float
        That highest belief ``p_i``.
    actual : ndarray
        The records' true SA values.
    beliefs : ndarray (records x SA values)
        All beliefs ``p_i`` (rows sum to 1).
    sa_values : tuple

    {{toy_attack}}
    >>> pred = naive_bayes(mondrian(df, ["x"], "s", k=4), df)
    >>> pred.accuracy, pred.beliefs.shape
    (0.75, (8, 2))
    """

    predicted: np.ndarray
    confidence: np.ndarray
    actual: np.ndarray
    beliefs: np.ndarray
    sa_values: tuple

    @property
    def accuracy(self) -> float:
        """Fraction of records whose SA value is predicted correctly (``1 - pi``)."""
        return float(np.mean(self.predicted == self.actual))


def kernel_conditionals(decomposition: Decomposition) -> tuple[np.ndarray, list[np.ndarray]]:
    """Prior ``Pr[S = v]`` and, per QI, the table ``Pr[t.j = u | S = v]`` (codes x SA values).

    Built with a difference array per QI: each leaf adds ``hist / width`` at its lower code
    and subtracts it after its upper code; a cumulative sum spreads the kernels (the source's
    kernel approach, Section II "Attack model"; negative noisy counts rounded up to 0 first).

    Parameters
    ----------
    decomposition : privlib.partition.Decomposition
        The release.

    Returns
    -------
    prior : numpy.ndarray
        ``Pr[S = v]``, one float per SA value.
    conditionals : list of numpy.ndarray
        Per QI ``j``, a (codes of the root box x SA values) table; row ``u`` is the code
        ``domain_lower[j] + u``.

    Raises
    ------
    TypeError
        If ``decomposition`` is not a Decomposition.
    ValueError
        If a QI's table would exceed 5e7 cells (a very wide domain such as a timestamp):
        :func:`naive_bayes` handles such QIs without the full table.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> df = pd.DataFrame({"x": range(4), "s": list("aabb")})
    >>> prior, (cond,) = kernel_conditionals(mondrian(df, ["x"], "s", k=2))
    >>> prior.tolist(), cond[:, 0].tolist()
    ([0.5, 0.5], [0.5, 0.5, 0.0, 0.0])
    """
    _check_release(decomposition)
    S = decomposition.histograms.shape[1]
    for j, c in enumerate(decomposition.qi):
        W = int(decomposition.domain_upper[j]) - int(decomposition.domain_lower[j]) + 1
        if W * S > _DENSE_CELLS:
            raise ValueError(f"decomposition: quasi-identifier {c!r} has a domain of {W:,} codes; a full table of "
                             f"{W:,} x {S} conditionals is too large (naive_bayes evaluates it at the records only)")
    H = np.clip(decomposition.histograms, 0.0, None)           # round negative noisy counts up to 0
    S = H.shape[1]
    total = H.sum(axis=0)
    prior = total / total.sum() if total.sum() > 0 else np.full(S, 1.0 / S)
    conds = []
    dlo, dhi = decomposition.domain_lower, decomposition.domain_upper
    widths = decomposition.widths
    for j in range(len(decomposition.qi)):
        W = int(dhi[j] - dlo[j] + 1)
        w = H / widths[:, j][:, None]                           # weight per code, per SA value
        diff = _difference_rows(decomposition.lower[:, j] - dlo[j], decomposition.upper[:, j] - dlo[j] + 1, w, W + 1)
        joint = np.cumsum(diff, axis=0)[:W]
        joint = np.clip(joint, 0.0, None)                       # float round-off
        with np.errstate(invalid="ignore", divide="ignore"):
            cond = np.where(total > 0, joint / np.where(total > 0, total, 1.0), 0.0)
        conds.append(cond)
    return prior, conds


def _difference_rows(start: np.ndarray, stop: np.ndarray, w: np.ndarray, n: int) -> np.ndarray:
    """(n x S) difference array: row ``w[i]`` added at ``start[i]`` and subtracted at ``stop[i]``.

    One ``bincount`` per column over the starts then the stops: per cell the same additions in
    the same order as ``np.add.at(diff, start, w)`` followed by ``np.add.at(diff, stop, -w)``,
    so the floats are identical (and several times faster).
    """
    idx = np.concatenate([start, stop])
    out = np.empty((n, w.shape[1]))
    for s, col in enumerate(w.T):
        out[:, s] = np.bincount(idx, weights=np.concatenate([col, -col]), minlength=n)
    return out


def _conditionals_at(decomposition: Decomposition, j: int, z: np.ndarray, H: np.ndarray, total: np.ndarray):
    """``Pr[t.j = u | S = v]`` at the 0-based codes ``z`` only (records x SA values): the kernels'
    difference array over the leaves' breakpoints instead of every code of the domain."""
    dlo = int(decomposition.domain_lower[j])
    a = decomposition.lower[:, j] - dlo
    b = decomposition.upper[:, j] - dlo + 1
    points = np.unique(np.concatenate([a, b]))
    w = H / decomposition.widths[:, j][:, None]
    diff = _difference_rows(np.searchsorted(points, a), np.searchsorted(points, b), w, points.size)
    joint = np.clip(np.cumsum(diff, axis=0), 0.0, None)[np.searchsorted(points, z, side="right") - 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, joint / np.where(total > 0, total, 1.0), 0.0)


def _prediction(decomposition, actual, beliefs, best) -> "Prediction":
    """The attack's output: the guessed SA value of every record (index ``best``) and its beliefs."""
    values = np.asarray(decomposition.sa_values, dtype=object)
    return Prediction(
        predicted=values[best],
        confidence=beliefs[np.arange(best.size), best],
        actual=actual.to_numpy(dtype=object),
        beliefs=beliefs,
        sa_values=decomposition.sa_values,
    )


def _attacked_records(decomposition, df, sa):
    """The SA column and the QI codes of the attacked records, checked against the release."""
    sa = decomposition.sa if sa is None else sa
    check_nonempty(df, "df")
    check_columns(df, [sa], "sa")
    X = qi_codes(df, list(decomposition.qi))
    dlo, dhi = decomposition.domain_lower, decomposition.domain_upper
    outside = (X < dlo) | (X > dhi)
    if outside.any():
        j = int(np.argmax(outside.any(axis=0)))
        raise ValueError(f"df: quasi-identifier {decomposition.qi[j]!r} has values outside the release's domain "
                         f"[{dlo[j]}, {dhi[j]}]")
    return sa, X


@shared_doc(toy_attack=TOY_ATTACK_DOC)
def naive_bayes(decomposition: Decomposition, df: pd.DataFrame, *, qi: Sequence[str] | None = None,
                sa: str | None = None, method: str = "auto") -> Prediction:
    """Attack every record of ``df`` with the kernel naive-Bayes classifier of the source.

    Parameters
    ----------
    decomposition : Decomposition
        The release (exact or noisy histograms).
    df : pandas.DataFrame
        The records attacked (the adversary knows their QIs); usually the original data.
    qi : list of str, optional
        Must equal ``decomposition.qi`` if given.
    sa : str, optional
        Column of ``df`` with the true SA values (default ``decomposition.sa``).
    method : {"auto", "tables", "records"}, default "auto"
        ``"tables"``: the full conditional tables of :func:`kernel_conditionals`, read at the
        records' codes; ``"records"``: the kernels evaluated at the records' codes only (no
        domain-wide table, for timestamps and other very wide QIs; equal up to float
        round-off); ``"auto"``: the tables unless a QI's table would exceed 5e7 cells.

    Returns
    -------
    Prediction
        Predictions, confidences and beliefs; computed in log space.  A value whose
        conditional probability is 0 for every SA value gives no evidence (the record's
        beliefs fall back to the other QIs and the prior).

    Raises
    ------
    TypeError
        If ``decomposition`` is not a Decomposition.
    ValueError
        For a ``qi`` other than the release's, a missing ``sa`` column, an empty ``df``, QI
        values outside the release's domain, a bad ``method``, or ``method="tables"`` on a QI
        too wide for a table.

    {{toy_attack}}
    >>> naive_bayes(mondrian(df, ["x"], "s", k=4), df).predicted.tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    """
    _check_release(decomposition)
    if qi is not None:
        qi = check_columns(df, qi, "qi")
        if tuple(qi) != tuple(decomposition.qi):
            raise ValueError(f"qi: expected the decomposition's quasi-identifiers {list(decomposition.qi)}, got {qi}")
    check_in(method, "method", ("auto", "tables", "records"))
    sa, X = _attacked_records(decomposition, df, sa)
    dlo, dhi = decomposition.domain_lower, decomposition.domain_upper
    S = decomposition.histograms.shape[1]
    wide = [(int(dhi[j]) - int(dlo[j]) + 1) * S > _DENSE_CELLS for j in range(len(decomposition.qi))]
    if method == "records" or (method == "auto" and any(wide)):   # evaluate at the records' codes (no full tables)
        H = np.clip(decomposition.histograms, 0.0, None)
        total = H.sum(axis=0)
        prior = total / total.sum() if total.sum() > 0 else np.full(S, 1.0 / S)
        conds = [None] * len(decomposition.qi)
    else:
        prior, conds = kernel_conditionals(decomposition)
    with np.errstate(divide="ignore"):
        logp = np.tile(np.log(prior), (X.shape[0], 1))
        for j, cond in enumerate(conds):
            if cond is None:
                rows = np.log(_conditionals_at(decomposition, j, X[:, j] - dlo[j], H, total))
                rows[np.isneginf(rows).all(axis=1)] = 0.0       # no evidence from this QI
            else:
                lc = np.log(cond)                               # codes x S, -inf where 0
                lc[np.isneginf(lc).all(axis=1)] = 0.0           # no evidence from this code (per code, not record)
                rows = lc[X[:, j] - dlo[j]]
            logp += rows
    bad = np.isneginf(logp).all(axis=1)
    if bad.any():
        with np.errstate(divide="ignore"):
            logp[bad] = np.log(prior)
    mx = logp.max(axis=1, keepdims=True)
    with np.errstate(invalid="ignore"):
        w = np.exp(logp - mx)
    w[~np.isfinite(w)] = 0.0
    beliefs = w / w.sum(axis=1, keepdims=True)
    best = np.argmax(logp, axis=1)
    return _prediction(decomposition, df[sa], beliefs, best)


@shared_doc(toy_attack=TOY_ATTACK_DOC)
def leaf_majority(decomposition: Decomposition, df: pd.DataFrame, *, sa: str | None = None) -> Prediction:
    """Attack every record with the most frequent SA value of its leaf (a second classifier).

    The adversary locates each record's leaf from its quasi-identifiers and predicts the
    leaf's most frequent SA value (ties: the first in ``sa_values`` order); negative noisy
    counts are rounded up to zero first, as for :func:`naive_bayes`, and a leaf whose counts
    are then all zero predicts the most frequent value of the whole release.  The source
    (Section II, "Attack model") reports that different classifiers give similar empirical
    privacy; this one ignores the kernels and the independence assumption of the naive Bayes.

    Parameters
    ----------
    decomposition : Decomposition
        The release (exact or noisy histograms).
    df : pandas.DataFrame
        The records attacked (their QIs must lie in the release's domain).
    sa : str, optional
        Column of ``df`` with the true SA values (default ``decomposition.sa``).

    Returns
    -------
    Prediction
        ``beliefs`` are the leaf's clipped histogram normalised (the release's when empty).

    Raises
    ------
    TypeError, ValueError
        For a non-Decomposition, an empty ``df``, a missing ``sa`` column or QI values
        outside the release's domain.

    {{toy_attack}}
    >>> leaf_majority(mondrian(df, ["x"], "s", k=4), df).predicted.tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    """
    _check_release(decomposition)
    sa, X = _attacked_records(decomposition, df, sa)
    beliefs = _leaf_beliefs(decomposition)[decomposition.assign_codes(X)]
    best = np.argmax(beliefs, axis=1)
    return _prediction(decomposition, df[sa], beliefs, best)


def _leaf_beliefs(decomposition: Decomposition) -> np.ndarray:
    """The leaf-majority attacker's beliefs per leaf (leaves x SA values): the leaf's clipped
    counts normalised, or the release's distribution for a leaf whose counts are all zero; the
    guess of a record in leaf ``i`` is ``argmax`` of row ``i`` (:func:`leaf_majority`)."""
    H = np.clip(np.asarray(decomposition.histograms, dtype=float), 0.0, None)
    total = H.sum(axis=0)
    fallback = total / total.sum() if total.sum() > 0 else np.full(H.shape[1], 1.0 / H.shape[1])
    sums = H.sum(axis=1, keepdims=True)
    return np.where(sums > 0, H / np.where(sums > 0, sums, 1.0), fallback[None, :])


# ----------------------------------------------------------------------------- Mironov's attack
#: The samplers :func:`mironov_experiment` can attack: the textbook float sampler and privlib's.
SAMPLERS = ("textbook_laplace", "laplace", "snapping", "discrete_laplace")
#: The attacker's rules: ``"support"`` (Mironov's: decide when the release is impossible under
#: one input, with each sampler's own support) and ``"float_inversion"`` (the textbook sampler's
#: inversion, :func:`float_laplace_attack`, applied whatever the sampler).
RULES = ("support", "float_inversion")


@dataclass(frozen=True)
class AttackResult:
    """One run of Mironov's distinguishing game (:func:`mironov_experiment`).

    Attributes
    ----------
    sampler : str
        The noise sampler attacked (one of :data:`SAMPLERS`).
    rule : str
        The attacker's rule (one of :data:`RULES`).
    eps, sensitivity : float
        The mechanism's parameters.
    x0, x1 : float
        The two neighbouring inputs.
    n : int
        Number of trials.
    success : float
        Fraction of trials in which the attacker named the input that produced the release
        (0.5 = chance).
    decided : float
        Fraction of trials decided by the rule (the others are fair coin flips).
    stderr : float
        Standard error of ``success`` at chance, ``sqrt(0.25 / n)``.
    dp_bound : float
        ``e**eps / (1 + e**eps)``: the largest success any attacker can have against an
        ``eps``-DP mechanism with inputs at distance ``sensitivity``.
    unchanged : float
        Fraction of releases equal to their input: for the textbook sampler, noise lost in the
        float spacing; for the discrete samplers also a zero draw (probability
        ``(1 - alpha) / (1 + alpha)``, ``alpha = exp(-eps)``, for ``discrete_laplace``).

    Examples
    --------
    >>> r = mironov_experiment("snapping", eps=1.0, n=1000, rng=0)
    >>> r.decided, r.dp_bound > 0.73
    (0.0, True)
    """

    sampler: str
    rule: str
    eps: float
    sensitivity: float
    x0: float
    x1: float
    n: int
    success: float
    decided: float
    stderr: float
    dp_bound: float
    unchanged: float


def _smallest_at_least(forward, y, lo, hi):
    """Per element, the smallest ``k`` in ``[lo, hi]`` with ``forward(k) >= y`` (``hi`` if none),
    for ``forward`` non-decreasing in ``k``: a vectorised binary search."""
    while True:
        active = lo < hi
        if not active.any():
            return lo
        mid = lo + (hi - lo) // 2
        ge = forward(mid) >= y
        hi = np.where(active & ge, mid, hi)
        lo = np.where(active & ~ge, mid + 1, lo)


def _textbook_image(released, x, b):
    """Whether each float ``released[i]`` is an output of :func:`privlib.mechanisms.textbook_laplace`
    at input ``x`` (scale ``b``): the sampler's output is non-decreasing in its uniform index
    ``k`` (``U = k / 2**53``), so a binary search over ``k`` in ``1 .. 2**53 - 1`` finds the
    smallest ``k`` whose output is >= the release, and the release is in the image iff that
    output equals it.  A first search with numpy's fast ``log`` brackets that ``k`` within
    1024 steps; the bracket is verified with the sampler's own (correctly rounded) formula and
    widened to the whole range where it does not hold, so the answer never depends on numpy's
    ``log``."""
    from .mechanisms import _textbook_noise
    y = np.asarray(released, dtype=float)
    first, last = 1, (1 << 53) - 1

    def exact(k):
        return x + _textbook_noise(k * 2.0 ** -53, b)

    def fast(k):
        return x + _textbook_noise(k * 2.0 ** -53, b, log=np.log)

    guess = _smallest_at_least(fast, y, np.full(y.shape, first, dtype=np.int64),
                               np.full(y.shape, last, dtype=np.int64))
    lo, hi = np.maximum(guess - 1024, first), np.minimum(guess + 1024, last)
    ok = ((lo == first) | (exact(lo) < y)) & ((hi == last) | (exact(hi) >= y))
    lo, hi = np.where(ok, lo, first), np.where(ok, hi, last)
    k = _smallest_at_least(exact, y, lo, hi)
    return exact(k) == y


def _decide(p0, p1):
    return np.where(p0 & ~p1, 0, np.where(p1 & ~p0, 1, -1)).astype(np.int8)


def float_laplace_attack(released: ArrayLike, *, x0: float, x1: float, eps: float,
                         sensitivity: float = 1.0) -> np.ndarray:
    """Mironov's (2012) attack on the textbook floating-point Laplace mechanism.

    A release ``y = x + b log(U)`` of :func:`privlib.mechanisms.textbook_laplace` is a float
    that the sampler can reach from ``x`` only for a sparse set of ``y`` (the uniform ``U``
    takes ``2**53`` values, and rounding ``x + noise`` to the float grid keeps different
    low-order bits for different ``x``).  The attack inverts the sampler for each candidate
    input (Mironov 2012, Sections 3-4; here an exact binary search over the uniform's
    ``2**53`` values): if ``y`` is reachable from ``x0`` only, the input was ``x0``; from
    ``x1`` only, ``x1``; otherwise the attack cannot tell.  A decision is never wrong on the
    textbook sampler's releases.

    Parameters
    ----------
    released : float or array_like
        Released value(s), one per trial.
    x0, x1 : float
        The two candidate (neighbouring) inputs.
    eps : float
        The mechanism's budget, > 0.
    sensitivity : float
        Its sensitivity, > 0 (scale ``b = sensitivity / eps``).

    Returns
    -------
    numpy.ndarray of int8
        Per release: 0 (only ``x0`` possible), 1 (only ``x1``), -1 (both or neither: undecided).

    Raises
    ------
    ValueError, TypeError
        A bad ``eps`` or ``sensitivity``, non-finite ``x0``, ``x1`` or releases.

    References
    ----------
    I. Mironov, "On significance of the least significant bits for differential privacy",
    ACM CCS 2012.

    Examples
    --------
    >>> from privlib.mechanisms import textbook_laplace
    >>> y = textbook_laplace([0.0] * 1000, eps=1.0, rng=3)
    >>> decision = float_laplace_attack(y, x0=0.0, x1=1.0, eps=1.0)
    >>> bool((decision != 1).all()), bool((decision == 0).mean() > 0.5)
    (True, True)
    """
    from .mechanisms import laplace_scale
    b = laplace_scale(eps=eps, sensitivity=sensitivity)
    x0, x1 = check_finite(x0, "x0"), check_finite(x1, "x1")
    y = np.atleast_1d(np.asarray(released, dtype=float))
    if not np.all(np.isfinite(y)):
        raise ValueError("released: expected finite released values, got NaN or inf")
    return _decide(_textbook_image(y, x0, b), _textbook_image(y, x1, b))


def _support(sampler, y, x, eps, sensitivity, bound):
    """Whether each release ``y`` is a possible output of privlib's ``sampler`` at input ``x``:
    :func:`~privlib.mechanisms.laplace` -- a multiple of its grid within 2**53 grid steps;
    :func:`~privlib.mechanisms.snapping` -- ``+-bound`` or a multiple of Lambda inside
    ``[-bound, bound]``, within the noise's reach ``745 lambda + Lambda`` of ``clamp(x)``
    (``|lambda ln U*| <= 744.5 lambda``); :func:`~privlib.mechanisms.discrete_laplace` -- an
    integer within int64."""
    import math
    if sampler == "laplace":
        g = math.ldexp(1.0, math.frexp(sensitivity)[1] - 11)
        return (np.mod(y, g) == 0) & (np.abs(y) <= math.ldexp(g, 53))
    if sampler == "snapping":
        lam = sensitivity / eps
        big = lam if math.frexp(lam)[0] == 0.5 else math.ldexp(1.0, math.frexp(lam)[1])
        lattice = ((np.mod(y, big) == 0) & (np.abs(y) <= bound)) | (np.abs(y) == bound)
        return lattice & (np.abs(y - np.clip(x, -bound, bound)) <= 745.0 * lam + big)
    return (np.mod(y, 1.0) == 0) & (np.abs(y) < 2.0 ** 63)


def mironov_experiment(sampler: str, *, eps: float, x0: float = 0.0, x1: float | None = None,
                       sensitivity: float = 1.0, n: int = 10_000, rule: str = "support",
                       bound: float | None = None, rng: int | np.random.Generator) -> AttackResult:
    """Play Mironov's distinguishing game ``n`` times against one noise sampler.

    Each trial draws a secret bit ``s``, releases ``sampler(x_s)`` once, and the attacker names
    ``x0`` or ``x1`` from that single release, flipping a fair coin when its rule cannot
    decide.  With ``rule="support"`` (Mironov's) it decides only when the release is
    impossible under one of the inputs -- for ``"textbook_laplace"`` by inverting the float
    sampler (:func:`float_laplace_attack`), for privlib's samplers from their lattices (which
    do not depend on the input, so it never decides).  With ``rule="float_inversion"`` the
    textbook inversion is applied to any sampler's releases: on an exact sampler its
    decisions are an ordinary statistical test, and no test can beat ``dp_bound``.

    Parameters
    ----------
    sampler : str
        One of :data:`SAMPLERS`.
    eps : float
        The mechanism's budget, > 0.
    x0 : float
        First input (an integer for ``"discrete_laplace"``).
    x1 : float, optional
        Second input, default ``x0 + sensitivity``.
    sensitivity : float
        Sensitivity (a positive integer for ``"discrete_laplace"``).
    n : int
        Number of trials, >= 1.
    rule : str
        One of :data:`RULES`.
    bound : float, optional
        Clamping bound of ``"snapping"``; default ``|x0| + |x1| + 2**20 * sensitivity / eps``.
    rng : int or numpy.random.Generator
        Source of the secret bits, the mechanism's noise and the coin flips.

    Returns
    -------
    AttackResult

    Raises
    ------
    ValueError, TypeError
        An unknown sampler or rule, or a bad parameter (the message names it); the
        mechanism's own errors (e.g. :func:`privlib.mechanisms.laplace` refuses a magnitude
        at which its noise cannot be represented).

    Examples
    --------
    >>> mironov_experiment("textbook_laplace", eps=1.0, n=2000, rng=0).success > 0.85
    True
    >>> mironov_experiment("laplace", eps=1.0, n=2000, rng=0).decided
    0.0
    """
    from . import mechanisms as mech
    from ._validation import as_generator, check_epsilon, check_int
    sampler = check_in(sampler, "sampler", SAMPLERS)
    rule = check_in(rule, "rule", RULES)
    eps = check_epsilon(eps)
    n = check_int(n, "n", minimum=1)
    x0 = check_finite(x0, "x0")
    x1_int = None if x1 is None else x1
    x1 = x0 + float(sensitivity) if x1 is None else check_finite(x1, "x1")
    b = mech.laplace_scale(eps=eps, sensitivity=sensitivity)
    gen = as_generator(rng)
    secret = gen.integers(0, 2, size=n)
    x = np.where(secret == 1, x1, x0)
    if sampler == "snapping":
        bound = abs(x0) + abs(x1) + 2.0 ** 20 * b if bound is None else check_finite(bound, "bound")
        y = mech.snapping(x, eps=eps, bound=bound, sensitivity=sensitivity, rng=gen)
    elif sampler == "discrete_laplace":
        if x0 != int(x0) or x1 != int(x1) or max(abs(x0), abs(x1)) > 2.0 ** 62:
            raise ValueError(f"x0: discrete_laplace needs integer inputs within +-2**62, got x0={x0!r}, x1={x1!r}")
        x1_int = int(x0) + check_int(sensitivity, "sensitivity", minimum=1) if x1_int is None else int(x1)
        xi = np.where(secret == 1, x1_int, int(x0)).astype(np.int64)    # exact, even where x0 + 1 is not a float
        yi = mech.discrete_laplace(xi, eps=eps, sensitivity=sensitivity, rng=gen)
        y, unchanged = yi.astype(float), float(np.mean(yi == xi))
    else:
        y = getattr(mech, sampler)(x, eps=eps, sensitivity=sensitivity, rng=gen)
    if rule == "float_inversion" or sampler == "textbook_laplace":
        decision = float_laplace_attack(y, x0=x0, x1=x1, eps=eps, sensitivity=sensitivity)
    else:
        decision = _decide(_support(sampler, y, x0, eps, float(sensitivity), bound),
                           _support(sampler, y, x1, eps, float(sensitivity), bound))
    coin = gen.integers(0, 2, size=n)
    guess = np.where(decision >= 0, decision, coin)
    return AttackResult(sampler=sampler, rule=rule, eps=eps, sensitivity=float(sensitivity), x0=x0, x1=x1, n=n,
                        success=float(np.mean(guess == secret)), decided=float(np.mean(decision >= 0)),
                        stderr=float(np.sqrt(0.25 / n)), dp_bound=float(1.0 / (1.0 + np.exp(-eps))),
                        unchanged=float(np.mean(y == x)) if sampler != "discrete_laplace" else unchanged)


def mironov_curve(*, eps: Sequence[float], x0: Sequence[float] = (0.0,), samplers: Sequence[str] = SAMPLERS,
                  rule: str = "support", n: int = 2000, rng: int | np.random.Generator) -> pd.DataFrame:
    """Success of Mironov's attack for every sampler x eps x input magnitude (the figure's data).

    One :func:`mironov_experiment` per cell (inputs ``x0`` and ``x0 + 1``, sensitivity 1), in
    the order samplers, eps, x0, all from one generator.  A cell where the mechanism refuses
    the input (:func:`privlib.mechanisms.snapping` when the bound would pass ``2**46 lambda``;
    :func:`privlib.mechanisms.laplace` clamps inputs beyond about ``2.2e12`` to that public
    bound instead, so that ``x0`` and ``x0 + 1`` there give the same release law) has
    ``success`` NaN and ``refused`` True; the textbook sampler there returns its input
    unchanged (column ``unchanged``).  About 0.2 s for 4 samplers x 6 eps at ``n = 2000``.

    Parameters
    ----------
    eps : sequence of float
        Budgets, each > 0.
    x0 : sequence of float
        Input magnitudes (integers, for ``"discrete_laplace"``).
    samplers : sequence of str
        Among :data:`SAMPLERS`.
    rule : str
        One of :data:`RULES`.
    n : int
        Trials per cell.
    rng : int or numpy.random.Generator

    Returns
    -------
    pandas.DataFrame
        Columns ``sampler, eps, x0, success, stderr, decided, dp_bound, unchanged, refused``.

    Raises
    ------
    ValueError, TypeError
        As :func:`mironov_experiment`.

    Examples
    --------
    >>> df = mironov_curve(eps=[0.1, 1.0], samplers=["textbook_laplace", "laplace"], n=500, rng=0)
    >>> df.shape
    (4, 9)
    """
    from ._validation import as_generator
    gen = as_generator(rng)
    rows = []
    for sampler in samplers:
        for e in eps:
            for x in x0:
                try:
                    r = mironov_experiment(sampler, eps=e, x0=x, n=n, rule=rule, rng=gen)
                except ValueError as err:
                    if not str(err).startswith(("value: |value|", "bound: Mironov")):
                        raise
                    rows.append(dict(sampler=sampler, eps=float(e), x0=float(x), success=np.nan, stderr=np.nan,
                                     decided=np.nan, dp_bound=float(1.0 / (1.0 + np.exp(-e))), unchanged=np.nan,
                                     refused=True))
                    continue
                rows.append(dict(sampler=sampler, eps=r.eps, x0=r.x0, success=r.success, stderr=r.stderr,
                                 decided=r.decided, dp_bound=r.dp_bound, unchanged=r.unchanged, refused=False))
    return pd.DataFrame(rows)
