"""Statistical tests of the DP primitives (seeded, so deterministic)."""
import numpy as np
import pytest
from scipy import stats

from privlib import mechanisms as m


def test_laplace_distribution_ks():
    x = m.laplace(np.zeros(20_000), eps=0.5, sensitivity=2.0, rng=1)
    # scale b = sensitivity / eps = 4
    assert stats.kstest(x, "laplace", args=(0, 4.0)).pvalue > 0.01
    assert stats.kstest(x, "laplace", args=(0, 2.0)).pvalue < 1e-6  # the test can fail


def test_laplace_scalar_and_reproducible():
    a = m.laplace(10.0, eps=1.0, rng=5)
    assert isinstance(a, float) and a == m.laplace(10.0, eps=1.0, rng=5)
    assert m.laplace_scale(eps=0.1, sensitivity=1.0) == pytest.approx(10.0)


def test_laplace_likelihood_ratio_bounded_by_e_eps():
    # neighbouring answers 0 and 1 (sensitivity 1): density ratio <= e^eps everywhere
    eps = 0.7
    z = np.linspace(-20, 20, 4001)
    b = m.laplace_scale(eps=eps)
    ratio = stats.laplace.pdf(z, 0, b) / stats.laplace.pdf(z, 1, b)
    assert ratio.max() <= np.exp(eps) * (1 + 1e-12)
    assert ratio.max() == pytest.approx(np.exp(eps))


@pytest.mark.parametrize("eps", [0, -1, np.nan])
def test_bad_epsilon(eps):
    with pytest.raises(ValueError, match="eps"):
        m.laplace(0.0, eps=eps, rng=0)
    with pytest.raises(ValueError, match="eps"):
        m.exponential([1, 2], eps=eps, rng=0)
    with pytest.raises(ValueError, match="eps"):
        m.geometric(0, eps=eps, rng=0)


def test_laplace_rejects_nan_value():
    with pytest.raises(ValueError, match="NaN"):
        m.laplace([1.0, np.nan], eps=1.0, rng=0)


def test_exponential_frequencies_match_theory():
    u = np.array([0.0, 1.0, 2.0, 4.0])
    eps, du = 1.0, 1.0
    expected = np.exp(eps * u / (2 * du))
    expected /= expected.sum()
    np.testing.assert_allclose(m.exponential_probabilities(u, eps=eps, sensitivity=du), expected)
    gen = np.random.default_rng(11)
    n = 20_000
    draws = np.array([m.exponential(u, eps=eps, sensitivity=du, rng=gen) for _ in range(n)])
    counts = np.bincount(draws, minlength=4)
    chi2 = stats.chisquare(counts, expected * n)
    assert chi2.pvalue > 0.001
    # a wrong law (eps / du instead of eps / 2du) is rejected
    wrong = np.exp(eps * u / du)
    wrong /= wrong.sum()
    assert stats.chisquare(counts, wrong * n).pvalue < 1e-6


def test_exponential_log_space_extreme_utilities():
    p = m.exponential_probabilities([1e6, -1e6, 1e6 - 1], eps=1.0)
    assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0)
    assert p[1] == 0.0 and p[0] > p[2] > 0
    assert m.exponential([-1e6, 1e6], eps=1.0, rng=0) == 1


def test_exponential_base_measure():
    p = m.exponential_probabilities([0.0, 0.0], eps=1.0, base_measure=[1.0, 3.0])
    np.testing.assert_allclose(p, [0.25, 0.75])
    p = m.exponential_probabilities([0.0, 0.0], eps=1.0, base_measure=[0.0, 3.0])
    np.testing.assert_allclose(p, [0.0, 1.0])
    with pytest.raises(ValueError, match="base_measure"):
        m.exponential_probabilities([0.0, 1.0], eps=1.0, base_measure=[1.0])
    with pytest.raises(ValueError, match="base_measure"):
        m.exponential_probabilities([0.0, 1.0], eps=1.0, base_measure=[-1.0, 1.0])


