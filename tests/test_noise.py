"""Tests of privlib.noise: the QWI ramp distribution and multiplicative noise infusion."""
import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

from privlib import noise
from privlib.noise import RampDistribution
from privlib.simulate import simulate_establishments
from privlib.sources import qwi

RAMP = RampDistribution(1.05, 1.15)


# ---------------------------------------------------------------- ramp distribution
def test_density_integrates_to_one():
    (l0, l1), (u0, u1) = RAMP.support
    total = integrate.quad(RAMP.pdf, l0, l1)[0] + integrate.quad(RAMP.pdf, u0, u1)[0]
    assert total == pytest.approx(1.0, abs=1e-10)
    assert integrate.quad(RAMP.pdf, u0, u1)[0] == pytest.approx(0.5, abs=1e-10)


def test_cdf_is_integral_of_density():
    for x in [0.86, 0.9, 0.949, 0.95, 1.0, 1.05, 1.07, 1.12, 1.15]:
        lo = RAMP.support[0][0]
        num = integrate.quad(RAMP.pdf, lo, min(x, 0.95))[0] + (integrate.quad(RAMP.pdf, 1.05, x)[0] if x > 1.05 else 0)
        assert RAMP.cdf(x) == pytest.approx(num, abs=1e-10)
    assert RAMP.cdf(0.0) == 0.0 and RAMP.cdf(2.0) == 1.0
    assert RAMP.cdf(1.0) == pytest.approx(0.5, abs=1e-12)


def test_hand_worked_values():
    # slide formulas at a = 1.05, b = 1.15: p(a) = (b - a)/(b - a)^2 = 10; p(b) = 0
    assert RAMP.pdf(1.05) == pytest.approx(10.0)
    assert RAMP.pdf(1.15) == pytest.approx(0.0)
    assert RAMP.pdf(0.95) == pytest.approx(10.0)
    assert RAMP.pdf(1.0) == 0.0
    # F(1.10) = 0.5 + (0.01 - 0.0025)/0.02 = 0.875
    assert RAMP.cdf(1.10) == pytest.approx(0.875)


def test_ppf_inverts_cdf():
    u = np.linspace(0, 1, 101)
    assert np.allclose(RAMP.cdf(RAMP.ppf(u)), u)


def test_samples_pass_ks_and_bounds():
    x = RAMP.rvs(20_000, rng=5)
    assert stats.kstest(x, RAMP.cdf).pvalue > 0.01
    assert abs(x.mean() - 1.0) < 0.002
    move = np.abs(x - 1.0)
    assert move.min() >= 0.05 - 1e-12 and move.max() <= 0.15 + 1e-12
    assert np.var(x) == pytest.approx(RAMP.var(), rel=0.03)
    assert RAMP.mean() == 1.0


def test_rvs_reproducible():
    assert np.array_equal(RAMP.rvs(10, rng=1), RAMP.rvs(10, rng=np.random.default_rng(1)))


# ---------------------------------------------------------------- noise infusion
def _toy():
    return pd.DataFrame({
        "estab": [0, 0, 1, 1, 2, 2],
        "county": [0, 0, 0, 0, 1, 1],
        "industry": [0, 0, 0, 0, 0, 0],
        "quarter": [0, 1, 0, 1, 0, 1],
        "B": [10, 12, 4, 5, 1, 0],
        "E": [12, 11, 5, 5, 0, 0],
        "W2": [1200.0, 1100.0, 600.0, 500.0, 0.0, 0.0],
        "weight": [1.0, 1.0, 2.0, 2.0, 1.5, 1.5],
    })


