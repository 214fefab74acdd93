"""Exact discrete noise (integer arithmetic only): its law, its range and its errors."""
import math

import numpy as np
import pytest
from scipy import stats

from privlib import attacks as privlib_attacks
from privlib import mechanisms as m


def _pmf(k, eps, sensitivity=1):
    alpha = math.exp(-eps / sensitivity)
    return (1 - alpha) / (1 + alpha) * alpha ** np.abs(k)


def _chi_square_pvalue(z, eps, sensitivity=1):
    """Chi-square goodness of fit of integer draws ``z`` against the closed-form pmf, the
    bins with an expected count below 20 merged into two tails."""
    n = z.size
    ks = np.arange(-400 * sensitivity, 400 * sensitivity + 1)
    p = _pmf(ks, eps, sensitivity)
    inner = ks[n * p >= 20]
    lo, hi = inner.min(), inner.max()
    obs = np.bincount(np.clip(z, lo - 1, hi + 1) - (lo - 1), minlength=hi - lo + 3)
    p_in = _pmf(np.arange(lo, hi + 1), eps, sensitivity)
    tail = (1 - p_in.sum()) / 2
    exp = n * np.concatenate([[tail], p_in, [tail]])
    keep = exp > 0
    return stats.chisquare(obs[keep], exp[keep] * obs[keep].sum() / exp[keep].sum()).pvalue


@pytest.mark.parametrize("eps, sensitivity", [(0.1, 1), (1.0, 1), (2.5, 1), (1.0, 3)])
def test_discrete_laplace_has_the_exact_law(eps, sensitivity):
    z = m.discrete_laplace(np.zeros(1_000_000, dtype=np.int64), eps=eps, sensitivity=sensitivity, rng=11)
    assert z.dtype == np.int64
    assert _chi_square_pvalue(z, eps, sensitivity) > 1e-3
    # the test can fail: the same draws against a law 5% wider are rejected
    assert _chi_square_pvalue(z, eps * 0.95, sensitivity) < 1e-6


def test_discrete_laplace_is_symmetric_and_centred():
    z = m.discrete_laplace(np.zeros(400_000, dtype=np.int64), eps=0.5, rng=2)
    pos, neg = (z > 0).sum(), (z < 0).sum()
    assert abs(pos - neg) < 4 * math.sqrt(pos + neg)
    alpha = math.exp(-0.5)
    var = 2 * alpha / (1 - alpha) ** 2
    assert abs(z.mean()) < 4 * math.sqrt(var / z.size)
    assert z.var() == pytest.approx(var, rel=0.02)


def test_discrete_laplace_types_and_shapes():
    out = m.discrete_laplace(np.arange(6, dtype=np.int32).reshape(2, 3), eps=1.0, rng=0)
    assert out.shape == (2, 3) and out.dtype == np.int64
    assert isinstance(m.discrete_laplace(5, eps=1.0, rng=0), int)
    assert isinstance(m.discrete_laplace(np.float64(5.0), eps=1.0, rng=0), int)
    assert m.discrete_laplace(np.zeros(0, dtype=np.int64), eps=1.0, rng=0).shape == (0,)
    assert m.discrete_laplace([3.0, 4.0], eps=1e9, rng=0).tolist() == [3, 4]      # eps huge: no noise
    assert m.discrete_laplace(np.array([7], dtype=np.uint8), eps=1e9, rng=0).tolist() == [7]


def test_no_float_is_drawn():
    class IntegersOnly(np.random.Generator):
        def _refuse(self, *a, **k):
            raise AssertionError("a float draw in the exact sampler")
        random = uniform = laplace = exponential = geometric = binomial = _refuse
        standard_normal = normal = standard_exponential = gumbel = _refuse

    gen = IntegersOnly(np.random.PCG64(0))
    out = m.discrete_laplace(np.arange(1000), eps=0.3, rng=gen)
    assert out.dtype == np.int64 and (out != np.arange(1000)).any()