def test_exponential_bad_utilities():
    with pytest.raises(ValueError, match="utilities"):
        m.exponential([], eps=1.0, rng=0)
    with pytest.raises(ValueError, match="utilities"):
        m.exponential([1.0, np.nan], eps=1.0, rng=0)
    with pytest.raises(ValueError, match="sensitivity"):
        m.exponential([1.0], eps=1.0, sensitivity=0, rng=0)


def test_exponential_privacy_ratio():
    # changing one utility by du changes each selection probability by at most e^eps
    eps = 0.8
    u1 = np.array([0.0, 3.0, 5.0])
    u2 = u1 + np.array([1.0, 0.0, -1.0])
    r = m.exponential_probabilities(u1, eps=eps) / m.exponential_probabilities(u2, eps=eps)
    assert np.all(r <= np.exp(eps) + 1e-12) and np.all(r >= np.exp(-eps) - 1e-12)


def test_geometric_pmf_and_samples():
    eps = 0.5
    z = np.arange(-200, 201)
    assert m.geometric_pmf(z, eps=eps).sum() == pytest.approx(1.0)
    x = m.geometric(np.zeros(40_000, dtype=int), eps=eps, rng=3)
    assert x.dtype.kind == "i"
    vals, counts = np.unique(np.clip(x, -8, 8), return_counts=True)
    expected = m.geometric_pmf(vals, eps=eps)
    expected[0] = m.geometric_pmf(np.arange(-200, -7), eps=eps).sum()
    expected[-1] = m.geometric_pmf(np.arange(8, 201), eps=eps).sum()
    assert stats.chisquare(counts, expected / expected.sum() * counts.sum()).pvalue > 0.001
    ratio = m.geometric_pmf(z, eps=eps) / m.geometric_pmf(z - 1, eps=eps)
    assert ratio.max() == pytest.approx(np.exp(eps))


def test_geometric_needs_integers():
    assert m.geometric(5, eps=1.0, rng=0) == m.geometric(5, eps=1.0, rng=0)
    assert isinstance(m.geometric(np.float64(5.0), eps=1.0, rng=0), int)
    with pytest.raises(ValueError, match="integer"):
        m.geometric(0.5, eps=1.0, rng=0)


# ----------------------------------------------------------------------------- exponential_rows
def test_exponential_rows_frequencies_match_probabilities_per_row():
    # three rows with different utilities, sensitivities' effect and an unavailable candidate
    u = np.array([[0.0, 1.0, 2.0, 4.0],
                  [3.0, 3.0, 0.0, -np.inf],
                  [-2.0, 0.0, 5.0, 1.0]])
    eps, du, reps = 1.2, 2.0, 20_000
    draws = m.exponential_rows(np.repeat(u, reps, axis=0), eps=eps, sensitivity=du, rng=5).reshape(3, reps)
    for i in range(3):
        ok = np.isfinite(u[i])
        p = np.zeros(4)
        p[ok] = m.exponential_probabilities(u[i, ok], eps=eps, sensitivity=du)
        counts = np.bincount(draws[i], minlength=4)
        assert counts[~ok].sum() == 0                       # -inf is never chosen
        assert stats.chisquare(counts[ok], p[ok] * reps).pvalue > 0.001
        # the wrong law (eps / du instead of eps / 2 du) is rejected
        wrong = np.exp(eps * u[i, ok] / du)
        wrong /= wrong.sum()
        if i != 1:                                          # row 1: two equal top utilities, weaker test
            assert stats.chisquare(counts[ok], wrong * reps).pvalue < 1e-6


def test_exponential_rows_agrees_with_exponential_in_distribution():
    # an independent sampler: the inverse-CDF draw of m.exponential, one call per row
    u = np.array([0.0, 2.0, 1.0])
    a = np.bincount(m.exponential_rows(np.tile(u, (20_000, 1)), eps=0.7, rng=1), minlength=3)
    gen = np.random.default_rng(2)
    b = np.bincount([m.exponential(u, eps=0.7, rng=gen) for _ in range(4_000)], minlength=3)
    assert stats.chi2_contingency(np.vstack([a, b])).pvalue > 0.001


