"""Synthetic data, differential privacy and probabilistic differential privacy (OnTheMap).

Implements the "Cryptographic and Statistical Advances in Confidentiality Protection"
half of Abowd & Vilhuber (2011) {cite}`abowd2011slides`, which summarises Machanavajjhala
et al. (2008) {cite}`machanavajjhala2008onthemap`:

*Detailed example (two categories)*

* :func:`md_transition` -- the Multinomial-Dirichlet synthesizer's transition matrix
  Pr[m | n] (slide "The Multinomial-Dirichlet Synthesizer").  Two models:

  ``kind="posterior-predictive"``
      the slide's formula Pr[m|n] = E_{pi|n}[M(m, pi)] with pi | n ~ D(alpha + n), i.e. the
      Dirichlet-multinomial (beta-binomial for k = 2) posterior predictive;
  ``kind="plug-in"``
      a multinomial M(m, pi_hat) with the posterior *mean* pi_hat = (alpha + n)/(alpha_0 + n)
      plugged in.  **This is the model that generates the slides' table** (every entry to six
      decimals), and its prior marginal Pr[n] = M(n, alpha/alpha_0) generates the slides'
      joint table.

* :func:`md_prior` -- the marginal Pr[n] of the confidential counts under either model.
* :func:`dp_ratio_table` -- |ln Pr[m|n(1)] / Pr[m|n(2)]| for neighbouring n (slide
  "epsilon-Differential Privacy"); its maximum is the synthesizer's epsilon.
* :func:`disclosure_mask`, :func:`joint_table`, :func:`pdp_delta` -- the disclosure set and
  the probability delta of probabilistic differential privacy (slide "Probabilistic
  Differential Privacy").
* :func:`laplace_transition` -- the Laplace sanitizer with the total released without noise
  (slide "Laplace Sanitizer").
* :func:`min_alpha_for_dp`, :func:`min_alpha_for_pdp` -- minimum prior sample size for
  eps-DP (closed form) and for (eps, delta)-PDP (search; slide "Search Algorithm Implements
  PDP").
* :func:`pruned_epsilon` -- Theorem 5.2 as summarised on slide "Refinement: Domain Pruning".
* :func:`coarsening_privacy` -- Theorem 5.1 (slide "Refinement: Coarsening the Domain"):
  eps and delta measured over fine neighbours equal those over coarse neighbours.

*OnTheMap-style synthesizer* (slides "Coarsening Steps" to "Posterior, Likelihood and Prior
Mass across Commute Ranges"): :func:`build_domains`, :func:`synthesize`,
:func:`validity_grid`, :func:`analytical_validity`.
"""
from __future__ import annotations

import itertools
import math
from functools import lru_cache
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.special import gammaln

from ._validation import (
    as_generator,
    check_array,
    check_columns,
    check_delta,
    check_distribution,
    check_epsilon,
    check_in,
    check_int,
    check_nonempty,
    check_positive,
    check_probability,
)
from .accounting import Ledger, LedgerEntry
from ._validation import warn_privacy_leak

__all__ = [
    "MD_KINDS",
    "md_transition",
    "md_prior",
    "transition_frame",
    "ratio_frame",
    "dp_ratio_table",
    "dp_epsilon",
    "disclosure_mask",
    "joint_table",
    "pdp_delta",
    "laplace_transition",
    "min_alpha_for_dp",
    "min_alpha_for_pdp",
    "pruned_epsilon",
    "coarsening_privacy",
    "CoarseningCheck",
    "DISTANCE_BINS",
    "DISTANCE_LABELS",
    "DIRECTION_LABELS",
    "OTMSettings",
    "Domains",
    "Synthesis",
    "build_domains",
    "synthesize",
    "validity_grid",
    "analytical_validity",
    "mass_by_distance",
    "TableSynthesis",
    "synthesize_table",
]

MD_KINDS = ("posterior-predictive", "plug-in")
DISCLOSURE_RULES = ("smaller", "any")
#: Largest (n + 1) x (m + 1) transition matrix computed (400 MB of float64).
_MAX_CELLS = 50_000_000
#: Largest total of published employment :func:`synthesize` draws residences for.
_MAX_DRAWS = 20_000_000


# ----------------------------------------------------------------------------------------
# validation helpers private to this module
# ----------------------------------------------------------------------------------------
def _check_alpha(alpha, name: str = "alpha") -> np.ndarray:
    """alpha: a positive scalar (symmetric prior) or a pair (alpha_1, alpha_2)."""
    arr = np.atleast_1d(np.asarray(alpha, dtype=float))
    if arr.ndim != 1 or arr.size not in (1, 2):
        raise ValueError(f"{name}: expected a positive number or a pair of positive numbers, got {alpha!r}")
    if not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError(f"{name}: expected prior sample sizes > 0, got {alpha!r}")
    return np.repeat(arr, 2) if arr.size == 1 else arr


def _check_transition(T, name: str = "T") -> np.ndarray:
    """A transition matrix: 2-d, non-negative, each row summing to 1."""
    arr = np.asarray(T, dtype=float)
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValueError(f"{name}: expected a 2-d transition matrix (rows n, columns m), got shape {arr.shape}")
    return check_distribution(arr, f"{name} (each row)", atol=1e-8, axis=1)


# ----------------------------------------------------------------------------------------
# Detailed example: the Multinomial-Dirichlet synthesizer with two categories
# ----------------------------------------------------------------------------------------
def md_transition(n: int, m: int, alpha=0.5, kind: str = "posterior-predictive") -> np.ndarray:
    """Transition matrix Pr[m | n] of the two-category Multinomial-Dirichlet synthesizer.

    Slide "The Multinomial-Dirichlet Synthesizer": Pr[m|n] = E_{pi|n}[M(m, pi)], with
    pi | n ~ D(alpha + n).  Rows are n_1 = 0..n (n_2 = n - n_1), columns m_1 = 0..m
    (m_2 = m - m_1).

    Parameters
    ----------
    n, m : int
        Confidential and synthetic totals, >= 0.
    alpha : float or (float, float)
        Dirichlet prior parameters (a scalar means alpha_1 = alpha_2 = alpha), > 0.
    kind : {"posterior-predictive", "plug-in"}
        ``"posterior-predictive"``: the full Dirichlet-multinomial (beta-binomial) predictive.
        ``"plug-in"``: binomial(m, (alpha_1 + n_1)/(alpha_0 + n)), the posterior mean plugged
        into the multinomial -- the model that generates the slides' table (k = 2,
        alpha_i = 1/2, n = m = 5).

    Returns
    -------
    numpy.ndarray, shape (n + 1, m + 1); each row sums to 1.

    Notes
    -----
    Computed in log space and normalised row by row (log-sum-exp), with the
    rising factorials (a)_k = a^k prod_{i<k} (1 + i/a) written through ``log1p``, so that rows
    sum to 1 for any finite alpha (tested up to 1e300); the difference of ``gammaln`` values of
    order alpha ln alpha loses every digit once alpha > 1e9.  Matrices with more than
    5e7 entries are refused (``ValueError`` naming n and m).
    """
    n = check_int(n, "n", minimum=0)
    m = check_int(m, "m", minimum=0)
    _check_size(n, m)
    a1, a2 = _check_alpha(alpha)
    check_in(kind, "kind", MD_KINDS)
    return _md_logT(n, m, np.array([a1]), np.array([a2]), kind)[1][0]