def test_distort_and_aggregate_by_hand():
    panel = _toy()
    f = pd.Series([1.1, 0.9, 1.2], index=[0, 1, 2])
    fz = noise.distort(panel, f, counts=("B", "E"), magnitudes=("W2",))
    assert np.allclose(fz["B_star"], [11, 13.2, 3.6, 4.5, 1.2, 0])
    cells = noise.aggregate(fz, counts=("B", "E"), weighted=True, min_establishments=2, min_persons=3)
    c0 = cells[(cells.county == 0) & (cells.quarter == 0)].iloc[0]
    assert c0["B"] == 14 and c0["B_star"] == pytest.approx(1.1 * 10 + 2 * 0.9 * 4)
    # ratio: numerator fuzzed and weighted, denominator weighted but not fuzzed
    assert c0["Z_W2_star"] == pytest.approx((1.1 * 1200 + 2 * 0.9 * 600) / (12 + 2 * 5))
    assert c0["Z_W2"] == pytest.approx(1800 / 17)
    # change: JF* = JF_w x Ebar*/Ebar, every item weighted before aggregation (slide "Weighting"):
    # JF_w = 1 x (12 - 10) + 2 x (5 - 4) = 4 (the unweighted benchmark JF is 3)
    ebar = (10 + 12) / 2 + 2 * (4 + 5) / 2
    ebar_star = 1.1 * (10 + 12) / 2 + 2 * 0.9 * (4 + 5) / 2
    assert c0["JF"] == 3 and c0["JF_star"] == pytest.approx(4 * ebar_star / ebar)
    # suppression: county 1 has one establishment with B = 1
    c1 = cells[(cells.county == 1) & (cells.quarter == 0)].iloc[0]
    assert c1["B_flag"] == noise.SUPPRESSED and c0["B_flag"] == noise.OK
    # a zero cell is published
    c1q1 = cells[(cells.county == 1) & (cells.quarter == 1)].iloc[0]
    assert c1q1["B_flag"] == noise.OK and c1q1["B_star"] == 0


def test_unweighted_aggregate_uses_unit_weights():
    fz = noise.distort(_toy(), pd.Series([1.1, 0.9, 1.2]), counts=("B", "E"), magnitudes=("W2",))
    cells = noise.aggregate(fz, counts=("B", "E"), weighted=False)
    c0 = cells[(cells.county == 0) & (cells.quarter == 0)].iloc[0]
    assert c0["B_star"] == pytest.approx(1.1 * 10 + 0.9 * 4)


def test_factor_is_permanent():
    p = simulate_establishments(n_establishments=50, n_quarters=4, rng=1)
    f = noise.draw_factors(p["estab"], dist=RAMP, rng=2)
    fz = noise.distort(p, f)
    assert (fz.groupby("estab")["delta"].nunique() == 1).all()
    pos = fz["B"] > 0
    assert np.allclose(fz.loc[pos, "B_star"] / fz.loc[pos, "B"], fz.loc[pos, "delta"])


def test_category_table_by_hand():
    t = np.array([0, 1, 1, 2, 7])
    r = np.array([0.0, 1.4, 1.6, 2.2, 4.4])
    tab = noise.category_table(t, r)
    assert tab.loc["1", "1"] == 50 and tab.loc["1", "2"] == 50
    assert tab.loc["5+", "4"] == 100
    assert np.allclose(tab.dropna().sum(axis=1), 100)


def test_autocorrelation_against_numpy():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 12)).cumsum(axis=1)
    r = noise.autocorrelation(x)
    for i in range(3):
        assert r[i] == pytest.approx(np.corrcoef(x[i, :-1], x[i, 1:])[0, 1])
    y = x.copy()
    y[0, 5] = np.nan
    keep = ~np.isnan(y[0, :-1]) & ~np.isnan(y[0, 1:])
    assert noise.autocorrelation(y)[0] == pytest.approx(np.corrcoef(y[0, :-1][keep], y[0, 1:][keep])[0, 1])


def test_autocorrelation_difference_zero_when_released_equals_true():
    p = simulate_establishments(n_establishments=300, n_quarters=8, rng=3)
    fz = noise.distort(p, noise.draw_factors(p.estab, dist=RAMP, rng=4))
    cells = noise.aggregate(fz)
    tab = noise.autocorrelation_difference(cells, {"B": cells["B"]}, ["B"])
    assert np.allclose(tab["B"], 0)
    # a common multiplicative factor leaves the autocorrelation unchanged
    tab2 = noise.autocorrelation_difference(cells, {"B": 1.1 * cells["B"]}, ["B"])
    assert np.allclose(tab2["B"], 0, atol=1e-12)


def test_replace_suppressed_keeps_published_cells():
    p = simulate_establishments(n_establishments=300, n_quarters=4, rng=3)
    cells = noise.aggregate(noise.distort(p, noise.draw_factors(p.estab, dist=RAMP, rng=4)))
    syn = noise.replace_suppressed(cells, "B", rng=5)
    ok = cells["B_flag"] == noise.OK
    assert np.array_equal(syn[ok], cells.loc[ok, "B_star"])
    assert (syn[~ok] >= 0).all() and (syn[~ok] == np.round(syn[~ok])).all()


