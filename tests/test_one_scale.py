"""privlib.experiments.one_scale: every family's release on a hand-checkable table, measure, sweep, errors.

The table: 8 records, QIs x in 0..3 and y in 0..1, SA s in {a, b} (the hand-worked table of
tests/test_release.py).
"""
import numpy as np
import pandas as pd
import pytest

from privlib import metrics
from privlib.experiments.empirical_privacy import Setup
from privlib.experiments import one_scale as osc
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
         "fulldomain-l": 2, "fulldomain-t": 0.5, "tds": 2, "diffgen": 1.0, "onthemap": 1.0, "onthemap-pdp": 4.6,
         "qwi": 0.2,
         "swap": 0.5, "laplace": 1.0, "hierarchical": 1.0, "privelet": 1.0, "mst": 1.0, "unprotected": 0, "sa-marginal": 0, "one-class": 0}
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


SYNTACTIC = ["mondrian-k", "mondrian-l", "mondrian-t", "fulldomain-k", "fulldomain-l", "fulldomain-t", "tds", "swap"]


@pytest.mark.parametrize("family", SYNTACTIC)
def test_exact_totals(family):
    # syntactic releases and swapping keep the 8 records exactly
    dec = _release(family).decomposition
    assert dec.histograms.sum() == 8
    assert (dec.histograms >= 0).all()


@pytest.mark.parametrize("family", ["dp-kdtree", "laplace", "onthemap", "hierarchical", "privelet", "mst"])
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


# a table whose cells hold 0, 1, 2, 3 and 5 records of an SA value (QWI's suppression: 0 < X < 3)
BIG = pd.DataFrame({"x": [0] * 8 + [1] * 5 + [2] * 3, "y": 0,
                    "s": list("aaabbbbb") + list("aabbb") + list("abb")})
BIG_SETUP = Setup("big", BIG, ("x", "y"), "s", {"x": (0, 3), "y": (0, 1)}, sa_values=("a", "b"))


def test_qwi_scales_each_cell_by_one_factor_and_suppresses_small_cells():
    # cells (x = 0: a 3, b 5), (x = 1: a 2, b 3), (x = 2: a 1, b 2): the 1s and 2s are suppressed (released 0)
    dec = release(BIG_SETUP, "qwi", 0.2, rng=0).decomposition
    h = dec.histograms[:3]
    assert h[1, 0] == 0 and h[2, 0] == 0 and h[2, 1] == 0
    factor0, factor1 = h[0] / [3, 5], h[1, 1] / 3
    assert factor0[0] == pytest.approx(factor0[1])                  # one factor per QI cell
    dist = np.abs(np.r_[factor0[0], factor1] - 1)
    assert ((dist >= 0.1 - 1e-12) & (dist <= 0.2 + 1e-12)).all()   # a = 1.1, b = 1.2
    assert dec.params["suppressed_cells"] == 3 and dec.params["suppressed_records"] == 5


@pytest.mark.parametrize("family", ["onthemap", "onthemap-pdp"])
def test_onthemap_conditions_on_noise_infused_totals(family):
    # each QI cell's total is round(delta n) with a ramp factor |delta - 1| in [0.05, 0.15]: 8 -> 6.8 .. 9.2
    # (7, 8 or 9), 5 -> 4.25 .. 5.75 (4, 5 or 6), 3 -> 2.55 .. 3.45 (3); the synthetic counts sum to those totals
    moved = 0
    for seed in range(5):
        dec = release(BIG_SETUP, family, VALUE[family], rng=seed).decomposition
        tot = dec.histograms[:3].sum(axis=1)
        assert tot[0] in (7, 8, 9) and tot[1] in (4, 5, 6) and tot[2] == 3
        assert dec.params["published_total"] == tot.sum()
        assert (dec.histograms >= 0).all() and (dec.histograms == np.round(dec.histograms)).all()
        moved += int(tot[0] != 8 or tot[1] != 5)
    assert moved > 0                                                # the totals are not the data's exact sizes


