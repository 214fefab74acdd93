"""Differential privacy and probabilistic differential privacy of a transition matrix
(slides "epsilon-Differential Privacy", "Probabilistic Differential Privacy", "Search Algorithm
Implements PDP", "Refinement: Coarsening the Domain" and "Refinement: Domain Pruning")."""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .._validation import (
    check_array,
    check_delta,
    check_distribution,
    check_epsilon,
    check_in,
    check_int,
    check_positive,
    check_probability,
)
from ._transition import DISCLOSURE_RULES, MD_KINDS, _check_size, _check_transition, _md_logprior, _md_logT

def dp_ratio_table(T: np.ndarray) -> np.ndarray:
    """``|ln Pr[m | n(1)] / Pr[m | n(2)]|`` for the neighbouring rows n_1 and n_1 + 1.

    Slide "epsilon-Differential Privacy": with the total n fixed, two confidential tables that
    differ in one entity's category are consecutive rows of the transition matrix.  A zero
    probability facing a positive one gives ``inf`` (infinite differential privacy).

    Parameters
    ----------
    T : array_like, shape (n + 1, m + 1)
        Transition matrix Pr[m | n] (rows sum to 1).

    Returns
    -------
    numpy.ndarray
        Shape (rows - 1, columns).

    Raises
    ------
    ValueError
        ``T`` not a transition matrix, or with fewer than two rows.

    Examples
    --------
    >>> from privlib.synth import md_transition
    >>> R = dp_ratio_table(md_transition(5, 5, alpha=0.5, kind="plug-in"))
    >>> R.shape, round(float(R[0, 0]), 6), round(float(R.max()), 6)
    ((5, 6), 1.003353, 5.493061)
    """
    T = _check_transition(T)
    if T.shape[0] < 2:
        raise ValueError(f"T: expected at least two rows (neighbouring tables), got shape {T.shape}")
    a, b = T[:-1], T[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.abs(np.log(a) - np.log(b))
    r[(a == 0) & (b == 0)] = 0.0
    return r


def dp_epsilon(T: np.ndarray) -> float:
    """The synthesizer's epsilon: the maximum of :func:`dp_ratio_table`.

    Slide "epsilon-Differential Privacy": the largest ``|ln Pr[m | n(1)] / Pr[m | n(2)]|`` over
    neighbouring tables and outputs (``inf`` if a zero faces a positive probability).

    Parameters
    ----------
    T : array_like, shape (n + 1, m + 1)
        Transition matrix Pr[m | n].

    Returns
    -------
    float
        The largest ratio (``inf`` if a zero faces a positive probability).

    Raises
    ------
    ValueError
        As :func:`dp_ratio_table`.

    Examples
    --------
    >>> from privlib.synth import md_transition
    >>> round(dp_epsilon(md_transition(5, 5, alpha=0.5, kind="plug-in")), 6)   # 5 ln 3
    5.493061
    """
    return float(np.max(dp_ratio_table(T)))


#: Relative tolerance of the comparison ``|ln ratio| > eps``: a ratio within it of ``e^eps``
#: meets the bound.  At the eps-DP prior of :func:`min_alpha_for_dp` the worst ratio *is*
#: ``e^eps``, and its logarithm computed in floating point exceeds eps by about 1e-15, which
#: without the tolerance reported a delta of 0.49 (eps = 0.05, m = 1) for an eps-DP synthesizer.
_EPS_RTOL = 1e-9


def _exceeds(ratio: np.ndarray, eps: float) -> np.ndarray:
    """``ratio > eps`` beyond floating-point rounding (see ``_EPS_RTOL``)."""
    return ratio > eps * (1.0 + _EPS_RTOL)


def disclosure_mask(T: np.ndarray, *, eps: float, rule: str = "smaller") -> np.ndarray:
    """Cells (n, m) that belong to the disclosure set Disc(n, eps).

    Slides "Disclosure Set" and "Probabilistic Differential Privacy".  A pair of neighbouring
    rows (n, n') *fails* at output m when ``|ln T[n, m] / T[n', m]| > eps`` (beyond a relative
    rounding tolerance of 1e-9: a ratio of exactly ``e^eps`` meets the bound).  Which of the two
    cells counts towards delta:

    ``rule="smaller"`` (default; reproduces the slides' delta = 0.000623)
        the cell of the row under which m is *less* likely, T[n, m] < T[n', m]: when the
        truth is n, seeing m raises the odds of the neighbour n' by more than e^eps.  Each
        failing pair contributes its improbable cell once.
    ``rule="any"``
        every cell (n, m) such that some neighbour n' fails at m -- the literal reading of
        the definition "exists X1, X2 in D(D) ..." applied to the true table only (always
        at least as large).

    Parameters
    ----------
    T : array_like, shape (n + 1, m + 1)
        Transition matrix Pr[m | n].
    eps : float
        The epsilon whose failures are marked, > 0.
    rule : {"smaller", "any"}

    Returns
    -------
    numpy.ndarray of bool
        The shape of ``T``.

    Raises
    ------
    ValueError
        ``T`` not a transition matrix, ``eps`` not > 0, unknown ``rule``.

    Examples
    --------
    >>> from privlib.synth import md_transition
    >>> int(disclosure_mask(md_transition(5, 5, alpha=0.5, kind="plug-in"), eps=2.0).sum())
    8
    """
    T = _check_transition(T)
    eps = check_epsilon(eps)
    check_in(rule, "rule", DISCLOSURE_RULES)
    R = dp_ratio_table(T)
    fail = _exceeds(R, eps)
    mask = np.zeros(T.shape, dtype=bool)
    if rule == "any":
        mask[:-1] |= fail
        mask[1:] |= fail
    else:
        mask[:-1] |= fail & (T[:-1] < T[1:])
        mask[1:] |= fail & (T[1:] < T[:-1])
    return mask


def joint_table(T: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """Pr[m, n] = Pr[m | n] Pr[n] (slide "Probabilistic Differential Privacy").

    Parameters
    ----------
    T : array_like, shape (n + 1, m + 1)
        Transition matrix Pr[m | n].
    prior : array_like, shape (n + 1,)
        Pr[n], a probability vector.

    Returns
    -------
    numpy.ndarray
        The shape of ``T``, summing to 1.

    Raises
    ------
    ValueError
        ``T`` not a transition matrix; ``prior`` not a probability vector of one entry per row.

    Examples
    --------
    >>> from privlib.synth import md_prior, md_transition
    >>> J = joint_table(md_transition(5, 5, alpha=0.5, kind="plug-in"), md_prior(5, alpha=0.5, kind="plug-in"))
    >>> round(float(J[0, 0]), 6), round(float(J.sum()), 12)
    (0.020226, 1.0)
    """
    T = _check_transition(T)
    p = check_distribution(prior, "prior")
    if p.shape != (T.shape[0],):
        raise ValueError(f"prior: expected {T.shape[0]} probabilities (one per row of T), got shape {p.shape}")
    return T * p[:, None]


def pdp_delta(T: np.ndarray, prior: np.ndarray | str, *, eps: float, rule: str = "smaller") -> float:
    """delta of (eps, delta)-probabilistic differential privacy of a transition matrix.

    Parameters
    ----------
    T : array (n + 1, m + 1)
        Transition matrix Pr[m | n].
    prior : array of length n + 1, or ``"worst"``
        Pr[n].  With a probability vector, delta = sum of Pr[m, n] over the disclosure cells
        (the slides' computation: "delta = 0.000623, which is just the sum of the highlighted
        cells").  With ``"worst"``, delta = max over n of Pr[m in Disc(n) | n] -- the
        definition "for all tables D" of Machanavajjhala et al. (2008).
    eps : float
        The epsilon whose failure probability is measured.
    rule : {"smaller", "any"}
        Which cells count as disclosures; see :func:`disclosure_mask`.

    Returns
    -------
    float
        delta, the probability of the disclosure cells (or the largest row's, ``"worst"``).

    Raises
    ------
    ValueError
        ``T`` not a transition matrix, ``prior`` not a probability vector nor ``"worst"``,
        ``eps`` not > 0, unknown ``rule``.

    Examples
    --------
    >>> from privlib.synth import md_prior, md_transition
    >>> T = md_transition(5, 5, alpha=0.5, kind="plug-in")
    >>> round(pdp_delta(T, md_prior(5, alpha=0.5, kind="plug-in"), eps=2.0), 6)   # the slides' delta
    0.000623
    """
    T = _check_transition(T)
    mask = disclosure_mask(T, eps=eps, rule=rule)
    if isinstance(prior, str):
        check_in(prior, "prior", ("worst",))
        return float(np.max(np.where(mask, T, 0.0).sum(axis=1)))
    return float(joint_table(T, prior)[mask].sum())


def min_alpha_for_dp(m: float | np.ndarray, *, eps: float) -> float | np.ndarray:
    """Smallest symmetric prior alpha_i giving eps-DP to the full posterior predictive.

    Machanavajjhala et al. (2008): moving one entity from cell i to cell j multiplies
    Pr[m | n] by (m_i + alpha_i + n_i - 1)/(alpha_i + n_i - 1) * (alpha_j + n_j)/(m_j + alpha_j + n_j);
    the worst case (n_i = 1, m_i = m) gives (m + alpha)/alpha <= e^eps, i.e.
    alpha >= m / (e^eps - 1).  Vectorised over ``m``.

    Parameters
    ----------
    m : float or array_like
        Synthetic totals, >= 0.
    eps : float
        Privacy budget, > 0.

    Returns
    -------
    float or numpy.ndarray
        A float for a scalar ``m``, else an array of the shape of ``m``.

    Raises
    ------
    ValueError
        ``m`` NaN, infinite or negative; ``eps`` not a finite number > 0.

    Examples
    --------
    >>> import math
    >>> min_alpha_for_dp(5, eps=math.log(2))
    5.0
    >>> min_alpha_for_dp(5, eps=1000.0), min_alpha_for_dp(5, eps=1e-310)   # the limits, no overflow
    (0.0, inf)
    """
    eps = check_epsilon(eps)
    m_arr = check_array(m, "m")
    if m_arr.size and m_arr.min() < 0:
        raise ValueError(f"m: expected synthetic totals >= 0, got a minimum of {m_arr.min()}")
    # e^eps overflows a float above eps ~ 709.78: alpha is then m / inf = 0 (no prior is needed)
    with np.errstate(over="ignore"):   # eps ~ 1e-310: alpha = m / e^eps - 1 is inf (no finite prior)
        out = m_arr / (math.expm1(eps) if eps < 709.0 else math.inf)
    return float(out) if out.ndim == 0 else out


#: Points per decade of the geometric grid :func:`min_alpha_for_pdp` scans.
PDP_GRID_PER_DECADE = 64


def min_alpha_for_pdp(m: int, *, eps: float, delta: float, n: int | None = None,
                      kind: str = "posterior-predictive", prior: str = "worst", rule: str = "smaller",
                      alpha_bounds: tuple[float, float] = (1e-12, 1e6), rtol: float = 1e-6) -> float:
    """Minimum symmetric prior sample size alpha_i that guarantees (eps, delta)-PDP.

    Slide "Search Algorithm Implements PDP": "finds the minimum prior sample size to guarantee
    eps-differential privacy with failure probability delta".  Here in the slides' detailed
    two-category setting: delta(alpha) = :func:`pdp_delta` of ``md_transition(n, m, alpha,
    kind)`` with the given ``prior`` (``"worst"`` = for all tables, or ``"prior"`` = averaged
    over :func:`md_prior` as on the slides).

    delta(alpha) is **not monotone**: it is a sawtooth, jumping down whenever a cell leaves the
    disclosure set and rising in between (e.g. plug-in, m = 5, eps = 2: delta(0.37) < 1e-3 but
    delta(0.8) = 0.0014).  The first alpha with delta(alpha) <= delta is therefore not a bound.
    This function returns the smallest alpha **above which the bound holds on the whole search
    range**:

    1. search range: [alpha_bounds[0], alpha_bounds[1]] (default [1e-12, 1e6]).  For the
       posterior predictive every alpha >= :func:`min_alpha_for_dp` is eps-DP (delta = 0), so
       the range is cut there when delta = 0 is confirmed at that point;
    2. delta(alpha) is evaluated (vectorised) on a geometric grid of
       ``PDP_GRID_PER_DECADE`` = 64 points per decade over the range, one decade at a time
       from the top down, stopping at the first decade that has a failing point;
    3. the largest grid point with delta > target and the next grid point (delta <= target)
       bracket the answer, which is refined in log alpha to relative precision
       ``rtol`` (multisection: 32 interior points per round), keeping the largest failing
       point at the lower end and a passing point at the upper end.

    Guarantee: delta(alpha) <= delta at the returned alpha and at every grid point above it.
    A failing interval narrower than one grid step (a factor 10^(1/64), 3.7 %) lying entirely
    between two passing grid points could go unseen.  Results are cached.

    Parameters
    ----------
    m : int
        Synthetic total, >= 0.
    eps, delta : float
        The (eps, delta)-PDP target: eps > 0, delta in (0, 1).
    n : int, optional
        Confidential total (default ``m``), >= 1.
    kind : {"posterior-predictive", "plug-in"}
    prior : {"worst", "prior"}
    rule : {"smaller", "any"}
    alpha_bounds : (float, float)
        Search range, 0 < low < high.
    rtol : float
        Relative precision of the answer, > 0.

    Returns
    -------
    float
        The threshold alpha (``inf`` if delta > target at the top of the range;
        ``alpha_bounds[0]`` if the target holds at every grid point).

    Raises
    ------
    ValueError
        m < 0, n < 1 (n defaults to m), eps <= 0 or not finite, delta outside (0, 1), unknown
        ``kind`` / ``prior`` / ``rule``, bad ``alpha_bounds`` or ``rtol``, or a transition
        matrix too large (see :func:`md_transition`).

    Examples
    --------
    >>> round(min_alpha_for_pdp(5, eps=2.0, delta=1e-3, kind="plug-in", prior="prior"), 4)
    0.8277
    """
    m = check_int(m, "m", minimum=0)
    n = m if n is None else check_int(n, "n", minimum=0)
    if n < 1:
        raise ValueError(f"n: expected an integer >= 1 (neighbouring tables need one entity; n defaults to m), got {n}")
    _check_size(n, m)
    eps = check_epsilon(eps)
    delta = check_delta(delta)
    check_in(kind, "kind", MD_KINDS)
    if not (isinstance(prior, str) and prior in ("worst", "prior")):
        raise ValueError(f"prior: expected 'worst' or 'prior', got {prior!r}")
    check_in(rule, "rule", DISCLOSURE_RULES)
    try:
        lo_b, hi_b = (check_positive(x, "alpha_bounds") for x in alpha_bounds)
    except (TypeError, ValueError) as exc:
        if "alpha_bounds" in str(exc):
            raise
        raise ValueError(f"alpha_bounds: expected a pair (low, high) of positive numbers, "
                         f"got {alpha_bounds!r}") from None
    if not lo_b < hi_b:
        raise ValueError(f"alpha_bounds: expected low < high, got {alpha_bounds!r}")
    rtol = check_positive(rtol, "rtol")
    return _min_alpha_for_pdp(m, n, eps, delta, kind, prior, rule, lo_b, hi_b, rtol)


def _pdp_delta_grid(n, m, alphas, eps, kind, prior, rule):
    """pdp_delta of md_transition(n, m, alpha, kind) for every alpha (vectorised, chunked)."""
    alphas = np.asarray(alphas, dtype=float)
    out = np.empty(alphas.size)
    step = max(1, 4_000_000 // ((n + 1) * (m + 1)))
    for c0 in range(0, alphas.size, step):
        a = alphas[c0:c0 + step]
        logT, T = _md_logT(n, m, a, a, kind)
        R = np.abs(logT[:, :-1] - logT[:, 1:])
        fail = _exceeds(R, eps)
        mask = np.zeros(T.shape, dtype=bool)
        if rule == "any":
            mask[:, :-1] |= fail
            mask[:, 1:] |= fail
        else:
            mask[:, :-1] |= fail & (T[:, :-1] < T[:, 1:])
            mask[:, 1:] |= fail & (T[:, 1:] < T[:, :-1])
        rowsum = np.where(mask, T, 0.0).sum(axis=2)
        if prior == "worst":
            out[c0:c0 + step] = rowsum.max(axis=1)
        else:
            out[c0:c0 + step] = (np.exp(_md_logprior(n, a, a, kind)) * rowsum).sum(axis=1)
    return out


@lru_cache(maxsize=4096)
def _min_alpha_for_pdp(m, n, eps, delta, kind, prior, rule, lo_b, hi_b, rtol):
    def d(alpha):
        return float(_pdp_delta_grid(n, m, [alpha], eps, kind, prior, rule)[0])

    top = hi_b
    if kind == "posterior-predictive":
        a_dp = min_alpha_for_dp(m, eps=eps) * (1.0 + 1e-9)  # ratios <= eps up to rounding
        if lo_b < a_dp < hi_b and d(a_dp) == 0.0:
            top = a_dp
    k = max(1, int(math.ceil(PDP_GRID_PER_DECADE * math.log10(top / lo_b))))
    grid = np.exp(np.linspace(math.log(lo_b), math.log(top), k + 1))
    grid[0], grid[-1] = lo_b, top
    # scan from the top down, one decade of grid points at a time: the first decade with a
    # failing point holds the largest failing grid point, and nothing below it matters
    last = -1
    for hi_i in range(grid.size, 0, -PDP_GRID_PER_DECADE):
        lo_i = max(0, hi_i - PDP_GRID_PER_DECADE)
        fails = _pdp_delta_grid(n, m, grid[lo_i:hi_i], eps, kind, prior, rule) > delta
        if fails.any():
            last = lo_i + int(np.flatnonzero(fails)[-1])
            break
    if last < 0:
        return float(lo_b)
    if last == grid.size - 1:
        return math.inf
    # refine the bracket (fails at lo, holds at hi) by multisection in log alpha, always
    # keeping the largest failing point
    lo, hi = math.log(grid[last]), math.log(grid[last + 1])
    while hi - lo > rtol:
        pts = np.linspace(lo, hi, 34)[1:-1]
        f = _pdp_delta_grid(n, m, np.exp(pts), eps, kind, prior, rule) > delta
        if f.any():
            j = int(np.flatnonzero(f)[-1])
            lo = float(pts[j])
            hi = float(pts[j + 1]) if j + 1 < pts.size else hi
        else:
            hi = float(pts[0])
    return float(math.exp(hi))


def pruned_epsilon(eps: float, *, min_p: float | np.ndarray, alpha: float | np.ndarray) -> float:
    """Epsilon after domain pruning (Theorem 5.2 as summarised on slide "Refinement: Domain Pruning").

    eps' = eps + max_i ln(1/f_i) + max_i ceil(alpha_i) ln 2, the maxima over the origins with
    n_i = 0 (the ones the pruning may drop).  With every retention probability f_i >= min_p
    the first maximum is ln(1/min_p).

    Parameters
    ----------
    eps : float
        Unadjusted epsilon, > 0.
    min_p : float or array
        Minimum retention probability (or the retention probabilities f_i), in (0, 1].
    alpha : float or array
        Prior sample sizes alpha_i of the prunable origins, > 0.

    Returns
    -------
    float
        ``eps'``, the epsilon of the pruned synthesizer.

    Raises
    ------
    ValueError
        ``eps`` not > 0, ``min_p`` outside (0, 1], ``alpha`` not > 0, empty arrays.

    Examples
    --------
    >>> round(pruned_epsilon(4.6, min_p=0.025, alpha=1.0), 3)   # 4.6 + ln 40 + ln 2
    8.982
    """
    eps = check_epsilon(eps)
    f = np.atleast_1d(check_array(min_p, "min_p", finite=False))
    a = np.atleast_1d(check_array(alpha, "alpha", finite=False))
    for arr, nm in ((f, "min_p"), (a, "alpha")):
        if arr.size == 0:
            raise ValueError(f"{nm}: expected at least one value, got an empty array")
    for v in f:
        check_probability(float(v), "min_p", low_open=True)
    for v in a:
        check_positive(float(v), "alpha")
    return float(eps + np.max(np.log(1.0 / f)) + np.max(np.ceil(a)) * math.log(2.0))


@dataclass(frozen=True)
class CoarseningCheck:
    """Result of :func:`coarsening_privacy`: (eps, delta) of a coarse synthesizer, measured over
    coarse neighbours and over the fine neighbours that the coarsening maps onto them.

    Parameters
    ----------
    n_fine : int
        Fine units.
    fine_tables, fine_pairs : int
        Fine tables enumerated and ordered neighbouring pairs among them.
    eps_coarse, eps_fine : float
        eps over coarse and over fine neighbours.
    delta_coarse, delta_fine : float
        Worst-case delta at ``eps`` over coarse and over fine neighbours.

    Examples
    --------
    >>> c = CoarseningCheck(3, 21, 60, 1.0, 1.0, 0.0, 0.0)
    >>> c.preserved
    True
    """

    n_fine: int
    fine_tables: int
    fine_pairs: int
    eps_coarse: float
    eps_fine: float
    delta_coarse: float
    delta_fine: float

    @property
    def preserved(self) -> bool:
        """Theorem 5.1: eps and delta are the same on the fine domain (up to rounding)."""
        return bool(abs(self.eps_fine - self.eps_coarse) <= 1e-9 * max(1.0, self.eps_coarse)
                    and abs(self.delta_fine - self.delta_coarse) <= 1e-12)


_MAX_FINE_TABLES = 200_000


def coarsening_privacy(T: np.ndarray, *, eps: float, n_fine: int) -> CoarseningCheck:
    """Theorem 5.1 (Machanavajjhala et al. 2008; slide "Refinement: Coarsening the Domain").

    A two-category synthesizer ``T`` = Pr[m | n] (rows n_1 = 0..n) runs on *coarsened* data:
    category 1 is one fine unit, category 2 merges ``n_fine - 1`` fine units (e.g. the tracts
    of a PUMA).  The fine tables are all the ways of placing the n entities on the
    ``n_fine`` units; two fine tables are neighbours when one entity moves from one unit to
    another; the release given a fine table is ``T[g(table)]`` with g the coarsening.  This
    function measures, by enumeration, eps (largest ``|ln ratio|`` over fine neighbours and
    outputs) and the worst-case delta at ``eps`` (rule ``"any"``: max over fine tables of the
    probability of an output on which some fine neighbour's ratio exceeds eps), and the same
    two numbers over the coarse neighbours (:func:`dp_epsilon`, :func:`pdp_delta` with
    ``prior="worst", rule="any"``).  Theorem 5.1 says they are equal.

    Parameters
    ----------
    T : array_like, shape (n + 1, m + 1)
        Transition matrix of the coarse synthesizer.
    eps : float
        The epsilon at which delta is measured, > 0.
    n_fine : int
        Fine units, >= 2.

    Returns
    -------
    CoarseningCheck

    Raises
    ------
    ValueError
        ``T`` not a transition matrix, ``eps`` <= 0, ``n_fine`` < 2, or more than 200,000 fine
        tables.

    Examples
    --------
    >>> from privlib.synth import md_transition
    >>> c = coarsening_privacy(md_transition(3, 3, alpha=0.5, kind="plug-in"), eps=2.0, n_fine=3)
    >>> c.fine_tables, c.preserved, round(c.eps_fine, 6) == round(c.eps_coarse, 6)
    (10, True, True)
    """
    T = _check_transition(T)
    eps = check_epsilon(eps)
    k = check_int(n_fine, "n_fine", minimum=2)
    n = T.shape[0] - 1
    n_tables = math.comb(n + k - 1, k - 1)
    if n_tables > _MAX_FINE_TABLES:
        raise ValueError(f"n_fine: {k} fine units with n = {n} give {n_tables:,} fine tables, more than "
                         f"{_MAX_FINE_TABLES:,}")
    # all compositions of n into k parts (stars and bars), as an (n_tables, k) array
    bars = np.array(list(itertools.combinations(range(n + k - 1), k - 1)), dtype=np.int64).reshape(-1, k - 1)
    edges = np.hstack([np.full((bars.shape[0], 1), -1), bars, np.full((bars.shape[0], 1), n + k - 1)])
    tables = np.diff(edges, axis=1) - 1
    index = {tuple(t): i for i, t in enumerate(tables.tolist())}
    coarse = tables[:, 0]  # g: unit 0 stays category 1, units 1..k-1 merge into category 2
    with np.errstate(divide="ignore"):
        logT = np.log(T)
    a_idx, b_idx = [], []
    for src in range(k):
        for dst in range(k):
            if src == dst:
                continue
            movable = np.flatnonzero(tables[:, src] > 0)
            moved = tables[movable].copy()
            moved[:, src] -= 1
            moved[:, dst] += 1
            a_idx.append(movable)
            b_idx.append(np.array([index[tuple(t)] for t in moved.tolist()], dtype=np.int64))
    a = np.concatenate(a_idx)
    b = np.concatenate(b_idx)
    la, lb = logT[coarse[a]], logT[coarse[b]]
    same = (coarse[a] == coarse[b])[:, None]
    with np.errstate(invalid="ignore"):
        ratio = np.where(same, 0.0, np.abs(la - lb))
    ratio = np.where(np.isnan(ratio), 0.0, ratio)  # both probabilities 0: no evidence either way
    eps_fine = float(ratio.max()) if ratio.size else 0.0
    fail = np.zeros((tables.shape[0], T.shape[1]), dtype=bool)
    np.logical_or.at(fail, a, _exceeds(ratio, eps))
    delta_fine = float(np.max(np.where(fail, T[coarse], 0.0).sum(axis=1)))
    return CoarseningCheck(n_fine=k, fine_tables=int(tables.shape[0]), fine_pairs=int(a.size),
                           eps_coarse=dp_epsilon(T), eps_fine=eps_fine,
                           delta_coarse=pdp_delta(T, "worst", eps=eps, rule="any"), delta_fine=delta_fine)


