"""Tests of privlib.closeness: the slides' worked examples, the LP as an independent check,
properties of the EMD, and every bad-input error."""
import numpy as np
import pytest

from privlib.closeness import (emd, emd_equal, emd_flow, emd_hierarchical, emd_ordered, kl_divergence,
                               variational_distance)
from privlib.hierarchy import Hierarchy, HierarchyError
from source_examples import FIGURE1_BODY

SALARIES = [3, 4, 5, 6, 7, 8, 9, 10, 11]                 # k$, Table 3
Q_SAL = np.full(9, 1 / 9)
P1_SAL = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0]) / 3        # {3k, 4k, 5k}
P2_SAL = np.array([0, 0, 0, 1, 0, 1, 0, 0, 1]) / 3        # {6k, 8k, 11k}
ORDERED = np.abs(np.subtract.outer(np.arange(9), np.arange(9))) / 8

DISEASE = FIGURE1_BODY      # the source's Figure 1, below its root
Q_DIS = {"gastric ulcer": 1 / 9, "gastritis": 2 / 9, "stomach cancer": 2 / 9, "flu": 1 / 9,
         "bronchitis": 2 / 9, "pneumonia": 1 / 9}
P1_DIS = {"gastric ulcer": 1 / 3, "gastritis": 1 / 3, "stomach cancer": 1 / 3}
P2_DIS = {"gastritis": 1 / 3, "flu": 1 / 3, "bronchitis": 1 / 3}


@pytest.fixture(scope="module")
def disease():
    return Hierarchy.from_dict(DISEASE, name="disease")


def _vec(d, h):
    v = np.zeros(len(h.leaves))
    for k, x in d.items():
        v[h.leaves.index(k)] = x
    return v


# ---------------------------------------------------------------- worked examples of the slides
def test_ordered_example_closed_form_matches_slides():
    assert emd_ordered(P1_SAL, Q_SAL) == pytest.approx(3 / 8)      # slide: 27/72 = 0.375
    assert emd_ordered(P2_SAL, Q_SAL) == pytest.approx(1 / 6)      # slide: 12/72 = 0.167


def test_ordered_example_linear_program_agrees():
    assert emd(P1_SAL, Q_SAL, ORDERED) == pytest.approx(3 / 8, abs=1e-9)
    assert emd(P2_SAL, Q_SAL, ORDERED) == pytest.approx(1 / 6, abs=1e-9)


@pytest.mark.parametrize("pairs, p, expected", [
    # the slides' flows (each pair carries 1/9); the mass that stays put is implicit
    ([(5, 11), (5, 10), (5, 9), (4, 8), (4, 7), (4, 6), (3, 5), (3, 4), (3, 3)], P1_SAL, 27 / 72),
    ([(11, 10), (11, 9), (8, 8), (8, 7), (8, 6), (6, 5), (6, 4), (6, 3), (11, 11)], P2_SAL, 12 / 72),
])
def test_slides_flows_are_feasible_and_optimal(pairs, p, expected):
    F = np.zeros((9, 9))
    for a, b in pairs:
        F[SALARIES.index(a), SALARIES.index(b)] += 1 / 9
    np.testing.assert_allclose(F.sum(axis=1), p, atol=1e-12)
    np.testing.assert_allclose(F.sum(axis=0), Q_SAL, atol=1e-12)
    cost = float((F * ORDERED).sum())
    assert cost == pytest.approx(expected)
    assert cost == pytest.approx(emd(p, Q_SAL, ORDERED), abs=1e-9)


def test_hierarchical_ground_distances_of_slides(disease):
    assert disease.distance("gastric ulcer", "gastritis") == pytest.approx(1 / 3)
    assert disease.distance("gastric ulcer", "colitis") == pytest.approx(2 / 3)
    assert disease.distance("gastric ulcer", "flu") == pytest.approx(1.0)


def test_hierarchical_example_with_the_table_distribution(disease):
    # worked by hand: P1 must move 4/9 across the root -> 4/9; P2: 2/9 across the root plus
    # 1/9 inside stomach diseases and 1/9 inside respiratory infections at 1/3 -> 8/27.
    d1 = emd_hierarchical(P1_DIS, Q_DIS, disease)
    d2 = emd_hierarchical(P2_DIS, Q_DIS, disease)
    assert d1 == pytest.approx(4 / 9)
    assert d2 == pytest.approx(8 / 27)
    G = disease.distance_matrix()
    assert emd(_vec(P1_DIS, disease), _vec(Q_DIS, disease), G) == pytest.approx(d1, abs=1e-9)
    assert emd(_vec(P2_DIS, disease), _vec(Q_DIS, disease), G) == pytest.approx(d2, abs=1e-9)