def test_onthemap_pdp_ledger_is_the_prune_adjusted_eps():
    from privlib.synth import pruned_epsilon
    dec = release(BIG_SETUP, "onthemap-pdp", 4.6, rng=0).decomposition
    assert dec.ledger.total() == pytest.approx(pruned_epsilon(4.6, min_p=0.025, alpha=1.0))   # 8.98
    assert dec.params["eps_adjusted"] == pytest.approx(4.6 + np.log(40) + np.log(2))


def test_diffgen_raw_counts_are_integers_and_exact_at_huge_eps():
    dec = release(SETUP, "diffgen", 1e6, rng=0, hierarchies=HIER, diffgen_h=2).decomposition
    assert dec.histograms.sum() == 8
    dec = release(SETUP, "diffgen", 0.1, rng=0, hierarchies=HIER, diffgen_h=2).decomposition
    assert (dec.histograms == np.round(dec.histograms)).all()
    negative = [release(SETUP, "diffgen", 0.1, rng=s, hierarchies=HIER, diffgen_h=2).decomposition.histograms.min()
                for s in range(5)]
    assert min(negative) < 0                                        # raw counts: negative ones are kept


def test_laplace_counts_are_integers():
    dec = release(SETUP, "laplace", 0.5, rng=0).decomposition
    assert (dec.histograms == np.round(dec.histograms)).all()
    assert release(SETUP, "laplace", 1e6, rng=0).decomposition.histograms.sum() == 8


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
    assert (m["accuracy"], m["rho"], m["beta"], m["beta_raw"]) == (0.75, 0.5, 0.5, 0.5)
    assert m["alpha_w_raw"] == pytest.approx(1 / 6) and m["alpha_w_nonneg"] == pytest.approx(1 / 6)


def test_measure_exact_histogram_hand_checked():
    # unit cells: Pr[x | a] = [2, 1, 1, 0] / 4, Pr[x | b] = [1, 0, 2, 1] / 4, Pr[y | a] = [1, 3] / 4,
    # Pr[y | b] = [3, 1] / 4; wrong on (0,0,a) (2 : 3 -> b) and (2,1,b) (3 : 2 -> a): beta = 0.75/0.5 - 1;
    # exact counts answer every query exactly: alpha = 0
    m = measure(SETUP, WL, release(SETUP, "swap", 0.0, rng=0).decomposition)
    assert (m["beta"], m["alpha_w_raw"]) == (0.5, 0.0)


GRID = {"mondrian-k": [2, 4], "fulldomain-l": [2], "dp-kdtree": [1.0], "laplace": [0.5, 2.0], "onthemap": [1.0],
        "onthemap-pdp": [4.6], "qwi": [0.3], "swap": [0.5], "diffgen": [1.0], "tds": [2]}


def test_sweep_same_rows_with_one_and_two_jobs():
    a = sweep(SETUP, WL, GRID, seed=5, n_seeds=2, n_jobs=1, hierarchies=HIER, diffgen_h=2)
    b = sweep(SETUP, WL, GRID, seed=5, n_seeds=2, n_jobs=2, hierarchies=HIER, diffgen_h=2)
    pd.testing.assert_frame_equal(a, b)
    # deterministic families once, randomized ones once per seed
    assert a.groupby("family", sort=False).size().to_dict() == {
        "mondrian-k": 2, "fulldomain-l": 1, "dp-kdtree": 2, "laplace": 4, "onthemap": 2, "onthemap-pdp": 2, "qwi": 2,
        "swap": 2, "diffgen": 2, "tds": 1}


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
    ("laplace", float("inf"), r"value: expected a finite number for family 'laplace', got inf"),
    ("mondrian-k", float("nan"), r"value: expected a finite number for family 'mondrian-k', got nan"),
])
def test_bad_family_or_value(family, value, match):
    with pytest.raises(ValueError, match=match):
        release(SETUP, family, value, rng=0, hierarchies=HIER)


