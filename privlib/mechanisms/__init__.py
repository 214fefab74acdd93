"""Differential-privacy primitives shared by the chapters.

* :func:`laplace` -- the Laplace mechanism (Dwork et al. 2006), drawn so that floating point
  cannot undo it: the value on a fine grid plus exact discrete Laplace noise; refuses
  magnitudes at which the noise cannot be represented.
* :func:`discrete_laplace` -- exact integer noise for counts (Canonne, Kamath & Steinke 2020).
* :func:`discrete_gaussian` -- exact discrete Gaussian noise for counts (the same, Algorithm 3),
  rho-zCDP (:func:`privlib.accounting.gaussian_rho`).
* :func:`randomized_response` -- Warner's (1965) randomized response on one bit per person.
* :func:`snapping` -- Mironov's (2012) snapping mechanism for bounded real values, and
  :func:`snapping_epsilon`, its guarantee.
* :func:`textbook_laplace` -- UNSAFE, for teaching: the float sampler ``x + b log(U)`` that
  Mironov's attack breaks (:func:`privlib.attacks.float_laplace_attack`).
* :func:`exponential` -- the exponential mechanism (McSherry & Talwar 2007): choose
  candidate ``i`` with probability proportional to ``exp(eps * u_i / (2 * sensitivity))``,
  computed in log space so that utilities of +-1e6 neither overflow nor give NaN.
* :func:`exponential_rows` -- many independent exponential-mechanism draws at once, one per
  row of a 2-d utility array (the Gumbel-max trick), e.g. one private split point per node of
  a tree level.
* :func:`geometric` -- the discrete (two-sided geometric) mechanism (Ghosh et al. 2009):
  add integer noise with P(Z = z) proportional to ``alpha**|z|``, ``alpha = exp(-eps/sensitivity)``
  (a real sensitivity allowed; sampled exactly as :func:`discrete_laplace`).

Every function that draws takes ``rng`` (int seed or :class:`numpy.random.Generator`), required and
keyword-only: randomness is never a default.
"""
from __future__ import annotations

import numpy as np

from typing import TYPE_CHECKING

from .._validation import _fmt, as_generator, check_epsilon, check_positive
from ._crlog import correctly_rounded_log
from ._exact import (_discrete_laplace_noise, _eps_rational, _finite_values, _grid_laplace, discrete_laplace,
                     snapping, snapping_epsilon)
from ._gaussian import discrete_gaussian, discrete_gaussian_pmf

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: Largest |value| accepted by :func:`geometric` (value + noise must stay inside int64).
_INT64_SAFE = 2 ** 62
#: Smallest eps / sensitivity of :func:`geometric`: P(|Z| > 2**62) = alpha**(2**62) < exp(-4e6).
_GEOM_MIN_RATIO = 1e-12

__all__ = [
    "laplace",
    "textbook_laplace",
    "snapping",
    "snapping_epsilon",
    "laplace_scale",
    "exponential",
    "exponential_probabilities",
    "exponential_rows",
    "geometric",
    "geometric_pmf",
    "discrete_laplace",
    "correctly_rounded_log",
    "discrete_gaussian",
    "discrete_gaussian_pmf",
    "randomized_response",
]


def laplace_scale(*, eps: float, sensitivity: float = 1.0) -> float:
    """Scale b = sensitivity / eps of the Laplace mechanism (Dwork et al. 2006).

    Parameters
    ----------
    eps : float
        Privacy budget, > 0.
    sensitivity : float
        L1 sensitivity of the query, > 0.

    Returns
    -------
    float
        The scale ``b`` of the noise ``Lap(b)``.

    Raises
    ------
    ValueError
        If ``eps`` is not a finite number > 0, ``sensitivity`` not > 0, or the scale
        ``sensitivity / eps`` overflows to infinity (e.g. ``eps=1e-310``): such noise
        would turn every answer into +-inf.

    Examples
    --------
    >>> laplace_scale(eps=0.5, sensitivity=2.0)
    4.0
    """
    eps = check_epsilon(eps)
    sensitivity = check_positive(sensitivity, "sensitivity")
    with np.errstate(over="ignore"):
        b = sensitivity / eps
    if not np.isfinite(b):
        raise ValueError(f"eps: the Laplace scale sensitivity / eps = {sensitivity!r} / {eps!r} overflows a "
                         "float; expected an eps whose noise scale is finite")
    return b