def test_hierarchical_example_slides_numbers_with_uniform_q(disease):
    # The slides' 0.5 and 0.278 are reproduced exactly when Q is uniform over the six
    # distinct diseases of Table 3 (duplicates dropped), i.e. 1/2 and 5/18.
    U = {k: 1 / 6 for k in Q_DIS}
    assert emd_hierarchical(P1_DIS, U, disease) == pytest.approx(1 / 2)
    assert emd_hierarchical(P2_DIS, U, disease) == pytest.approx(5 / 18)


def test_naive_distances_do_not_separate_p1_and_p2():
    assert variational_distance(P1_SAL, Q_SAL) == pytest.approx(variational_distance(P2_SAL, Q_SAL))
    assert kl_divergence(P1_SAL, Q_SAL) == pytest.approx(kl_divergence(P2_SAL, Q_SAL))
    assert kl_divergence(P1_SAL, Q_SAL) == pytest.approx(np.log(3))
    assert kl_divergence(P1_SAL, Q_SAL, base=2) == pytest.approx(np.log2(3))
    assert emd_ordered(P1_SAL, Q_SAL) > emd_ordered(P2_SAL, Q_SAL)


def test_kl_is_infinite_outside_the_support():
    assert kl_divergence([0.5, 0.5], [1.0, 0.0]) == np.inf


# ---------------------------------------------------------------- closed forms vs the LP
@pytest.mark.parametrize("m", [2, 3, 7, 12])
def test_closed_forms_equal_linear_program_on_random_distributions(m):
    rng = np.random.default_rng(m)
    eq = 1.0 - np.eye(m)
    od = np.abs(np.subtract.outer(np.arange(m), np.arange(m))) / (m - 1)
    for _ in range(5):
        p, q = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(m))
        assert emd_equal(p, q) == pytest.approx(emd(p, q, eq), abs=1e-8)
        assert emd_ordered(p, q) == pytest.approx(emd(p, q, od), abs=1e-8)


def test_hierarchical_closed_form_equals_lp_on_random_distributions(disease):
    rng = np.random.default_rng(7)
    G = disease.distance_matrix()
    m = len(disease.leaves)
    for _ in range(10):
        p, q = rng.dirichlet(np.ones(m) * 0.5), rng.dirichlet(np.ones(m))
        assert emd_hierarchical(p, q, disease) == pytest.approx(emd(p, q, G), abs=1e-8)


def test_batch_semantics_return_one_value_per_row(disease):
    rng = np.random.default_rng(1)
    P = rng.dirichlet(np.ones(10), size=6)
    q = rng.dirichlet(np.ones(10))
    for f in (emd_equal, emd_ordered, lambda a, b: emd_hierarchical(a, b, disease)):
        out = f(P, q)
        assert isinstance(out, np.ndarray) and out.shape == (6,)
        np.testing.assert_allclose(out, [f(row, q) for row in P])
    assert isinstance(emd_ordered(P[0], q), float)


def test_flow_satisfies_the_constraints():
    d, F = emd_flow(P1_SAL, Q_SAL, ORDERED)
    assert (F >= -1e-12).all()                                   # c1
    np.testing.assert_allclose(F.sum(axis=1), P1_SAL, atol=1e-9)  # c2 (balanced form)
    np.testing.assert_allclose(F.sum(axis=0), Q_SAL, atol=1e-9)
    assert F.sum() == pytest.approx(1.0)                           # c3
    assert d == pytest.approx((F * ORDERED).sum())


# ---------------------------------------------------------------- properties of the slides
def test_distance_in_unit_interval(disease):
    rng = np.random.default_rng(3)
    P = rng.dirichlet(np.ones(10) * 0.3, size=200)
    q = rng.dirichlet(np.ones(10))
    for d in (emd_equal(P, q), emd_ordered(P, q), emd_hierarchical(P, q, disease)):
        assert (d >= -1e-12).all() and (d <= 1 + 1e-12).all()
    # the bounds are reached: all mass at opposite ends
    assert emd_ordered([1, 0, 0], [0, 0, 1]) == pytest.approx(1.0)
    assert emd_equal([1, 0], [1, 0]) == 0.0