def test_noise_survives_at_2_to_the_62():
    # a float sampler returns 2**62 exactly (the float spacing there is 1024); the integer one
    # adds its noise, and the noise does not depend on the magnitude
    big = np.full(2000, 2 ** 62, dtype=np.int64)
    out = m.discrete_laplace(big, eps=1.0, rng=4)
    assert (out != 2 ** 62).mean() > 0.4
    assert np.array_equal(out - 2 ** 62, m.discrete_laplace(np.zeros(2000, dtype=np.int64), eps=1.0, rng=4))
    assert m.discrete_laplace(2 ** 62, eps=1.0, rng=4) - 2 ** 62 == int(out[0] - 2 ** 62)


def test_small_eps_scale():
    # eps = 1e-5: Fraction(eps) has a denominator of 2**69, rounded down to a multiple of 2**-62
    eps = 1e-5
    z = m.discrete_laplace(np.zeros(200_000, dtype=np.int64), eps=eps, rng=5)
    alpha = math.exp(-eps)
    mean_abs = 2 * alpha / (1 - alpha ** 2)       # about 1 / eps
    assert np.mean(np.abs(z)) == pytest.approx(mean_abs, rel=0.01)


def test_sensitivity_scales_the_noise():
    a = m.discrete_laplace(np.zeros(200_000, dtype=np.int64), eps=1.0, sensitivity=4, rng=6)
    b = m.discrete_laplace(np.zeros(200_000, dtype=np.int64), eps=0.25, sensitivity=1, rng=6)
    assert np.array_equal(a, b)          # the same rational eps / sensitivity: the same draws


BAD = [
    ("eps 0", dict(values=0, eps=0), ValueError, "eps"),
    ("eps negative", dict(values=0, eps=-1.0), ValueError, "eps"),
    ("eps nan", dict(values=0, eps=float("nan")), ValueError, "eps"),
    ("eps inf", dict(values=0, eps=float("inf")), ValueError, "eps"),
    ("eps string", dict(values=0, eps="1"), TypeError, "eps"),
    ("eps below 2**-62", dict(values=0, eps=1e-20), ValueError, "eps"),
    ("sensitivity 0", dict(values=0, eps=1.0, sensitivity=0), ValueError, "sensitivity"),
    ("sensitivity fraction", dict(values=0, eps=1.0, sensitivity=1.5), TypeError, "sensitivity"),
    ("sensitivity bool", dict(values=0, eps=1.0, sensitivity=True), TypeError, "sensitivity"),
    ("values fraction", dict(values=[1, 0.5], eps=1.0), ValueError, "values.*0.5"),
    ("values nan", dict(values=[float("nan")], eps=1.0), ValueError, "values"),
    ("values inf", dict(values=float("inf"), eps=1.0), ValueError, "values"),
    ("values bool", dict(values=[True, False], eps=1.0), TypeError, "values.*bool"),
    ("values strings", dict(values=["1"], eps=1.0), TypeError, "values"),
    ("values objects", dict(values=np.array([1, None], dtype=object), eps=1.0), TypeError, "values.*object"),
    ("values float 1e19", dict(values=1e19, eps=1.0), ValueError, "values.*int64"),
    ("values uint64 max", dict(values=np.array([2 ** 64 - 1], dtype=np.uint64), eps=1.0), ValueError, "int64"),
    ("overflow", dict(values=np.full(100, np.iinfo(np.int64).max), eps=1.0), ValueError, r"values.*2\*\*62"),
    ("underflow", dict(values=np.full(100, np.iinfo(np.int64).min), eps=1.0), ValueError, r"values.*2\*\*62"),
]