def test_bad_types():
    with pytest.raises(TypeError, match="setup"):
        release(HAND, "laplace", 1.0, rng=0)
    with pytest.raises(TypeError, match="value"):
        release(SETUP, "laplace", "1", rng=0)
    with pytest.raises(ValueError, match="n_seeds"):
        sweep(SETUP, WL, {"laplace": [1.0]}, seed=0, n_seeds=0)
    with pytest.raises(ValueError, match="grid"):
        sweep(SETUP, WL, {"nope": [1.0]}, seed=0, n_seeds=1)
    with pytest.raises(TypeError, match="seed"):
        sweep(SETUP, WL, {"laplace": [1.0]}, seed="0", n_seeds=1)


def test_information_losses_hand_checked():
    # full-domain k = 2 (see test_fulldomain_k2_hand_checked): four classes of 2; every box spans 2 of
    # the 4 codes of x (numeric NCP 1/3), y exact: box NCP = (1/3 + 0) / 2 = 1/6.  Tight ranges: the
    # classes {(0,0) (0,0)} and {(2,1) (2,1)} have x exact, {(0,1) (1,1)} and {(2,0) (3,0)} span 1/3:
    # tight NCP = (4 * 1/3) / 8 / 2 = 1/12.  DM = 4 * 2^2 = 16; C_avg = (8 / 4) / 2 = 1
    from privlib.experiments.one_scale import information_losses
    loss = information_losses(SETUP, ["fulldomain-k"], k=2, hierarchies=HIER)
    row = loss.loc["fulldomain-k"]
    assert (row["classes"], row["dm"], row["c_avg"]) == (4.0, 16.0, 1.0)
    assert row["gcp_tight"] == pytest.approx(1 / 12)
    assert row["gcp_box"] == pytest.approx(1 / 6)
    assert row["ncp"] == pytest.approx(1 / 12)        # x and y numerical here: NCP = GCP on tight ranges
    with pytest.raises(ValueError, match="families"):
        information_losses(SETUP, ["laplace"], k=2)
    with pytest.raises(TypeError, match="families: expected a sequence of family names, got str 'mondrian-k'"):
        information_losses(SETUP, "mondrian-k", k=2)


# ----------------------------------------------------------------------------- Definition 2, policies, beta
def _hand_boxes():
    return from_boxes([[0, 0], [2, 0], [2, 1]], [[1, 1], [3, 0], [3, 1]], [[3, 1], [0, 2], [1, 1]],
                      qi=["x", "y"], sa="s", sa_values=["a", "b"], domain_lower=[0, 0], domain_upper=[3, 1])


def test_definition2_workload_hand_checked():
    # queries over x, y and s (s coded a = 0, b = 1).  Box [0-1]x[0-1] holds a 3, b 1 over 4 cells;
    # q1 = x 0-1, y 0-1, s = a: true 3 (rows 0, 1, 3), estimate 3 (the whole box): error 0.
    # q2 = x 0-0, y 0-1, s = b: true 1 (row 2), estimate 1 * 2/4 = 0.5: error 0.5.
    # q3 = x 2-3, y 1-1, s a-b: true 2 (rows 6, 7), estimate 1 + 1 = 2: error 0.
    wl = metrics.Workload(("x", "y", "s"), np.array([[0, 0, 0], [0, 0, 1], [2, 1, 0]]),
                          np.array([[1, 1, 0], [0, 1, 1], [3, 1, 1]]), np.array([3, 1, 2]), 8)
    dec = _hand_boxes()
    np.testing.assert_allclose(osc.estimate_sa_answers(dec, wl, method="groups"), [3.0, 0.5, 2.0])
    np.testing.assert_allclose(osc.estimate_sa_answers(dec, wl, method="grid"), [3.0, 0.5, 2.0])
    assert osc.median_error(dec, wl) == 0.0
    m = measure(SETUP, {"d2": wl, "qi": WL}, dec)
    assert m["alpha_d2_raw"] == 0.0 and m["alpha_qi_raw"] == pytest.approx(1 / 6)


