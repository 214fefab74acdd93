"""privlib.hierarchical: Hay et al. (2010)'s noisy tree and constrained inference."""
import numpy as np
import pytest

from privlib.hierarchical import hierarchical_histogram


def _least_squares(noisy_levels, b):
    """Brute-force constrained least squares: leaves x minimizing sum over nodes (A x - y)^2."""
    n = noisy_levels[0].size
    rows, y = [], []
    for level, vals in enumerate(noisy_levels):
        width = b ** level
        for j, v in enumerate(vals):
            r = np.zeros(n)
            r[j * width:(j + 1) * width] = 1
            rows.append(r)
            y.append(v)
    return np.linalg.lstsq(np.array(rows), np.array(y), rcond=None)[0]


@pytest.mark.parametrize("b", [2, 3])
def test_constrained_inference_is_the_least_squares_solution(b, monkeypatch):
    # replace the noise by a fixed perturbation and compare with the brute-force least squares
    import privlib.mechanisms as m
    pert = {}

    def fake(values, *, eps, sensitivity, rng):
        v = np.asarray(values)
        pert["y"] = v + np.random.default_rng(5).integers(-3, 4, v.size)
        return pert["y"]
    monkeypatch.setattr(m, "discrete_laplace", fake)
    x = np.arange(b ** 2) % 4
    r = hierarchical_histogram(x, eps=1.0, branching=b, rng=0)
    sizes = [b ** 2, b, 1]
    levels = np.split(pert["y"].astype(float), np.cumsum(sizes)[:-1])
    assert np.allclose(r.counts, _least_squares(levels, b))
    assert r.levels == 3


def test_consistency_padding_and_ledger():
    r = hierarchical_histogram(np.array([5, 0, 2, 9, 1]), eps=0.3, branching=2, rng=1)
    assert r.counts.shape == (5,) and r.levels == 4           # padded to 8 leaves
    assert r.ledger.total() == pytest.approx(0.3)
    exact = hierarchical_histogram(np.array([5, 0, 2, 9, 1]), eps=1e7, branching=2, rng=1)
    assert np.allclose(exact.counts, [5, 0, 2, 9, 1])


def test_same_seed_same_release():
    a = hierarchical_histogram(np.arange(10), eps=0.5, rng=3).counts
    assert np.array_equal(a, hierarchical_histogram(np.arange(10), eps=0.5, rng=3).counts)


@pytest.mark.parametrize("counts, kw, err, match", [
    ([], {}, ValueError, "counts"),
    ([[1, 2]], {}, ValueError, "counts"),
    ([1, -1], {}, ValueError, "non-negative"),
    ([1.5, 2], {}, ValueError, "integer"),
    (["a"], {}, TypeError, "counts"),
    ([1, 2], {"eps": 0}, ValueError, "eps"),
    ([1, 2], {"eps": True}, ValueError, "eps"),
    ([1, 2], {"branching": 1}, ValueError, "branching"),
])
def test_errors(counts, kw, err, match):
    with pytest.raises(err, match=match):
        hierarchical_histogram(np.array(counts), **{"eps": 1.0, **kw}, rng=0)