def test_relative_error_micro_is_factor_minus_one():
    p = simulate_establishments(n_establishments=100, n_quarters=3, rng=3)
    fz = noise.distort(p, noise.draw_factors(p.estab, dist=RAMP, rng=4))
    err = noise.relative_error(fz["B"], fz["B_star"])
    assert np.allclose(err, fz.loc[fz.B > 0, "delta"] - 1)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("a,b,msg", [
    (1.1, 1.1, "expected a < b"),
    (1.2, 1.1, "expected a < b"),
    (1.0, 1.1, "a: expected a > 1"),
    (0.9, 1.1, "a: expected a > 1"),
    (1.1, 2.5, "b: expected b < 2"),
])
def test_ramp_bad_parameters(a, b, msg):
    with pytest.raises(ValueError, match=msg):
        RampDistribution(a, b)


def test_other_bad_inputs():
    with pytest.raises(ValueError, match="u: expected probabilities"):
        RAMP.ppf(1.5)
    with pytest.raises(TypeError, match="dist: expected a RampDistribution"):
        noise.draw_factors([1, 2], dist=(1.05, 1.15), rng=0)
    with pytest.raises(ValueError, match="factors: no distortion factor"):
        noise.distort(_toy(), pd.Series([1.1], index=[0]), counts=("B",), magnitudes=())
    with pytest.raises(ValueError, match="unknown column"):
        noise.distort(_toy(), pd.Series([1.1, 1.1, 1.1]), counts=("H",), magnitudes=())
    with pytest.raises(ValueError, match="released: expected the shape"):
        noise.category_table([1, 2], [1])
    with pytest.raises(ValueError, match="expected at least one row"):
        noise.distort(_toy().iloc[:0], pd.Series([1.1]), counts=("B",), magnitudes=())
    with pytest.raises(ValueError, match="rng"):
        RAMP.rvs(3, rng=-1)


# ---------------------------------------------------------------- JC, JD, Z_dWA, Z_dWS
def _two_estab_cell():
    panel = pd.DataFrame({"estab": [0, 1], "county": 0, "industry": 0, "quarter": 0,
                          "B": [4, 6], "E": [7, 2], "M": [8, 7], "H": [3, 1], "R": [0, 0], "A": [3, 1],
                          "S": [0, 5], "F": [4, 1], "W1": 1.0, "W2": 1.0, "dWA": [300.0, -100.0],
                          "dWS": [0.0, -500.0], "weight": [1.0, 2.0]})
    return panel, pd.Series([1.1, 0.9], index=[0, 1])


def test_jc_jd_change_rule_by_hand():
    panel, fac = _two_estab_cell()
    cell = noise.aggregate(noise.distort(panel, fac), min_establishments=0, min_persons=0).iloc[0]
    assert (cell["JC"], cell["JD"], cell["JF"]) == (3.0, 4.0, -1.0)
    # Ebar_w = 1*5.5 + 2*4 = 13.5; Ebar* = 1.1*5.5 + 2*0.9*4 = 13.25; JC_w = 3, JD_w = 2*4 = 8
    ratio = 13.25 / 13.5
    assert cell["JC_star"] == pytest.approx(3 * ratio)
    assert cell["JD_star"] == pytest.approx(8 * ratio)
    assert cell["JF_star"] == pytest.approx(cell["JC_star"] - cell["JD_star"])


def test_z_dwa_change_ratio_by_hand():
    # slide "Multiplicative Noise Infusion": Z_DWA* = (dWA / A) x (A* / A), weighted items
    panel, fac = _two_estab_cell()
    cell = noise.aggregate(noise.distort(panel, fac), min_establishments=0, min_persons=0).iloc[0]
    assert cell["Z_dWA"] == pytest.approx(200.0 / 4.0)
    a_w, dwa_w, a_star = 3 + 2 * 1, 300.0 - 200.0, 1.1 * 3 + 2 * 0.9 * 1
    assert cell["Z_dWA_star"] == pytest.approx(dwa_w / a_w * a_star / a_w)
    s_w, dws_w, s_star = 0 + 2 * 5, -1000.0, 2 * 0.9 * 5
    assert cell["Z_dWS_star"] == pytest.approx(dws_w / s_w * s_star / s_w)
    unw = noise.aggregate(noise.distort(panel, pd.Series(1.2, index=[0, 1])), weighted=False,
                          min_establishments=0, min_persons=0).iloc[0]
    assert unw["Z_dWA_star"] == pytest.approx(1.2 * unw["Z_dWA"])


def test_z_dwa_nan_names_the_column():
    panel, fac = _two_estab_cell()
    panel.loc[0, "dWA"] = np.nan
    with pytest.raises(ValueError, match="dWA"):
        noise.aggregate(noise.distort(panel, fac))