def test_definition2_workload_true_answers_and_shape():
    wl = osc.definition2_workload(SETUP, n=50, rng=3)
    assert wl.qi == ("x", "y", "s")
    assert ((wl.upper - wl.lower + 1) == [2, 1, 1]).all()             # half of every domain, the SA's too
    codes = np.c_[HAND[["x", "y"]].to_numpy(), (HAND["s"] == "b").to_numpy().astype(int)]
    inside = ((codes[None] >= wl.lower[:, None]) & (codes[None] <= wl.upper[:, None])).all(axis=2).sum(axis=1)
    np.testing.assert_array_equal(inside, wl.answers)


def test_sa_answers_grid_equals_groups_on_noisy_release():
    # the one-pass grid and the per-group estimate_answers agree (independent methods), negative counts included
    wl = osc.definition2_workload(BIG_SETUP, n=40, rng=1)
    for family in ("laplace", "dp-kdtree", "mondrian-k"):
        dec = release(BIG_SETUP, family, 0.5 if family != "mondrian-k" else 2, rng=4).decomposition
        np.testing.assert_allclose(osc.estimate_sa_answers(dec, wl, method="grid"),
                                   osc.estimate_sa_answers(dec, wl, method="groups"), atol=1e-9)


def test_postprocess_policies():
    from privlib.release import from_histogram
    dec = from_histogram([[0], [1]], [[3, -1], [2, 0]], qi=["x"], sa="s", sa_values=["a", "b"],
                         domain_lower=[0], domain_upper=[1])
    assert osc.postprocess(dec, "raw") is dec
    out = osc.postprocess(dec, "nonneg-total").histograms
    np.testing.assert_allclose(out, [[2.4, 0.0], [1.6, 0.0]])       # clipped 3, 0, 2, 0 rescaled to the total 4
    exact = _hand_boxes()
    assert osc.postprocess(exact, "nonneg-total") is exact            # nothing negative: unchanged
    neg = from_histogram([[0], [1]], [[-3, -1], [1, 0]], qi=["x"], sa="s", sa_values=["a", "b"],
                         domain_lower=[0], domain_upper=[1])
    assert osc.postprocess(neg, "nonneg-total").histograms.sum() == 0.0   # negative total floored at 0
    with pytest.raises(ValueError, match="policy"):
        osc.postprocess(dec, "round")
    with pytest.raises(TypeError, match="decomposition"):
        osc.postprocess("x", "raw")


def test_beta_falls_back_on_the_baseline():
    # a release that puts every a where the b's are: the attack is right on fewer records than the majority guess
    dec = from_boxes([[0, 0], [2, 0]], [[1, 1], [3, 1]], [[0, 4], [4, 0]], qi=["x", "y"], sa="s",
                     sa_values=["a", "b"], domain_lower=[0, 0], domain_upper=[3, 1])
    m = measure(SETUP, WL, dec)
    # left half holds a a b a -> predicted b (1 right of 4); right half b b a b -> predicted a (1 of 4): 2 / 8
    assert m["accuracy"] == 0.25 and m["beta_raw"] == pytest.approx(-0.5) and m["beta"] == 0.0


def test_common_guarantee():
    assert osc.common_guarantee("laplace", 0.5)[0] == 0.5
    assert osc.common_guarantee("dp-kdtree", 2.0)[0] == 2.0
    for f in ("onthemap", "onthemap-pdp", "qwi", "swap", "mondrian-k", "tds"):
        assert osc.common_guarantee(f, VALUE[f])[0] == np.inf
    assert "no finite eps" in osc.common_guarantee("onthemap", 1.0)[1]
    assert _release("laplace").eps_common == 1.0 and _release("onthemap").eps_common == np.inf
    assert set(osc.NEIGHBOURS) == set(FAMILIES)


