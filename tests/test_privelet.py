"""privlib.privelet: Xiao, Wang & Gehrke (2010)'s Haar-wavelet Privelet on exact integer noise."""
import numpy as np
import pytest

from privlib.privelet import haar_coefficients, haar_inverse, privelet_histogram


def test_hand_worked_case():
    # counts 3, 0, 1, 4 (m = 4, h = 2): c0 = 2, root c = ((3 + 0)/2 - (1 + 4)/2)/2 = -0.5,
    # left c = (3 - 0)/2 = 1.5, right c = (1 - 4)/2 = -1.5; weights W = 4, 4, 2, 2
    # -> integer coefficients W c = 8, -2, 3, -3, and rho = 1 + log2 4 = 3
    assert haar_coefficients([3, 0, 1, 4]).tolist() == [8, -2, 3, -3]
    assert haar_inverse([8, -2, 3, -3]).tolist() == [3.0, 0.0, 1.0, 4.0]
    # noise +1 on the root's difference moves the left half up by 1/2 (1/4 per leaf) and the right down
    assert haar_inverse([8, -1, 3, -3]).tolist() == [3.25, 0.25, 0.75, 3.75]
    # the paper's reconstruction c0 + sum g_c c, leaf by leaf
    c0, c_root, c_left, c_right = 8 / 4, -2 / 4, 3 / 2, -3 / 2
    paper = [c0 + c_root + c_left, c0 + c_root - c_left, c0 - c_root + c_right, c0 - c_root - c_right]
    assert haar_inverse([8, -2, 3, -3]).tolist() == paper


def test_noise_scale_and_ledger(monkeypatch):
    import privlib.mechanisms as m
    seen = {}

    def fake(values, *, eps, sensitivity, rng):
        seen.update(values=np.asarray(values), eps=eps, sensitivity=sensitivity)
        return np.asarray(values) + np.array([1, 0, 0, 0, 0, 0, 0, 0])
    monkeypatch.setattr(m, "discrete_laplace", fake)
    r = privelet_histogram([3, 0, 1, 4, 2], eps=0.5, rng=0)
    assert seen["sensitivity"] == 4 and seen["eps"] == 0.5          # 5 cells pad to 8: rho = 1 + 3
    assert seen["values"][0] == 10                                  # the total
    assert np.allclose(r.counts, np.array([3, 0, 1, 4, 2]) + 1 / 8)  # +1 on the total: 1/8 per leaf
    assert r.sensitivity == 4 and r.ledger.total() == pytest.approx(0.5)


@pytest.mark.parametrize("n", [1, 2, 7, 16, 33])
def test_round_trip_and_sensitivity(n):
    x = np.random.default_rng(n).integers(0, 9, n)
    coef = haar_coefficients(x)
    assert np.allclose(haar_inverse(coef, size=n), x)
    # adding one record moves the coefficient vector by exactly rho = 1 + log2 m in L1
    y = x.copy()
    y[n // 2] += 1
    rho = 1 + int(np.log2(coef.size))
    assert np.abs(haar_coefficients(y) - coef).sum() == rho


def test_almost_no_noise_and_same_seed():
    exact = privelet_histogram(np.array([5, 0, 2, 9, 1]), eps=1e7, rng=1)
    assert np.allclose(exact.counts, [5, 0, 2, 9, 1])
    a = privelet_histogram(np.arange(10), eps=0.5, rng=3).counts
    assert np.array_equal(a, privelet_histogram(np.arange(10), eps=0.5, rng=3).counts)


def test_range_error_smaller_than_laplace_on_long_ranges():
    # the point of the wavelet: a long range query adds O(log^3 m) variance, not O(range length)
    from privlib.mechanisms import discrete_laplace
    x = np.zeros(1024, np.int64)
    gen = np.random.default_rng(0)
    wav = [privelet_histogram(x, eps=1.0, rng=gen).counts[100:900].sum() for _ in range(30)]
    lap = [np.asarray(discrete_laplace(x, eps=1.0, rng=gen))[100:900].sum() for _ in range(30)]
    assert np.std(wav) < np.std(lap)


def test_rng_is_required():
    with pytest.raises(TypeError):
        privelet_histogram([1, 2], eps=1.0)


@pytest.mark.parametrize("counts, kw, err, match", [
    ([], {}, ValueError, "counts"),
    ([[1, 2]], {}, ValueError, "counts"),
    ([1, -1], {}, ValueError, "non-negative"),
    ([1.5, 2], {}, ValueError, "integer"),
    (["a"], {}, TypeError, "counts"),
    ([2 ** 62, 2 ** 62], {}, ValueError, "overflow"),
    ([1, 2], {"eps": 0}, ValueError, "eps"),
    ([1, 2], {"eps": float("nan")}, ValueError, "eps"),
    ([1, 2], {"eps": True}, ValueError, "eps"),
])
def test_errors(counts, kw, err, match):
    with pytest.raises(err, match=match):
        privelet_histogram(np.array(counts), **{"eps": 1.0, **kw}, rng=0)


@pytest.mark.parametrize("coef, kw, match", [
    ([1, 2, 3], {}, "power of two"),
    ([], {}, "power of two"),
    ([1.0, float("inf")], {}, "finite"),
    ([1, 2], {"size": 3}, "size"),
    ([1, 2], {"size": 0}, "size"),
])
def test_inverse_errors(coef, kw, match):
    with pytest.raises(ValueError, match=match):
        haar_inverse(coef, **kw)


def test_too_many_leaves(monkeypatch):
    import privlib.privelet as p
    monkeypatch.setattr(p, "MAX_LEAVES", 4)
    with pytest.raises(ValueError, match="MAX_LEAVES"):
        haar_coefficients(np.ones(5, np.int64))
