"""Bad and extreme inputs for privlib.noise, privlib.synth and the LEHD-like simulators.

Each case asserts either the correct result (checked by hand or by an independent method) or a
``ValueError`` / ``TypeError`` whose message names the argument.
"""
import math

import numpy as np
import pandas as pd
import pytest

from privlib import noise, synth
from privlib.simulate import simulate_commuting, simulate_establishments, simulate_geography
from test_noise import _toy

RAMP = noise.RampDistribution(1.05, 1.15)
NAN, INF = float("nan"), float("inf")


def _panel():
    return _toy()  # the hand-worked establishment panel of test_noise.py


F_OK = pd.Series([1.1, 0.9, 1.2], index=[0, 1, 2])


def _distort(panel=None, factors=F_OK, **kw):
    return noise.distort(_panel() if panel is None else panel, factors, counts=("B", "E"), magnitudes=("W2",), **kw)


def _with(col, i, v):
    p = _panel()
    p[col] = p[col].astype(float)
    p.loc[i, col] = v
    return p


def _dup_cols():
    p = _panel()
    return pd.concat([p, p[["B"]]], axis=1)


def _fuzzed_with(col, v):
    fz = _distort()
    fz[col] = fz[col].astype(float)
    fz.loc[0, col] = v
    return fz


def _cells():
    return noise.aggregate(_distort(), counts=("B", "E"), min_establishments=2)


def _cells_with(col, v):
    c = _cells()
    sup = np.flatnonzero(c["B_flag"] == noise.SUPPRESSED)[0]
    c[col] = c[col].astype(c[col].dtype if col.endswith("flag") else float)
    c.loc[sup, col] = v
    return c


