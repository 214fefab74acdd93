"""The QWI distortion-factor distribution and the permanent factors (slides "Noise Factor
Distribution" and "The Quarterly Workforce Indicator System")."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import as_generator, check_int, check_positive


#: The argument and the result of the density and the distribution function.
POINTWISE_DOC = """
Parameters
----------
x : float or array_like

Returns
-------
float or numpy.ndarray
    A float for a scalar ``x``.
"""


def _pointwise(out: np.ndarray) -> float | np.ndarray:
    """A float for a scalar argument, else the array."""
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class RampDistribution:
    """The QWI distortion-factor ("fuzz factor") distribution.

    Slide "Noise Factor Distribution":

    p(d) = (b - d)/(b - a)^2 on [a, b];   p(d) = (b + d - 2)/(b - a)^2 on [2 - b, 2 - a]

    F(d) = 0.5 + [(b - a)^2 - (b - d)^2] / [2 (b - a)^2] on [a, b];
    F(d) = (d + b - 2)^2 / [2 (b - a)^2] on [2 - b, 2 - a].

    The density is a ramp falling from 1/(b - a) at a (and 2 - a) to 0 at b (and 2 - b); it
    is symmetric about 1, so the mean is 1.  The actual QWI values of a and b are
    confidential; the chapter uses illustrative ones.

    Parameters
    ----------
    a, b : float
        1 < a < b < 2: minimum and maximum proportional distortion are a - 1 and b - 1.

    Raises
    ------
    ValueError
        ``a`` <= 1, ``b`` >= 2, ``a`` >= ``b``, or either not a finite positive number.

    Examples
    --------
    >>> ramp = RampDistribution(1.05, 1.15)
    >>> [tuple(round(v, 6) for v in part) for part in ramp.support]
    [(0.85, 0.95), (1.05, 1.15)]
    >>> round(ramp.pdf(1.05), 6), round(ramp.cdf(1.0), 6), round(ramp.var(), 6)
    (10.0, 0.5, 0.0075)
    """

    a: float
    b: float

    def __post_init__(self) -> None:
        a = check_positive(self.a, "a")
        b = check_positive(self.b, "b")
        if a <= 1:
            raise ValueError(f"a: expected a > 1 (the minimum distortion a - 1 must be positive), got {self.a!r}")
        if b >= 2:
            raise ValueError(f"b: expected b < 2 (factors in [2 - b, 2 - a] must be positive), got {self.b!r}")
        if a >= b:
            raise ValueError(f"a, b: expected a < b, got a = {self.a!r} and b = {self.b!r}")

    @property
    def support(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two intervals ((2 - b, 2 - a), (a, b))."""
        return ((2 - self.b, 2 - self.a), (self.a, self.b))

    def _at(self, x):
        """``x`` as a float array, with the bounds ``a``, ``b`` and ``(b - a)^2`` of the slide formulas."""
        return np.asarray(x, dtype=float), self.a, self.b, (self.b - self.a) ** 2

    @shared_doc(x=POINTWISE_DOC)
    def pdf(self, x: float | np.ndarray) -> float | np.ndarray:
        """Density (slide formula).

        {{x}}

        Examples
        --------
        >>> RampDistribution(1.05, 1.15).pdf([0.9, 1.0, 1.1]).round(6).tolist()
        [5.0, 0.0, 5.0]
        """
        x, a, b, d2 = self._at(x)
        up = (x >= a) & (x <= b)
        lo = (x >= 2 - b) & (x <= 2 - a)
        out = np.where(up, (b - x) / d2, np.where(lo, (b + x - 2) / d2, 0.0))
        return _pointwise(out)

    @shared_doc(x=POINTWISE_DOC)
    def cdf(self, x: float | np.ndarray) -> float | np.ndarray:
        """Distribution function (slide formula); 0.5 on the gap (2 - a, a).

        {{x}}

        Examples
        --------
        >>> RampDistribution(1.05, 1.15).cdf([0.85, 1.0, 1.15]).round(6).tolist()
        [0.0, 0.5, 1.0]
        """
        x, a, b, d2 = self._at(x)
        lo = np.clip(x, 2 - b, 2 - a)
        up = np.clip(x, a, b)
        F = np.where(x < a, (lo + b - 2) ** 2 / (2 * d2), 0.5 + (d2 - (b - up) ** 2) / (2 * d2))
        return _pointwise(F)

    def ppf(self, u: float | np.ndarray) -> float | np.ndarray:
        """Quantile function (inverse of :meth:`cdf`).

        Parameters
        ----------
        u : float or array_like
            Probabilities in [0, 1].

        Returns
        -------
        float or numpy.ndarray
            A float for a scalar ``u``.

        Raises
        ------
        ValueError
            ``u`` outside [0, 1] or NaN.

        Examples
        --------
        >>> RampDistribution(1.05, 1.15).ppf([0.0, 0.5, 1.0]).round(6).tolist()
        [0.85, 1.05, 1.15]
        """
        u = np.asarray(u, dtype=float)
        if np.any((u < 0) | (u > 1)) or np.isnan(u).any():
            raise ValueError("u: expected probabilities in [0, 1]")
        a, b = self.a, self.b
        out = np.where(u < 0.5, 2 - b + (b - a) * np.sqrt(2 * u), b - (b - a) * np.sqrt(2 * (1 - u)))
        return _pointwise(out)

    def rvs(self, size: int | tuple[int, ...] | None = None, /, *,
            rng: int | np.random.Generator) -> float | np.ndarray:
        """Draw factors by inversion: ``ppf(U)``, U uniform.

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape (``None``: one float).
        rng : int or numpy.random.Generator
            Required, keyword-only.

        Returns
        -------
        float or numpy.ndarray
            One float when ``size`` is None, else an array of that shape.

        Raises
        ------
        TypeError, ValueError
            ``size`` not a non-negative int or a tuple of them.

        Examples
        --------
        >>> d = RampDistribution(1.05, 1.15).rvs(1000, rng=0)
        >>> d.shape, bool(((abs(d - 1) >= 0.05) & (abs(d - 1) <= 0.15)).all())
        ((1000,), True)
        """
        if size is not None:
            shape = (size,) if isinstance(size, (int, np.integer)) and not isinstance(size, bool) else size
            try:
                shape = tuple(check_int(k, "size", minimum=0) for k in shape)
            except TypeError:
                raise TypeError(f"size: expected a non-negative int or a tuple of them, got {size!r}") from None
            size = shape
        gen = as_generator(rng)
        return self.ppf(gen.random(size))

    def mean(self) -> float:
        """Mean of the factor: 1 (the density is symmetric about 1).

        Returns
        -------
        float

        Examples
        --------
        >>> RampDistribution(1.05, 1.15).mean()
        1.0
        """
        return 1.0

    def var(self) -> float:
        """Variance E[(d - 1)^2] = (a - 1)^2 + 2 (a - 1)(b - a)/3 + (b - a)^2/6 (closed form).

        Returns
        -------
        float

        Examples
        --------
        >>> round(RampDistribution(1.05, 1.15).var(), 6)
        0.0075
        """
        a, b = self.a, self.b
        return (a - 1) ** 2 + 2 * (a - 1) * (b - a) / 3 + (b - a) ** 2 / 6