def laplace(value: ArrayLike, *, eps: float, sensitivity: float = 1.0,
            rng: int | np.random.Generator) -> float | np.ndarray:
    """Return ``value`` plus Laplace noise of scale about ``sensitivity / eps``, exactly eps-DP.

    The noise is drawn so that floating point cannot undo it (Mironov 2012; the textbook
    sampler ``value + b * log(U)``, :func:`textbook_laplace`, is not DP: its possible outputs
    depend on ``value``, see :func:`privlib.attacks.float_laplace_attack`).  The value is
    rounded to the grid ``g = 2**(floor(log2 sensitivity) - 10)`` (an exact float
    operation), and the grid index ``k`` gets exact discrete Laplace noise
    (:func:`discrete_laplace`, integer arithmetic only) for the integer sensitivity
    ``floor(sensitivity / g) + 1`` -- the rounding moves two neighbouring values at most one
    grid step further apart.  The release ``(k + Z) * g`` is an exact float, a multiple of
    ``g``; its noise has the law of a discrete Laplace of scale at most
    ``(sensitivity + g) / eps`` (at most ``2**-10`` wider than ``Lap(sensitivity / eps)``).

    Values are clamped to the public bound ``+-2**51 g`` (about ``2.2e12 * sensitivity``,
    ``CLAMP_BITS``; a rule that depends on ``sensitivity``
    only: refusing a large value would itself reveal it), and the release to ``+-2**52 g``
    (post-processing; noise that large has probability below ``exp(-2**7)``): above it the
    float spacing is larger than the grid.

    Accounting: for a sensitivity whose ratio ``sensitivity / g`` is an even integer (a power
    of 2, for example: 1024 grid steps) two neighbouring values are at most 1024 grid steps
    apart after rounding, while the noise is calibrated to 1025: the release is
    ``eps * 1024 / 1025``-DP, slightly better than the ``eps`` charged (the safe side).

    Parameters
    ----------
    value : float or array_like
        The true answer(s), finite; clamped to ``+-2**51 g`` (see above).
    eps : float
        Privacy budget, > 0.
    sensitivity : float
        L1 sensitivity of the query, > 0.
    rng : None, int or numpy.random.Generator
        Source of the noise; only ``Generator.integers`` is called.  ``None``: fresh entropy
        from the operating system (a real release); an int seed makes the release a
        reproducible demonstration, not a private release (the seed determines the noise).

    Returns
    -------
    float or numpy.ndarray
        Noisy answer(s), same shape as ``value`` (a float for a scalar).

    Raises
    ------
    ValueError
        If ``eps`` or ``sensitivity`` is not > 0 or their noise cannot be represented (a
        rule on ``eps`` and ``sensitivity`` only), or ``value`` holds NaN or inf.
    TypeError
        If ``value`` is not numeric (strings, numeric strings included, booleans) or ``rng``
        is not None, an int or a Generator.

    Examples
    --------
    >>> noisy = laplace([10.0, 20.0], eps=1.0, rng=0)
    >>> noisy.shape
    (2,)
    >>> laplace(10.0, eps=1.0, rng=5) == laplace(10.0, eps=1.0, rng=5)
    True
    >>> abs(laplace(2.0 ** 62, eps=1.0, rng=0) - 2.0 ** 41) < 100      # clamped to 2**51 g = 2**41
    True
    """
    laplace_scale(eps=eps, sensitivity=sensitivity)
    gen = as_generator(rng, release=True)
    noisy = _grid_laplace(value, float(eps), float(sensitivity), gen)
    return float(noisy) if noisy.ndim == 0 else noisy


