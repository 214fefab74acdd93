"""The exact discrete Gaussian mechanism (Canonne, Kamath & Steinke 2020, Algorithm 3).

Integer noise with ``P(Z = z)`` proportional to ``exp(-z**2 / (2 sigma2))``, drawn with integer and
rational arithmetic only: candidates from the exact discrete Laplace of scale
``t = floor(sigma) + 1`` (:mod:`privlib.mechanisms._exact`), each kept with probability
``exp(-(|Y| - sigma2 / t)**2 / (2 sigma2))`` by the exact Bernoulli(exp(-gamma)) sampler of
Algorithm 1.  Adding it to an integer query of L2 sensitivity Delta is
``Delta**2 / (2 sigma2)``-zCDP (CKS 2020, Theorem 4; :func:`privlib.accounting.gaussian_rho`).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from .._validation import _fmt, as_generator
from ._exact import _I64, _T_MAX, _bern_exp, _discrete_laplace_noise, _geometric_exp1, _integer_values

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["discrete_gaussian", "discrete_gaussian_pmf"]


def _sigma2_rational(sigma2) -> tuple[int, int]:
    """``sigma2`` as an exact fraction ``p / q`` whose sampler denominators fit int64; a float is
    read exactly (a dyadic rational) and, only if its denominator is too large, rounded UP to a
    multiple of ``2**-k`` for the largest k that fits: more noise, so the privacy claimed holds."""
    if isinstance(sigma2, bool) or not isinstance(sigma2, (int, float, Fraction, np.integer, np.floating)):
        raise TypeError(f"sigma2: expected an int, float or Fraction, got {type(sigma2).__name__} {_fmt(sigma2)}")
    if not math.isfinite(float(sigma2)) or not sigma2 > 0:
        raise ValueError(f"sigma2: expected a finite variance > 0, got {_fmt(sigma2)}")
    r = Fraction(sigma2) if not isinstance(sigma2, np.floating) else Fraction(float(sigma2))
    if not r > 0:
        raise ValueError(f"sigma2: expected a finite variance > 0, got {_fmt(sigma2)}")
    for k in [None, *range(40, -1, -1)]:
        x = r if k is None else Fraction(math.ceil(r * 2 ** k), 2 ** k)
        p, q = x.numerator, x.denominator
        t = math.isqrt(p // q) + 1
        if 2 * p * q * t * t <= _T_MAX:
            return p, q
    raise ValueError(f"sigma2: {_fmt(sigma2)} is too large for the int64 sampler (expected sigma2 below about 2e9)")


def _discrete_gaussian_noise(gen: np.random.Generator, n: int, p: int, q: int) -> np.ndarray:
    """``n`` exact draws of N_Z(0, p / q) (CKS 2020, Algorithm 3), vectorised by rejection rounds."""
    t = math.isqrt(p // q) + 1                       # floor(sigma) + 1
    den = 2 * p * q * t * t                          # gamma = (|Y| q t - p)**2 / den
    out = np.zeros(n, dtype=np.int64)
    todo = np.arange(n)
    while todo.size:
        y = _discrete_laplace_noise(gen, todo.size, 1, t)        # P(Y = y) ~ exp(-|y| / t)
        num = (np.abs(y).astype(object) * (q * t) - p) ** 2
        whole = num // den                           # floor(gamma): that many Bernoulli(1/e) draws
        rest = num - whole * den                     # then one Bernoulli(exp(-rest / den))
        v = _geometric_exp1(gen, todo.size)          # successes of Bernoulli(1/e) before a failure
        ok = np.array([int(vi) >= w for vi, w in zip(v, whole)], dtype=bool)
        if ok.any():
            ok[ok] = _bern_exp(gen, rest[ok].astype(np.int64), den)
        out[todo[ok]] = y[ok]
        todo = todo[~ok]
    return out


def discrete_gaussian(values: ArrayLike, *, sigma2: int | float | Fraction,
                      rng: int | np.random.Generator) -> int | np.ndarray:
    """Return ``values + Z`` with Z exact discrete Gaussian noise N_Z(0, sigma2).

    ``P(Z = z) = exp(-z**2 / (2 sigma2)) / sum_y exp(-y**2 / (2 sigma2))``, sampled exactly by
    Canonne, Kamath & Steinke (2020), Algorithm 3 (rejection from a discrete Laplace of scale
    ``floor(sigma) + 1``, lines 1-9), with integer arithmetic only.  For an integer query of L2
    sensitivity Delta the release is ``Delta**2 / (2 sigma2)``-zCDP (their Theorem 4), hence
    ``(eps, delta)``-DP for the eps of :func:`privlib.accounting.zcdp_to_dp`.

    Parameters
    ----------
    values : int or array_like of int
        True integer answer(s) (counts).
    sigma2 : int, float or fractions.Fraction
        The variance parameter, > 0; read as an exact rational (a float whose denominator is too
        large for int64 is rounded up, which adds noise).
    rng : int or numpy.random.Generator
        Source of the noise (an int is a seed); only ``Generator.integers`` is called.

    Returns
    -------
    int or numpy.ndarray of int64
        Noisy answer(s), shaped as ``values``.

    Raises
    ------
    TypeError
        ``values`` not integer-valued, ``sigma2`` not a number, ``rng`` not an int or Generator.
    ValueError
        ``sigma2`` not finite and > 0 or too large, non-integral values, int64 overflow.

    References
    ----------
    C. L. Canonne, G. Kamath, T. Steinke, "The Discrete Gaussian for Differential Privacy",
    NeurIPS 2020, Algorithms 1-3 and Theorem 4.

    Examples
    --------
    >>> z = discrete_gaussian(np.zeros(20_000, dtype=np.int64), sigma2=4, rng=0)
    >>> z.dtype, round(float(z.var()), 1)
    (dtype('int64'), 4.0)
    >>> isinstance(discrete_gaussian(7, sigma2=1, rng=1), int)
    True
    """
    p, q = _sigma2_rational(sigma2)
    gen = as_generator(rng)
    arr = _integer_values(values)
    z = _discrete_gaussian_noise(gen, arr.size, p, q).reshape(arr.shape)
    over = np.where(z > 0, arr > _I64.max - np.maximum(z, 0), arr < _I64.min - np.minimum(z, 0))
    if over.any():
        i = int(np.argmax(over.ravel()))
        raise ValueError(f"values: value {int(arr.flat[i])} + noise {int(z.flat[i])} at position {i} overflows "
                         "int64; expected values further from +-2**63")
    out = arr + z
    return int(out) if out.ndim == 0 else out


def discrete_gaussian_pmf(z: ArrayLike, *, sigma2: float) -> np.ndarray:
    """``P(Z = z)`` of N_Z(0, sigma2), normalised over ``|y| <= 60 sigma + 60`` (the mass beyond
    is below 1e-700).  A float function for plots and checks, not for sampling.

    Parameters
    ----------
    z : array_like of int
        Integer points.
    sigma2 : float
        Variance parameter, > 0.

    Returns
    -------
    numpy.ndarray of float

    Examples
    --------
    >>> round(float(discrete_gaussian_pmf(np.arange(-100, 101), sigma2=9).sum()), 12)
    1.0
    """
    p, q = _sigma2_rational(sigma2)
    s2 = p / q
    half = int(60 * math.sqrt(s2)) + 60
    y = np.arange(-half, half + 1)
    norm = np.exp(-(y.astype(float) ** 2) / (2 * s2)).sum()
    zz = np.asarray(z)
    if zz.dtype.kind not in "iu":
        raise TypeError(f"z: expected integers, got dtype {zz.dtype}")
    return np.exp(-(zz.astype(float) ** 2) / (2 * s2)) / norm