def _check_size(n, m):
    if (n + 1) * (m + 1) > _MAX_CELLS:
        raise ValueError(f"n, m: expected (n + 1)(m + 1) <= {_MAX_CELLS:,} transition probabilities, "
                         f"got n = {n}, m = {m}")


def _log_rising(x, jmax):
    """S(j) = ln (x)_j - j ln x = sum_{i<j} ln(1 + i/x) for j = 0..jmax; ``x`` of shape (A,).

    Returns shape (A, jmax + 1).  (x)_j = x (x + 1) ... (x + j - 1) is the rising factorial.
    """
    x = np.asarray(x, dtype=float)[:, None]
    terms = np.log1p(np.arange(jmax, dtype=float)[None, :] / x)
    return np.concatenate([np.zeros((x.shape[0], 1)), np.cumsum(terms, axis=1)], axis=1)


def _log_binom_coef(m):
    k = np.arange(m + 1)
    return gammaln(m + 1) - gammaln(k + 1) - gammaln(m - k + 1)


def _log_betabinom(m, a1, a2, n):
    """ln beta-binomial(m, a1 + n_1, a2 + n - n_1) pmf of k = 0..m, for n_1 = 0..n.

    ``a1``, ``a2``: prior parameters, shape (A,).  Returns shape (A, n + 1, m + 1).  With
    (a + r)_k = (a)_{r+k}/(a)_r and ln (a)_j = j ln a + S_a(j) (:func:`_log_rising`), the pmf
    C(m, k) (a1+n_1)_k (a2+n_2)_{m-k} / (a1+a2+n)_m is

        ln C(m, k) + k ln(a1/(a1+a2)) + (m-k) ln(a2/(a1+a2))
        + S1(n_1+k) - S1(n_1) + S2(n_2+m-k) - S2(n_2) - S12(n+m) + S12(n),

    so only one O(n + m) table per alpha is computed (the (n_1, k) entries are sliding windows
    of it) and nothing of order alpha ln alpha cancels: rows stay exact for huge alpha.
    """
    from numpy.lib.stride_tricks import sliding_window_view

    a1 = np.asarray(a1, dtype=float)
    a2 = np.asarray(a2, dtype=float)
    k = np.arange(m + 1)
    jmax = n + m
    with np.errstate(over="ignore"):
        s = a1 + a2
    s_big = ~np.isfinite(s) | (s > 1e300)
    ls = np.where(s_big, np.maximum(np.log(a1), np.log(a2)) + np.log1p(np.minimum(a1, a2) / np.maximum(a1, a2)),
                  np.log(np.where(s_big, 1.0, s)))
    la, lb = (np.log(a1) - ls)[:, None, None], (np.log(a2) - ls)[:, None, None]
    S1, S2 = _log_rising(a1, jmax), _log_rising(a2, jmax)
    S12 = _log_rising(np.where(s_big, np.inf, s), jmax)
    W1 = sliding_window_view(S1, m + 1, axis=1)[:, :n + 1, :]            # S1(n_1 + k)
    W2 = sliding_window_view(S2[:, ::-1], m + 1, axis=1)[:, :n + 1, :]   # S2(n + m - n_1 - k)
    rowc = (-S1[:, :n + 1] - S2[:, n::-1] - S12[:, jmax:jmax + 1] + S12[:, n:n + 1])[:, :, None]
    lead = np.where(k == 0, 0.0, k * la) + np.where(k == m, 0.0, (m - k) * lb)
    return (_log_binom_coef(m) + lead) + W1 + W2 + rowc


def _normalise_rows(logT):
    """Rows of exp(logT) scaled to sum to 1 (last axis): returns (log T, T)."""
    mx = logT.max(axis=-1, keepdims=True)
    E = np.exp(logT - mx)
    tot = E.sum(axis=-1, keepdims=True)
    return logT - mx - np.log(tot), E / tot


def _log_binom(m, p_log, q_log):
    """ln binomial(m, p) pmf of k = 0..m with ln p, ln(1 - p) given (arrays (..., 1))."""
    k = np.arange(m + 1)
    return _log_binom_coef(m) + np.where(k == 0, 0.0, k * p_log) + np.where(k == m, 0.0, (m - k) * q_log)


def _md_logT(n, m, a1, a2, kind):
    """ln Pr[m_1 | n_1], shape (len(a1), n + 1, m + 1), rows normalised by logsumexp."""
    a1 = np.asarray(a1, dtype=float)
    a2 = np.asarray(a2, dtype=float)
    n1 = np.arange(n + 1)
    if kind == "plug-in":
        A1, A2 = a1[:, None, None], a2[:, None, None]
        N1 = n1[None, :, None].astype(float)
        big = np.any(a1 >= 1e300) or np.any(a2 >= 1e300)
        tot = np.log(A1) + np.log1p((A2 + n) / A1) if big else np.log(A1 + A2 + n)
        logT = _log_binom(m, np.log(A1 + N1) - tot, np.log(A2 + n - N1) - tot)
    else:
        logT = _log_betabinom(m, a1, a2, n)
    return _normalise_rows(logT)


def md_prior(n: int, alpha=0.5, kind: str = "posterior-predictive") -> np.ndarray:
    """Prior marginal Pr[n_1] of the confidential counts, n_1 = 0..n.

    ``"posterior-predictive"``: the Dirichlet-multinomial (beta-binomial) marginal of
    M(n, pi) with pi ~ D(alpha).  ``"plug-in"``: binomial(n, alpha_1/alpha_0), the prior mean
    plugged in -- the marginal that generates the slides' joint table Pr[m, n] (slide
    "Probabilistic Differential Privacy": "the marginal Pr[n] is based on the prior D(alpha)").
    """
    n = check_int(n, "n", minimum=0)
    _check_size(n, 0)
    a1, a2 = _check_alpha(alpha)
    check_in(kind, "kind", MD_KINDS)
    return np.exp(_md_logprior(n, np.array([a1]), np.array([a2]), kind)[0])


def _md_logprior(n, a1, a2, kind):
    """ln Pr[n_1], shape (len(a1), n + 1), normalised by logsumexp (see :func:`md_transition`)."""
    a1 = np.asarray(a1, dtype=float)[:, None]
    a2 = np.asarray(a2, dtype=float)[:, None]
    if kind == "plug-in":
        lp = np.log(a1) - np.logaddexp(np.log(a1), np.log(a2))
        lq = np.log(a2) - np.logaddexp(np.log(a1), np.log(a2))
        lp_ = _log_binom(n, lp, lq)
    else:
        lp_ = _log_betabinom(n, a1[:, 0], a2[:, 0], 0)[:, 0, :]
    return _normalise_rows(lp_)[0]


def transition_frame(T, name: str = "Pr[m|n]") -> pd.DataFrame:
    """Label a two-category table: rows "(n_1, n_2)", columns "(m_1, m_2)" as on the slides."""
    arr = check_array(T, "T", ndim=2, finite=False)
    n, m = arr.shape[0] - 1, arr.shape[1] - 1
    rows = pd.Index([f"({i},{n - i})" for i in range(n + 1)], name="n = (n1,n2)")
    cols = pd.Index([f"({j},{m - j})" for j in range(m + 1)], name="m = (m1,m2)")
    return pd.DataFrame(arr, index=rows, columns=cols)


