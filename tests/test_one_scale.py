"""privlib.experiments.one_scale: every family's release on a hand-checkable table, measure, sweep, errors.

The table: 8 records, QIs x in 0..3 and y in 0..1, SA s in {a, b} (the hand-worked table of
tests/test_release.py).
"""
import numpy as np
import pandas as pd
import pytest

from privlib import metrics
from privlib.experiments.empirical_privacy import Setup
from privlib.experiments.one_scale import FAMILIES, GUARANTEES, Released, measure, release, sweep
from privlib.hierarchy import Hierarchy
from privlib.partition import Decomposition
from privlib.release import from_boxes

HAND = pd.DataFrame({"x": [0, 0, 0, 1, 2, 3, 2, 2], "y": [0, 1, 0, 1, 0, 0, 1, 1],
                     "s": ["a", "a", "b", "a", "b", "b", "a", "b"]})
SETUP = Setup("hand", HAND, ("x", "y"), "s", {"x": (0, 3), "y": (0, 1)}, sa_values=("a", "b"))
HIER = {"x": Hierarchy.from_dict({"*": {"lo": [0, 1], "hi": [2, 3]}}),
        "y": Hierarchy.from_dict({"*": [0, 1]})}
VALUE = {"mondrian-k": 2, "mondrian-l": 2, "mondrian-t": 0.5, "dp-kdtree": 1.0, "fulldomain-k": 2,
         "fulldomain-l": 2, "fulldomain-t": 0.5, "tds": 2, "diffgen": 1.0, "onthemap": 1.0, "qwi": 0.2,
         "swap": 0.5, "laplace": 1.0}
# every record, its cell and its SA count; the range queries of tests/test_release.py
L = np.array([[0, 0], [1, 1], [2, 0], [1, 0]])
U = np.array([[0, 1], [3, 1], [3, 0], [1, 1]])
WL = metrics.Workload(("x", "y"), L, U, np.array([3, 3, 2, 1]), len(HAND))


def _release(family, rng=0):
    # t-closeness families run on top of 8-anonymity (chapter 2); our table has 8 records
    return release(SETUP, family, VALUE[family], rng=rng, hierarchies=HIER, diffgen_h=2)


def test_every_family_is_covered():
    assert set(VALUE) == set(FAMILIES)


@pytest.mark.parametrize("family", FAMILIES)
def test_release_is_a_valid_decomposition(family):
    r = _release(family)
    assert isinstance(r, Released) and isinstance(r.decomposition, Decomposition)
    assert r.guarantee == GUARANTEES[family][1]
    dec = r.decomposition
    # the boxes partition the domain 0..3 x 0..1 (8 codes): volumes add up, every code in one box
    assert int(dec.widths.prod(axis=1).sum()) == 8
    grid = np.array([[x, y] for x in range(4) for y in range(2)])
    leaf = dec.assign_codes(grid)
    inside = np.all((dec.lower[leaf] <= grid) & (grid <= dec.upper[leaf]), axis=1)
    assert inside.all()


SYNTACTIC = ["mondrian-k", "mondrian-l", "mondrian-t", "fulldomain-k", "fulldomain-l", "fulldomain-t", "tds", "swap",
             "onthemap"]


@pytest.mark.parametrize("family", SYNTACTIC)
def test_exact_totals(family):
    # syntactic releases, swapping and OnTheMap (public cell sizes) keep the 8 records exactly
    dec = _release(family).decomposition
    assert dec.histograms.sum() == 8
    assert (dec.histograms >= 0).all()


@pytest.mark.parametrize("family", ["dp-kdtree", "laplace", "onthemap"])
def test_dp_ledger_total_is_eps(family):
    dec = _release(family).decomposition
    assert dec.ledger.total() == pytest.approx(VALUE[family], rel=1e-12)


def test_diffgen_ledger_spent_plus_unspent_is_eps():
    dec = _release("diffgen").decomposition
    assert dec.ledger.total() + dec.params["eps_unspent"] == pytest.approx(1.0, rel=1e-12)
    assert dec.ledger.total() <= 1.0 + 1e-12