# ------------------------------------------------------------------ errors naming the argument
ERRORS = [
    # noise: the ramp distribution
    ("ramp a NaN", lambda: noise.RampDistribution(NAN, 1.15), ValueError, "a"),
    ("ramp b inf", lambda: noise.RampDistribution(1.05, INF), ValueError, "b"),
    ("ramp a str", lambda: noise.RampDistribution("1.05", 1.15), TypeError, "a"),
    ("rvs size negative", lambda: RAMP.rvs(-1, rng=0), ValueError, "size"),
    ("rvs size float", lambda: RAMP.rvs(2.5, rng=0), TypeError, "size"),
    ("ppf NaN", lambda: RAMP.ppf([0.5, NAN]), ValueError, "u"),
    ("draw_factors NaN id", lambda: noise.draw_factors([1.0, NAN], dist=RAMP, rng=0), ValueError, "establishments"),
    ("draw_factors 2-d ids", lambda: noise.draw_factors([[1, 2]], dist=RAMP, rng=0), ValueError, "establishments"),
    # noise.distort: factors NaN / negative / zero / inf (silently accepted before)
    ("distort NaN factor", lambda: _distort(factors=pd.Series([1.1, NAN, 1.2])), ValueError, "factors"),
    ("distort negative factor", lambda: _distort(factors=pd.Series([1.1, -0.9, 1.2])), ValueError, "factors"),
    ("distort zero factor", lambda: _distort(factors=pd.Series([1.1, 0.0, 1.2])), ValueError, "factors"),
    ("distort inf factor", lambda: _distort(factors=pd.Series([1.1, INF, 1.2])), ValueError, "factors"),
    ("distort duplicated factor ids", lambda: _distort(factors=pd.Series([1.1, 0.9, 1.2, 1.3], index=[0, 1, 2, 2])),
     ValueError, "factors"),
    ("distort factors as list", lambda: _distort(factors=[1.1, 0.9, 1.2]), TypeError, "factors"),
    ("distort negative count", lambda: _distort(_with("B", 0, -3)), ValueError, "B"),
    ("distort inf count", lambda: _distort(_with("E", 1, INF)), ValueError, "E"),
    ("distort inf magnitude", lambda: _distort(_with("W2", 1, INF)), ValueError, "W2"),
    ("distort duplicated columns", lambda: _distort(_dup_cols()), ValueError, "panel"),
    ("distort missing column", lambda: noise.distort(_panel(), F_OK, counts=("B", "H"), magnitudes=()), ValueError,
     "panel"),
    ("distort empty panel", lambda: _distort(_panel().iloc[:0]), ValueError, "panel"),
    # noise.aggregate
    ("aggregate NaN weight", lambda: noise.aggregate(_fuzzed_with("weight", NAN), counts=("B", "E")), ValueError, "weight"),
    ("aggregate negative weight", lambda: noise.aggregate(_fuzzed_with("weight", -1.0), counts=("B", "E")), ValueError,
     "weight"),
    ("aggregate zero weight", lambda: noise.aggregate(_fuzzed_with("weight", 0.0), counts=("B", "E")), ValueError, "weight"),
    ("aggregate NaN count", lambda: noise.aggregate(_fuzzed_with("B_star", NAN), counts=("B", "E")), ValueError, "B_star"),
    ("aggregate NaN cell key", lambda: noise.aggregate(_fuzzed_with("county", NAN), counts=("B", "E")), ValueError, "by"),
    ("aggregate missing by column", lambda: noise.aggregate(_distort(), by=("state",), counts=("B", "E")), ValueError, "by"),
    ("aggregate empty", lambda: noise.aggregate(_distort().iloc[:0], counts=("B", "E")), ValueError, "fuzzed"),
    ("aggregate negative min_persons", lambda: noise.aggregate(_distort(), counts=("B", "E"), min_persons=-1), ValueError,
     "min_persons"),
    # noise.replace_suppressed
    ("replace NaN suppressed cell", lambda: noise.replace_suppressed(_cells_with("B_star", NAN), "B", rng=0), ValueError,
     "B_star"),
    ("replace negative suppressed cell", lambda: noise.replace_suppressed(_cells_with("B_star", -2.0), "B", rng=0),
     ValueError, "B_star"),
    ("replace unknown flag", lambda: noise.replace_suppressed(_cells_with("B_flag", 7), "B", rng=0), ValueError, "B_flag"),
    ("replace missing variable", lambda: noise.replace_suppressed(_cells(), "Q", rng=0), ValueError, "cells"),
    ("replace prior_shape NaN", lambda: noise.replace_suppressed(_cells(), "B", rng=0, prior_shape=NAN), ValueError,
     "prior_shape"),
    # noise: tables and errors
    ("category_table negative", lambda: noise.category_table([1, -2], [1, 2]), ValueError, "true"),
    ("category_table inf released", lambda: noise.category_table([1, 2], [1, INF]), ValueError, "released"),
    ("category_table huge top", lambda: noise.category_table([1, 2], [1, 2], top=10**9), ValueError, "top"),
    ("category_table strings", lambda: noise.category_table(["a", "b"], [1, 2]), TypeError, "true"),
    ("autocorrelation 1-d", lambda: noise.autocorrelation(np.arange(5.0)), ValueError, "values"),
    ("autocorrelation inf", lambda: noise.autocorrelation([[1.0, INF, 2.0, 3.0]]), ValueError, "values"),
    ("autocorrelation_difference misaligned", lambda: noise.autocorrelation_difference(
        _cells(), {"B": np.ones(2)}, ["B"]), ValueError, "released"),
    ("autocorrelation_difference empty", lambda: noise.autocorrelation_difference(
        _cells().iloc[:0], {"B": []}, ["B"]), ValueError, "cells"),
    ("relative_error shapes", lambda: noise.relative_error([1, 2, 3], [1, 2]), ValueError, "released"),
    ("relative_error NaN", lambda: noise.relative_error([1, 2], [1, NAN]), ValueError, "released"),
    # synth: closed forms and searches
    ("min_alpha_for_dp NaN m", lambda: synth.min_alpha_for_dp(NAN, eps=1.0), ValueError, "m"),
    ("min_alpha_for_dp inf m", lambda: synth.min_alpha_for_dp([1, INF], eps=1.0), ValueError, "m"),
    ("min_alpha_for_dp NaN eps", lambda: synth.min_alpha_for_dp(5, eps=NAN), ValueError, "eps"),
    ("min_alpha_for_dp eps 0", lambda: synth.min_alpha_for_dp(5, eps=0.0), ValueError, "eps"),
    ("min_alpha_for_pdp eps negative", lambda: synth.min_alpha_for_pdp(5, eps=-1.0, delta=1e-3), ValueError, "eps"),
    ("min_alpha_for_pdp delta NaN", lambda: synth.min_alpha_for_pdp(5, eps=2.0, delta=NAN), ValueError, "delta"),
    ("min_alpha_for_pdp delta 1", lambda: synth.min_alpha_for_pdp(5, eps=2.0, delta=1.0), ValueError, "delta"),
    ("min_alpha_for_pdp n 0", lambda: synth.min_alpha_for_pdp(0, eps=2.0, delta=1e-3), ValueError, "n"),
    ("min_alpha_for_pdp rule", lambda: synth.min_alpha_for_pdp(5, eps=2.0, delta=1e-3, rule="all"), ValueError, "rule"),
    ("min_alpha_for_pdp bounds reversed", lambda: synth.min_alpha_for_pdp(5, eps=2.0, delta=1e-3, alpha_bounds=(10, 1)),
     ValueError, "alpha_bounds"),
    ("min_alpha_for_pdp bounds NaN", lambda: synth.min_alpha_for_pdp(5, eps=2.0, delta=1e-3, alpha_bounds=(NAN, 1)),
     ValueError, "alpha_bounds"),
    ("min_alpha_for_pdp rtol 0", lambda: synth.min_alpha_for_pdp(5, eps=2.0, delta=1e-3, rtol=0.0), ValueError, "rtol"),
    ("md_transition too large", lambda: synth.md_transition(10**5, 10**5), ValueError, "n, m"),
    ("md_transition alpha NaN", lambda: synth.md_transition(3, 3, alpha=NAN), ValueError, "alpha"),
    ("md_transition alpha inf", lambda: synth.md_transition(3, 3, alpha=INF), ValueError, "alpha"),
    ("md_transition n float", lambda: synth.md_transition(2.5, 3), TypeError, "n"),
    ("pdp_delta eps NaN", lambda: synth.pdp_delta(synth.md_transition(2, 2), "worst", eps=NAN), ValueError, "eps"),
    ("laplace_transition eps inf", lambda: synth.laplace_transition(3, eps=INF), ValueError, "eps"),
    ("pruned_epsilon alpha NaN", lambda: synth.pruned_epsilon(4.6, min_p=0.025, alpha=NAN), ValueError, "alpha"),
    ("pruned_epsilon empty min_p", lambda: synth.pruned_epsilon(4.6, min_p=[], alpha=1.0), ValueError, "min_p"),
    ("coarsening_privacy n_fine 1", lambda: synth.coarsening_privacy(synth.md_transition(5, 5), eps=2.0, n_fine=1),
     ValueError, "n_fine"),
    ("coarsening_privacy n_fine str", lambda: synth.coarsening_privacy(synth.md_transition(5, 5), eps=2.0, n_fine="3"),
     TypeError, "n_fine"),
    ("coarsening_privacy too many tables", lambda: synth.coarsening_privacy(synth.md_transition(40, 5), eps=2.0, n_fine=12),
     ValueError, "n_fine"),
    ("coarsening_privacy eps NaN", lambda: synth.coarsening_privacy(synth.md_transition(5, 5), eps=NAN, n_fine=3),
     ValueError, "eps"),
    ("coarsening_privacy T not stochastic", lambda: synth.coarsening_privacy(np.ones((3, 3)), eps=2.0, n_fine=3),
     ValueError, "T"),
    ("transition_frame 1-d", lambda: synth.transition_frame([0.5, 0.5]), ValueError, "T"),
    ("grid_cell NaN", lambda: synth.grid_cell([NAN], [1.0]), ValueError, "dx"),
    ("OTMSettings eps NaN", lambda: synth.OTMSettings(eps=NAN), ValueError, "eps"),
    ("OTMSettings delta NaN", lambda: synth.OTMSettings(delta=NAN), ValueError, "delta"),
    ("OTMSettings m_cap 0", lambda: synth.OTMSettings(m_cap=0), ValueError, "m_cap"),
    # simulators: NaN parameters were accepted before
    ("establishments size_logsd NaN", lambda: simulate_establishments(n_establishments=5, size_logsd=NAN, rng=0),
     ValueError, "size_logsd"),
    ("establishments size_logmean NaN", lambda: simulate_establishments(n_establishments=5, size_logmean=NAN, rng=0),
     ValueError, "size_logmean"),
    ("establishments size_logmean inf", lambda: simulate_establishments(n_establishments=5, size_logmean=INF, rng=0),
     ValueError, "size_logmean"),
    ("establishments size_logmean huge", lambda: simulate_establishments(n_establishments=5, size_logmean=800.0, rng=0),
     ValueError, "size_logmean"),
    ("establishments too many rows", lambda: simulate_establishments(n_establishments=10**8, rng=0), ValueError,
     "n_establishments"),
    ("establishments n_counties str", lambda: simulate_establishments(n_counties="3", rng=0), TypeError, "n_counties"),
    ("establishments rng missing", lambda: simulate_establishments(n_establishments=5), TypeError, "rng"),
    ("geography width NaN", lambda: simulate_geography(n_spumas=2, width=NAN, rng=0), ValueError, "width"),
    ("geography too many blocks", lambda: simulate_geography(n_spumas=10**6, rng=0), ValueError, "n_spumas"),
    ("commuting size_logsd NaN", lambda: simulate_commuting(_GEO, n_workplaces=3, size_logsd=NAN, rng=0), ValueError,
     "size_logsd"),
    ("commuting size_logmean NaN", lambda: simulate_commuting(_GEO, n_workplaces=3, size_logmean=NAN, rng=0), ValueError,
     "size_logmean"),
    ("commuting decay NaN", lambda: simulate_commuting(_GEO, n_workplaces=3, decay=NAN, rng=0), ValueError, "decay"),
    ("commuting far_weight negative", lambda: simulate_commuting(_GEO, n_workplaces=3, far_weight=-1.0, rng=0),
     ValueError, "far_weight"),
    ("commuting huge prior table", lambda: simulate_commuting(_GEO, n_workplaces=3, prior_jobs_per_job=1e9, rng=0),
     ValueError, "prior_jobs_per_job"),
    ("commuting size_logmean huge", lambda: simulate_commuting(_GEO, n_workplaces=3, size_logmean=700.0, rng=0),
     ValueError, "size_logmean"),
    # synth: the OnTheMap-style synthesizer
    ("synthesize published NaN", lambda: _synth(published=_pub(NAN)), ValueError, "published"),
    ("synthesize published inf", lambda: _synth(published=_pub(INF)), ValueError, "published"),
    ("synthesize published negative", lambda: _synth(published=_pub(-1.0)), ValueError, "published"),
    ("synthesize published huge", lambda: _synth(published=_pub(1e12)), ValueError, "published"),
    ("synthesize published wrong shape", lambda: _synth(published=np.ones(3)), ValueError, "published"),
    ("synthesize settings dict", lambda: _synth(settings={"eps": 1.0}), TypeError, "settings"),
    ("synthesize chunk 0", lambda: _synth(chunk=0), ValueError, "chunk"),
    ("synthesize data wrong type", lambda: synth.synthesize("data", _OTM()[1], rng=0), TypeError, "data"),
    ("build_domains missing column", lambda: synth.build_domains(_data_without_prior_count(), rng=0), ValueError,
     "data.prior"),
    ("build_domains chunk 0", lambda: synth.build_domains(_OTM()[0], chunk=0, rng=0), ValueError, "chunk"),
]