@pytest.mark.parametrize("kwargs, exc, match", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_discrete_laplace_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        m.discrete_laplace(kwargs.pop("values"), **kwargs, rng=0)


def test_discrete_laplace_needs_rng():
    with pytest.raises(TypeError, match="rng"):
        m.discrete_laplace(0, eps=1.0)
    assert isinstance(m.discrete_laplace(0, eps=1.0, rng=None), int)      # None: fresh entropy


# ----------------------------------------------------------------------------- laplace (exact, on a grid)
def test_laplace_clamps_magnitudes_to_a_public_bound():
    # the example: the float sampler returns 2**62 exactly for every seed
    assert all(m.textbook_laplace(2.0 ** 62, eps=1.0, rng=s) == 2.0 ** 62 for s in range(100))
    # laplace clamps to the public bound 2**51 grid steps (2**41 at sensitivity 1): no refusal
    # that depends on the value; beyond the bound every value has the same release law
    a = m.laplace(np.full(2000, 2.0 ** 62), eps=1.0, rng=3)
    b = m.laplace(np.full(2000, 2.0 ** 42), eps=1.0, rng=3)
    assert np.array_equal(a, b) and abs(np.median(a) - 2.0 ** 41) < 5
    assert m.laplace([0.0, -2.0 ** 43], eps=1.0, rng=0)[1] < -2.0 ** 40
    # just below the limit (2**52 grid steps of 2**-10) the noise is there, on the grid
    x = 2.0 ** 41
    out = m.laplace(np.full(1000, x), eps=1.0, rng=1)
    assert (out != x).mean() > 0.9 and np.all(np.mod(out, 2.0 ** -10) == 0)


def test_laplace_releases_lie_on_the_grid_with_the_discrete_law():
    eps, sens = 0.5, 3.0
    g = 2.0 ** -9                              # 2**(floor(log2 3) - 10)
    x = np.full(200_000, 0.3)
    out = m.laplace(x, eps=eps, sensitivity=sens, rng=2)
    k = out / g
    assert np.array_equal(k, np.round(k)) and not np.signbit(out[out == 0]).any()
    z = k - np.rint(0.3 / g)
    alpha = math.exp(-eps / (math.floor(sens / g) + 1))
    assert np.mean(np.abs(z)) == pytest.approx(2 * alpha / (1 - alpha ** 2), rel=0.01)
    # at most 2**-10 wider than Lap(sensitivity / eps)
    assert np.mean(np.abs(out - 0.3)) == pytest.approx(sens / eps, rel=0.01)


def test_laplace_draws_no_float():
    class IntegersOnly(np.random.Generator):
        def _refuse(self, *a, **k):
            raise AssertionError("a float draw")
        random = uniform = laplace = exponential = geometric = _refuse

    gen = IntegersOnly(np.random.PCG64(0))
    assert np.isfinite(m.laplace(np.linspace(-5, 5, 100), eps=0.7, rng=gen)).all()
    assert np.isfinite(m.snapping(np.linspace(-5, 5, 100), eps=0.7, bound=50.0, rng=gen)).all()


# ----------------------------------------------------------------------------- snapping
def test_snapping_outputs_multiples_of_lambda_and_has_the_laplace_law():
    eps, bound = 0.5, 1000.0                   # lambda = 2 = Lambda
    out = m.snapping(np.zeros(300_000), eps=eps, bound=bound, rng=3)
    assert np.all(np.mod(out, 2.0) == 0) and np.abs(out).max() <= bound
    assert not np.signbit(out[out == 0]).any()
    # P(out = 2j) = P(Lap(2) in [2j - 1, 2j + 1)), chi-square over |j| <= 6 and the tails
    js = np.arange(-6, 7)
    p = stats.laplace.cdf(2 * js + 1, scale=2.0) - stats.laplace.cdf(2 * js - 1, scale=2.0)
    obs = np.array([(out == 2 * j).sum() for j in js] + [(out < -13).sum(), (out > 13).sum()])
    tail = (1 - p.sum()) / 2
    exp = out.size * np.concatenate([p, [tail, tail]])
    assert stats.chisquare(obs, exp).pvalue > 1e-3
    # clamping: a value beyond the bound is released from the bound
    far = m.snapping(np.full(1000, 1e9), eps=eps, bound=bound, rng=4)
    assert far.max() == bound and far.min() >= bound - 60


def test_snapping_epsilon_is_mironovs_theorem():
    assert m.snapping_epsilon(eps=1.0, bound=2.0 ** 20) == 1.0 + 2.0 ** -29
    assert m.snapping_epsilon(eps=0.5, bound=1e6, sensitivity=2.0) == pytest.approx(0.5 * (1 + 2.0 ** -49 * 5e5))


SNAP_BAD = [
    ("bound below lambda", dict(value=0.0, eps=1.0, bound=0.5), ValueError, "bound: .*lambda"),
    ("bound above 2**46 lambda", dict(value=0.0, eps=1.0, bound=2.0 ** 47), ValueError, "bound"),
    ("bound nan", dict(value=0.0, eps=1.0, bound=float("nan")), ValueError, "bound"),
    ("eps 0", dict(value=0.0, eps=0.0, bound=10.0), ValueError, "eps"),
    ("sensitivity -1", dict(value=0.0, eps=1.0, bound=10.0, sensitivity=-1.0), ValueError, "sensitivity"),
    ("value inf", dict(value=[0.0, float("inf")], eps=1.0, bound=10.0), ValueError, "value"),
    ("value strings", dict(value=["a"], eps=1.0, bound=10.0), TypeError, "value"),
    ("value bools", dict(value=[True], eps=1.0, bound=10.0), TypeError, "value"),
]


@pytest.mark.parametrize("kwargs, exc, match", [b[1:] for b in SNAP_BAD], ids=[b[0] for b in SNAP_BAD])
def test_snapping_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        m.snapping(kwargs.pop("value"), **kwargs, rng=0)


def test_snapping_scalar_and_rng_required():
    assert isinstance(m.snapping(1.0, eps=1.0, bound=10.0, rng=0), float)
    assert isinstance(m.snapping(1.0, eps=1.0, bound=10.0, rng=None), float)   # None: fresh entropy


# ----------------------------------------------------------------------------- Mironov's attack
N = 10_000
SIGMA = math.sqrt(0.25 / N)


def test_the_attack_breaks_the_textbook_sampler():
    # measured 0.901 (eps = 1) and 0.906 (eps = 0.1) at n = 10**4, seed 0: far above the
    # e**eps / (1 + e**eps) that no attack on an eps-DP mechanism can pass
    for eps in (1.0, 0.1):
        r = privlib_attacks.mironov_experiment("textbook_laplace", eps=eps, n=N, rng=0)
        assert r.success > 0.85 and r.success > r.dp_bound + 10 * SIGMA and r.decided > 0.7


def test_the_attack_never_names_the_wrong_input_of_the_textbook_sampler():
    y0 = m.textbook_laplace(np.zeros(5000), eps=1.0, rng=5)
    y1 = m.textbook_laplace(np.ones(5000), eps=1.0, rng=6)
    d0 = privlib_attacks.float_laplace_attack(y0, x0=0.0, x1=1.0, eps=1.0)
    d1 = privlib_attacks.float_laplace_attack(y1, x0=0.0, x1=1.0, eps=1.0)
    assert (d0 != 1).all() and (d1 != 0).all()
    assert (d0 == 0).mean() > 0.7 and (d1 == 1).mean() > 0.7


@pytest.mark.parametrize("sampler", ["laplace", "snapping", "discrete_laplace"])
@pytest.mark.parametrize("eps", [0.1, 1.0])
def test_the_attack_is_at_chance_on_privlib_samplers(sampler, eps):
    r = privlib_attacks.mironov_experiment(sampler, eps=eps, n=N, rng=1)
    assert r.decided == 0.0
    assert abs(r.success - 0.5) < 4 * SIGMA


@pytest.mark.parametrize("sampler", ["laplace", "snapping", "discrete_laplace"])
def test_the_float_inversion_on_privlib_samplers_stays_within_the_dp_bound(sampler):
    # run on exact releases, the inversion is an ordinary test: never above e**eps / (1 + e**eps),
    # so at eps = 0.01 it is at chance (bound 0.5025)
    r = privlib_attacks.mironov_experiment(sampler, eps=1.0, n=N, rule="float_inversion", rng=2)
    assert r.success < r.dp_bound + 4 * SIGMA
    r = privlib_attacks.mironov_experiment(sampler, eps=0.01, n=N, rule="float_inversion", rng=2)
    assert abs(r.success - 0.5) < 4 * SIGMA + (r.dp_bound - 0.5)


def test_mironov_curve_is_quick_and_marks_refusals():
    import time
    t = time.perf_counter()
    df = privlib_attacks.mironov_curve(eps=[0.1, 1.0, 5.0], x0=[0.0, 2.0 ** 50], n=2000, rng=0)
    assert time.perf_counter() - t < 5
    assert list(df.columns) == ["sampler", "eps", "x0", "success", "stderr", "decided", "dp_bound", "unchanged",
                                "refused"]
    refused = df[df.refused]
    assert set(refused.sampler) == {"snapping"} and (refused.x0 == 2.0 ** 50).all()
    clamped = df[(df.sampler == "laplace") & (df.x0 == 2.0 ** 50)]      # clamped: x0 and x0 + 1 look alike
    assert (abs(clamped.success - 0.5) < 4 * clamped.stderr).all()
    tb = df[(df.sampler == "textbook_laplace") & (df.x0 == 0)]
    assert (tb.success > 0.85).all()


ATTACK_BAD = [
    ("sampler", lambda: privlib_attacks.mironov_experiment("gauss", eps=1.0, rng=0), ValueError, "sampler"),
    ("rule", lambda: privlib_attacks.mironov_experiment("laplace", eps=1.0, rule="x", rng=0), ValueError, "rule"),
    ("n 0", lambda: privlib_attacks.mironov_experiment("laplace", eps=1.0, n=0, rng=0), ValueError, "n"),
    ("x0 fraction discrete", lambda: privlib_attacks.mironov_experiment("discrete_laplace", eps=1.0, x0=0.5, rng=0),
     ValueError, "x0"),
    ("x0 nan", lambda: privlib_attacks.mironov_experiment("laplace", eps=1.0, x0=float("nan"), rng=0), ValueError, "x0"),
    ("released nan", lambda: privlib_attacks.float_laplace_attack([np.nan], x0=0.0, x1=1.0, eps=1.0), ValueError,
     "released"),
    ("attack eps", lambda: privlib_attacks.float_laplace_attack([0.0], x0=0.0, x1=1.0, eps=0.0), ValueError, "eps"),
]


@pytest.mark.parametrize("call, exc, match", [b[1:] for b in ATTACK_BAD], ids=[b[0] for b in ATTACK_BAD])
def test_attack_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_discrete_laplace_stream_pinned():
    """The draws of the exact sampler (and the generator's state after them) for many budgets
    and sizes, pinned: a faster sampler must consume the same random numbers in the same order,
    so that every release of the book stays the same."""
    import hashlib
    h = hashlib.sha256()
    for eps in (0.05, 0.125, 0.25, 0.5, 1.0, 0.3, 3.0, 1e-3):
        for n in (0, 1, 7, 1000, 300_000):
            g = np.random.default_rng([int(eps * 1000), n])
            z = m.discrete_laplace(np.zeros(n, dtype=np.int64), eps=eps, rng=g)
            h.update(np.asarray(z, dtype="<i8").tobytes())
            h.update(str(g.integers(1 << 62)).encode())
    assert h.hexdigest() == "1d0b7351e6397078790fc4d00d4b8db3e7e14c43330274a1d42b4244d32f2463"