def test_bad_setups():
    with pytest.raises(ValueError, match=r"setup.sa_values: expected the public values .* got None"):
        release(Setup("h", HAND, ("x", "y"), "s", {"x": (0, 3), "y": (0, 1)}), "laplace", 1.0, rng=0)
    out = HAND.assign(x=[0, 0, 0, 1, 2, 7, 2, 2])
    with pytest.raises(ValueError, match=r"setup.df\['x'\]: value 7 \(row 5\) lies outside the setup's public "
                                         r"domain \[0, 3\]"):
        release(Setup("h", out, ("x", "y"), "s", {"x": (0, 3), "y": (0, 1)}, sa_values=("a", "b")), "onthemap", 1.0,
                rng=0)
    with pytest.raises(ValueError, match=r"setup.df\['s'\]: value 'b' is not one of setup.sa_values \['a'\]"):
        release(Setup("h", HAND, ("x", "y"), "s", {"x": (0, 3), "y": (0, 1)}, sa_values=("a",)), "swap", 0.5, rng=0)
    huge = Setup("h", HAND, ("x", "y"), "s", {"x": (0, 99_999), "y": (0, 99_999)}, sa_values=("a", "b"))
    with pytest.raises(ValueError, match=r"setup: the public domain has 10,000,000,000 QI cells x 2 SA values, more "
                                         r"than MAX_HISTOGRAM_CELLS"):
        release(huge, "laplace", 1.0, rng=0)
    with pytest.raises(TypeError, match=r"setup.df\['x'\]: expected integer codes"):
        release(Setup("h", HAND.assign(x=HAND["x"] + 0.5), ("x", "y"), "s", {"x": (0, 3), "y": (0, 1)},
                      sa_values=("a", "b")), "laplace", 1.0, rng=0)
    with pytest.raises(TypeError, match="workloads"):
        measure(SETUP, [WL], _hand_boxes())
    with pytest.raises(ValueError, match="method"):
        osc.estimate_sa_answers(_hand_boxes(), osc.definition2_workload(SETUP, n=3, rng=0), method="scan")
    with pytest.raises(ValueError, match="workload: expected the release's QIs"):
        osc.estimate_sa_answers(_hand_boxes(), WL)
    with pytest.raises(ValueError, match="workload: expected the release's QIs"):
        osc.median_error(_hand_boxes(), metrics.Workload(("y",), np.array([[0]]), np.array([[1]]), np.array([8]), 8))


def test_ncp_xu_uses_least_common_ancestors():
    # x categorical with the hierarchy * -> lo {0, 1}, hi {2, 3}; the full-domain k = 2 classes
    # lo-0 {(0,0) (0,0)}, lo-1 {(0,1) (1,1)}, hi-0 {(2,0) (3,0)}, hi-1 {(2,1) (2,1)}: the values of lo-1 and hi-0
    # generalize to lo / hi (2 of 4 leaves, 1/2), the others are single values (0); y: single values.
    # NCP_x = (4 * 1/2) / 8 = 1/4; the GCP variant on codes (1 - 0 + 1) / 4 = 1/2 gives the same here.
    # With the hierarchy lo {0, 2}, hi {1, 3}, the classes {0, 1} and {2, 3} both need the root (4 of 4).
    from privlib.release import ncp_xu
    from privlib.hierarchy import Hierarchy
    dec = release(SETUP, "fulldomain-k", 2, rng=0, hierarchies=HIER).decomposition
    h = Hierarchy.from_dict({"*": {"lo": ["v0", "v1"], "hi": ["v2", "v3"]}})
    ncp, per = ncp_xu(HAND, dec, hierarchies={"x": h}, orders={"x": ["v0", "v1", "v2", "v3"]})
    assert per == {"x": pytest.approx(0.25), "y": 0.0} and ncp == pytest.approx(0.125)
    h2 = Hierarchy.from_dict({"*": {"lo": ["v0", "v2"], "hi": ["v1", "v3"]}})
    _, per2 = ncp_xu(HAND, dec, hierarchies={"x": h2}, orders={"x": ["v0", "v1", "v2", "v3"]})
    assert per2["x"] == pytest.approx((2 * 1 + 2 * 1) / 8)
    with pytest.raises(ValueError, match="orders: the categorical QI 'x' has no order"):
        ncp_xu(HAND, dec, hierarchies={"x": h}, orders={})
    with pytest.raises(TypeError, match="hierarchies"):
        ncp_xu(HAND, dec, hierarchies=[h], orders={})


