"""Exact noise: integer samplers that use no float between the true answer and the released one.

* :func:`discrete_laplace` -- the discrete Laplace (two-sided geometric) mechanism sampled with
  integer arithmetic only (Canonne, Kamath & Steinke 2020, Algorithms 1-2).
* :func:`snapping` -- Mironov's (2012) snapping mechanism for bounded real values, and
  :func:`snapping_epsilon`, the privacy it guarantees (his Theorem 1).
* ``_grid_laplace`` -- the engine of :func:`privlib.mechanisms.laplace`: the value rounded to a
  grid of ``2**-10`` sensitivity, exact discrete Laplace noise on the grid.

Why: a floating-point sample ``x + b * log(U)`` can take only a sparse set of values, and that
set depends on ``x``; Mironov (CCS 2012, "On significance of the least significant bits for
differential privacy") showed that one released value then often reveals ``x``
(:func:`privlib.attacks.float_laplace_attack`).
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .._validation import _fmt, as_generator, check_epsilon, check_int, check_positive

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["discrete_laplace", "snapping", "snapping_epsilon"]

#: Largest denominator ``t`` of the rational ``eps / sensitivity = s / t`` that the integer sampler
#: handles in int64 (uniform draws on ``[0, t)``).
_T_MAX = 2 ** 62
_I64 = np.iinfo(np.int64)
#: Largest ``eps / sensitivity`` of the integer samplers (above it the rational's numerator would
#: pass int64; the noise is 0 with probability ``1 - 2 exp(-2**40)`` anyway).
_RATIO_MAX = 2 ** 40
#: Largest |value| of :func:`discrete_laplace`: value + noise stays in int64.
_INT64_SAFE = 2 ** 62


def _bern_exp(gen, num, t):
    """Exact Bernoulli(exp(-num / t)) per element, ``0 <= num <= t`` (int64), by Canonne, Kamath
    & Steinke (2020), Algorithm 1: draw A_k ~ Bernoulli(gamma / k) for k = 1, 2, ... until the
    first A_k = 0; the result is 1 iff that k is odd.  ``Bernoulli(num / (t k))`` is one draw
    ``rng.integers(0, t k) < num`` while ``t k <= 2**62``, else ``Bernoulli(num / t)`` and
    ``Bernoulli(1 / k)`` (no product can overflow)."""
    cur = np.asarray(num, dtype=np.int64).ravel()
    if not cur.size:
        return np.zeros(np.shape(num), dtype=bool)
    k = 1
    while True:   # round k draws A_k for the elements whose A_1 .. A_(k-1) were all 1
        m = cur.size
        if t == 1 and k == 1:
            a = cur >= 1                                  # Bernoulli(cur / 1): no draw
        elif t * k <= _T_MAX:
            a = gen.integers(0, t * k, size=m) < cur
        else:
            a = (gen.integers(0, t, size=m) < cur) & (gen.integers(0, k, size=m) == 0)
        if k == 1:                                        # every element is drawn: no index arrays
            out = ~a
            idx = np.flatnonzero(a)
        else:
            if k % 2:
                out[idx[~a]] = True
            idx = idx[a]
        if not idx.size:
            break
        cur = cur[a]
        k += 1
    return out.reshape(np.shape(num))


def _geometric_exp1(gen, n):
    """``n`` exact draws of V with P(V = v) = (1 - e^-1) e^-v, v >= 0: the number of successes of
    Bernoulli(exp(-1)) before the first failure (CKS 2020, Algorithm 2, lines 5-8)."""
    v = np.zeros(n, dtype=np.int64)
    if not n:
        return v
    idx = np.flatnonzero(_bern_exp_one(gen, n))
    while idx.size:
        v[idx] += 1
        idx = idx[_bern_exp_one(gen, idx.size)]
    return v


def _bern_exp_one(gen, m):
    """``_bern_exp(gen, np.ones(m, dtype=np.int64), 1)``, Bernoulli(exp(-1)), with the same draws and
    fewer arrays: A_1 = Bernoulli(1) needs no draw, then A_k = ``rng.integers(0, k) < 1``."""
    out = np.zeros(m, dtype=bool)
    idx = np.flatnonzero(gen.integers(0, 2, size=m) < 1)          # A_2 = 0: k = 2 is even, result 0
    k = 3
    while idx.size:
        a = gen.integers(0, k, size=idx.size) < 1
        if k % 2:              # the survivors' results so far: 1 if A_k = 0 (k odd), 0 while they go on
            out[idx] = ~a      # (a survivor's result is set again at the next odd k it reaches)
        idx = idx[a]
        k += 1
    return out


def _eps_rational(eps, sensitivity):
    """``eps / sensitivity`` as an exact fraction ``s / t`` with ``t <= 2**62``: ``Fraction(eps)`` is
    exact (a float is a dyadic rational); only when its denominator times ``sensitivity`` would
    pass 2**62 (eps below about 1e-3 with many mantissa bits) is eps rounded DOWN to a multiple of
    ``sensitivity / 2**62`` -- a smaller eps, so the release stays eps-DP."""
    from fractions import Fraction
    r = Fraction(eps) / Fraction(sensitivity)
    if r > _RATIO_MAX:
        raise ValueError(f"eps: eps / sensitivity = {float(r):.6g} is above 2**40; expected a finite budget "
                         f"with eps / sensitivity <= 2**40 (the noise is already 0 with probability "
                         f"1 - 2 exp(-2**40) there)")
    if r.denominator > _T_MAX:
        r = Fraction(int(r * _T_MAX), _T_MAX)
        if r == 0:
            raise ValueError(f"eps: eps / sensitivity = {eps!r} / {sensitivity} is below 2**-62; the integer "
                             "sampler cannot represent it (expected a larger eps or a smaller sensitivity)")
    return r.numerator, r.denominator


def _discrete_laplace_noise(gen, n, s, t):
    """``n`` exact draws of Z with P(Z = z) proportional to exp(-|z| s / t) (CKS 2020, Algorithm 2),
    vectorised: each round draws for every element not yet accepted."""
    out = np.zeros(n, dtype=np.int64)
    todo = np.arange(n)
    a, b = divmod(t, s)                       # t = a s + b
    while todo.size:
        m = todo.size
        u = gen.integers(0, t, size=m) if t > 1 else np.zeros(m, dtype=np.int64)
        keep = _bern_exp(gen, u, t)           # accept U with probability exp(-U / t)
        u = u[keep]
        v = _geometric_exp1(gen, u.size)
        # Y = floor((U + t V) / s) = a V + U // s + floor((U % s + b V) / s), in int64 when safe
        v_max = min((_I64.max - s) // max(b, 1), (_I64.max // 4) // max(a, 1))
        if s == 1:
            y = a * v + u if v.size and v.max() <= v_max else np.empty(u.size, dtype=np.int64)
        else:
            y = a * v + u // s + (u % s + b * v) // s if v.size and v.max() <= v_max else np.empty(u.size, np.int64)
        unsafe = np.flatnonzero(v > v_max) if v.size and v.max() > v_max else ()
        if len(unsafe):                      # pragma: no cover - probability below e**-60
            safe = v <= v_max
            us, vs = u[safe], v[safe]
            y[safe] = a * vs + us // s + (us % s + b * vs) // s
        for i in unsafe:                     # pragma: no cover - probability below e**-60
            big = (int(u[i]) + t * int(v[i])) // s
            if big > 2 ** 62:
                raise ValueError("eps: the discrete Laplace noise passed 2**62 and would overflow int64; "
                                 "use a larger eps or a smaller sensitivity")
            y[i] = big
        neg = gen.integers(0, 2, size=u.size).astype(bool)
        redo = neg & (y == 0)                 # reject "-0" so that 0 is not counted twice
        np.negative(y, out=y, where=neg)
        out[todo[keep]] = y                   # a rejected "-0" writes 0, the value it already has
        if redo.any():
            keep[keep] = ~redo
        todo = todo[~keep]
    return out


def _integer_values(values, name="values"):
    """``values`` as an int64 array: integer dtypes, or floats that hold integers; bools, objects,
    strings and non-integral floats are refused."""
    arr = np.asarray(values)
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iuf":
        raise TypeError(f"{name}: expected integers (an integer array or integral floats), got dtype "
                        f"{arr.dtype} {_fmt(values)}")
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.floor(arr))
        if bad.any():
            raise ValueError(f"{name}: expected integers, got the non-integer {arr.flat[np.argmax(bad.ravel())]!r}")
        if arr.size and (arr.max() >= 2.0 ** 63 or arr.min() < -(2.0 ** 63)):
            raise ValueError(f"{name}: expected integers within int64, got {arr.min()!r} .. {arr.max()!r}")
    elif arr.dtype.kind == "u" and arr.size and arr.max() > _I64.max:
        raise ValueError(f"{name}: expected integers within int64, got {arr.max()!r}")
    return arr.astype(np.int64)


def discrete_laplace(values: ArrayLike, *, eps: float, sensitivity: int = 1,
                     rng: int | np.random.Generator) -> int | np.ndarray:
    """Return ``values + Z`` with Z exact discrete Laplace noise, sampled with integers only.

    ``P(Z = z) = (1 - alpha) / (1 + alpha) * alpha**|z|`` with ``alpha = exp(-eps / sensitivity)``
    (the two-sided geometric mechanism of Ghosh, Roughgarden & Sundararajan 2009, which is
    ``eps``-DP for an integer query of L1 sensitivity ``sensitivity``).  Unlike a floating-point
    sampler, no float ever lies between the true count and the released one: ``eps`` is read as
    the exact rational ``fractions.Fraction(eps)`` (a float is a dyadic rational), and Z is drawn
    by Canonne, Kamath & Steinke (2020), Algorithm 1 (Bernoulli(exp(-gamma)) from exact
    Bernoulli(num / den) draws, ``rng.integers(0, den) < num``) and Algorithm 2 (discrete
    Laplace by rejection).  The draws are vectorised: each rejection round redraws only the
    elements not yet accepted.  Hence the released value's distribution is exactly the one the
    privacy proof assumes, whatever the magnitude (Mironov 2012's attack on the low-order
    bits of a float Laplace sample has nothing to read).

    Parameters
    ----------
    values : int or array_like of int
        True integer answer(s): an integer dtype, or floats holding integers; bools, strings,
        objects and non-integral floats are refused.
    eps : float
        Privacy budget, finite and > 0.  When ``Fraction(eps)`` has a denominator above
        ``2**62 / sensitivity`` (eps below about 1e-3 with a full mantissa) it is rounded down
        to the nearest multiple of ``sensitivity / 2**62`` (a relative change below
        ``2**-62 * sensitivity / eps``; the release stays ``eps``-DP).
    sensitivity : int
        L1 sensitivity of the integer query, a positive integer.
    rng : int or numpy.random.Generator
        Source of the noise (an int is a seed); only ``Generator.integers`` is called.

    Returns
    -------
    int or numpy.ndarray of int64
        Noisy answer(s), shaped as ``values`` (a Python int for a scalar).

    Raises
    ------
    TypeError
        ``values`` not integer-valued (bool, string, object dtype), ``sensitivity`` not an
        integer, ``rng`` not an int or a Generator.
    ValueError
        Non-integral or non-finite float values, a bad ``eps`` or ``sensitivity``, or values
        beyond ``+-2**62`` (checked before any noise is drawn; the message prints neither a
        value nor its noise).

    References
    ----------
    C. L. Canonne, G. Kamath, T. Steinke, "The Discrete Gaussian for Differential Privacy",
    NeurIPS 2020, Algorithms 1 and 2.

    Examples
    --------
    >>> noisy = discrete_laplace([10, 20, 30], eps=1.0, rng=0)
    >>> noisy.dtype
    dtype('int64')
    >>> isinstance(discrete_laplace(5, eps=1.0, rng=0), int)
    True
    >>> discrete_laplace(2**62, eps=1.0, rng=0) - 2**62 == discrete_laplace(0, eps=1.0, rng=0)
    True
    """
    eps = check_epsilon(eps)
    sensitivity = check_int(sensitivity, "sensitivity", minimum=1)
    gen = as_generator(rng, release=True)
    arr = _integer_values(values)
    s, t = _eps_rational(eps, sensitivity)
    if arr.size and (arr.max() > _INT64_SAFE or arr.min() < -_INT64_SAFE):
        # a rule on the value alone, checked before any noise is drawn, that names no value:
        # value + noise must fit in int64 whatever the noise (|noise| > 2**62 has probability
        # below exp(-2**62 eps / sensitivity))
        raise ValueError(f"values: expected integers within +-2**62 (so that value + noise fits in int64); "
                         f"{int(np.count_nonzero((arr > _INT64_SAFE) | (arr < -_INT64_SAFE)))} value(s) outside")
    z = _discrete_laplace_noise(gen, arr.size, s, t).reshape(arr.shape)
    out = arr + np.clip(z, 1 - _INT64_SAFE, _INT64_SAFE - 1)   # post-processing; probability ~0 of a clip
    return int(out) if out.ndim == 0 else out


def _bit_length(w):
    """Bit length of each non-negative int64 (vectorised binary search on shifts)."""
    w = w.copy()
    n = np.zeros(w.shape, dtype=np.int64)
    for sh in (32, 16, 8, 4, 2, 1):
        big = w >= (1 << sh)
        n[big] += sh
        w[big] >>= sh
    return n + (w > 0)


def _uniform_doubles(gen, n):
    """``n`` draws of Mironov's U*: every double in (0, 1) with probability equal to the length of
    the interval [d, next double) -- the real uniform truncated to 53 significant bits.  The
    exponent is -1 - G, G the number of leading zero bits of a uniform bit stream (62 bits per
    integer draw), the significand 52 uniform bits; G is capped at 1021 (no subnormal; the
    probability of reaching the cap is 2**-1021)."""
    mant = gen.integers(0, 1 << 52, size=n, dtype=np.int64) + (1 << 52)
    zeros = np.zeros(n, dtype=np.int64)
    idx = np.arange(n)
    while idx.size:
        w = gen.integers(0, 1 << 62, size=idx.size, dtype=np.int64)
        nz = w != 0
        zeros[idx[nz]] += 62 - _bit_length(w[nz])
        zeros[idx[~nz]] += 62
        idx = idx[~nz & (zeros[idx] < 1021)]
    return np.ldexp(mant.astype(np.float64), -53 - np.minimum(zeros, 1021))


def _power_of_two_at_least(x):
    """Smallest power of 2 >= x > 0 (exact)."""
    m, e = math.frexp(x)
    return x if m == 0.5 else math.ldexp(1.0, e)


def _snapping_check(eps, bound, sensitivity):
    eps = check_epsilon(eps)
    sensitivity = check_positive(sensitivity, "sensitivity")
    bound = check_positive(bound, "bound")
    lam = sensitivity / eps
    if not (lam < bound < 2.0 ** 46 * lam):
        raise ValueError(f"bound: Mironov's snapping theorem needs lambda < bound < 2**46 lambda with lambda = "
                         f"sensitivity / eps = {lam!r}; got bound={bound!r} (expected a bound between "
                         f"{lam!r} and {2.0 ** 46 * lam!r})")
    return eps, bound, sensitivity, lam


def snapping_epsilon(*, eps: float, bound: float, sensitivity: float = 1.0) -> float:
    """The privacy of :func:`snapping`: ``eps * (1 + 2**-49 * bound / sensitivity)``.

    Mironov (2012), Theorem 1: the snapping mechanism with noise ``lambda = 1 / eps`` on a
    sensitivity-1 query clamped to ``[-B, B]`` is ``(1 / lambda + 2**-49 B / lambda)``-DP for
    ``lambda < B < 2**46 lambda``; here in the query's units (``B / sensitivity``).  At
    ``bound = 1e6 * sensitivity`` the excess is ``1.8e-9`` of ``eps``.

    Parameters
    ----------
    eps : float
        The nominal budget, > 0.
    bound : float
        The clamping bound ``B`` of :func:`snapping`.
    sensitivity : float
        The query's L1 sensitivity, > 0.

    Returns
    -------
    float
        The budget to charge to the ledger for one :func:`snapping` call.

    Raises
    ------
    ValueError
        A bad ``eps`` or ``sensitivity``, or ``bound`` outside ``(lambda, 2**46 lambda)``.

    Examples
    --------
    >>> snapping_epsilon(eps=1.0, bound=2.0 ** 20) - 1.0 == 2.0 ** -29
    True
    """
    eps, bound, sensitivity, _ = _snapping_check(eps, bound, sensitivity)
    return eps * (1.0 + 2.0 ** -49 * bound / sensitivity)


def snapping(value: ArrayLike, *, eps: float, bound: float, sensitivity: float = 1.0,
             rng: int | np.random.Generator) -> float | np.ndarray:
    """Mironov's (2012) snapping mechanism: Laplace noise that floating point cannot undo.

    ``clamp_B(round_Lambda(clamp_B(value) + S * lambda * ln(U*)))``, with ``lambda =
    sensitivity / eps``, ``Lambda`` the smallest power of 2 >= ``lambda``, ``S`` a uniform sign,
    ``U*`` uniform over *all* doubles in (0, 1) (each with probability equal to the length of the
    interval it represents), ``round_Lambda`` rounding to the nearest multiple of ``Lambda``
    (exact in floating point) and ``clamp_B`` clamping to ``[-bound, bound]``.  The output is a
    multiple of ``Lambda`` (or ``+-bound``), whatever the input: the low-order bits that
    Mironov's attack reads are gone.  It is ``snapping_epsilon(eps=eps, bound=bound,
    sensitivity=sensitivity)``-DP (Mironov 2012, Theorem 1; as diffprivlib's ``Snapping``):
    charge that to the ledger.

    Deviation: the theorem assumes a correctly rounded logarithm (crlibm); numpy's ``log`` is
    accurate to about one unit in the last place but not proven correctly rounded.  For a
    sensitivity that is not a power of 2, ``lambda = sensitivity / eps`` is itself rounded.

    Parameters
    ----------
    value : float or array_like
        The true answer(s), finite.
    eps : float
        Nominal privacy budget, > 0 (see :func:`snapping_epsilon` for the exact guarantee).
    bound : float
        Clamping bound ``B``: values and outputs are clamped to ``[-B, B]``; requires
        ``lambda < B < 2**46 lambda``.
    sensitivity : float
        L1 sensitivity of the query, > 0.
    rng : int or numpy.random.Generator
        Source of the noise; only ``Generator.integers`` is called.

    Returns
    -------
    float or numpy.ndarray
        Noisy answer(s), shaped as ``value`` (a float for a scalar).

    Raises
    ------
    TypeError
        ``value`` not numeric, ``rng`` not an int or a Generator.
    ValueError
        NaN or inf values, a bad ``eps`` or ``sensitivity``, or a ``bound`` outside
        ``(lambda, 2**46 lambda)``.

    References
    ----------
    I. Mironov, "On significance of the least significant bits for differential privacy",
    ACM CCS 2012, Section 5.2.

    Examples
    --------
    >>> out = snapping([0.3, 7.1], eps=0.5, bound=100.0, rng=0)
    >>> bool(((out / 2.0) % 1 == 0).all())          # multiples of Lambda = 2
    True
    """
    eps, bound, sensitivity, lam = _snapping_check(eps, bound, sensitivity)
    gen = as_generator(rng, release=True)
    x = _finite_values(value)
    big_lam = _power_of_two_at_least(lam)
    u = _uniform_doubles(gen, x.size).reshape(x.shape)
    sign = gen.integers(0, 2, size=x.shape)
    noise = lam * np.log(u)
    y = np.clip(x, -bound, bound) + np.where(sign == 1, noise, -noise)
    y = np.clip(np.rint(y / big_lam) * big_lam, -bound, bound) + 0.0      # + 0.0: no -0.0
    return float(y) if y.ndim == 0 else y


def _finite_values(value, name="value"):
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected numbers, got {type(value).__name__} {_fmt(value)}") from None
    if raw.dtype.kind == "b":
        raise TypeError(f"{name}: expected numbers, got booleans {_fmt(value)}")
    if raw.dtype.kind not in "iuf":        # strings (numeric ones too), bytes, objects, complex
        raise TypeError(f"{name}: expected numbers (int or float), got dtype {raw.dtype} {_fmt(value)}")
    x = raw.astype(float)
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name}: contains NaN or inf; expected finite true answers")
    return x


#: ``laplace`` works on a grid of ``2**-GRID_BITS`` times the sensitivity (rounded down to a
#: power of 2): the noise scale grows by at most ``2**-GRID_BITS``.
GRID_BITS = 10
#: ``laplace`` clamps values to ``+-2**CLAMP_BITS`` grid steps (a public bound: it depends on
#: the sensitivity only), and its releases to ``+-2**52`` grid steps (exact floats).
CLAMP_BITS = 51


def _grid_laplace(value, eps, sensitivity, gen):
    """The engine of :func:`privlib.mechanisms.laplace` (see there): exact, eps-DP."""
    x = _finite_values(value)
    e = math.frexp(sensitivity)[1]
    if e - 1 - GRID_BITS + 52 > 1023:              # 2**52 grid steps must stay a finite float
        raise ValueError(f"sensitivity: expected a sensitivity below 2**{1024 - 52 + GRID_BITS} "
                         f"(about 1.6e295; its grid of 2**52 steps must stay a finite float), got {sensitivity!r}")
    g = math.ldexp(1.0, e - 1 - GRID_BITS)          # 2**(floor(log2 sens) - 10)
    # a public clamp, not a refusal: whether a value is refused would itself depend on the data
    bound = math.ldexp(g, CLAMP_BITS)
    x = np.clip(x, -bound, bound)
    k = np.rint(x / g).astype(np.int64)             # x / g is exact: g is a power of 2
    sens_k = math.floor(sensitivity / g) + 1        # |k - k'| <= sensitivity / g + 1 for neighbours
    if sens_k / eps > 2.0 ** 44:                    # P(|Z| > 2**52 grid steps) would pass exp(-2**8)
        raise ValueError(f"eps: eps = {eps!r} is too small for exact Laplace noise: its scale sensitivity / eps = "
                         f"{sensitivity / eps!r} is above 2**44 grid steps of {g!r}, and the release must stay an "
                         f"exact float; expected eps >= {sens_k * 2.0 ** -44!r}")
    s, t = _eps_rational(eps, sens_k)
    out = k + _discrete_laplace_noise(gen, k.size, s, t).reshape(k.shape)
    # post-processing to the exactly representable range (noise above 2**51 grid steps has
    # probability below exp(-2**7)): no refusal that depends on the noise either
    out = np.clip(out, -(1 << 52), 1 << 52)
    return out.astype(np.float64) * g
