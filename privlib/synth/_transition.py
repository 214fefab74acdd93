"""The two-category Multinomial-Dirichlet synthesizer and the Laplace sanitizer as
transition matrices Pr[m | n] (slides "The Multinomial-Dirichlet Synthesizer" and "Laplace
Sanitizer" of Abowd & Vilhuber 2011)."""
from __future__ import annotations


import numpy as np
import pandas as pd

from .._validation import check_array, check_distribution, check_epsilon, check_in, check_int, check_positive

#: The two models of :func:`md_transition`.
MD_KINDS = ("posterior-predictive", "plug-in")
#: The rules of :func:`disclosure_mask`: which cell of a failing pair of rows counts towards delta.
DISCLOSURE_RULES = ("smaller", "any")
#: Largest (n + 1) x (m + 1) transition matrix computed (400 MB of float64).
_MAX_CELLS = 50_000_000
#: Largest total of published employment :func:`synthesize` draws residences for.
_MAX_DRAWS = 20_000_000


# ----------------------------------------------------------------------------------------
# validation helpers shared by the private submodules
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
def md_transition(n: int, m: int, *, alpha: float | tuple[float, float] = 0.5,
                  kind: str = "posterior-predictive") -> np.ndarray:
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
    numpy.ndarray
        Shape (n + 1, m + 1); each row sums to 1.

    Raises
    ------
    ValueError
        ``n`` or ``m`` negative, ``alpha`` not positive and finite, unknown ``kind``, or a
        matrix of more than 5e7 entries.
    TypeError
        ``n`` or ``m`` not an integer.

    Examples
    --------
    >>> T = md_transition(5, 5, alpha=0.5, kind="plug-in")   # the slides' table
    >>> T.shape, round(float(T[0, 0]), 6), round(float(T[1, 1]), 6)
    ((6, 6), 0.647228, 0.395508)

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
    from scipy.special import gammaln  # heavy: imported where used

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


def md_prior(n: int, *, alpha: float | tuple[float, float] = 0.5,
             kind: str = "posterior-predictive") -> np.ndarray:
    """Prior marginal Pr[n_1] of the confidential counts, n_1 = 0..n.

    ``"posterior-predictive"``: the Dirichlet-multinomial (beta-binomial) marginal of
    M(n, pi) with pi ~ D(alpha).  ``"plug-in"``: binomial(n, alpha_1/alpha_0), the prior mean
    plugged in -- the marginal that generates the slides' joint table Pr[m, n] (slide
    "Probabilistic Differential Privacy": "the marginal Pr[n] is based on the prior D(alpha)").

    Parameters
    ----------
    n : int
        Confidential total, >= 0.
    alpha : float or (float, float)
        Dirichlet prior parameters, > 0 (see :func:`md_transition`).
    kind : {"posterior-predictive", "plug-in"}

    Returns
    -------
    numpy.ndarray
        Shape (n + 1,), summing to 1.

    Raises
    ------
    ValueError
        As :func:`md_transition`.
    TypeError
        ``n`` not an integer.

    Examples
    --------
    >>> md_prior(2, alpha=0.5, kind="plug-in").round(3).tolist()
    [0.25, 0.5, 0.25]
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


def transition_frame(T: np.ndarray, *, name: str = "Pr[m|n]") -> pd.DataFrame:
    """Label a two-category table: rows "(n_1, n_2)", columns "(m_1, m_2)" as on the slides.

    Parameters
    ----------
    T : array_like, shape (n + 1, m + 1)
        A transition matrix (or any table of that shape).
    name : str
        Unused label of the table (kept for display code that passes it).

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> f = transition_frame(md_transition(1, 1, alpha=1.0, kind="plug-in"))
    >>> list(f.index), list(f.columns), round(float(f.iloc[0, 0]), 3)
    (['(0,1)', '(1,0)'], ['(0,1)', '(1,0)'], 0.667)
    """
    arr = check_array(T, "T", ndim=2, finite=False)
    n, m = arr.shape[0] - 1, arr.shape[1] - 1
    rows = pd.Index([f"({i},{n - i})" for i in range(n + 1)], name="n = (n1,n2)")
    cols = pd.Index([f"({j},{m - j})" for j in range(m + 1)], name="m = (m1,m2)")
    return pd.DataFrame(arr, index=rows, columns=cols)


def ratio_frame(R: np.ndarray) -> pd.DataFrame:
    """Label a DP-ratio table: rows "(n1(1),n2(1)) vs (n1(2),n2(2))".

    Parameters
    ----------
    R : array_like, shape (n, m + 1)
        A ratio table (:func:`privlib.synth.dp_ratio_table`).

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> list(ratio_frame([[0.5, 0.5]]).index)
    ['(0,1) vs (1,0)']
    """
    arr = check_array(R, "R", ndim=2, finite=False)
    n, m = arr.shape[0], arr.shape[1] - 1
    rows = pd.Index([f"({i},{n - i}) vs ({i + 1},{n - i - 1})" for i in range(n)], name="n(1) vs n(2)")
    cols = pd.Index([f"({j},{m - j})" for j in range(m + 1)], name="m = (m1,m2)")
    return pd.DataFrame(arr, index=rows, columns=cols)


def laplace_transition(n: int, *, eps: float, scale: float | None = None) -> np.ndarray:
    """Transition matrix of the Laplace sanitizer with the total n released without noise.

    Slide "Laplace Sanitizer": m_1 = clip(round(n_1 + u), 0, n), m_2 = n - m_1, with
    u ~ Laplace(0, scale).  The slides' table at eps = 2 is generated by ``scale = 1/eps``
    (one entity moves n_1 by 1, so the sensitivity is 1); the slide's text "Lap(0, 2/eps)
    ... variance 2/eps" is inconsistent with its own table (Laplace(b) has variance 2 b^2).
    Rounding is to the nearest integer; the mass beyond 0 and n piles up at 0 and n.

    Parameters
    ----------
    n : int
        The total (released without noise), >= 0.
    eps : float
        Privacy budget, > 0; the noise scale is ``1/eps`` unless ``scale`` is given.
    scale : float, optional
        Laplace scale b, > 0.

    Returns
    -------
    numpy.ndarray
        Shape (n + 1, n + 1); each row sums to 1.

    Raises
    ------
    ValueError
        ``n`` negative, ``eps`` or ``scale`` not a finite number > 0.

    Examples
    --------
    >>> L = laplace_transition(5, eps=2.0)    # the slides' table
    >>> round(float(L[0, 0]), 6), round(float(L[2, 2]), 6)
    (0.81606, 0.632121)
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