# ----------------------------------------------------------------------------- anchors, attackers, frontiers
def test_anchors_by_hand():
    unp = release(SETUP, "unprotected", 0, rng=0).decomposition
    # the eight cells of the domain, six of them occupied
    assert unp.histograms.sum() == 8 and unp.n_leaves == 8 and int((unp.histograms.sum(axis=1) > 0).sum()) == 6
    sam = release(SETUP, "sa-marginal", 0, rng=0).decomposition
    # every cell keeps its total; the SA split is the overall 4 a : 4 b
    assert np.allclose(sam.histograms[:, 0], sam.histograms[:, 1])
    assert np.allclose(sam.histograms.sum(axis=1), unp.histograms.sum(axis=1))
    one = release(SETUP, "one-class", 0, rng=0).decomposition
    assert one.n_leaves == 1 and one.histograms.tolist() == [[4, 4]]
    m = measure(SETUP, WL, sam)
    assert m["beta_raw"] == 0.0 and m["alpha_w_raw"] == 0.0       # QI counts exact, majority guess only


def test_anchor_value_must_be_zero():
    with pytest.raises(ValueError, match="anchor"):
        release(SETUP, "unprotected", 1, rng=0)
    with pytest.raises(ValueError, match="kind"):
        osc.anchor_release(SETUP, "nothing")


def test_attack_measures_on_the_unprotected_table():
    m = osc.attack_measures(SETUP, release(SETUP, "unprotected", 0, rng=0).decomposition, rng=0)
    # leaf majority on exact cells: the ties (0,0) and (2,1) guess a (one of two right), the four single
    # records are right: 6 of 8, against rho = 1/2
    assert m["beta_leaf-majority"] == pytest.approx(6 / 8 / 0.5 - 1)
    assert m["beta_bayes-joint"] == m["beta_leaf-majority"]
    # records alone in their cell: (0,1), (1,1), (2,0), (3,0); the exact release says 1 for each
    assert m["linkage"] == pytest.approx(4 / 8)
    assert set(m) >= {"beta_top", "beta_class_max", "log_odds_q99", "beta_sample-tree"}


def test_fraction_workload_ranges_and_errors():
    wl = osc.fraction_workload(SETUP, n=5, rng=0, fraction=1.0)
    assert (wl.answers == 8).all() and wl.qi == ("x", "y", "s")
    for bad in (0, 1.5, "a"):
        with pytest.raises(ValueError, match="fraction"):
            osc.fraction_workload(SETUP, n=5, rng=0, fraction=bad)


