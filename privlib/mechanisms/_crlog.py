"""A correctly rounded natural logarithm, the same bits on every machine.

numpy's ``log`` runs different code on AVX-512, AVX2 and baseline CPUs, and the C library's
``log`` differs between versions and FMA/non-FMA builds; each is accurate to about one unit in
the last place, but not always *the same* last bit.  Mironov's attack on the textbook Laplace
sampler decides from exactly those bits, so the teaching sampler uses this routine: its result
is the float nearest to the true logarithm (correct rounding is unique, hence identical on
every CPU, library and numpy dispatch level).

Method (Ziv's strategy): ``x = m 2^e`` with ``m`` in ``[sqrt(1/2), sqrt(2))`` (``frexp``,
exact); ``log m = 2 atanh(s)``, ``s = (m - 1) / (m + 1)``, summed as a 22-term odd series,
its first 10 terms in double-double arithmetic and the rest (each below 2^-47 of the sum) in
doubles, from IEEE additions, multiplications and divisions only (each correctly rounded by
every numpy code path; no fused multiply-add); plus ``e ln 2`` in double-double.  The double-double value is within ``2^-90`` (relative) of ``log x``; where
that does not decide the rounding (the value lies that close to a midpoint between two
floats, about one argument in 2^37) the logarithm is recomputed with :mod:`decimal` at 60
significant digits, which is correctly rounded too.
"""
from __future__ import annotations

import decimal

import numpy as np
from numpy.typing import ArrayLike

_SPLIT = 134217729.0  # 2**27 + 1 (Dekker's splitter)
_TERMS = 22           # |s| <= 0.1716: s**44 < 2**-112
_DD_TERMS = 10        # s**20 < 2**-50: the later terms in plain doubles


def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _quick_two_sum(a, b):
    s = a + b
    return s, b - (s - a)


def _split(a):
    t = _SPLIT * a
    hi = t - (t - a)
    return hi, a - hi


def _two_prod(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _dd_add(ah, al, bh, bl):
    s, e = _two_sum(ah, bh)
    return _quick_two_sum(s, e + (al + bl))


def _dd_mul(ah, al, bh, bl):
    p, e = _two_prod(ah, bh)
    return _quick_two_sum(p, e + (ah * bl + al * bh))


def _dd_div(ah, al, bh, bl):
    q1 = ah / bh
    p, e = _two_prod(q1, bh)
    rh, rl = _two_sum(ah, -p)
    rl = rl + (al - e - q1 * bl)
    q2 = (rh + rl) / bh
    return _quick_two_sum(q1, q2)


def _dd_const(num: int, den: int) -> tuple[float, float]:
    """``num / den`` as a double-double, from exact rational arithmetic."""
    from fractions import Fraction
    q = Fraction(num, den)
    hi = float(q)
    return hi, float(q - Fraction(hi))


_LN2 = (0.6931471805599453, 2.3190468138462996e-17)   # ln 2 = hi + lo to 107 bits
_COEF = [_dd_const(1, 2 * k + 1) for k in range(_TERMS)]


def _decimal_log(x: float) -> float:
    with decimal.localcontext(decimal.Context(prec=60)):
        return float(decimal.Decimal(x).ln())


def correctly_rounded_log(x: ArrayLike) -> np.ndarray:
    """The correctly rounded natural logarithm of each positive finite float in ``x``.

    The float nearest to the exact ``ln x`` (ties cannot occur for ``x != 1``), computed from
    IEEE additions, multiplications and divisions only, so it returns the same bits on every
    CPU and at every numpy dispatch level -- unlike ``numpy.log``, whose last bit differs
    between its AVX-512, AVX2 and baseline code.  :func:`textbook_laplace` uses it, so that
    Mironov's attack (:func:`privlib.attacks.float_laplace_attack`) makes the same decisions
    everywhere.  About 3 microseconds a value (numpy's ``log``: 0.01).

    Parameters
    ----------
    x : array_like of float
        Positive finite values.

    Returns
    -------
    numpy.ndarray of float64
        ``log(x)`` rounded to nearest, shaped as ``x``.

    Raises
    ------
    ValueError
        A value that is not positive and finite.

    Examples
    --------
    >>> import numpy as np
    >>> float(correctly_rounded_log(2.0)) == 0.6931471805599453
    True
    >>> correctly_rounded_log([1.0, np.e]).tolist()
    [0.0, 1.0]
    """
    x = np.asarray(x, dtype=np.float64)
    if not np.all(np.isfinite(x) & (x > 0)):
        raise ValueError("x: expected positive finite values")
    m, e = np.frexp(x)                       # x = m 2**e, m in [1/2, 1)
    low = m < 0.7071067811865476
    m = np.where(low, m + m, m)              # m in [sqrt(1/2), sqrt(2))
    e = (e - low).astype(np.float64)
    num = m - 1.0                            # exact (Sterbenz)
    dh, dl = _two_sum(m, np.ones_like(m))
    zero = np.zeros_like(m)
    sh, sl = _dd_div(num, zero, dh, dl)
    s2h, s2l = _dd_mul(sh, sl, sh, sl)
    tail = np.full_like(m, _COEF[-1][0])     # terms k >= _DD_TERMS: below 2**-47 of the sum,
    for ch, _ in reversed(_COEF[_DD_TERMS:-1]):   # plain doubles suffice (error < 2**-96)
        tail = tail * s2h + ch
    ah, al = tail, zero
    for ch, cl in reversed(_COEF[:_DD_TERMS]):  # Horner in double-double: sum_k s**(2k) / (2k + 1)
        ah, al = _dd_mul(ah, al, s2h, s2l)
        ah, al = _dd_add(ah, al, ch, cl)
    ah, al = _dd_mul(ah, al, sh, sl)
    ah, al = ah + ah, al + al                # 2 atanh(s) = log m
    kh, kl = _two_prod(e, _LN2[0])
    kl = kl + e * _LN2[1]
    rh, rl = _dd_add(kh, kl, ah, al)
    rh, rl = _two_sum(rh, rl)                # rh: the double nearest to rh + rl
    # rounding decided unless rh + rl lies within the error bound of a midpoint between rh and
    # a neighbour (half the spacing above |rh|, or a quarter of it just below a power of two)
    gap = np.spacing(np.abs(rh))
    bound = np.abs(rh) * 2.0 ** -90
    lo = np.abs(rl)
    unsure = (np.abs(lo - gap / 2) <= bound) | (np.abs(lo - gap / 4) <= bound)
    out = rh
    if unsure.any():
        flat = out.reshape(-1)
        for i in np.flatnonzero(unsure.reshape(-1)):
            flat[i] = _decimal_log(float(x.reshape(-1)[i]))
    return out