def test_exponential_rows_base_measure():
    u = np.zeros((40_000, 2))
    d = m.exponential_rows(u, eps=1.0, base_measure=[1.0, 3.0], rng=3)          # one weight per column
    assert np.mean(d == 1) == pytest.approx(0.75, abs=0.01)
    mu = np.tile([0.0, 3.0], (5, 1))
    assert np.all(m.exponential_rows(np.zeros((5, 2)), eps=1.0, base_measure=mu, rng=3) == 1)


def test_exponential_rows_extreme_utilities_finite():
    u = np.array([[1e6, -1e6, 1e6 - 1], [-1e6, 1e6, -np.inf], [-1e6, -1e6 + 1, -np.inf]])
    d = m.exponential_rows(np.repeat(u, 2000, axis=0), eps=1.0, rng=4).reshape(3, 2000)
    assert np.all(d[1] == 1)                                 # 1e6 against -1e6
    assert set(np.unique(d[0])) <= {0, 2} and np.mean(d[0] == 0) == pytest.approx(0.6225, abs=0.04)
    assert set(np.unique(d[2])) <= {0, 1}
    # utilities near the float limit: eps u / 2du overflows, the row shift keeps the draw exact
    big = m.exponential_rows([[1e308, 1e308, -1e308]] * 1000, eps=4.0, rng=6)
    assert set(np.unique(big)) <= {0, 1}


def test_exponential_rows_deterministic_and_shape():
    u = np.random.default_rng(0).normal(size=(50, 7))
    a = m.exponential_rows(u, eps=0.5, rng=9)
    assert a.shape == (50,) and a.dtype == np.int64 and np.all((a >= 0) & (a < 7))
    np.testing.assert_array_equal(a, m.exponential_rows(u, eps=0.5, rng=9))


def test_exponential_rows_bad_inputs():
    with pytest.raises(ValueError, match="2-d"):
        m.exponential_rows([1.0, 2.0], eps=1.0, rng=0)
    with pytest.raises(ValueError, match="2-d"):
        m.exponential_rows(np.zeros((0, 3)), eps=1.0, rng=0)
    with pytest.raises(ValueError, match="NaN or \\+inf"):
        m.exponential_rows([[1.0, np.nan]], eps=1.0, rng=0)
    with pytest.raises(ValueError, match="NaN or \\+inf"):
        m.exponential_rows([[1.0, np.inf]], eps=1.0, rng=0)
    with pytest.raises(ValueError, match="row 1 has no available candidate"):
        m.exponential_rows([[1.0, 0.0], [-np.inf, -np.inf]], eps=1.0, rng=0)
    with pytest.raises(ValueError, match="row 0 has no available candidate"):
        m.exponential_rows([[1.0, 0.0]], eps=1.0, base_measure=[0.0, 0.0], rng=0)
    with pytest.raises(ValueError, match="base_measure"):
        m.exponential_rows([[1.0, 0.0]], eps=1.0, base_measure=[1.0, 1.0, 1.0], rng=0)
    with pytest.raises(ValueError, match="base_measure"):
        m.exponential_rows([[1.0, 0.0]], eps=1.0, base_measure=[-1.0, 1.0], rng=0)
    with pytest.raises(ValueError, match="eps"):
        m.exponential_rows([[1.0, 0.0]], eps=0.0, rng=0)
    with pytest.raises(ValueError, match="sensitivity"):
        m.exponential_rows([[1.0, 0.0]], eps=1.0, sensitivity=-1.0, rng=0)
    assert m.exponential_rows([[1.0, 0.0]], eps=1.0, rng=None).shape == (1,)   # None: fresh entropy