def textbook_laplace(value: ArrayLike, *, eps: float, sensitivity: float = 1.0,
                     rng: int | np.random.Generator) -> float | np.ndarray:
    """UNSAFE, for teaching: the textbook floating-point Laplace sampler (not differentially private).

    ``value + b * log(2 U)`` if ``U < 1/2`` else ``value - b * log(2 - 2 U)``, with
    ``b = sensitivity / eps`` and ``U = k / 2**53``, ``k`` uniform in ``1 .. 2**53 - 1`` -- the
    inverse-CDF formula of numpy's ``Generator.laplace``, with a correctly rounded ``log`` (the
    same bits on every CPU, where numpy's ``log`` differs in the last bit), written out so that
    :func:`privlib.attacks.float_laplace_attack` can invert it.  Its outputs form a sparse set
    of floats that depends on ``value``: Mironov (2012) showed that one output often tells two
    neighbouring inputs apart, and above ``2**53 * b`` the noise is lost in the float spacing
    (``textbook_laplace(2.0**62, eps=1.0, ...)`` returns ``2**62`` exactly).  Use
    :func:`laplace`, :func:`snapping` or :func:`discrete_laplace` to release anything.

    Parameters
    ----------
    value : float or array_like
        The true answer(s), finite.
    eps : float
        Nominal budget, > 0 (not met: see above).
    sensitivity : float
        L1 sensitivity, > 0.
    rng : int or numpy.random.Generator
        Source of the uniform draws.

    Returns
    -------
    float or numpy.ndarray
        ``value`` plus float Laplace noise, shaped as ``value``.

    Raises
    ------
    ValueError, TypeError
        As :func:`laplace` (no magnitude limit).

    Examples
    --------
    >>> textbook_laplace(2.0 ** 62, eps=1.0, rng=0) == 2.0 ** 62
    True
    """
    b = laplace_scale(eps=eps, sensitivity=sensitivity)
    gen = as_generator(rng)
    arr = _finite_values(value)
    u = gen.integers(1, 1 << 53, size=arr.shape, dtype=np.int64) * 2.0 ** -53
    noisy = arr + _textbook_noise(u, b)
    return float(noisy) if noisy.ndim == 0 else noisy


def _textbook_noise(u, b, log=None):
    """The inverse-CDF Laplace noise of :func:`textbook_laplace` for uniforms ``u`` in (0, 1).

    The logarithm is correctly rounded (:func:`correctly_rounded_log`), so the sampler's
    floats -- and every decision of Mironov's attack on them -- are the same on every CPU;
    numpy's own ``log`` differs in the last bit between its AVX-512, AVX2 and baseline code.
    ``log`` overrides it (the attack's fast first pass only)."""
    log = correctly_rounded_log if log is None else log
    lo = u < 0.5
    arg = np.where(lo, u + u, 2.0 - u - u)
    z = b * log(arg)
    return np.where(lo, z, -z)


def _float_array(values, name):
    """``values`` as a float array; strings, objects (and complex) are a TypeError naming ``name``."""
    arr = np.asarray(values)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected numbers, got dtype {arr.dtype} {_fmt(values)}")
    return arr.astype(float)


def exponential_probabilities(utilities: ArrayLike, *, eps: float, sensitivity: float = 1.0,
                              base_measure: ArrayLike | None = None) -> np.ndarray:
    """Selection probabilities of the exponential mechanism (McSherry & Talwar 2007).

    ``P(i) = mu_i * exp(eps * u_i / (2 du)) / sum_j mu_j * exp(eps * u_j / (2 du))``, with an
    optional base measure ``mu`` (e.g. interval lengths for continuous split points, as in
    DiffGen's Algorithm 1, line 5).  Computed with the log-sum-exp trick.

    Parameters
    ----------
    utilities : array_like, 1-d
        Utility ``u_i`` of each candidate (finite; higher is better).
    eps : float
        Privacy budget of the draw, > 0.
    sensitivity : float
        Sensitivity ``du`` of the utility function, > 0.
    base_measure : array_like, optional
        Non-negative weight ``mu_i`` of each candidate, not all zero.

    Returns
    -------
    numpy.ndarray
        ``P(i)`` for every candidate; sums to 1.

    Raises
    ------
    ValueError
        Empty, non-1-d or non-finite utilities; a bad ``eps``, ``sensitivity`` or ``base_measure``.

    Examples
    --------
    >>> exponential_probabilities([0.0, 1.0], eps=2.0).round(4)
    array([0.2689, 0.7311])
    """
    eps = check_epsilon(eps)
    sensitivity = check_positive(sensitivity, "sensitivity")
    u = _float_array(utilities, "utilities")
    if u.ndim != 1 or u.size == 0:
        raise ValueError(f"utilities: expected a non-empty 1-d array, got shape {u.shape}")
    if not np.all(np.isfinite(u)):
        raise ValueError("utilities: expected finite utilities, got NaN or inf")
    mu = None
    if base_measure is not None:
        mu = _float_array(base_measure, "base_measure")
        if mu.shape != u.shape:
            raise ValueError(f"base_measure: expected shape {u.shape}, got {mu.shape}")
        if np.any(mu < 0) or not np.all(np.isfinite(mu)) or not np.any(mu > 0):
            raise ValueError("base_measure: expected finite non-negative weights, not all zero")
    return _exponential_p(u, eps, sensitivity, mu)