def test_non_dp_families_have_empty_ledgers():
    for family in ("mondrian-k", "fulldomain-k", "tds", "qwi", "swap"):
        assert _release(family).decomposition.ledger.total() == 0.0


def test_fulldomain_k2_hand_checked():
    # k = 2: level (0, 0) has singletons ((1, 1), (3, 0)); x at "lo"/"hi" with y exact gives
    # classes lo-0 {(0,0) (0,0)}, lo-1 {(0,1) (1,1)}, hi-0 {(2,0) (3,0)}, hi-1 {(2,1) (2,1)}: 2-anonymous
    dec = _release("fulldomain-k").decomposition
    assert sorted(map(tuple, np.c_[dec.lower, dec.upper].tolist())) == [(0, 0, 1, 0), (0, 1, 1, 1), (2, 0, 3, 0),
                                                                        (2, 1, 3, 1)]
    assert sorted(dec.counts.tolist()) == [2, 2, 2, 2]


def test_qwi_scales_each_cell_by_one_factor():
    dec = _release("qwi").decomposition
    exact = release(SETUP, "swap", 0.0, rng=0).decomposition       # rate 0: the exact histogram
    n = 6                                                            # six distinct cells
    ratio = dec.histograms[:n] / np.where(exact.histograms[:n] > 0, exact.histograms[:n], np.nan)
    factor = np.nanmax(ratio, axis=1)
    np.testing.assert_allclose(np.nanmin(ratio, axis=1), factor)    # one factor per QI cell
    dist = np.abs(factor - 1)
    assert ((dist >= 0.1 - 1e-12) & (dist <= 0.2 + 1e-12)).all()   # a = 1.1, b = 1.2


def test_swap_rate_one_keeps_the_sa_marginal_and_rate_zero_is_exact():
    exact = release(SETUP, "swap", 0.0, rng=0).decomposition
    full = release(SETUP, "swap", 1.0, rng=3).decomposition
    np.testing.assert_array_equal(exact.histograms.sum(axis=0), full.histograms.sum(axis=0))
    np.testing.assert_array_equal(exact.counts, full.counts)         # QI cells untouched


def test_measure_hand_checked():
    # The boxes of tests/test_release.py: the attack is right on 6 of 8 (rho 1/2): beta = 0.5;
    # relative errors of the 4 queries 1/3, 0, 0, 1: median 1/6.
    dec = from_boxes([[0, 0], [2, 0], [2, 1]], [[1, 1], [3, 0], [3, 1]], [[3, 1], [0, 2], [1, 1]],
                     qi=["x", "y"], sa="s", sa_values=["a", "b"], domain_lower=[0, 0], domain_upper=[3, 1])
    m = measure(SETUP, WL, dec)
    assert (m["accuracy"], m["rho"], m["beta"]) == (0.75, 0.5, 0.5)
    assert m["alpha"] == pytest.approx(1 / 6)


def test_measure_exact_histogram_hand_checked():
    # unit cells: Pr[x | a] = [2, 1, 1, 0] / 4, Pr[x | b] = [1, 0, 2, 1] / 4, Pr[y | a] = [1, 3] / 4,
    # Pr[y | b] = [3, 1] / 4; wrong on (0,0,a) (2 : 3 -> b) and (2,1,b) (3 : 2 -> a): beta = 0.75/0.5 - 1;
    # exact counts answer every query exactly: alpha = 0
    m = measure(SETUP, WL, release(SETUP, "swap", 0.0, rng=0).decomposition)
    assert (m["beta"], m["alpha"]) == (0.5, 0.0)


GRID = {"mondrian-k": [2, 4], "fulldomain-l": [2], "dp-kdtree": [1.0], "laplace": [0.5, 2.0], "onthemap": [1.0],
        "qwi": [0.3], "swap": [0.5], "diffgen": [1.0], "tds": [2]}