def test_simulated_earnings_changes_zero_without_flows():
    panel = simulate_establishments(n_establishments=300, n_quarters=4, n_counties=3, n_industries=3, rng=9)
    assert np.all(panel.loc[panel["A"] == 0, "dWA"] == 0)
    assert np.all(panel.loc[panel["S"] == 0, "dWS"] == 0)
    assert panel["dWA"].sum() > 0 > panel["dWS"].sum()


def test_sources_qwi_tables_are_consistent():
    # Tables 1A-1C: row percentages printed to two decimals (six cells: within 0.03 of 100)
    for key in ("1A", "1B", "1C"):
        t = np.array(qwi.TABLE_1[key], dtype=float)
        assert t.shape == (len(qwi.CATEGORIES),) * 2
        assert np.all(np.abs(t.sum(axis=1) - 100) <= 0.03)
    # Tables 7-9: every column's percentiles fall from the 99th to the 1st
    assert tuple(noise.PERCENTILES) == qwi.PERCENTILES
    for tab in (qwi.TABLE_7, qwi.TABLE_8, qwi.TABLE_9):
        t = np.array(tab, dtype=float)
        assert t.shape == (len(qwi.PERCENTILES), len(qwi.VARIABLES))
        assert np.all(np.diff(t, axis=0) <= 0)


# ----------------------------------------------------------------------------- suppressed cells from the margin
def test_estimate_suppressed_spreads_the_margin_remainder():
    from privlib.noise import estimate_suppressed
    x = np.array([[5.0, 99.0, 99.0], [4.0, 99.0, 3.0], [1.0, 2.0, 7.0]])     # 99: ignored (suppressed)
    sup = np.array([[False, True, True], [False, True, False], [False, False, False]])
    out = estimate_suppressed(x, sup, np.array([9.0, 8.5, 10.0]))
    np.testing.assert_allclose(out, [[5.0, 2.0, 2.0], [4.0, 1.5, 3.0], [1.0, 2.0, 7.0]])
    # the margin is recovered on every row whose margin is published
    np.testing.assert_allclose(out.sum(axis=1), [9.0, 8.5, 10.0])
    # a prior spreads in proportion; a prior with no weight on the row's suppressed cells falls back on equal shares
    out = estimate_suppressed(x, sup, np.array([9.0, 8.5, 10.0]), prior=np.array([1.0, 0.0, 3.0]))
    np.testing.assert_allclose(out[0], [5.0, 0.0, 4.0])
    np.testing.assert_allclose(out[1], [4.0, 1.5, 3.0])


def test_estimate_suppressed_missing_margin_and_negative_remainder():
    from privlib.noise import estimate_suppressed
    x = np.array([[5.0, 0.0], [4.0, 0.0]])
    sup = np.array([[False, True], [False, True]])
    out = estimate_suppressed(x, sup, np.array([np.nan, 3.0]))             # row 1: published cells exceed the margin
    assert np.isnan(out[0, 1]) and out[0, 0] == 5.0
    assert out[1, 1] == 0.0


@pytest.mark.parametrize("kwargs, err, match", [
    ({"suppressed": np.array([[0, 1]])}, TypeError, "suppressed: expected a boolean"),
    ({"suppressed": np.array([[False, True, False]])}, ValueError, "suppressed: expected the shape"),
    ({"margins": np.array([1.0, 2.0])}, ValueError, "margins: expected one margin per row"),
    ({"margins": np.array([-1.0])}, ValueError, "margins: expected non-negative"),
    ({"margins": np.array([np.inf])}, ValueError, "margins: expected non-negative"),
    ({"released": np.array([[np.nan, 1.0]])}, ValueError, "released: expected finite published"),
    ({"released": np.array([1.0, 1.0])}, ValueError, "released: expected a"),
    ({"prior": np.array([1.0])}, ValueError, "prior: expected one weight per column"),
    ({"prior": np.array([1.0, -1.0])}, ValueError, "prior: expected finite non-negative"),
])
def test_estimate_suppressed_errors(kwargs, err, match):
    from privlib.noise import estimate_suppressed
    args = {"released": np.array([[1.0, 0.0]]), "suppressed": np.array([[False, True]]),
            "margins": np.array([2.0]), **kwargs}
    with pytest.raises(err, match=match):
        estimate_suppressed(args.pop("released"), args.pop("suppressed"), args.pop("margins"), **args)
