"""Differential-privacy primitives shared by the chapters.

* :func:`laplace` -- the Laplace mechanism (Dwork et al. 2006): add Lap(sensitivity/eps).
* :func:`exponential` -- the exponential mechanism (McSherry & Talwar 2007): choose
  candidate ``i`` with probability proportional to ``exp(eps * u_i / (2 * sensitivity))``,
  computed in log space so that utilities of +-1e6 neither overflow nor give NaN.
* :func:`geometric` -- the discrete (two-sided geometric) mechanism (Ghosh et al. 2009):
  add integer noise with P(Z = z) proportional to ``alpha**|z|``, ``alpha = exp(-eps/sensitivity)``.

Every function takes ``rng`` (int seed or :class:`numpy.random.Generator`).
"""
from __future__ import annotations

import numpy as np

from ._validation import as_generator, check_epsilon, check_positive

__all__ = [
    "laplace",
    "laplace_scale",
    "exponential",
    "exponential_probabilities",
    "geometric",
    "geometric_pmf",
]


def laplace_scale(eps: float, sensitivity: float = 1.0) -> float:
    """Scale b = sensitivity / eps of the Laplace mechanism."""
    eps = check_epsilon(eps)
    sensitivity = check_positive(sensitivity, "sensitivity")
    return sensitivity / eps


def laplace(value, eps: float, sensitivity: float = 1.0, rng=0):
    """Return ``value + Lap(sensitivity / eps)`` (element-wise for arrays).

    Parameters
    ----------
    value : float or array_like
        The true answer(s).
    eps : float
        Privacy budget, > 0.
    sensitivity : float
        L1 sensitivity of the query, > 0.
    rng : int or numpy.random.Generator

    Returns
    -------
    float or numpy.ndarray
        Noisy answer(s), same shape as ``value``.
    """
    b = laplace_scale(eps, sensitivity)
    gen = as_generator(rng)
    arr = np.asarray(value, dtype=float)
    if np.isnan(arr).any():
        raise ValueError("value: contains NaN; the Laplace mechanism needs finite true answers")
    noisy = arr + gen.laplace(0.0, b, size=arr.shape)
    return float(noisy) if noisy.ndim == 0 else noisy


def exponential_probabilities(utilities, eps: float, sensitivity: float = 1.0, base_measure=None) -> np.ndarray:
    """Selection probabilities of the exponential mechanism.

    ``P(i) = mu_i * exp(eps * u_i / (2 du)) / sum_j mu_j * exp(eps * u_j / (2 du))``, with an
    optional base measure ``mu`` (e.g. interval lengths for continuous split points, as in
    DiffGen's Algorithm 1, line 5).  Computed with the log-sum-exp trick.
    """
    eps = check_epsilon(eps)
    sensitivity = check_positive(sensitivity, "sensitivity")
    u = np.asarray(utilities, dtype=float)
    if u.ndim != 1 or u.size == 0:
        raise ValueError(f"utilities: expected a non-empty 1-d array, got shape {u.shape}")
    if not np.all(np.isfinite(u)):
        raise ValueError("utilities: expected finite utilities, got NaN or inf")
    logw = eps * u / (2.0 * sensitivity)
    if base_measure is not None:
        mu = np.asarray(base_measure, dtype=float)
        if mu.shape != u.shape:
            raise ValueError(f"base_measure: expected shape {u.shape}, got {mu.shape}")
        if np.any(mu < 0) or not np.all(np.isfinite(mu)) or not np.any(mu > 0):
            raise ValueError("base_measure: expected finite non-negative weights, not all zero")
        with np.errstate(divide="ignore"):
            logw = logw + np.log(mu)
    logw = logw - np.max(logw)
    w = np.exp(logw)
    return w / w.sum()


def exponential(utilities, eps: float, sensitivity: float = 1.0, rng=0, base_measure=None) -> int:
    """Draw one index by the exponential mechanism (McSherry & Talwar 2007).

    Parameters
    ----------
    utilities : array_like
        Utility ``u_i`` of each candidate (higher is better).
    eps : float
        Privacy budget spent by this call, > 0.
    sensitivity : float
        Sensitivity ``du`` of the utility function.
    rng : int or numpy.random.Generator
    base_measure : array_like, optional
        Non-negative weight of each candidate (e.g. an interval's length).

    Returns
    -------
    int
        Index of the chosen candidate.
    """
    p = exponential_probabilities(utilities, eps, sensitivity, base_measure)
    gen = as_generator(rng)
    return int(np.searchsorted(np.cumsum(p), gen.random() * p.sum(), side="right").clip(0, p.size - 1))


def geometric_pmf(z, eps: float, sensitivity: float = 1.0):
    """P(Z = z) of the two-sided geometric distribution with alpha = exp(-eps/sensitivity)."""
    eps = check_epsilon(eps)
    sensitivity = check_positive(sensitivity, "sensitivity")
    alpha = np.exp(-eps / sensitivity)
    z = np.asarray(z)
    return (1 - alpha) / (1 + alpha) * alpha ** np.abs(z)


def geometric(value, eps: float, sensitivity: float = 1.0, rng=0):
    """Return ``value + Z`` with Z two-sided geometric (the discrete Laplace mechanism).

    Z is the difference of two i.i.d. geometric variables with success probability
    ``1 - alpha``, ``alpha = exp(-eps / sensitivity)``, which has P(Z = z) proportional to
    ``alpha**|z|`` (Ghosh, Roughgarden & Sundararajan 2009).  ``value`` must be integer.
    """
    eps = check_epsilon(eps)
    sensitivity = check_positive(sensitivity, "sensitivity")
    gen = as_generator(rng)
    arr = np.asarray(value)
    if not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
        else:
            raise ValueError("value: the geometric mechanism needs integer true answers")
    q = 1.0 - np.exp(-eps / sensitivity)
    z = gen.geometric(q, size=arr.shape) - gen.geometric(q, size=arr.shape)
    out = arr + z
    return int(out) if out.ndim == 0 else out