def test_sweep_same_rows_with_one_and_two_jobs():
    a = sweep(SETUP, WL, GRID, seed=5, n_seeds=2, n_jobs=1, hierarchies=HIER, diffgen_h=2)
    b = sweep(SETUP, WL, GRID, seed=5, n_seeds=2, n_jobs=2, hierarchies=HIER, diffgen_h=2)
    pd.testing.assert_frame_equal(a, b)
    # deterministic families once, randomized ones once per seed
    assert a.groupby("family", sort=False).size().to_dict() == {
        "mondrian-k": 2, "fulldomain-l": 1, "dp-kdtree": 2, "laplace": 4, "onthemap": 2, "qwi": 2, "swap": 2,
        "diffgen": 2, "tds": 1}


def test_sweep_common_random_numbers():
    # seed i is the same generator for every family: re-running gives the same rows
    a = sweep(SETUP, WL, {"laplace": [1.0]}, seed=5, n_seeds=2)
    b = sweep(SETUP, WL, {"laplace": [1.0]}, seed=5, n_seeds=2)
    pd.testing.assert_frame_equal(a, b)
    assert a["beta"].nunique() >= 1


@pytest.mark.parametrize("family, value, match", [
    ("mondrain-k", 2, r"family"),
    ("mondrian-k", 0, r"value: expected an integer k >= 1 .* got 0"),
    ("mondrian-l", 2.5, r"value: expected an integer l"),
    ("laplace", -1.0, r"value: expected eps in \(0, inf\) .* got -1.0"),
    ("qwi", 1.5, r"value: expected b - 1 in \(0, 1.0\)"),
    ("swap", 1.2, r"value: expected a swap rate in \[0, 1\] .* got 1.2"),
    ("mondrian-t", 0.0, r"value: expected t"),
])
def test_bad_family_or_value(family, value, match):
    with pytest.raises(ValueError, match=match):
        release(SETUP, family, value, rng=0, hierarchies=HIER)


def test_bad_types():
    with pytest.raises(TypeError, match="setup"):
        release(HAND, "laplace", 1.0, rng=0)
    with pytest.raises(TypeError, match="value"):
        release(SETUP, "laplace", "1", rng=0)
    with pytest.raises(TypeError, match="rng"):
        release(SETUP, "laplace", 1.0, rng=None)
    with pytest.raises(ValueError, match="n_seeds"):
        sweep(SETUP, WL, {"laplace": [1.0]}, seed=0, n_seeds=0)
    with pytest.raises(ValueError, match="grid"):
        sweep(SETUP, WL, {"nope": [1.0]}, seed=0, n_seeds=1)
    with pytest.raises(TypeError, match="seed"):
        sweep(SETUP, WL, {"laplace": [1.0]}, seed=None, n_seeds=1)


def test_information_losses_hand_checked():
    # full-domain k = 2 (see test_fulldomain_k2_hand_checked): four classes of 2; every box spans 2 of
    # the 4 codes of x (numeric NCP 1/3), y exact: box NCP = (1/3 + 0) / 2 = 1/6.  Tight ranges: the
    # classes {(0,0) (0,0)} and {(2,1) (2,1)} have x exact, {(0,1) (1,1)} and {(2,0) (3,0)} span 1/3:
    # tight NCP = (4 * 1/3) / 8 / 2 = 1/12.  DM = 4 * 2^2 = 16; C_avg = (8 / 4) / 2 = 1
    from privlib.experiments.one_scale import information_losses
    loss = information_losses(SETUP, ["fulldomain-k"], k=2, hierarchies=HIER)
    row = loss.loc["fulldomain-k"]
    assert (row["classes"], row["dm"], row["c_avg"]) == (4.0, 16.0, 1.0)
    assert row["ncp_tight"] == pytest.approx(1 / 12)
    assert row["ncp_box"] == pytest.approx(1 / 6)
    with pytest.raises(ValueError, match="families"):
        information_losses(SETUP, ["laplace"], k=2)