def test_merging_two_classes_never_exceeds_the_larger_distance(disease):
    # slide "Properties of EMD": D[P, Q] <= max(D[P1, Q], D[P2, Q]) for P the union of the classes
    rng = np.random.default_rng(11)
    m, pairs = 10, 2000
    q = rng.dirichlet(np.ones(m))
    n1, n2 = rng.integers(1, 30, pairs), rng.integers(1, 30, pairs)
    c1 = np.array([rng.multinomial(n, p) for n, p in zip(n1, rng.dirichlet(np.ones(m), pairs))])
    c2 = np.array([rng.multinomial(n, p) for n, p in zip(n2, rng.dirichlet(np.ones(m), pairs))])
    p1, p2, p = c1 / n1[:, None], c2 / n2[:, None], (c1 + c2) / (n1 + n2)[:, None]
    for f in (emd_equal, emd_ordered, lambda a, b: emd_hierarchical(a, b, disease)):
        assert np.all(f(p, q) <= np.maximum(f(p1, q), f(p2, q)) + 1e-12)


def test_hierarchical_mapping_and_array_inputs_agree(disease):
    assert emd_hierarchical(P2_DIS, Q_DIS, disease) == pytest.approx(
        emd_hierarchical(_vec(P2_DIS, disease), _vec(Q_DIS, disease), disease))


# ---------------------------------------------------------------- bad input
def test_negative_mass_is_refused():
    with pytest.raises(ValueError, match="p: expected non-negative probabilities"):
        emd_equal([1.2, -0.2], [0.5, 0.5])


def test_not_summing_to_one_is_refused():
    with pytest.raises(ValueError, match="q: expected probabilities summing to 1"):
        emd_ordered([0.5, 0.5], [0.5, 0.6])
    with pytest.raises(ValueError, match="summing to 1"):
        emd(np.array([0.2, 0.2]), np.array([0.5, 0.5]), np.ones((2, 2)))


def test_tolerance_accepts_rounding():
    assert emd_equal([1 / 3] * 3, [0.3333333333, 0.3333333333, 0.3333333334]) == pytest.approx(0, abs=1e-9)


def test_different_lengths_are_refused():
    with pytest.raises(ValueError, match="same domain, got lengths 3 and 2"):
        emd_ordered([0.2, 0.3, 0.5], [0.5, 0.5])
    with pytest.raises(ValueError, match="same domain"):
        kl_divergence([0.2, 0.3, 0.5], [0.5, 0.5])


def test_different_supports_in_hierarchy_are_refused(disease):
    with pytest.raises(HierarchyError, match="'measles'.*'disease'"):
        emd_hierarchical({"measles": 1.0}, Q_DIS, disease)
    with pytest.raises(ValueError, match=r"leaves of the hierarchy, got shape \(3,\)"):
        emd_hierarchical([0.2, 0.3, 0.5], Q_DIS, disease)
    with pytest.raises(TypeError, match="hierarchy: expected a privlib Hierarchy"):
        emd_hierarchical(P1_DIS, Q_DIS, {"a": ["b"]})


def test_ground_matrix_not_square_is_refused():
    with pytest.raises(ValueError, match="ground: expected a square ground-distance matrix"):
        emd([0.5, 0.5], [0.5, 0.5], np.ones((2, 3)))
    with pytest.raises(ValueError, match="ground: expected a 2 x 2 matrix"):
        emd([0.5, 0.5], [0.5, 0.5], np.ones((3, 3)))


def test_ground_matrix_negative_is_refused():
    with pytest.raises(ValueError, match="ground: expected non-negative distances"):
        emd([0.5, 0.5], [0.5, 0.5], np.array([[0.0, -1.0], [1.0, 0.0]]))
    with pytest.raises(ValueError, match="ground: expected finite"):
        emd([0.5, 0.5], [0.5, 0.5], np.array([[0.0, np.nan], [1.0, 0.0]]))


def test_lp_takes_one_distribution_only():
    with pytest.raises(ValueError, match="p: expected a 1-d distribution, got shape"):
        emd(np.full((2, 2), 0.5), [0.5, 0.5], np.ones((2, 2)))
    with pytest.raises(ValueError, match="q: expected one distribution"):
        emd_equal([0.5, 0.5], np.full((2, 2), 0.5))