# ----------------------------------------------------------------------------- probe regressions
def test_exponential_probabilities_near_float_limit_match_rows_and_hand():
    # eps * u / 2du overflowed to inf and inf - inf gave NaN, then always index 0
    u = np.array([1e308, 1e308, -1e308])
    p = m.exponential_probabilities(u, eps=4.0)
    assert np.all(np.isfinite(p))
    np.testing.assert_allclose(p, [0.5, 0.5, 0.0])                  # by hand: equal top utilities
    rows = m.exponential_rows(np.tile(u, (4000, 1)), eps=4.0, rng=1)
    assert np.mean(rows == 0) == pytest.approx(0.5, abs=0.03)
    draws = np.array([m.exponential(u, eps=4.0, rng=s) for s in range(400)])
    assert 0.35 < np.mean(draws == 0) < 0.65 and not np.any(draws == 2)
    # a tiny sensitivity: eps * u / 2du overflows for u = 1
    p = m.exponential_probabilities([1.0, 0.0], eps=1.0, sensitivity=1e-308)
    np.testing.assert_allclose(p, [1.0, 0.0])


def test_exponential_probabilities_all_utilities_hugely_negative():
    np.testing.assert_allclose(m.exponential_probabilities([-1e308, -1e308], eps=1.0), [0.5, 0.5])
    # the largest utility has weight 0: the shift uses the best candidate that can be chosen
    np.testing.assert_allclose(m.exponential_probabilities([1e308, -1e308], eps=1.0, base_measure=[0.0, 1.0]), [0.0, 1.0])
    assert np.all(m.exponential_rows([[1e308, -1e308]] * 50, eps=1.0, base_measure=[0.0, 1.0], rng=0) == 1)


def test_laplace_refuses_a_scale_that_overflows():
    with pytest.raises(ValueError, match="eps"):
        m.laplace(0.0, eps=1e-310, rng=0)
    with pytest.raises(ValueError, match="eps"):
        m.laplace_scale(eps=1e-310)
    # exact noise must stay representable: a scale above 2**44 grid steps is refused by name
    with pytest.raises(ValueError, match="eps: eps = 1e-300 is too small"):
        m.laplace(0.0, eps=1e-300, rng=0)
    assert np.isfinite(m.laplace(0.0, eps=1e-9, rng=0))


def test_geometric_tiny_eps_and_int64_limits_are_clear_errors():
    with pytest.raises(ValueError, match="eps"):
        m.geometric(0, eps=1e-20, rng=0)
    with pytest.raises(ValueError, match="value"):
        m.geometric(np.iinfo(np.int64).max, eps=1.0, rng=0)
    with pytest.raises(ValueError, match="value"):
        m.geometric(np.array([0, -2 ** 63], dtype=np.int64), eps=1.0, rng=0)
    x = m.geometric(np.array([2 ** 61, -2 ** 61]), eps=1.0, rng=0)      # large but safe: no wrap-around
    assert abs(int(x[0]) - 2 ** 61) < 100 and abs(int(x[1]) + 2 ** 61) < 100
    assert isinstance(m.geometric(0, eps=1e-9, rng=0), int)


@pytest.mark.parametrize("bad", [["a", "b"], np.array([1, None], dtype=object), [1 + 2j, 0]])
def test_exponential_names_non_numeric_utilities(bad):
    with pytest.raises(TypeError, match=r"utilities: expected numbers, got dtype"):
        m.exponential(bad, eps=1.0, rng=0)
    with pytest.raises(TypeError, match="utilities"):
        m.exponential_rows([bad], eps=1.0, rng=0)
    with pytest.raises(TypeError, match="base_measure"):
        m.exponential([0.0, 1.0], eps=1.0, rng=0, base_measure=["x", "y"])


def test_geometric_is_exact_and_matches_discrete_laplace():
    # an integer sensitivity: the same rational eps / sensitivity, the same integer sampler
    a = m.geometric(np.arange(50), eps=0.7, sensitivity=2, rng=9)
    b = m.discrete_laplace(np.arange(50), eps=0.7, sensitivity=2, rng=9)
    assert np.array_equal(a, b)
