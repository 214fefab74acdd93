"""The exact discrete Gaussian, randomized response and the zCDP / advanced-composition accounting."""
import math
from fractions import Fraction

import numpy as np
import pytest

from privlib import accounting as acc
from privlib.accounting import BudgetExceededError, Ledger, LedgerEntry
from privlib.mechanisms import discrete_gaussian, discrete_gaussian_pmf, randomized_response


@pytest.mark.parametrize("sigma2", [0.5, 2, Fraction(9, 2), 30.0])
def test_discrete_gaussian_matches_its_pmf(sigma2):
    n = 60_000
    z = discrete_gaussian(np.zeros(n, dtype=np.int64), sigma2=sigma2, rng=11)
    lim = int(4 * math.sqrt(float(sigma2))) + 1
    support = np.arange(-lim, lim + 1)
    expected = discrete_gaussian_pmf(support, sigma2=float(sigma2)) * n
    observed = np.array([(z == v).sum() for v in support])
    keep = expected > 20
    chi2 = float((((observed - expected) ** 2) / expected)[keep].sum())
    assert chi2 < 3 * keep.sum() + 30, chi2            # a loose goodness-of-fit bound
    assert abs(z.mean()) < 5 * math.sqrt(float(sigma2) / n)


def test_discrete_gaussian_adds_to_values_and_keeps_shape():
    v = np.arange(12, dtype=np.int64).reshape(3, 4)
    out = discrete_gaussian(v, sigma2=1, rng=0)
    assert out.shape == (3, 4) and out.dtype == np.int64
    assert isinstance(discrete_gaussian(3, sigma2=1, rng=0), int)
    assert np.array_equal(discrete_gaussian(v, sigma2=4, rng=5), discrete_gaussian(v, sigma2=4, rng=5))


def test_sigma2_as_a_float_with_a_long_denominator_is_accepted():
    # 0.1 has a 2**55 denominator: rounded up to a shorter one (more noise), not refused
    z = discrete_gaussian(np.zeros(50_000, dtype=np.int64), sigma2=0.1, rng=2)
    assert abs(float(np.mean(z == 0)) - float(discrete_gaussian_pmf(np.array([0]), sigma2=0.1)[0])) < 0.01


@pytest.mark.parametrize("bad, err", [(0, ValueError), (-1.0, ValueError), (float("nan"), ValueError),
                                      (float("inf"), ValueError), ("4", TypeError), (True, TypeError),
                                      (1e30, ValueError)])
def test_discrete_gaussian_refuses_bad_sigma2(bad, err):
    with pytest.raises(err, match="sigma2"):
        discrete_gaussian([1, 2], sigma2=bad, rng=0)


def test_discrete_gaussian_refuses_bad_values_and_overflow():
    with pytest.raises(ValueError, match="values"):
        discrete_gaussian([1.5], sigma2=1, rng=0)
    with pytest.raises(TypeError, match="values"):
        discrete_gaussian(["a"], sigma2=1, rng=0)
    with pytest.raises(ValueError, match="overflows int64"):
        discrete_gaussian(np.full(200, np.iinfo(np.int64).max), sigma2=100, rng=0)
    with pytest.raises(TypeError):
        discrete_gaussian([1], sigma2=1)              # rng is required
    with pytest.raises(TypeError, match="z"):
        discrete_gaussian_pmf(np.array([0.5]), sigma2=1)


def test_randomized_response_rate_and_estimate():
    bits = np.r_[np.ones(30_000, dtype=bool), np.zeros(70_000, dtype=bool)]
    r = randomized_response(bits, eps=1.0, rng=3)
    keep = np.mean(r[:30_000])
    assert abs(keep - math.e / (1 + math.e)) < 0.01
    est = (r.mean() * (1 + math.e) - 1) / (math.e - 1)
    assert abs(est - 0.3) < 0.02
    assert randomized_response(np.array([0, 1, 1]), eps=2.0, rng=0).dtype == bool


def test_randomized_response_refuses_bad_bits_and_eps():
    with pytest.raises(TypeError, match="bits"):
        randomized_response(np.array([0, 2]), eps=1.0, rng=0)
    with pytest.raises(TypeError, match="bits"):
        randomized_response(np.array([0.5]), eps=1.0, rng=0)
    with pytest.raises(ValueError, match="eps"):
        randomized_response(np.array([0, 1]), eps=0.0, rng=0)


def test_advanced_composition_formula_and_errors():
    e, k, d = 0.1, 100, 1e-5
    assert acc.advanced_composition(e, k=k, delta_prime=d) == pytest.approx(
        math.sqrt(2 * k * math.log(1 / d)) * e + k * e * (math.exp(e) - 1))
    assert acc.composed_epsilon(2.0, k=2, delta_prime=d) == 4.0
    assert acc.composed_epsilon(0.01, k=10_000, delta_prime=d) < 100
    for kwargs, err in (({"k": 0, "delta_prime": d}, ValueError), ({"k": 2, "delta_prime": 0.0}, ValueError),
                        ({"k": 2, "delta_prime": 1.0}, ValueError), ({"k": 2.5, "delta_prime": d}, TypeError)):
        with pytest.raises(err):
            acc.advanced_composition(0.1, **kwargs)
    with pytest.raises(ValueError, match="eps"):
        acc.advanced_composition(-1.0, k=2, delta_prime=d)


def test_zcdp_conversions_and_ledger():
    assert acc.gaussian_rho(sensitivity=2, sigma2=8) == 0.25
    assert acc.pure_to_zcdp(0.5) == 0.125
    assert acc.zcdp_to_dp(0.125, delta=1e-6) == pytest.approx(0.125 + 2 * math.sqrt(0.125 * math.log(1e6)))
    led = Ledger([LedgerEntry("laplace", 0.2), LedgerEntry("laplace", 0.4, "parallel", group="g"),
                  LedgerEntry("laplace", 0.3, "parallel", group="g")])
    assert acc.ledger_rho(led) == pytest.approx(0.02 + 0.08)
    assert acc.ledger_rho(led, gaussian=[0.1]) == pytest.approx(0.2)
    assert acc.check_rho(0.2, 0.2) == 0.2
    with pytest.raises(BudgetExceededError, match="rho"):
        acc.check_rho(0.3, 0.2)
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError):
            acc.zcdp_to_dp(bad, delta=1e-6)
    with pytest.raises(ValueError, match="delta"):
        acc.zcdp_to_dp(0.1, delta=0.0)
    with pytest.raises(ValueError, match="gaussian"):
        acc.ledger_rho(led, gaussian=[-0.1])
    with pytest.raises(ValueError, match="sigma2"):
        acc.gaussian_rho(sensitivity=1, sigma2=0)