def draw_factors(establishments: np.ndarray | pd.Series, *, dist: RampDistribution,
                 rng: int | np.random.Generator) -> pd.Series:
    """One permanent distortion factor per establishment (slide "The QWI System").

    Parameters
    ----------
    establishments : array_like
        Establishment identifiers (duplicates are allowed; each id gets one factor).
    dist : RampDistribution
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    pandas.Series indexed by establishment id (sorted).

    Raises
    ------
    ValueError
        ``establishments`` is not 1-d or contains missing ids (NaN / None).
    TypeError
        ``dist`` is not a RampDistribution.

    Examples
    --------
    >>> f = draw_factors([3, 1, 3], dist=RampDistribution(1.05, 1.15), rng=0)
    >>> f.index.tolist(), f.name
    ([1, 3], 'delta')
    """
    if not isinstance(dist, RampDistribution):
        raise TypeError(f"dist: expected a RampDistribution, got {type(dist).__name__}")
    ids = np.asarray(establishments)
    if ids.ndim != 1:
        raise ValueError(f"establishments: expected a 1-d array of ids, got shape {ids.shape}")
    if np.asarray(pd.isna(ids)).any():
        raise ValueError("establishments: missing ids (NaN / None); every establishment needs an id")
    ids = np.unique(ids)
    gen = as_generator(rng)
    return pd.Series(dist.rvs(ids.size, rng=gen), index=ids, name="delta")