def ratio_frame(R) -> pd.DataFrame:
    """Label a DP-ratio table: rows "(n1(1),n2(1)) vs (n1(2),n2(2))"."""
    arr = check_array(R, "R", ndim=2, finite=False)
    n, m = arr.shape[0], arr.shape[1] - 1
    rows = pd.Index([f"({i},{n - i}) vs ({i + 1},{n - i - 1})" for i in range(n)], name="n(1) vs n(2)")
    cols = pd.Index([f"({j},{m - j})" for j in range(m + 1)], name="m = (m1,m2)")
    return pd.DataFrame(arr, index=rows, columns=cols)


def dp_ratio_table(T) -> np.ndarray:
    """|ln Pr[m | n(1)] / Pr[m | n(2)]| for the neighbouring rows n_1 and n_1 + 1.

    Slide "epsilon-Differential Privacy": with the total n fixed, two confidential tables that
    differ in one entity's category are consecutive rows of the transition matrix.  A zero
    probability facing a positive one gives ``inf`` (infinite differential privacy).

    Returns
    -------
    numpy.ndarray, shape (rows - 1, columns).
    """
    T = _check_transition(T)
    if T.shape[0] < 2:
        raise ValueError(f"T: expected at least two rows (neighbouring tables), got shape {T.shape}")
    a, b = T[:-1], T[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.abs(np.log(a) - np.log(b))
    r[(a == 0) & (b == 0)] = 0.0
    return r


def dp_epsilon(T) -> float:
    """The synthesizer's epsilon: the maximum of :func:`dp_ratio_table`."""
    return float(np.max(dp_ratio_table(T)))


def disclosure_mask(T, eps: float, rule: str = "smaller") -> np.ndarray:
    """Cells (n, m) that belong to the disclosure set Disc(n, eps).

    Slides "Disclosure Set" and "Probabilistic Differential Privacy".  A pair of neighbouring
    rows (n, n') *fails* at output m when |ln T[n, m] / T[n', m]| > eps.  Which of the two
    cells counts towards delta:

    ``rule="smaller"`` (default; reproduces the slides' delta = 0.000623)
        the cell of the row under which m is *less* likely, T[n, m] < T[n', m]: when the
        truth is n, seeing m raises the odds of the neighbour n' by more than e^eps.  Each
        failing pair contributes its improbable cell once.
    ``rule="any"``
        every cell (n, m) such that some neighbour n' fails at m -- the literal reading of
        the definition "exists X1, X2 in D(D) ..." applied to the true table only (always
        at least as large).
    """
    T = _check_transition(T)
    eps = check_epsilon(eps)
    check_in(rule, "rule", DISCLOSURE_RULES)
    R = dp_ratio_table(T)
    fail = R > eps
    mask = np.zeros(T.shape, dtype=bool)
    if rule == "any":
        mask[:-1] |= fail
        mask[1:] |= fail
    else:
        mask[:-1] |= fail & (T[:-1] < T[1:])
        mask[1:] |= fail & (T[1:] < T[:-1])
    return mask


def joint_table(T, prior) -> np.ndarray:
    """Pr[m, n] = Pr[m | n] Pr[n] (slide "Probabilistic Differential Privacy")."""
    T = _check_transition(T)
    p = check_distribution(prior, "prior")
    if p.shape != (T.shape[0],):
        raise ValueError(f"prior: expected {T.shape[0]} probabilities (one per row of T), got shape {p.shape}")
    return T * p[:, None]


def pdp_delta(T, prior, eps: float, rule: str = "smaller") -> float:
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
    """
    T = _check_transition(T)
    mask = disclosure_mask(T, eps, rule)
    if isinstance(prior, str):
        check_in(prior, "prior", ("worst",))
        return float(np.max(np.where(mask, T, 0.0).sum(axis=1)))
    return float(joint_table(T, prior)[mask].sum())


def laplace_transition(n: int, eps: float, scale: float | None = None) -> np.ndarray:
    """Transition matrix of the Laplace sanitizer with the total n released without noise.

    Slide "Laplace Sanitizer": m_1 = clip(round(n_1 + u), 0, n), m_2 = n - m_1, with
    u ~ Laplace(0, scale).  The slides' table at eps = 2 is generated by ``scale = 1/eps``
    (one entity moves n_1 by 1, so the sensitivity is 1); the slide's text "Lap(0, 2/eps)
    ... variance 2/eps" is inconsistent with its own table (Laplace(b) has variance 2 b^2).
    Rounding is to the nearest integer; the mass beyond 0 and n piles up at 0 and n.

    Returns
    -------
    numpy.ndarray, shape (n + 1, n + 1).
    """
    n = check_int(n, "n", minimum=0)
    eps = check_epsilon(eps)
    b = 1.0 / eps if scale is None else check_positive(scale, "scale")

    def cdf(x):
        return np.where(x < 0, 0.5 * np.exp(np.minimum(x, 0) / b), 1 - 0.5 * np.exp(-np.maximum(x, 0) / b))

    i = np.arange(n + 1)[:, None]
    edges = np.arange(n + 2)[None, :] - 0.5  # cell j covers [j - 0.5, j + 0.5)
    F = cdf(edges - i)
    F[:, 0] = 0.0
    F[:, -1] = 1.0
    return np.diff(F, axis=1)


def min_alpha_for_dp(m, eps: float):
    """Smallest symmetric prior alpha_i giving eps-DP to the full posterior predictive.

    Machanavajjhala et al. (2008): moving one entity from cell i to cell j multiplies
    Pr[m | n] by (m_i + alpha_i + n_i - 1)/(alpha_i + n_i - 1) * (alpha_j + n_j)/(m_j + alpha_j + n_j);
    the worst case (n_i = 1, m_i = m) gives (m + alpha)/alpha <= e^eps, i.e.
    alpha >= m / (e^eps - 1).  Vectorised over ``m``.

    Raises
    ------
    ValueError
        ``m`` NaN, infinite or negative; ``eps`` not a finite number > 0.
    """
    eps = check_epsilon(eps)
    m_arr = check_array(m, "m")
    if m_arr.size and m_arr.min() < 0:
        raise ValueError(f"m: expected synthetic totals >= 0, got a minimum of {m_arr.min()}")
    out = m_arr / math.expm1(eps)
    return float(out) if out.ndim == 0 else out


#: Points per decade of the geometric grid :func:`min_alpha_for_pdp` scans.
PDP_GRID_PER_DECADE = 64


def min_alpha_for_pdp(m: int, eps: float, delta: float, n: int | None = None,
                      kind: str = "posterior-predictive", prior="worst", rule: str = "smaller",
                      alpha_bounds=(1e-12, 1e6), rtol: float = 1e-6) -> float:
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
        raise ValueError(f"alpha_bounds: expected a pair (low, high) of positive numbers, got {alpha_bounds!r}") from None
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
        fail = R > eps
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
        a_dp = min_alpha_for_dp(m, eps) * (1.0 + 1e-9)  # ratios <= eps up to rounding
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


def pruned_epsilon(eps: float, min_p, alpha) -> float:
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
    coarse neighbours and over the fine neighbours that the coarsening maps onto them."""

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


def coarsening_privacy(T, eps: float, n_fine: int) -> CoarseningCheck:
    """Theorem 5.1 (Machanavajjhala et al. 2008; slide "Refinement: Coarsening the Domain").

    A two-category synthesizer ``T`` = Pr[m | n] (rows n_1 = 0..n) runs on *coarsened* data:
    category 1 is one fine unit, category 2 merges ``n_fine - 1`` fine units (e.g. the tracts
    of a PUMA).  The fine tables are all the ways of placing the n entities on the
    ``n_fine`` units; two fine tables are neighbours when one entity moves from one unit to
    another; the release given a fine table is ``T[g(table)]`` with g the coarsening.  This
    function measures, by enumeration, eps (largest |ln ratio| over fine neighbours and
    outputs) and the worst-case delta at ``eps`` (rule ``"any"``: max over fine tables of the
    probability of an output on which some fine neighbour's ratio exceeds eps), and the same
    two numbers over the coarse neighbours (:func:`dp_epsilon`, :func:`pdp_delta` with
    ``prior="worst", rule="any"``).  Theorem 5.1 says they are equal.

    Raises
    ------
    ValueError
        ``T`` not a transition matrix, ``eps`` <= 0, ``n_fine`` < 2, or more than 200,000 fine
        tables.
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
    np.logical_or.at(fail, a, ratio > eps)
    delta_fine = float(np.max(np.where(fail, T[coarse], 0.0).sum(axis=1)))
    return CoarseningCheck(n_fine=k, fine_tables=int(tables.shape[0]), fine_pairs=int(a.size),
                           eps_coarse=dp_epsilon(T), eps_fine=eps_fine,
                           delta_coarse=pdp_delta(T, "worst", eps, rule="any"), delta_fine=delta_fine)


# ----------------------------------------------------------------------------------------
# OnTheMap-style synthesizer
# ----------------------------------------------------------------------------------------
DISTANCE_BINS = (1.0, 4.0, 10.0, 25.0, 100.0, 500.0)
DISTANCE_LABELS = ("0", "(0-1)", "[1-4)", "[4-10)", "[10-25)", "[25-100)", "[100-500)", "[500-high]")
DIRECTION_LABELS = ("NW", "NE", "SW", "SE", "N/A")
N_GRID = len(DISTANCE_LABELS) * len(DIRECTION_LABELS)


def grid_cell(dx, dy) -> np.ndarray:
    """Cell of the slides' 8 distance x 5 direction grid (slide "Analytical Validity Measures").

    Distance categories (miles): 0, (0-1), [1-4), [4-10), [10-25), [25-100), [100-500), [500+);
    direction of the residence seen from the workplace: NW, NE, SW, SE, or "N/A" at distance 0.
    Returns ``8 * 5`` cell indices ``distance_category * 5 + direction`` (29 are reachable).
    """
    dx = check_array(dx, "dx")
    dy = check_array(dy, "dy")
    d = np.hypot(dx, dy)
    dcat = np.where(d == 0, 0, 1 + np.searchsorted(np.asarray(DISTANCE_BINS), d, side="right"))
    direc = np.where(dy >= 0, np.where(dx < 0, 0, 1), np.where(dx < 0, 2, 3))
    direc = np.where(d == 0, 4, direc)
    return dcat * len(DIRECTION_LABELS) + direc


@dataclass(frozen=True)
class OTMSettings:
    """Parameters of the OnTheMap-style synthesizer (slide "Final Privacy Settings for OnTheMap V3").

    eps, delta
        (eps, delta)-PDP target that sets the minimum prior sample size alpha_min(m) through
        :func:`min_alpha_for_pdp` (two-category search, ``alpha_rule`` / ``alpha_prior``),
        evaluated at ``min(m, m_cap)`` for a workplace with published employment m.
    min_p
        Minimum retention probability of the domain pruning.
    prior_strength
        f(prior density) = prior_strength x (prior share of the point); alpha_i =
        max(alpha_min, f).  With the default 1 every informative alpha_i <= 1, so ceil(alpha_i) = 1
        in :func:`pruned_epsilon` whenever alpha_min <= 1.
    coarsen_percentiles
        Tracts closer than the first percentile of the prior commute distances stay tracts,
        up to the second become PUMAs, beyond become super-PUMAs (slide "Coarsening Steps").
    edit_rules
        ((distance, elimination probability), ...) for prior-zero points (slide "Refinement:
        Editing the Prior Domain"): the first rule whose distance is exceeded applies.
    """

    eps: float = 4.6
    delta: float = 1e-6
    min_p: float = 0.025
    prior_strength: float = 1.0
    coarsen_percentiles: tuple = (50.0, 90.0)
    edit_rules: tuple = ((500.0, 0.98), (200.0, 0.9), (100.0, 0.5))
    alpha_rule: str = "any"
    alpha_prior: str = "worst"
    m_cap: int = 64

    def __post_init__(self):
        check_epsilon(self.eps)
        check_delta(self.delta)
        check_probability(self.min_p, "min_p", low_open=True)
        check_positive(self.prior_strength, "prior_strength")
        lo, hi = self.coarsen_percentiles
        if not 0 < lo <= hi < 100:
            raise ValueError(f"coarsen_percentiles: expected 0 < p1 <= p2 < 100, got {self.coarsen_percentiles!r}")
        for d, p in self.edit_rules:
            check_positive(d, "edit_rules distance")
            check_probability(p, "edit_rules probability")
        check_in(self.alpha_rule, "alpha_rule", DISCLOSURE_RULES)
        check_in(self.alpha_prior, "alpha_prior", ("worst", "prior"))
        check_int(self.m_cap, "m_cap", minimum=1)


@dataclass(frozen=True)
class Domains:
    """Coarsened, edited prior domains, one per work tract (CSR layout).

    Points of work tract ``work_tracts[i]`` are ``offsets[i]:offsets[i+1]``; ``code`` =
    i * 3 n_tracts + level * n_tracts + unit id (level 0 tract, 1 PUMA, 2 super-PUMA) is sorted.
    """

    work_tracts: np.ndarray
    offsets: np.ndarray
    code: np.ndarray
    level: np.ndarray
    rep_block: np.ndarray
    prior_count: np.ndarray
    eliminated: np.ndarray
    distance: np.ndarray
    cutoffs: tuple
    n_tracts: int

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.offsets)

    def summary(self) -> pd.DataFrame:
        """Support points per work tract before pruning, by level and by distance (form of the
        slides' table "Support Points in Prior Domain")."""
        tid = np.repeat(np.arange(self.work_tracts.size), self.sizes)
        keep = ~self.eliminated
        rows = {}
        rows["Total"] = np.bincount(tid[keep], minlength=self.work_tracts.size)
        for lv, name in enumerate(("Tract", "PUMA", "Super-PUMA")):
            rows[name] = np.bincount(tid[keep & (self.level == lv)], minlength=self.work_tracts.size)
        edges = (0, 10, 25, 100, 500, np.inf)
        labels = ("low-10", "10-25", "25-100", "100-500", "500-high")
        for lo, hi, name in zip(edges[:-1], edges[1:], labels):
            sel = keep & (self.distance >= lo) & (self.distance < hi)
            rows[name] = np.bincount(tid[sel], minlength=self.work_tracts.size)
        return pd.DataFrame({k: [v.mean(), v.min(), v.max()] for k, v in rows.items()},
                            index=["Mean", "Min", "Max"]).T

    def positive_fraction(self, edited: bool = True) -> pd.DataFrame:
        """Fraction of domain points with positive prior counts, by distance band: mean and SD
        across work tracts (form of the slides' tables "Fraction of Points in the Prior Domain
        with Positive Counts" before (``edited=False``) and after editing)."""
        tid = np.repeat(np.arange(self.work_tracts.size), self.sizes)
        keep = ~self.eliminated if edited else np.ones(self.code.size, bool)
        pos = (self.prior_count > 0).astype(float)
        edges = (0, 10, 25, 100, 500, np.inf)
        labels = ("low-10", "10-25", "25-100", "100-500", "500-high")
        rows = {}
        bands = [((self.distance >= lo) & (self.distance < hi), nm) for lo, hi, nm in zip(edges[:-1], edges[1:], labels)]
        bands.append((np.ones(self.code.size, bool), "All"))
        for sel, nm in bands:
            s = keep & sel
            cnt = np.bincount(tid[s], minlength=self.work_tracts.size)
            frac = np.bincount(tid[s], weights=pos[s], minlength=self.work_tracts.size)[cnt > 0] / cnt[cnt > 0]
            rows[nm] = {"Mean": frac.mean() if frac.size else np.nan, "SD": frac.std() if frac.size else np.nan}
        return pd.DataFrame(rows).T


def _weighted_percentiles(values, weights, qs):
    order = np.argsort(values, kind="stable")
    v, w = values[order], weights[order]
    cw = np.cumsum(w) / w.sum()
    return [float(v[min(np.searchsorted(cw, q / 100.0), v.size - 1)]) for q in qs]


def _unit_keys(geo, dist, cut):
    """Coarsened unit key level * n_tracts + id for a (work tracts x all tracts) distance matrix."""
    n_t = geo.n_tracts
    level = (dist >= cut[0]).astype(np.int64) + (dist >= cut[1])
    ids = np.stack([np.arange(n_t), geo.tracts["puma"].to_numpy(), geo.tracts["spuma"].to_numpy()])
    return level * n_t + ids[level, np.arange(n_t)[None, :] if dist.ndim == 2 else np.arange(n_t)]


def _check_commuting_data(data):
    """``data``: an object with the four tables of ``simulate.commuting.CommutingData``."""
    for att in ("geography", "workplaces", "jobs", "prior"):
        if not hasattr(data, att):
            raise TypeError(f"data: expected CommutingData (geography, workplaces, jobs, prior), "
                            f"got {type(data).__name__} without {att!r}")
    geo = data.geography
    for att, cols in (("blocks", ["block", "tract", "x", "y"]), ("tracts", ["tract", "puma", "spuma", "x", "y"])):
        tab = getattr(geo, att, None)
        if not isinstance(tab, pd.DataFrame):
            raise TypeError(f"data.geography.{att}: expected a DataFrame, got {type(tab).__name__}")
        check_columns(tab, cols, f"data.geography.{att}")
        for c in ("x", "y"):
            check_array(tab[c].to_numpy(), f"data.geography.{att}[{c!r}]")
    check_nonempty(data.workplaces, "data.workplaces")
    check_columns(data.workplaces, ["workplace", "block", "tract", "n"], "data.workplaces")
    check_columns(data.jobs, ["workplace", "home_block", "home_tract"], "data.jobs")
    check_columns(data.prior, ["work_tract", "home_tract", "count"], "data.prior")
    n_t = len(geo.tracts)
    for frame, col, hi in ((data.workplaces, "tract", n_t), (data.jobs, "home_tract", n_t),
                           (data.prior, "work_tract", n_t), (data.prior, "home_tract", n_t),
                           (data.jobs, "workplace", len(data.workplaces))):
        v = check_array(frame[col].to_numpy(), f"{col}", dtype=float)
        if v.size and (v.min() < 0 or v.max() >= hi or np.any(v != np.round(v))):
            raise ValueError(f"{col}: expected integer ids in [0, {hi}), got values in [{v.min()!r}, {v.max()!r}]")
    cnt = check_array(data.prior["count"].to_numpy(), "data.prior['count']", minimum=0)
    if cnt.size == 0 or cnt.sum() <= 0:
        raise ValueError("data.prior: expected a public prior table with a positive total count, got none")


def build_domains(data, settings: OTMSettings = OTMSettings(), *, rng, chunk: int = 256) -> Domains:
    """Coarsen and edit the prior domain of every work tract that has a workplace.

    Slides "Coarsening Steps", "Effects of Coarsening", "Refinement: Editing the Prior Domain":

    1. cut-offs = the ``coarsen_percentiles`` of the commute distances in the public prior
       table (tract centroid to tract centroid, weighted by counts);
    2. each origin tract r of work tract t is kept as a tract (d < p50), coarsened to its
       PUMA (p50 <= d < p90) or to its super-PUMA (d >= p90); a coarsened unit is the set of
       tracts mapped to it;
    3. each unit is represented by one block drawn at random among its tracts' blocks;
    4. units with zero prior count are eliminated with the ``edit_rules`` probabilities by
       the distance from the work tract to the representative block.

    ``rng`` is required and keyword-only.  Raises ``TypeError`` / ``ValueError`` for data
    without the CommutingData tables, ids out of range, NaN / infinite coordinates or counts,
    an empty workplace table or prior table, and a ``chunk`` < 1.
    """
    from .simulate.commuting import tract_distances

    if not isinstance(settings, OTMSettings):
        raise TypeError(f"settings: expected OTMSettings, got {type(settings).__name__}")
    _check_commuting_data(data)
    chunk = check_int(chunk, "chunk", minimum=1)
    gen = as_generator(rng)
    geo = data.geography
    n_t = geo.n_tracts
    K = 3 * n_t
    bpt = len(geo.blocks) // n_t
    bx, by = geo.blocks["x"].to_numpy(), geo.blocks["y"].to_numpy()
    tx, ty = geo.tracts["x"].to_numpy(), geo.tracts["y"].to_numpy()
    pr = data.prior
    pw, ph, pc = pr["work_tract"].to_numpy(), pr["home_tract"].to_numpy(), pr["count"].to_numpy(float)
    pd_ = np.hypot(tx[pw] - tx[ph], ty[pw] - ty[ph])
    cut = tuple(_weighted_percentiles(pd_, pc, settings.coarsen_percentiles))
    wt = np.unique(data.workplaces["tract"].to_numpy())
    parts = {k: [] for k in ("code", "level", "rep", "prior", "dist")}
    sizes = np.zeros(wt.size, dtype=np.int64)
    pr_sorted = np.argsort(pw, kind="stable")
    pw_s = pw[pr_sorted]
    for c0 in range(0, wt.size, chunk):
        tt = wt[c0:c0 + chunk]
        dist = tract_distances(geo, tt)
        key = _unit_keys(geo, dist, cut)
        code = (np.arange(c0, c0 + tt.size)[:, None] * K + key).ravel()
        u = gen.random(code.size)
        order = np.argsort(code + u)  # sort: unique keys (code < 2^52 plus a continuous draw)
        code_o = code[order]
        first = np.r_[True, code_o[1:] != code_o[:-1]]
        ucode = code_o[first]
        rep_tract = (order[first] % n_t)
        rep_block = rep_tract * bpt + gen.integers(0, bpt, size=ucode.size)
        # prior counts of the chunk's work tracts, mapped to units
        lo, hi = np.searchsorted(pw_s, tt[0], side="left"), np.searchsorted(pw_s, tt[-1], side="right")
        sel = pr_sorted[lo:hi]
        row = np.minimum(np.searchsorted(tt, pw[sel]), tt.size - 1)
        mine = tt[row] == pw[sel]  # prior rows of work tracts without workplaces are ignored
        sel, row = sel[mine], row[mine]
        pkey = key[row, ph[sel]]
        pcode = (c0 + row) * K + pkey
        prior = np.zeros(ucode.size)
        np.add.at(prior, np.searchsorted(ucode, pcode), pc[sel])
        ti = ucode // K - c0
        dist_rep = np.hypot(tx[tt[ti]] - bx[rep_block], ty[tt[ti]] - by[rep_block])
        parts["code"].append(ucode)
        parts["level"].append((ucode % K) // n_t)
        parts["rep"].append(rep_block)
        parts["prior"].append(prior)
        parts["dist"].append(dist_rep)
        sizes[c0:c0 + tt.size] = np.bincount(ti, minlength=tt.size)
    code = np.concatenate(parts["code"])
    prior = np.concatenate(parts["prior"])
    dist = np.concatenate(parts["dist"])
    p_elim = np.zeros(code.size)
    for d_min, p in sorted(settings.edit_rules, key=lambda r: r[0]):
        p_elim = np.where(dist > d_min, p, p_elim)
    eliminated = (prior == 0) & (gen.random(code.size) < p_elim)
    return Domains(work_tracts=wt, offsets=np.r_[0, np.cumsum(sizes)], code=code,
                   level=np.concatenate(parts["level"]), rep_block=np.concatenate(parts["rep"]),
                   prior_count=prior, eliminated=eliminated, distance=dist, cutoffs=cut, n_tracts=n_t)


@dataclass(frozen=True)
class Synthesis:
    """Result of :func:`synthesize`, summarised on the 8 x 5 grid per workplace.

    ``likelihood`` (W x 40) counts of the confidential jobs kept after editing; ``posterior``
    and ``prior`` (W x 40) posterior-mean and prior-mean probabilities; ``synthetic`` (W x 40)
    synthetic residence counts; ``n`` kept jobs; ``m`` published employment; ``alpha_min`` per
    workplace; ``max_alpha_pruned`` the largest alpha of a prunable point (n_i = 0) kept or not;
    ``adjusted_eps`` = :func:`pruned_epsilon`; ``points`` / ``retained`` domain sizes before /
    after pruning per workplace; ``ledger`` the privacy accounting (a
    :class:`privlib.accounting.Ledger`: one parallel entry per workplace synthesizer).
    """

    settings: OTMSettings
    workplace: np.ndarray
    n: np.ndarray
    m: np.ndarray
    likelihood: np.ndarray
    posterior: np.ndarray
    prior: np.ndarray
    synthetic: np.ndarray
    alpha_min: np.ndarray
    max_alpha_pruned: float
    adjusted_eps: float
    points: np.ndarray
    retained: np.ndarray
    ledger: Ledger = field(default_factory=Ledger)


#: Relative precision of alpha_min(m) in :func:`synthesize`: the search returns the passing end
#: of its bracket, so a coarser precision only makes alpha_min up to 0.1 % larger (safer).
ALPHA_MIN_RTOL = 1e-3


def _alpha_min_lookup(m, settings):
    mm = np.minimum(np.asarray(m, dtype=np.int64), settings.m_cap)
    uniq = np.unique(mm)
    vals = np.array([min_alpha_for_pdp(int(v), settings.eps, settings.delta, kind="posterior-predictive",
                                       prior=settings.alpha_prior, rule=settings.alpha_rule,
                                       rtol=ALPHA_MIN_RTOL) for v in uniq])
    return vals[np.searchsorted(uniq, mm)]


def synthesize(data, domains: Domains, settings: OTMSettings = OTMSettings(), published=None, *, rng,
               chunk: int = 4000) -> Synthesis:
    """Posterior-predictive synthesis of residence counts for every workplace (vectorised).

    Slides "Synthetic Data Model" to "Refinement: Domain Pruning".  For workplace w in work
    tract t with published employment m_w (``published``; default the true n):

    1. likelihood n_i: its jobs tabulated on t's domain; jobs at eliminated points dropped;
    2. informative prior alpha_i = max(alpha_min(m_w), prior_strength * q_i), q_i the share of
       point i in the public prior table (uniform if the table has none);
    3. pruning: points with n_i > 0 are kept; the others with probability
       f_i = max(min_p, q_i / max_i q_i);
    4. pi ~ Dirichlet(alpha + n) on the kept points; m_w residences ~ Multinomial(m_w, pi).

    Everything is computed on flat (workplace, point) arrays by chunks of ``chunk``
    workplaces: Gamma draws normalised by group sums, and inverse-CDF multinomial draws with
    a per-group offset, so there is no Python loop over workplaces.

    The returned ``ledger`` (a :class:`privlib.accounting.Ledger`) records the privacy
    accounting: one ``"parallel"`` entry per workplace synthesizer in the group
    ``"workplaces"`` (each job belongs to one workplace: disjoint records), each at
    ``adjusted_eps`` (Theorem 5.2, slide "Refinement: Domain Pruning"), with the PDP delta in
    its ``detail``; it is checked against ``adjusted_eps`` before returning.

    ``rng`` is required and keyword-only.  Raises ``TypeError`` / ``ValueError`` for bad
    ``data`` (see :func:`build_domains`), ``domains`` of other work tracts, ``published``
    of the wrong shape, NaN, infinite or negative, or totalling more than 2e7 residences.
    """
    if not isinstance(domains, Domains):
        raise TypeError(f"domains: expected Domains, got {type(domains).__name__}")
    if not isinstance(settings, OTMSettings):
        raise TypeError(f"settings: expected OTMSettings, got {type(settings).__name__}")
    _check_commuting_data(data)
    chunk = check_int(chunk, "chunk", minimum=1)
    gen = as_generator(rng)
    geo = data.geography
    wp = data.workplaces
    W = len(wp)
    wblock = wp["block"].to_numpy()
    wtract = wp["tract"].to_numpy()
    if published is None:
        m_pub = check_array(wp["n"].to_numpy(), "data.workplaces['n']", minimum=0)
    else:
        m_pub = check_array(published, "published")
    if m_pub.shape != (W,):
        raise ValueError(f"published: expected {W} published employment counts, got shape {m_pub.shape}")
    if m_pub.size and m_pub.min() < 0:
        raise ValueError(f"published: expected counts >= 0, got a minimum of {m_pub.min()}")
    if m_pub.sum() > _MAX_DRAWS:
        raise ValueError(f"published: expected at most {_MAX_DRAWS:,} synthetic residences in total, "
                         f"got {m_pub.sum():.6g}")
    m_pub = np.round(m_pub).astype(np.int64)
    amin = _alpha_min_lookup(np.maximum(m_pub, 1), settings)
    n_t = domains.n_tracts
    K = 3 * n_t
    bx, by = geo.blocks["x"].to_numpy(), geo.blocks["y"].to_numpy()
    tx, ty = geo.tracts["x"].to_numpy(), geo.tracts["y"].to_numpy()
    tpuma, tsp = geo.tracts["puma"].to_numpy(), geo.tracts["spuma"].to_numpy()
    t_pos = np.searchsorted(domains.work_tracts, wtract)
    if np.any(domains.work_tracts[np.minimum(t_pos, domains.work_tracts.size - 1)] != wtract):
        raise ValueError("domains: built for other work tracts than these workplaces'")
    jobs = data.jobs
    jw = jobs["workplace"].to_numpy()
    jorder = np.argsort(jw, kind="stable")
    jw_s = jw[jorder]
    jh = jobs["home_tract"].to_numpy()[jorder]

    G = N_GRID
    out = {k: np.zeros((W, G)) for k in ("lik", "post", "prior", "syn")}
    n_kept = np.zeros(W, dtype=np.int64)
    points = np.zeros(W, dtype=np.int64)
    retained = np.zeros(W, dtype=np.int64)
    max_alpha = 0.0
    for c0 in range(0, W, chunk):
        ws = np.arange(c0, min(c0 + chunk, W))
        nw = ws.size
        tp = t_pos[ws]
        beg, L = domains.offsets[tp], domains.offsets[tp + 1] - domains.offsets[tp]
        start = np.r_[0, np.cumsum(L)]
        E = int(start[-1])
        grp = np.repeat(np.arange(nw), L)
        dom = np.repeat(beg - start[:-1], L) + np.arange(E)
        elim = domains.eliminated[dom]
        # 1. likelihood
        j0, j1 = np.searchsorted(jw_s, [ws[0], ws[-1] + 1])
        jl = jw_s[j0:j1] - c0
        h = jh[j0:j1]
        t_of = wtract[ws][jl]
        d = np.hypot(tx[t_of] - tx[h], ty[t_of] - ty[h])
        level = (d >= domains.cutoffs[0]).astype(np.int64) + (d >= domains.cutoffs[1])
        uid = np.where(level == 0, h, np.where(level == 1, tpuma[h], tsp[h]))
        code = t_pos[ws][jl] * K + level * n_t + uid
        di = np.searchsorted(domains.code, code)
        ok = (di < domains.code.size)
        ok &= domains.code[np.minimum(di, domains.code.size - 1)] == code
        ok &= ~domains.eliminated[np.minimum(di, domains.code.size - 1)]
        entry = start[jl[ok]] + (di[ok] - beg[jl[ok]])
        n = np.bincount(entry, minlength=E).astype(float)
        n_kept[ws] = np.bincount(jl[ok], minlength=nw)
        # 2. informative prior
        pc = np.where(elim, 0.0, domains.prior_count[dom])
        live = (~elim).astype(float)
        tot = np.bincount(grp, weights=pc, minlength=nw)
        nlive = np.bincount(grp, weights=live, minlength=nw)
        q = np.where(tot[grp] > 0, pc / np.where(tot[grp] > 0, tot[grp], 1), live / np.maximum(nlive[grp], 1))
        alpha = np.maximum(amin[ws][grp], settings.prior_strength * q)
        # 3. pruning
        qmax = np.zeros(nw)
        np.maximum.at(qmax, grp, q)
        f = np.maximum(settings.min_p, q / np.where(qmax[grp] > 0, qmax[grp], 1))
        keep = ~elim & ((n > 0) | (gen.random(E) < f))
        prunable = ~elim & (n == 0)
        if prunable.any():
            max_alpha = max(max_alpha, float(alpha[prunable].max()))
        points[ws] = nlive.astype(np.int64)
        retained[ws] = np.bincount(grp, weights=keep, minlength=nw).astype(np.int64)
        a_post = np.where(keep, alpha + n, 0.0)
        a_prior = np.where(keep, alpha, 0.0)
        post_mean = a_post / np.bincount(grp, weights=a_post, minlength=nw)[grp]
        prior_mean = a_prior / np.bincount(grp, weights=a_prior, minlength=nw)[grp]
        # 4. posterior draw and multinomial synthesis
        g = np.where(keep, gen.standard_gamma(np.where(keep, a_post, 1.0)), 0.0)
        gs = np.bincount(grp, weights=g, minlength=nw)
        bad = gs[grp] <= 0
        g = np.where(bad, keep.astype(float), g)
        pi = g / np.bincount(grp, weights=g, minlength=nw)[grp]
        cum = np.cumsum(pi)
        cum -= np.repeat(np.r_[0.0, cum[start[1:-1] - 1]], L)
        cum = np.minimum(cum, 1.0)
        cum[start[1:] - 1] = 1.0 + 1e-12  # guard: every draw lands in its own group
        mw = m_pub[ws]
        dgrp = np.repeat(np.arange(nw), mw)
        u = gen.random(dgrp.size) * (1.0 - 1e-12)
        pos = np.searchsorted(cum + 2.0 * grp, u + 2.0 * dgrp, side="right")
        syn = np.bincount(pos, minlength=E).astype(float)
        # grid summaries
        rb = domains.rep_block[dom]
        wb = wblock[ws][grp]
        cell = grid_cell(bx[rb] - bx[wb], by[rb] - by[wb])
        idx = grp * G + cell
        for key, val in (("lik", n), ("post", post_mean), ("prior", prior_mean), ("syn", syn)):
            out[key][ws] = np.bincount(idx, weights=val, minlength=nw * G).reshape(nw, G)
    adj = pruned_epsilon(settings.eps, settings.min_p, max(max_alpha, 1e-12))
    detail = (f"Multinomial-Dirichlet synthesizer of one workplace: ({settings.eps:g}, {settings.delta:g})-PDP "
              f"before pruning, min_p = {settings.min_p:g}, largest prunable alpha {max_alpha:.6g} "
              "(Theorem 5.2: eps + ln(1/min_p) + ceil(alpha) ln 2)")
    entry = LedgerEntry("multinomial-dirichlet synthesizer", float(adj), "parallel", group="workplaces",
                        detail=detail)
    ledger = Ledger([entry] * W).check(adj, name="adjusted_eps")
    return Synthesis(settings=settings, workplace=wp["workplace"].to_numpy(), n=n_kept, m=m_pub,
                     likelihood=out["lik"], posterior=out["post"], prior=out["prior"], synthetic=out["syn"],
                     alpha_min=amin, max_alpha_pruned=max_alpha, adjusted_eps=adj, points=points,
                     retained=retained, ledger=ledger)


def validity_grid(syn: Synthesis, which: str = "posterior") -> np.ndarray:
    """Per-workplace distributions over the 40 grid cells (rows sum to 1 where defined)."""
    check_in(which, "which", ("posterior", "likelihood", "prior", "synthetic"))
    if which in ("posterior", "prior"):
        return getattr(syn, which)
    arr = getattr(syn, which)
    tot = arr.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(tot > 0, arr / np.where(tot > 0, tot, 1), np.nan)


def analytical_validity(syn: Synthesis, small=(1, 9)) -> pd.DataFrame:
    """Population-weighted KL divergence and integrated squared error, all and small workplaces.

    Slide "Analytical Validity Measures": for each workplace, L = the likelihood (confidential
    data) distribution and P = the posterior (mean) distribution on the 8 x 5 grid;
    D_KL(L || P) = sum_i L(i) ln(L(i)/P(i)) (the slide prints sum L ln(P/L), the same quantity
    with the opposite sign), IMSE = sum_i (P(i) - L(i))^2.  Workplaces are weighted by their
    number of (kept) jobs; "small" = 1 to 9 jobs.
    """
    L = validity_grid(syn, "likelihood")
    P = syn.posterior
    w = syn.n.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(L > 0, L * np.log(np.where(L > 0, L, 1) / P), 0.0)
    kl = np.where(w > 0, terms.sum(axis=1), 0.0)
    imse = np.where(w > 0, np.nansum((P - L) ** 2, axis=1), 0.0)
    lo, hi = small
    sm = (syn.n >= lo) & (syn.n <= hi)
    rows = {}
    for name, sel in (("all", w > 0), ("small", sm)):
        ww = w[sel]
        rows[name] = {"KL": float(np.sum(ww * kl[sel]) / ww.sum()) if ww.sum() else math.nan,
                      "IMSE": float(np.sum(ww * imse[sel]) / ww.sum()) if ww.sum() else math.nan,
                      "workplaces": int(sel.sum()), "jobs": int(ww.sum())}
    return pd.DataFrame(rows).T


def mass_by_distance(syn: Synthesis, small=None) -> pd.DataFrame:
    """Posterior, likelihood and prior mass across the 8 commute ranges, population-weighted.

    Form of the slides' table "Posterior, Likelihood and Prior Mass across Commute Ranges";
    ``small=(1, 9)`` restricts to small workplaces.
    """
    sel = syn.n > 0
    if small is not None:
        sel &= (syn.n >= small[0]) & (syn.n <= small[1])
    w = syn.n[sel].astype(float)
    nd = len(DISTANCE_LABELS)
    cols = {}
    for name, arr in (("Post.", syn.posterior), ("Lik.", validity_grid(syn, "likelihood")), ("Prior", syn.prior)):
        dist = arr[sel].reshape(-1, nd, len(DIRECTION_LABELS)).sum(axis=2)
        cols[name] = (w[:, None] * dist).sum(axis=0) / w.sum()
    return pd.DataFrame(cols, index=pd.Index(DISTANCE_LABELS, name="Distance"))


# ----------------------------------------------------------------------------------------
# the Multinomial-Dirichlet synthesizer on any table of counts
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class TableSynthesis:
    """Synthetic counts of :func:`synthesize_table`, with their privacy accounting.

    Attributes
    ----------
    counts : pandas.DataFrame
        Synthetic counts: one row per group (the "workplace"), one column per value of the
        public domain (the "home block"); row sums equal ``totals``.
    totals : numpy.ndarray
        Group sizes the synthesizer drew (public, or published with a warning).
    alpha : numpy.ndarray
        Symmetric Dirichlet prior per cell of each group, ``m / (e^eps - 1)``.
    eps : float
        The eps-DP guarantee per group (parallel composition across groups).
    ledger : privlib.accounting.Ledger
    """

    counts: pd.DataFrame
    totals: np.ndarray
    alpha: np.ndarray
    eps: float
    ledger: Ledger


def synthesize_table(counts, *, eps: float, rng, totals=None) -> TableSynthesis:
    """Multinomial-Dirichlet synthesis of a table of counts under eps-differential privacy.

    OnTheMap's synthesizer (slides "Synthetic Data Model" and "The Multinomial-Dirichlet
    Synthesizer"; Machanavajjhala et al. 2008) applied to any table: each row (group) plays
    the workplace and each column (a value of a public domain) the home block.  For a group
    with confidential counts ``n`` and size ``m``::

        alpha = m / (e^eps - 1)            (min_alpha_for_dp: the worst case n_i = 1, m_i = m)
        pi ~ Dirichlet(alpha + n)
        synthetic counts ~ Multinomial(m, pi)

    Each group's draw is eps-differentially private for neighbouring tables that move one
    record of the group from one column to another (the slides' neighbours: the group sizes
    are fixed); groups hold disjoint records, so the release composes in parallel.

    Parameters
    ----------
    counts : pandas.DataFrame or array_like (groups x values)
        Non-negative integer counts; the columns must be the *public* domain of the value
        (include the values with no record: ``crosstab(...).reindex(columns=domain,
        fill_value=0)``).
    eps : float
        Privacy budget of each group's synthesizer, > 0.
    rng : int or numpy.random.Generator
    totals : array_like, optional
        Public group sizes ``m`` (one per row).  Without it the data's own row sums are used
        and published, with a :class:`~privlib.PrivacyLeakWarning`: the guarantee above
        covers a record's value, not the size of its group.

    Returns
    -------
    TableSynthesis

    Raises
    ------
    ValueError
        Negative, fractional, NaN or empty counts; ``totals`` of the wrong length or negative;
        ``eps`` not a finite number > 0.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"a": [3, 0], "b": [1, 4]}, index=["g1", "g2"])
    >>> syn = synthesize_table(table, eps=1.0, rng=0, totals=[4, 4])
    >>> syn.counts.sum(axis=1).tolist(), round(syn.ledger.total(), 12)
    ([4, 4], 1.0)
    """
    eps = check_epsilon(eps)
    frame = counts if isinstance(counts, pd.DataFrame) else None
    n = check_array(counts.to_numpy() if frame is not None else counts, "counts", ndim=2, minimum=0)
    if n.size == 0:
        raise ValueError(f"counts: expected at least one group and one value, got shape {n.shape}")
    if np.any(n != np.round(n)):
        raise ValueError("counts: expected whole numbers (counts of records), got fractions")
    n = n.astype(np.int64)
    gen = as_generator(rng)
    if totals is None:
        warn_privacy_leak("synthesize_table: no public `totals` were given, so the group sizes of the data are "
                          "published as they are (outside the privacy budget); pass totals=")
        m = n.sum(axis=1)
    else:
        m = check_array(totals, "totals", ndim=1, minimum=0)
        if m.shape[0] != n.shape[0]:
            raise ValueError(f"totals: expected one size per group ({n.shape[0]}), got {m.shape[0]}")
        if np.any(m != np.round(m)):
            raise ValueError("totals: expected whole numbers (group sizes), got fractions")
        m = m.astype(np.int64)
    if m.sum() > _MAX_DRAWS:
        raise ValueError(f"totals: expected at most {_MAX_DRAWS:,} synthetic records in all, got {int(m.sum()):,}")
    alpha = np.asarray(min_alpha_for_dp(m, eps), dtype=float)
    conc = alpha[:, None] + n
    draws = gen.standard_gamma(np.where(conc > 0, conc, 1.0))
    draws = np.where(conc > 0, draws, 0.0)
    sums = draws.sum(axis=1, keepdims=True)
    k = n.shape[1]
    pi = np.divide(draws, sums, out=np.full(draws.shape, 1.0 / k), where=sums > 0)
    syn = gen.multinomial(m, pi)
    ledger = Ledger.from_calls("multinomial-dirichlet", np.full(n.shape[0], eps), "parallel", group="groups",
                               detail="one synthesizer per group, alpha = m / (e^eps - 1)").check(eps)
    out = (pd.DataFrame(syn, index=frame.index, columns=frame.columns) if frame is not None
           else pd.DataFrame(syn))
    return TableSynthesis(counts=out, totals=m, alpha=alpha, eps=eps, ledger=ledger)
