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

*OnTheMap-style synthesizer* (slides "Coarsening Steps" to "Posterior, Likelihood and Prior
Mass across Commute Ranges"): :func:`build_domains`, :func:`synthesize`,
:func:`validity_grid`, :func:`analytical_validity`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.special import gammaln
from scipy.stats import binom, betabinom

from ._validation import (
    as_generator,
    check_delta,
    check_distribution,
    check_epsilon,
    check_in,
    check_int,
    check_positive,
    check_probability,
)

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
]

MD_KINDS = ("posterior-predictive", "plug-in")
DISCLOSURE_RULES = ("smaller", "any")


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
    """
    n = check_int(n, "n", minimum=0)
    m = check_int(m, "m", minimum=0)
    a1, a2 = _check_alpha(alpha)
    check_in(kind, "kind", MD_KINDS)
    n1 = np.arange(n + 1)[:, None]
    m1 = np.arange(m + 1)[None, :]
    if kind == "plug-in":
        p = (a1 + n1) / (a1 + a2 + n)
        return binom.pmf(m1, m, p)
    return betabinom.pmf(m1, m, a1 + n1, a2 + n - n1)


def md_prior(n: int, alpha=0.5, kind: str = "posterior-predictive") -> np.ndarray:
    """Prior marginal Pr[n_1] of the confidential counts, n_1 = 0..n.

    ``"posterior-predictive"``: the Dirichlet-multinomial (beta-binomial) marginal of
    M(n, pi) with pi ~ D(alpha).  ``"plug-in"``: binomial(n, alpha_1/alpha_0), the prior mean
    plugged in -- the marginal that generates the slides' joint table Pr[m, n] (slide
    "Probabilistic Differential Privacy": "the marginal Pr[n] is based on the prior D(alpha)").
    """
    n = check_int(n, "n", minimum=0)
    a1, a2 = _check_alpha(alpha)
    check_in(kind, "kind", MD_KINDS)
    k = np.arange(n + 1)
    if kind == "plug-in":
        return binom.pmf(k, n, a1 / (a1 + a2))
    return betabinom.pmf(k, n, a1, a2)


def transition_frame(T, name: str = "Pr[m|n]") -> pd.DataFrame:
    """Label a two-category table: rows "(n_1, n_2)", columns "(m_1, m_2)" as on the slides."""
    arr = np.asarray(T, dtype=float)
    n, m = arr.shape[0] - 1, arr.shape[1] - 1
    rows = pd.Index([f"({i},{n - i})" for i in range(n + 1)], name="n = (n1,n2)")
    cols = pd.Index([f"({j},{m - j})" for j in range(m + 1)], name="m = (m1,m2)")
    return pd.DataFrame(arr, index=rows, columns=cols)


def ratio_frame(R) -> pd.DataFrame:
    """Label a DP-ratio table: rows "(n1(1),n2(1)) vs (n1(2),n2(2))"."""
    arr = np.asarray(R, dtype=float)
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
    """
    eps = check_epsilon(eps)
    m_arr = np.asarray(m, dtype=float)
    if np.any(m_arr < 0):
        raise ValueError(f"m: expected synthetic totals >= 0, got a minimum of {m_arr.min()}")
    out = m_arr / math.expm1(eps)
    return float(out) if out.ndim == 0 else out


def min_alpha_for_pdp(m: int, eps: float, delta: float, n: int | None = None,
                      kind: str = "posterior-predictive", prior="worst", rule: str = "smaller",
                      alpha_bounds=(1e-4, 1e6), rtol: float = 1e-6) -> float:
    """Minimum symmetric prior sample size alpha_i that guarantees (eps, delta)-PDP.

    Slide "Search Algorithm Implements PDP": "finds the minimum prior sample size to guarantee
    eps-differential privacy with failure probability delta".  Here in the slides' detailed
    two-category setting: delta(alpha) = :func:`pdp_delta` of ``md_transition(n, m, alpha,
    kind)`` with the given ``prior`` (``"worst"`` = for all tables, or ``"prior"`` = averaged
    over :func:`md_prior` as on the slides).  The search scans a geometric grid (8 points per
    decade) for the first alpha with delta(alpha) <= delta, then bisects (in log alpha) between
    it and the previous grid point to relative precision ``rtol``.  It assumes delta(alpha)
    crosses the target once inside that bracket.

    Returns
    -------
    float
        The minimum alpha (``inf`` if no alpha up to ``alpha_bounds[1]`` suffices; ``alpha_bounds[0]``
        if even that satisfies the target).
    """
    m = check_int(m, "m", minimum=0)
    n = m if n is None else check_int(n, "n", minimum=0)
    eps = check_epsilon(eps)
    delta = check_delta(delta)
    check_in(kind, "kind", MD_KINDS)
    if not (isinstance(prior, str) and prior in ("worst", "prior")):
        raise ValueError(f"prior: expected 'worst' or 'prior', got {prior!r}")
    lo_b, hi_b = (check_positive(x, "alpha_bounds") for x in alpha_bounds)

    def d(alpha):
        T = md_transition(n, m, alpha, kind)
        p = "worst" if prior == "worst" else md_prior(n, alpha, kind)
        return pdp_delta(T, p, eps, rule)

    grid = np.geomspace(lo_b, hi_b, int(round(8 * math.log10(hi_b / lo_b))) + 1)
    prev = None
    for a in grid:
        if d(a) <= delta:
            break
        prev = a
    else:
        return math.inf
    if prev is None:
        return float(grid[0])
    lo, hi = math.log(prev), math.log(a)
    while hi - lo > rtol:
        mid = 0.5 * (lo + hi)
        if d(math.exp(mid)) <= delta:
            hi = mid
        else:
            lo = mid
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
    f = np.atleast_1d(np.asarray(min_p, dtype=float))
    for v in f:
        check_probability(float(v), "min_p", low_open=True)
    a = np.atleast_1d(np.asarray(alpha, dtype=float))
    for v in a:
        check_positive(float(v), "alpha")
    return float(eps + np.max(np.log(1.0 / f)) + np.max(np.ceil(a)) * math.log(2.0))