_GEO = simulate_geography(n_spumas=3, pumas_per_spuma=2, tracts_per_puma=3, blocks_per_tract=3, rng=1)
_CACHE = {}


def _OTM():
    if "otm" not in _CACHE:
        d = simulate_commuting(_GEO, n_workplaces=15, rng=2)
        _CACHE["otm"] = (d, synth.build_domains(d, rng=3))
    return _CACHE["otm"]


def _pub(v):
    d = _OTM()[0]
    p = d.workplaces["n"].to_numpy(float).copy()
    p[0] = v
    return p


def _synth(**kw):
    d, dom = _OTM()
    return synth.synthesize(d, dom, rng=0, **{"settings": synth.OTMSettings(), **kw})


def _data_without_prior_count():
    import dataclasses
    d = _OTM()[0]
    return dataclasses.replace(d, prior=d.prior.rename(columns={"count": "n"}))


@pytest.mark.parametrize("fn,exc,name", [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_bad_input_raises_naming_the_argument(fn, exc, name):
    with pytest.raises(exc, match=name.replace("[", r"\[")):
        fn()


# ------------------------------------------------------------------ extreme inputs, correct results
def test_jf_star_equals_e_star_minus_b_star_with_a_common_factor():
    # regression: JF* used the unweighted JF, so with weights JF* != E* - B* even when every
    # establishment of the cell has the same factor (slide "Weighting": every item weighted)
    fz = noise.distort(_panel(), pd.Series([1.1, 1.1, 1.1]), counts=("B", "E"), magnitudes=("W2",))
    cells = noise.aggregate(fz, counts=("B", "E"), min_establishments=0, min_persons=0)
    assert np.allclose(cells["JF_star"], cells["E_star"] - cells["B_star"], atol=1e-12)
    c0 = cells[(cells.county == 0) & (cells.quarter == 0)].iloc[0]
    assert c0["JF_star"] == pytest.approx(1.1 * (1 * (12 - 10) + 2 * (5 - 4)))


def test_jf_star_hand_worked_with_distinct_factors():
    fz = noise.distort(_panel(), F_OK, counts=("B", "E"), magnitudes=("W2",))
    c = noise.aggregate(fz, counts=("B", "E")).set_index(["county", "quarter"]).loc[(0, 1)]
    jf_w = 1 * (11 - 12) + 2 * (5 - 5)
    ebar = 1 * (12 + 11) / 2 + 2 * (5 + 5) / 2
    ebar_star = 1.1 * 1 * (12 + 11) / 2 + 0.9 * 2 * (5 + 5) / 2
    assert c["JF_star"] == pytest.approx(jf_w * ebar_star / ebar)


@pytest.mark.parametrize("alpha", [1e9, 1e15, 1e300])
def test_md_transition_rows_sum_to_one_at_huge_alpha(alpha):
    # regression: rows summed to 0.999999 at 1e9, 54.6 at 1e15 and 6 at 1e300
    for kind in synth.MD_KINDS:
        assert np.allclose(synth.md_transition(8, 8, alpha=alpha, kind=kind).sum(axis=1), 1, atol=1e-12)


def test_min_alpha_for_dp_zero_and_vector():
    assert synth.min_alpha_for_dp(0, eps=1.0) == 0.0
    assert np.allclose(synth.min_alpha_for_dp([0, 1, 5], eps=math.log(2)), [0, 1, 5])


def test_min_alpha_for_pdp_m_zero_with_n_is_lower_bound():
    # m = 0 releases nothing: every alpha satisfies the target
    assert synth.min_alpha_for_pdp(0, eps=1.0, delta=1e-3, n=3) == 1e-12


def test_category_table_ignores_missing_pairs():
    tab = noise.category_table([1, 2, NAN], [1.2, NAN, 3.0])
    assert tab.loc["1", "1"] == 100 and tab.loc["2"].isna().all()


def test_draw_factors_empty_and_string_ids():
    assert len(noise.draw_factors([], dist=RAMP, rng=0)) == 0
    f = noise.draw_factors(["b", "a", "b"], dist=RAMP, rng=0)
    assert list(f.index) == ["a", "b"]


def test_synthesize_zero_published_workplace():
    d, dom = _OTM()
    p = d.workplaces["n"].to_numpy().copy()
    p[0] = 0
    s = synth.synthesize(d, dom, published=p, rng=0)
    assert s.synthetic[0].sum() == 0 and np.array_equal(s.synthetic.sum(axis=1), p)


def test_coarsening_privacy_hand_worked_and_zero_probabilities():
    # 1 entity, 2 outputs: T = [[0.9, 0.1], [0.3, 0.7]]; eps = max(ln 3, ln 7) = ln 7 whatever the
    # number of fine units; at eps = 1.5 only m = (1,0)... fails (ln 7 > 1.5 > ln 3): worst
    # delta = max(0.1, 0.7) = 0.7 in both views
    T = np.array([[0.9, 0.1], [0.3, 0.7]])
    for k in (2, 3, 5):
        r = synth.coarsening_privacy(T, eps=1.5, n_fine=k)
        assert r.eps_fine == pytest.approx(math.log(7)) and r.delta_fine == pytest.approx(0.7)
        assert r.preserved and r.fine_tables == k
    # an exact release (identity transition) has infinite eps in both views
    r = synth.coarsening_privacy(np.eye(3), eps=1.0, n_fine=3)
    assert math.isinf(r.eps_coarse) and math.isinf(r.eps_fine) and r.delta_fine == 1.0