def test_frontier_difference_and_bootstrap():
    rows = sweep(SETUP, {"d2": osc.definition2_workload(SETUP, n=20, rng=0)},
                 {"mondrian-k": [1, 2, 4], "laplace": [0.5, 5.0]}, seed=0, n_seeds=2, errors=True)
    assert all(len(e) == 20 for e in rows["err_d2"])
    r = osc.bootstrap_difference(rows, "laplace", ["mondrian-k"], errors="err_d2", n_boot=10, rng=0)
    assert r["lo"] <= r["hi"] and np.isfinite(r["d"])
    again = osc.bootstrap_difference(rows, "laplace", ["mondrian-k"], errors="err_d2", n_boot=10, rng=0)
    assert again == r
    assert len(r["per_seed"]) == 2                                    # each seed alone: that seed's rows only
    for i, d in enumerate(r["per_seed"]):
        one_seed = rows[(rows["seed"] == i) | (rows["family"] == "mondrian-k")]
        single = osc.bootstrap_difference(one_seed, "laplace", ["mondrian-k"], errors="err_d2", n_boot=2, rng=0)
        assert single["d"] == pytest.approx(d)
    assert osc.frontier(np.array([1.0]), np.array([2.0]), np.array([0.5]))[0] == np.inf
    levels = np.array([-1.0, 0.5, 5.0])
    b = osc.bootstrap_bands(rows, ["laplace", "mondrian-k"], errors="err_d2", levels=levels, n_boot=10, rng=0)
    assert b.shape == (6, 5) and (b["lo"] <= b["hi"]).all()
    assert np.isinf(b.loc[0, "alpha"])                                # no point at beta <= -1
    for f in ("laplace", "mondrian-k"):                               # the estimate is the frontier of the means
        p = rows[rows["family"] == f].groupby("value")
        est = osc.frontier(p["beta_raw"].mean().to_numpy(), p["err_d2"].apply(
            lambda e: np.median(np.vstack(e.to_numpy()), axis=1).mean()).to_numpy(), levels)
        assert np.allclose(b.loc[b["family"] == f, "alpha"], est)
    assert b.equals(osc.bootstrap_bands(rows, ["laplace", "mondrian-k"], errors="err_d2", levels=levels, n_boot=10,
                                        rng=0))
    with pytest.raises(ValueError, match="families"):
        osc.bootstrap_bands(rows, ["laplace", "swap"], errors="err_d2", levels=levels, rng=0)
    with pytest.raises(ValueError, match="n_boot"):
        osc.bootstrap_bands(rows, ["laplace"], errors="err_d2", levels=levels, n_boot=0, rng=0)


def test_kdtree_height_option():
    low = release(SETUP, "dp-kdtree", 1.0, rng=0, kdtree_height=1).decomposition
    assert low.n_leaves <= 2
    with pytest.raises(ValueError, match="kdtree_height"):
        release(SETUP, "dp-kdtree", 1.0, rng=0, kdtree_height=0)
    with pytest.raises(ValueError, match="kdtree_height"):
        sweep(SETUP, WL, {"dp-kdtree": [1.0]}, seed=0, n_seeds=1, kdtree_height=0)
    rows = sweep(SETUP, WL, {"dp-kdtree": [1.0]}, seed=0, n_seeds=1, kdtree_height=1)
    assert rows["leaves"].iloc[0] <= 2


def test_privelet_release_is_exact_at_huge_eps():
    exact = osc.anchor_release(SETUP, "unprotected")
    dec = osc.privelet_release(SETUP, 1e9, rng=0)
    assert np.isclose(dec.histograms.sum(), exact.histograms.sum())
    assert dec.params["sensitivity"] >= 2 and dec.ledger.total() == 1e9


def test_rank_and_kendall():
    p = pd.DataFrame({"family": ["a", "b", "c"], "beta": [0.1, 0.2, 3.0], "alpha": [0.5, 0.2, 0.1]})
    r = osc.rank_families(p, ["a", "b", "c"], x="beta", y="alpha", level=1.0)
    assert r.tolist() == [2.0, 1.0, 3.0]                             # c never reaches beta <= 1: last
    t = osc.kendall_matrix(pd.DataFrame({"u": r, "v": r}))
    assert np.allclose(t.to_numpy(), 1.0)
    assert osc.dp_odds_bound(0.25) == 0.5