def test_empty_distribution_is_refused():
    with pytest.raises(ValueError, match="p: expected a non-empty probability vector"):
        emd_equal([], [])


# ---------------------------------------------------------------------------- regressions
@pytest.mark.parametrize("base, exc", [(1, ValueError), (1.0, ValueError), (0, ValueError), (-2.0, ValueError),
                                       (float("nan"), ValueError), ("e", TypeError), (True, TypeError)])
def test_kl_divergence_bad_base_is_refused(base, exc):
    with pytest.raises(exc, match="base"):
        kl_divergence([0.5, 0.5], [0.25, 0.75], base=base)


def test_kl_divergence_base_2_is_bits():
    assert kl_divergence([0.5, 0.5], [0.25, 0.75], base=2) == pytest.approx(
        0.5 * np.log2(2) + 0.5 * np.log2(0.5 / 0.75))


def test_emd_hierarchical_scalar_p_is_a_clear_error(disease):
    q = np.full(len(disease.leaves), 1 / len(disease.leaves))
    with pytest.raises(ValueError, match=r"p: expected a mapping leaf -> probability or an array over the 10"):
        emd_hierarchical(0.5, q, disease)


def test_emd_flow_solver_is_imported_lazily():
    import subprocess
    import sys
    code = ("import sys, privlib.closeness as c; assert 'scipy.optimize' not in sys.modules; "
            "d = c.emd([1, 0], [0, 1], [[0, 1], [1, 0]]); assert abs(d - 1) < 1e-9")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_series_are_aligned_by_index_or_refused(disease):
    import pandas as pd
    p = pd.Series({"flu": 1.0})
    q = pd.Series({"colitis": 0.5, "flu": 0.5})
    assert emd_hierarchical(p, q, disease) == pytest.approx(emd_hierarchical(p.to_dict(), q.to_dict(), disease))
    with pytest.raises(ValueError, match="p and q: pandas objects with different indexes"):
        emd_equal(pd.Series([1.0, 0.0], index=["a", "b"]), pd.Series([1.0, 0.0], index=["b", "a"]))
    assert emd_equal(pd.Series([1.0, 0.0], index=["a", "b"]), pd.Series([0.0, 1.0], index=["a", "b"])) == 1.0


def test_pot_network_simplex_agrees_with_the_highs_lp_on_random_instances():
    rng = np.random.default_rng(7)
    for m in (2, 5, 17, 40):
        for _ in range(3):
            p, q = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(m))
            X = rng.normal(size=(m, 2))
            G = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))     # a metric ground distance
            d_pot, f_pot = emd_flow(p, q, G)
            d_lp, f_lp = emd_flow(p, q, G, method="highs")
            assert d_pot == pytest.approx(d_lp, abs=1e-9)
            assert emd(p, q, G) == d_pot
            np.testing.assert_allclose(f_pot.sum(axis=1), p, atol=1e-12)
            np.testing.assert_allclose(f_pot.sum(axis=0), q, atol=1e-12)
            assert (f_pot >= 0).all()


def test_emd_method_is_checked():
    with pytest.raises(ValueError, match="method: expected one of"):
        emd([0.5, 0.5], [0.5, 0.5], np.ones((2, 2)), method="simplex")


def test_pot_and_scipy_sparse_are_imported_lazily():
    import subprocess
    import sys
    code = ("import sys, privlib.closeness, privlib.requirements, privlib.hierarchy; "
            "assert 'ot' not in sys.modules and 'scipy.sparse' not in sys.modules, "
            "[m for m in ('ot', 'scipy.sparse') if m in sys.modules]")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_ground_distance_dispatches_to_the_closed_forms(disease):
    from privlib.closeness import ground_distance
    rng = np.random.default_rng(3)
    m = len(disease.leaves)
    P, q = rng.dirichlet(np.ones(m), size=4), rng.dirichlet(np.ones(m))
    np.testing.assert_array_equal(ground_distance("equal")(P, q), emd_equal(P, q))
    np.testing.assert_array_equal(ground_distance("ordered")(P, q), emd_ordered(P, q))
    np.testing.assert_array_equal(ground_distance("hierarchical", hierarchy=disease)(P, q), emd_hierarchical(P, q, disease))
    with pytest.raises(ValueError, match="distance: expected one of"):
        ground_distance("euclid")
    with pytest.raises(ValueError, match="hierarchy: distance='hierarchical' needs a privlib Hierarchy, got NoneType"):
        ground_distance("hierarchical")