def _exponential_p(u, eps, sensitivity, mu):
    """:func:`exponential_probabilities` of checked arguments: ``u`` a finite non-empty 1-d float
    array, ``mu`` None or valid float weights of its shape, ``eps`` and ``sensitivity`` checked."""
    top = float(np.abs(u).max())
    if eps * top < 1e300 and eps * top / (2.0 * sensitivity) < 1e300 and (mu is None or mu.min() > 0):
        logw = eps * u / (2.0 * sensitivity)       # the common case: nothing can overflow (same arithmetic)
        if mu is not None:
            logw = logw + np.log(mu)
    else:
        logw = _logits(u[None, :], eps, sensitivity, None if mu is None else mu[None, :])[0]
    logw = logw - np.max(logw)
    w = np.exp(logw)
    return w / w.sum()


def _logits(u, eps, sensitivity, mu):
    """Row-wise log weights ``eps * u / (2 du) + log(mu)`` of the exponential mechanism, up to a
    per-row constant, without overflow: when ``eps * u / (2 du)`` overflows (utilities near the
    float limit, a tiny sensitivity) every row is first shifted by its largest utility among the
    candidates that can be chosen (a per-row constant does not change the distribution).
    ``u`` is 2-d, ``-inf`` = unavailable; ``mu`` None or broadcastable non-negative weights."""
    with np.errstate(over="ignore", invalid="ignore"):
        logits = eps * u / (2.0 * sensitivity)
    bad = ~np.isfinite(logits)
    # -inf from an unavailable candidate (u = -inf) is fine; an overflow (+-inf from a finite u) is not
    if bad.any() and (bad & np.isfinite(u)).any():
        usable = np.isfinite(u) if mu is None else np.isfinite(u) & (np.broadcast_to(mu, u.shape) > 0)
        top = np.max(np.where(usable, u, -np.inf), axis=1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        with np.errstate(over="ignore", invalid="ignore"):      # u - top may be -inf: probability 0
            logits = eps * ((u - top) / (2.0 * sensitivity))
        logits = np.where(np.isnan(logits), -np.inf, logits)
    if mu is not None:
        mub = np.broadcast_to(mu, u.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            logmu = np.log(mub)
            # a zero weight excludes its candidate, even where its utility overflowed (no inf - inf)
            logits = np.where(mub > 0, logits + logmu, -np.inf)
    else:
        logmu = np.zeros(u.shape)
    pos = np.isposinf(logits)
    if pos.any():                             # an overflow left: those candidates dominate the row;
        rows = pos.any(axis=1)                # the limit law is the base measure among them
        logits = logits.copy()
        logits[rows] = np.where(pos[rows], logmu[rows], -np.inf)
    return logits


def exponential(utilities: ArrayLike, *, eps: float, sensitivity: float = 1.0, rng: int | np.random.Generator,
                base_measure: ArrayLike | None = None) -> int:
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
        Required, keyword-only: an int seed, a Generator, or None (fresh entropy).
    base_measure : array_like, optional
        Non-negative weight of each candidate (e.g. an interval's length).

    Returns
    -------
    int
        Index of the chosen candidate.

    Raises
    ------
    ValueError
        As :func:`exponential_probabilities`.
    TypeError
        ``rng`` neither an int seed, None nor a Generator.

    Examples
    --------
    >>> exponential([0.0, 100.0, 0.0], eps=1.0, rng=0)
    1
    """
    cdf = _exponential_cdf(utilities, eps=eps, sensitivity=sensitivity, base_measure=base_measure)
    return _exponential_draw(cdf, as_generator(rng, release=True))


def _exponential_cdf(utilities, *, eps, sensitivity=1.0, base_measure=None) -> tuple:
    """What :func:`exponential` draws from: ``(cumsum(P), sum(P))`` of
    :func:`exponential_probabilities` (a caller drawing many times from one distribution
    computes it once; :func:`_exponential_draw` then consumes the same random numbers)."""
    p = exponential_probabilities(utilities, eps=eps, sensitivity=sensitivity, base_measure=base_measure)
    return np.cumsum(p), p.sum()


def _exponential_scores(u: np.ndarray, eps: float, sensitivity: float, gen: np.random.Generator) -> int:
    """:func:`exponential` of scores its caller computed (``u`` a finite non-empty 1-d float64
    array, ``eps`` and ``sensitivity`` positive floats): the same arithmetic and the same draw,
    without re-checking the arguments (a hot loop, e.g. DiffGen's Line 7)."""
    p = _exponential_p(u, eps, sensitivity, None)
    return _exponential_draw((np.cumsum(p), p.sum()), gen)


def _exponential_draw(cdf: tuple, gen: np.random.Generator) -> int:
    """One draw of :func:`exponential` from ``cdf = _exponential_cdf(...)`` (one ``gen.random()``)."""
    cum, total = cdf
    return int(np.searchsorted(cum, gen.random() * total, side="right").clip(0, cum.size - 1))


def exponential_rows(utilities: ArrayLike, *, eps: float, sensitivity: float = 1.0, rng: int | np.random.Generator,
                     base_measure: ArrayLike | None = None) -> np.ndarray:
    """One exponential-mechanism draw per row of a 2-d utility array (McSherry & Talwar 2007).

    Row ``i`` picks column ``c`` with probability proportional to
    ``mu[i, c] * exp(eps * u[i, c] / (2 * sensitivity))`` -- for every row exactly the
    distribution of :func:`exponential_probabilities` -- and the rows are independent.  All
    rows are sampled at once by the Gumbel-max trick: ``argmax_c (eps u[i, c] / (2 du) +
    log mu[i, c] + G[i, c])`` with ``G`` i.i.d. standard Gumbel is an exact draw from that
    distribution.  Everything stays in log space, so utilities of +-1e6 neither overflow nor
    give NaN.  Each row is a separate mechanism call spending ``eps`` (sequential or parallel
    composition across rows is the caller's accounting).

    Parameters
    ----------
    utilities : array_like, shape (rows, candidates)
        Utility ``u[i, c]`` of candidate ``c`` in row ``i`` (higher is better).  ``-inf``
        marks a candidate that is not available in that row (probability 0), so rows with
        different candidate sets can share one array; every row needs at least one finite
        utility.  NaN and ``+inf`` are refused.
    eps : float
        Privacy budget of each row's draw, > 0.
    sensitivity : float
        Sensitivity ``du`` of the utility function, > 0.
    rng : int or numpy.random.Generator
        Consumes one ``Generator.gumbel`` call of the utilities' shape.
    base_measure : array_like, optional
        Non-negative weights ``mu``, of the utilities' shape or one per column (broadcast to
        every row); a zero weight excludes the candidate.  Each row needs a candidate with a
        finite utility and a positive weight.

    Returns
    -------
    numpy.ndarray of int64, shape (rows,)
        The chosen column of each row.

    Raises
    ------
    ValueError
        Utilities not 2-d, NaN or ``+inf``, a row without an available candidate, or a bad
        ``eps``, ``sensitivity`` or ``base_measure``.

    Examples
    --------
    >>> import numpy as np
    >>> exponential_rows([[0.0, -np.inf, 1.0], [5.0, 0.0, 0.0]], eps=1.0, rng=0).shape
    (2,)
    """
    eps = check_epsilon(eps)
    sensitivity = check_positive(sensitivity, "sensitivity")
    u = _float_array(utilities, "utilities")
    if u.ndim != 2 or u.shape[0] == 0 or u.shape[1] == 0:
        raise ValueError(f"utilities: expected a non-empty 2-d array (rows x candidates), got shape {u.shape}")
    if np.isnan(u).any() or np.isposinf(u).any():
        raise ValueError("utilities: expected finite utilities or -inf (unavailable candidate), got NaN or +inf")
    mu = None
    if base_measure is not None:
        mu = _float_array(base_measure, "base_measure")
        if mu.shape not in (u.shape, (u.shape[1],)):
            raise ValueError(f"base_measure: expected shape {u.shape} or ({u.shape[1]},), got {mu.shape}")
        if not np.all(np.isfinite(mu)) or np.any(mu < 0):
            raise ValueError("base_measure: expected finite non-negative weights")
    logits = _logits(u, eps, sensitivity, mu)
    no_candidate = ~np.isfinite(logits).any(axis=1)
    if no_candidate.any():
        raise ValueError(f"utilities: row {int(np.flatnonzero(no_candidate)[0])} has no available candidate "
                         "(all utilities -inf or all weights 0)")
    gen = as_generator(rng, release=True)
    g = gen.gumbel(size=logits.shape)
    return np.argmax(logits + g, axis=1).astype(np.int64)


def geometric_pmf(z: ArrayLike, *, eps: float, sensitivity: float = 1.0) -> np.ndarray:
    """P(Z = z) of the two-sided geometric distribution with alpha = exp(-eps/sensitivity).

    ``P(Z = z) = (1 - alpha) / (1 + alpha) * alpha**|z|`` (Ghosh, Roughgarden & Sundararajan 2009).

    Parameters
    ----------
    z : array_like of int
        Noise values.
    eps : float
        Privacy budget, > 0.
    sensitivity : float
        Sensitivity of the integer query, > 0.

    Returns
    -------
    numpy.ndarray
        The probabilities, shaped as ``z`` (a 0-d array for a scalar).

    Raises
    ------
    ValueError
        If ``eps`` or ``sensitivity`` is not > 0.

    Examples
    --------
    >>> geometric_pmf([0, 1, -1], eps=1.0).round(4)
    array([0.4621, 0.17  , 0.17  ])
    """
    eps = check_epsilon(eps)
    sensitivity = check_positive(sensitivity, "sensitivity")
    alpha = np.exp(-eps / sensitivity)
    z = np.asarray(z)
    return (1 - alpha) / (1 + alpha) * alpha ** np.abs(z)


def geometric(value: ArrayLike, *, eps: float, sensitivity: float = 1.0,
              rng: int | np.random.Generator) -> int | np.ndarray:
    """Return ``value + Z`` with Z two-sided geometric (the discrete Laplace mechanism).

    P(Z = z) is proportional to ``alpha**|z|``, ``alpha = exp(-eps / sensitivity)`` (Ghosh,
    Roughgarden & Sundararajan 2009), drawn exactly with integer arithmetic as in
    :func:`discrete_laplace` (``eps / sensitivity`` read as an exact rational; a real
    sensitivity is allowed here).  ``value`` must be integer.

    Accounting: two neighbouring integer answers differ by an integer, at most
    ``floor(sensitivity)``; with a non-integer ``sensitivity`` (2.5, say) the release is
    ``eps * floor(sensitivity) / sensitivity``-DP (0.8 eps at 2.5): more private than the
    ``eps`` charged (the safe side).  Pass the integer sensitivity to spend exactly ``eps``.

    Parameters
    ----------
    value : int or array_like of int
        The true integer answer(s), within +-2**62.
    eps : float
        Privacy budget, > 0 (``eps / sensitivity >= 1e-12``).
    sensitivity : float
        Sensitivity of the integer query, > 0.
    rng : int or numpy.random.Generator
        Source of the noise (an int is a seed).

    Returns
    -------
    int or numpy.ndarray of int64
        Noisy answer(s), same shape as ``value`` (an int for a scalar).

    Raises
    ------
    ValueError
        Non-integer or out-of-range values, a bad ``eps`` or ``sensitivity``.

    Examples
    --------
    >>> geometric([10, 20], eps=1.0, rng=0).dtype
    dtype('int64')
    >>> isinstance(geometric(10, eps=1.0, rng=0), int)
    True
    """
    eps = check_epsilon(eps)
    sensitivity = check_positive(sensitivity, "sensitivity")
    gen = as_generator(rng, release=True)
    arr = np.asarray(value)
    if arr.dtype.kind == "b" or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise ValueError(f"value: the geometric mechanism needs integer true answers, got dtype {arr.dtype}")
    if not np.issubdtype(arr.dtype, np.integer):
        if not (np.all(np.isfinite(arr)) and np.all(arr == np.round(arr))):
            raise ValueError("value: the geometric mechanism needs integer true answers")
    if arr.size and (arr.max() > _INT64_SAFE or arr.min() < -_INT64_SAFE):   # no temporary arrays
        raise ValueError(f"value: expected integers within +-{_INT64_SAFE} (2**62), so that value + noise fits "
                         f"in int64; got {arr.min()!r} .. {arr.max()!r}")
    arr = arr.astype(np.int64, copy=False)
    ratio = eps / sensitivity
    if ratio < _GEOM_MIN_RATIO:
        raise ValueError(f"eps: eps / sensitivity = {ratio!r} is below {_GEOM_MIN_RATIO}; the geometric noise "
                         "would not fit in a 64-bit integer (expected a larger eps or a smaller sensitivity)")
    s, t = _eps_rational(eps, sensitivity)                 # exact rational eps / sensitivity
    z = _discrete_laplace_noise(gen, arr.size, s, t).reshape(arr.shape)
    if z.size and (z.max() > _INT64_SAFE or z.min() < -_INT64_SAFE):   # pragma: no cover - probability < exp(-1e6)
        raise ValueError("eps: the geometric noise overflowed int64; use a larger eps")
    out = z + arr                                          # |arr| <= 2**62, |z| < 2**62 with overwhelming probability
    return int(out) if out.ndim == 0 else out



def randomized_response(bits: ArrayLike, *, eps: float, rng: int | np.random.Generator) -> np.ndarray:
    """Warner's randomized response: each person reports their bit with probability
    ``e^eps / (1 + e^eps)`` and its flip otherwise -- eps-DP for each person, with no trusted
    curator (local differential privacy).

    The flip, of probability ``1 / (1 + e^eps)``, is drawn exactly with integers: ``eps`` is read
    as the exact rational ``Fraction(eps)`` and a person's bit is flipped when an exact discrete
    Laplace draw of parameter ``a = e^-eps`` is at least 1, which has probability ``a / (1 + a)``
    (Canonne, Kamath & Steinke 2020, Algorithm 2).

    Parameters
    ----------
    bits : array_like of bool or {0, 1}
        One private bit per person.
    eps : float
        Budget per person, > 0.
    rng : int or numpy.random.Generator
        Source of the flips (an int is a seed).

    Returns
    -------
    numpy.ndarray of bool
        The reported bits.  An unbiased estimate of the share of ones is
        ``(mean(reports) (1 + e^eps) - 1) / (e^eps - 1)``.

    Raises
    ------
    TypeError
        Bits that are not 0/1 or bool.
    ValueError
        A bad ``eps``.

    Examples
    --------
    >>> r = randomized_response(np.ones(10_000, dtype=bool), eps=1.0, rng=0)
    >>> abs(float(r.mean()) - np.e / (1 + np.e)) < 0.02      # e / (1 + e) = 0.731
    True
    """
    eps = check_epsilon(eps)
    gen = as_generator(rng)
    b = np.asarray(bits)
    if b.dtype.kind == "b":
        b = b.astype(bool)
    elif b.dtype.kind in "iu" and (b.size == 0 or ((b == 0) | (b == 1)).all()):
        b = b.astype(bool)
    else:
        raise TypeError(f"bits: expected booleans or 0/1 integers, got dtype {b.dtype} {_fmt(bits)}")
    s, t = _eps_rational(eps, 1)
    # P(flip) = 1 / (1 + e^eps) = a / (1 + a) with a = e^-eps: flip iff a discrete Laplace draw of
    # parameter a is >= 1 (P(Z >= 1) = a / (1 + a), CKS 2020 Algorithm 2): exact, integers only
    flip = _discrete_laplace_noise(gen, b.size, s, t).reshape(b.shape) >= 1
    return b ^ flip