# ----------------------------------------------------------------------------- QWI's suppressed cells, policies, layouts
def test_qwi_suppressed_cells_read_as_zero_or_estimated_from_the_cell_total():
    # HAND's QI cells (x, y) hold at most 2 persons each ((0, 0): a, b; (2, 1): a, b; the others one), so every
    # published cell and every QI cell's total is suppressed: nothing is published, whatever the reading.
    for option in osc.QWI_SUPPRESSED:
        dec = release(SETUP, "qwi", 0.2, rng=0, qwi_suppressed=option).decomposition
        assert dec.params["suppressed_reading"] == option
        assert float(np.asarray(dec.histograms).sum()) == 0.0
    # BIG_SETUP: larger cells; the estimates recover every QI cell's published total (total x its factor)
    zero = release(BIG_SETUP, "qwi", 0.2, rng=3).decomposition
    equal = release(BIG_SETUP, "qwi", 0.2, rng=3, qwi_suppressed="margin-equal").decomposition
    prior = release(BIG_SETUP, "qwi", 0.2, rng=3, qwi_suppressed="margin-prior").decomposition
    assert zero.params["suppressed_cells"] > 0
    h0, he, hp = (np.asarray(d.histograms) for d in (zero, equal, prior))
    np.testing.assert_allclose(he.sum(axis=1), hp.sum(axis=1))          # the same margins, spread differently
    assert (he.sum(axis=1) >= h0.sum(axis=1) - 1e-9).all() and he.sum() > h0.sum()
    np.testing.assert_array_equal(he[h0 != 0], h0[h0 != 0])              # published cells unchanged
    with pytest.raises(ValueError, match="qwi_suppressed"):
        release(BIG_SETUP, "qwi", 0.2, rng=3, qwi_suppressed="impute")
    with pytest.raises(ValueError, match="qwi_suppressed"):
        sweep(BIG_SETUP, WL, {"qwi": [0.2]}, seed=0, n_seeds=1, qwi_suppressed="zero")


def test_measure_policies_subset_and_errors():
    dec = release(BIG_SETUP, "laplace", 0.5, rng=1).decomposition
    full = measure(BIG_SETUP, WL, dec)
    raw = measure(BIG_SETUP, WL, dec, policies=("raw",))
    assert raw["alpha_w_raw"] == full["alpha_w_raw"] and "alpha_w_nonneg" not in raw
    nonneg = measure(BIG_SETUP, WL, dec, policies=["nonneg-total"])
    assert nonneg["alpha_w_nonneg"] == full["alpha_w_nonneg"]
    with pytest.raises(ValueError, match="policies"):
        measure(BIG_SETUP, WL, dec, policies=("clip",))
    with pytest.raises(ValueError, match="policies"):
        measure(BIG_SETUP, WL, dec, policies=())
    with pytest.raises(TypeError, match="policies"):
        measure(BIG_SETUP, WL, dec, policies="raw")
    with pytest.raises(ValueError, match="needs 'raw'"):
        measure(BIG_SETUP, WL, dec, errors=True, policies=("nonneg-total",))
    rows = sweep(BIG_SETUP, WL, {"laplace": [0.5]}, seed=0, n_seeds=2, policies=("raw",), errors=True)
    assert "alpha_w_nonneg" not in rows.columns and len(rows["err_w"].iloc[0]) == WL.n_queries


def test_histogram_layout_reused_equals_a_fresh_conversion():
    # two Laplace releases share their boxes and tree (built once per cell layout) and equal fresh conversions
    from privlib.release import from_histogram
    first = release(BIG_SETUP, "laplace", 1.0, rng=1).decomposition
    again = release(BIG_SETUP, "laplace", 1.0, rng=2).decomposition
    cells = np.stack(np.unravel_index(np.arange(8), (4, 2)), axis=1)           # the domain's cells, in key order
    n = cells.shape[0]
    for dec in (first, again):
        fresh = from_histogram(cells, dec.histograms[:n], qi=["x", "y"], sa="s", sa_values=["a", "b"],
                               domain_lower=[0, 0], domain_upper=[3, 1], ledger=dec.ledger, params=dec.params)
        for f in ("lower", "upper", "histograms", "tree_dim", "tree_threshold", "tree_left", "tree_right",
                  "tree_leaf", "tree_depth"):
            np.testing.assert_array_equal(getattr(dec, f), getattr(fresh, f))
    assert again.lower is first.lower and not again.lower.flags.writeable   # shared, read-only
    assert not np.array_equal(first.histograms, again.histograms)
