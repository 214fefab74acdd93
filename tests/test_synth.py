"""Tests of privlib.synth: the slides' exact tables (Abowd & Vilhuber 2011), independent
computations, properties and bad input."""
import math

import numpy as np
import pytest
from scipy.stats import betabinom, binom, laplace

from privlib import synth
from privlib.accounting import Ledger
from privlib.sources import onthemap
from privlib.synth import (
    disclosure_mask,
    dp_epsilon,
    dp_ratio_table,
    joint_table,
    laplace_transition,
    md_prior,
    md_transition,
    min_alpha_for_dp,
    min_alpha_for_pdp,
    pdp_delta,
    pruned_epsilon,
)

# The slides' tables, typed once in privlib.sources.onthemap (slides "The Multinomial-Dirichlet
# Synthesizer", "epsilon-Differential Privacy", "Probabilistic Differential Privacy",
# "Laplace Sanitizer").
SLIDE_MD = np.array(onthemap.MD_TRANSITION, dtype=float)
SLIDE_RATIO = np.array(onthemap.MD_RATIO, dtype=float)
SLIDE_JOINT = np.array(onthemap.MD_JOINT, dtype=float)
SLIDE_LAPLACE = np.array(onthemap.LAPLACE_TRANSITION, dtype=float)
SLIDE_LAPLACE_RATIO = np.array(onthemap.LAPLACE_RATIO, dtype=float)


def _round_sig(x, digits=3):
    """Round to `digits` significant figures (how the slides print 6.91E-06)."""
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore"):
        mag = np.where(x > 0, np.floor(np.log10(np.abs(x))), 0)
    return np.round(x / 10 ** mag, digits - 1) * 10 ** mag


# ---------------------------------------------------------------- slides' exact tables
def test_md_table_plug_in_reproduces_slide_to_six_decimals():
    T = md_transition(5, 5, alpha=0.5, kind="plug-in")
    assert np.array_equal(np.round(T, 6), SLIDE_MD)


def test_md_table_full_posterior_predictive_does_not_reproduce_slide():
    T = md_transition(5, 5, alpha=0.5, kind="posterior-predictive")
    assert np.abs(np.round(T, 6) - SLIDE_MD).max() > 0.05


def test_ratio_table_and_epsilon():
    R = dp_ratio_table(md_transition(5, 5, alpha=0.5, kind="plug-in"))
    assert np.array_equal(np.round(R, 6), SLIDE_RATIO)
    eps = dp_epsilon(md_transition(5, 5, alpha=0.5, kind="plug-in"))
    assert round(eps, 6) == 5.493061
    assert math.exp(eps) == pytest.approx(243.0, rel=1e-12)  # "243:1 odds"
    # closed form: ((1 + alpha)/alpha)^m = 3^5 at n1 = 0 vs 1, m1 = m
    assert eps == pytest.approx(5 * math.log(3.0), rel=1e-12)


def test_joint_table_and_delta():
    T = md_transition(5, 5, alpha=0.5, kind="plug-in")
    J = joint_table(T, md_prior(5, alpha=0.5, kind="plug-in"))
    big = SLIDE_JOINT >= 1e-4
    assert np.array_equal(np.round(J[big], 6), SLIDE_JOINT[big])
    assert np.allclose(_round_sig(J[~big]), SLIDE_JOINT[~big], rtol=1e-9)
    delta = pdp_delta(T, md_prior(5, alpha=0.5, kind="plug-in"), eps=2.0)
    assert round(delta, 6) == float(onthemap.MD_DELTA) == 0.000623
    # the highlighted cells: 3 + 1 per side, symmetric
    mask = disclosure_mask(T, eps=2.0)
    assert mask.sum() == 8 and np.array_equal(mask, mask[::-1, ::-1])
    assert mask[0, 3:].all() and mask[1, 5] and not mask[1, :5].any()


def test_prior_plug_in_is_binomial_half():
    assert np.allclose(md_prior(5, alpha=0.5, kind="plug-in"), binom.pmf(np.arange(6), 5, 0.5))
    assert np.allclose(md_prior(5, alpha=0.5), betabinom.pmf(np.arange(6), 5, 0.5, 0.5))


def test_laplace_table_and_ratio():
    L = laplace_transition(5, eps=2.0)
    assert np.array_equal(np.round(L, 6), SLIDE_LAPLACE)
    R = dp_ratio_table(L)
    assert np.array_equal(np.round(R, 6), SLIDE_LAPLACE_RATIO)
    assert R.max() == pytest.approx(2.0, abs=1e-12)
    assert round(R[0, 0], 6) == 1.489880 and round(R[0, 1], 6) == 1.379885


def test_pruned_epsilon_onthemap_settings():
    assert pruned_epsilon(4.6, min_p=0.025, alpha=1.0) == pytest.approx(4.6 + math.log(40) + math.log(2))
    assert round(pruned_epsilon(4.6, min_p=0.025, alpha=0.3), 3) == 8.982
    # alpha in (1, 2] costs one more ln 2
    step = pruned_epsilon(4.6, min_p=0.025, alpha=1.5) - pruned_epsilon(4.6, min_p=0.025, alpha=1.0)
    assert step == pytest.approx(math.log(2))
    assert pruned_epsilon(1.0, min_p=[0.5, 0.1], alpha=[0.2, 0.9]) == pytest.approx(1 + math.log(10) + math.log(2))


# ---------------------------------------------------------------- independent methods
def test_posterior_predictive_by_monte_carlo():
    rng = np.random.default_rng(3)
    T = md_transition(4, 6, alpha=(0.7, 1.3))
    n1 = 1
    pi = rng.beta(0.7 + n1, 1.3 + 4 - n1, size=200_000)
    m1 = rng.binomial(6, pi)
    freq = np.bincount(m1, minlength=7) / m1.size
    assert np.abs(freq - T[n1]).max() < 0.005


def test_laplace_transition_by_scipy_cdf():
    eps, n = 0.7, 4
    L = laplace_transition(n, eps=eps)
    d = laplace(scale=1 / eps)
    for i in range(n + 1):
        expect = [d.cdf(0.5 - i)] + [d.cdf(j + 0.5 - i) - d.cdf(j - 0.5 - i) for j in range(1, n)] + [d.sf(n - 0.5 - i)]
        assert np.allclose(L[i], expect)
    assert dp_epsilon(L) <= eps + 1e-12


def test_min_alpha_for_dp_closed_form_attains_eps():
    for m, eps in [(5, 2.0), (10, 1.0), (3, 4.6)]:
        a = min_alpha_for_dp(m, eps=eps)
        T = md_transition(6, m, alpha=a)
        assert dp_epsilon(T) == pytest.approx(eps, rel=1e-9)
        assert dp_epsilon(md_transition(6, m, alpha=a * 1.01)) < eps


def _plug_delta(a, eps=2.0):
    return pdp_delta(md_transition(5, 5, alpha=a, kind="plug-in"), md_prior(5, alpha=a, kind="plug-in"), eps=eps)


def test_min_alpha_for_pdp_is_a_bound_over_the_sawtooth():
    # delta(alpha) is a sawtooth: the first alpha with delta <= target (0.370, the old answer)
    # is not a bound, since delta(0.8) = 0.00139 > 1e-3.  The threshold holds above itself.
    eps, delta = 2.0, 1e-3
    assert _plug_delta(0.37) <= delta < _plug_delta(0.8)
    a = min_alpha_for_pdp(5, eps=eps, delta=delta, prior="prior", kind="plug-in")
    assert a > 0.8
    fine = np.geomspace(a, 1e2, 1200)  # delta = 0 beyond alpha ~ 2.2
    assert max(_plug_delta(x) for x in fine) <= delta
    # just below the threshold the bound fails
    assert _plug_delta(a * (1 - 1e-5)) > delta
    aw = min_alpha_for_pdp(5, eps=eps, delta=delta)
    assert pdp_delta(md_transition(5, 5, alpha=aw), "worst", eps=eps) <= delta
    assert pdp_delta(md_transition(5, 5, alpha=aw * (1 - 1e-5)), "worst", eps=eps) > delta


@pytest.mark.parametrize("m,eps,delta,rule", [(20, 4.6, 1e-6, "any"), (5, 2.0, 1e-3, "smaller"), (12, 1.0, 1e-2, "any")])
def test_min_alpha_for_pdp_worst_case_holds_on_a_fine_grid(m, eps, delta, rule):
    a = min_alpha_for_pdp(m, eps=eps, delta=delta, rule=rule)
    fine = np.geomspace(a, 2 * min_alpha_for_dp(m, eps=eps) + 1, 1500)
    assert max(pdp_delta(md_transition(m, m, alpha=x), "worst", eps=eps, rule=rule) for x in fine) <= delta
    assert pdp_delta(md_transition(m, m, alpha=a * (1 - 1e-5)), "worst", eps=eps, rule=rule) > delta


@pytest.mark.parametrize("kind", synth.MD_KINDS)
@pytest.mark.parametrize("alpha", [1e9, 1e12, 1e15, 1e100, 1e300, (1e300, 1.0)])
def test_md_rows_sum_to_one_for_huge_alpha(kind, alpha):
    T = md_transition(5, 5, alpha=alpha, kind=kind)
    assert np.all(np.isfinite(T)) and np.allclose(T.sum(axis=1), 1, atol=1e-12)
    p = md_prior(5, alpha=alpha, kind=kind)
    assert abs(p.sum() - 1) < 1e-12
    if np.isscalar(alpha):  # symmetric and huge: every row tends to binomial(5, 1/2)
        assert np.allclose(T, binom.pmf(np.arange(6), 5, 0.5)[None, :], atol=1e-6)


def test_md_transition_matches_scipy():
    from scipy.stats import betabinom
    n1 = np.arange(7)[:, None]
    for a in [(0.3, 2.5), (7.0, 0.01), (0.5, 0.5)]:
        T = md_transition(6, 9, alpha=a)
        assert np.allclose(T, betabinom.pmf(np.arange(10)[None, :], 9, a[0] + n1, a[1] + 6 - n1), atol=1e-13)
        T = md_transition(6, 9, alpha=a, kind="plug-in")
        assert np.allclose(T, binom.pmf(np.arange(10)[None, :], 9, (a[0] + n1) / (a[0] + a[1] + 6)), atol=1e-13)
        assert np.allclose(md_prior(6, alpha=a), betabinom.pmf(np.arange(7), 6, *a), atol=1e-13)


# ---------------------------------------------------------------- properties
@pytest.mark.parametrize("kind", synth.MD_KINDS)
def test_rows_sum_to_one_and_symmetry(kind):
    T = md_transition(7, 4, alpha=0.8, kind=kind)
    assert np.allclose(T.sum(axis=1), 1)
    assert np.allclose(T, T[::-1, ::-1])  # symmetric prior: relabelling categories


def test_any_rule_contains_smaller_rule():
    T = md_transition(5, 5, alpha=0.5, kind="plug-in")
    s, a = disclosure_mask(T, eps=2.0, rule="smaller"), disclosure_mask(T, eps=2.0, rule="any")
    assert (a | s).sum() == a.sum() and a.sum() > s.sum()
    assert pdp_delta(T, "worst", eps=2.0) >= pdp_delta(T, md_prior(5, alpha=0.5, kind="plug-in"), eps=2.0)


def test_zero_off_diagonals_give_infinite_dp():
    R = dp_ratio_table(np.eye(3))
    assert np.isinf(R).any()


# ---------------------------------------------------------------- bad input
def test_bad_inputs():
    with pytest.raises(ValueError, match="alpha: expected prior sample sizes > 0"):
        md_transition(5, 5, alpha=0.0)
    with pytest.raises(ValueError, match="alpha: expected prior sample sizes > 0"):
        md_transition(5, 5, alpha=(-1.0, 1.0))
    with pytest.raises(ValueError, match="n: expected an integer >= 0"):
        md_transition(-1, 5, alpha=0.5)
    with pytest.raises(ValueError, match="m: expected an integer >= 0"):
        md_transition(5, -2, alpha=0.5)
    with pytest.raises(ValueError, match="kind: expected one of"):
        md_transition(5, 5, alpha=0.5, kind="mean")
    with pytest.raises(ValueError, match="eps: expected a number > 0"):
        laplace_transition(5, eps=0.0)
    with pytest.raises(ValueError, match="eps: expected a number > 0"):
        pdp_delta(md_transition(2, 2), md_prior(2), eps=-1.0)
    with pytest.raises(ValueError, match="n: expected an integer >= 0"):
        laplace_transition(-3, eps=1.0)
    with pytest.raises(ValueError, match="delta: expected a probability in \\(0, 1\\)"):
        min_alpha_for_pdp(5, eps=2.0, delta=1.0)
    with pytest.raises(ValueError, match="delta: expected a probability in \\(0, 1\\)"):
        min_alpha_for_pdp(5, eps=2.0, delta=0.0)
    with pytest.raises(ValueError, match="min_p: expected a probability in \\(0, 1\\]"):
        pruned_epsilon(4.6, min_p=0.0, alpha=1.0)
    with pytest.raises(ValueError, match="min_p: expected a probability in \\(0, 1\\]"):
        pruned_epsilon(4.6, min_p=1.5, alpha=1.0)
    with pytest.raises(ValueError, match="alpha: expected a number > 0"):
        pruned_epsilon(4.6, min_p=0.025, alpha=0.0)
    with pytest.raises(ValueError, match="eps: expected a number > 0"):
        pruned_epsilon(-4.6, min_p=0.025, alpha=1.0)
    with pytest.raises(ValueError, match="summing to 1"):
        dp_ratio_table([[0.5, 0.4], [0.5, 0.5]])
    with pytest.raises(ValueError, match="summing to 1"):
        pdp_delta([[0.6, 0.6], [0.5, 0.5]], [0.5, 0.5], eps=1.0)
    with pytest.raises(ValueError, match="prior: expected 3 probabilities"):
        joint_table(md_transition(2, 2), [0.5, 0.5])
    with pytest.raises(ValueError, match="m: expected synthetic totals >= 0"):
        min_alpha_for_dp(-1, eps=1.0)


# ---------------------------------------------------------------- OnTheMap-style synthesizer
@pytest.fixture(scope="module")
def otm():
    from privlib.simulate import simulate_commuting, simulate_geography
    g = simulate_geography(n_spumas=12, rng=1)
    d = simulate_commuting(g, n_workplaces=300, decay=10, far_weight=3e-4, rng=2)
    return d, synth.build_domains(d, rng=3)


def test_grid_cells():
    cells = synth.grid_cell([0, -0.5, 0.5, -3, 3, 700], [0, 0.5, 0.5, -1, -1, 0])
    # (0, N/A), ((0-1), NW), ((0-1), NE), ([1-4), SW), ([1-4), SE), ([500+), NE)
    assert cells.tolist() == [4, 5, 6, 12, 13, 36]


def test_domains_structure(otm):
    d, dom = otm
    assert dom.offsets[-1] == dom.code.size and np.all(np.diff(dom.code) > 0)
    assert dom.cutoffs[0] < dom.cutoffs[1]
    # editing never removes a point with prior support
    assert not (dom.eliminated & (dom.prior_count > 0)).any()
    # points within 100 miles are never eliminated
    assert not (dom.eliminated & (dom.distance <= 100)).any()
    assert dom.summary().loc["Total", "Mean"] > 0


def test_synthesis_accounting(otm):
    d, dom = otm
    s = synth.synthesize(d, dom, rng=4)
    # every published worker is synthesized, per workplace
    assert np.array_equal(s.synthetic.sum(axis=1), s.m)
    # kept likelihood <= jobs, posterior/prior are distributions
    assert (s.likelihood.sum(axis=1) == s.n).all() and (s.n <= d.workplaces["n"].to_numpy()).all()
    assert np.allclose(s.posterior.sum(axis=1), 1) and np.allclose(s.prior.sum(axis=1), 1)
    assert (s.retained <= s.points).all()
    assert s.adjusted_eps == pytest.approx(pruned_epsilon(4.6, min_p=0.025, alpha=s.max_alpha_pruned))
    assert isinstance(s.ledger, Ledger) and len(s.ledger) == len(d.workplaces)
    assert {e.composition for e in s.ledger} == {"parallel"} and {e.group for e in s.ledger} == {"workplaces"}
    assert s.ledger.total() == pytest.approx(s.adjusted_eps)
    assert "1e-06" in s.ledger[0].detail  # the PDP delta
    # reproducible
    s2 = synth.synthesize(d, dom, rng=4)
    assert np.array_equal(s.synthetic, s2.synthetic)


def test_validity_properties(otm):
    d, dom = otm
    s = synth.synthesize(d, dom, rng=4)
    v = synth.analytical_validity(s)
    assert (v["KL"] >= 0).all() and (v["IMSE"] >= 0).all()
    # a huge prior sample size (small eps) pulls the posterior away from the likelihood
    s2 = synth.synthesize(d, dom, settings=synth.OTMSettings(eps=1.0), rng=4)
    assert synth.analytical_validity(s2).loc["all", "KL"] > v.loc["all", "KL"]
    mass = synth.mass_by_distance(s)
    assert np.allclose(mass.sum(), 1)


def test_settings_bad_input():
    with pytest.raises(ValueError, match="eps: expected a number > 0"):
        synth.OTMSettings(eps=0)
    with pytest.raises(ValueError, match="delta: expected a probability in \\(0, 1\\)"):
        synth.OTMSettings(delta=1.0)
    with pytest.raises(ValueError, match="min_p: expected a probability in \\(0, 1\\]"):
        synth.OTMSettings(min_p=0.0)
    with pytest.raises(ValueError, match="coarsen_percentiles"):
        synth.OTMSettings(coarsen_percentiles=(90, 50))


# ---------------------------------------------------------------- Theorem 5.1 (coarsening)
@pytest.mark.parametrize("kind,alpha,eps", [("plug-in", 0.5, 2.0), ("posterior-predictive", 0.02, 4.6),
                                            ("posterior-predictive", 0.5, 1.0)])
@pytest.mark.parametrize("n_fine", [2, 3, 7])
def test_coarsening_preserves_eps_and_delta(kind, alpha, eps, n_fine):
    T = synth.md_transition(5, 5, alpha=alpha, kind=kind)
    r = synth.coarsening_privacy(T, eps=eps, n_fine=n_fine)
    assert r.preserved
    assert r.eps_coarse == pytest.approx(synth.dp_epsilon(T))
    assert r.fine_tables == math.comb(5 + n_fine - 1, n_fine - 1)
    # directed moves of one entity: k sources (non-empty in C(n - 1 + k - 1, k - 1) tables) x (k - 1)
    assert r.fine_pairs == n_fine * (n_fine - 1) * math.comb(4 + n_fine - 1, n_fine - 1)


# ---------------------------------------------------------------- synthesize_table
def _table():
    import pandas as pd
    return pd.DataFrame({"x": [3, 0, 5], "y": [1, 4, 0], "z": [0, 0, 2]}, index=["g1", "g2", "g3"])


def test_synthesize_table_keeps_public_totals_shape_and_labels():
    from privlib.synth import synthesize_table
    syn = synthesize_table(_table(), eps=1.0, rng=3, totals=[4, 4, 7])
    assert syn.counts.index.tolist() == ["g1", "g2", "g3"] and syn.counts.columns.tolist() == ["x", "y", "z"]
    assert syn.counts.sum(axis=1).tolist() == [4, 4, 7]
    assert (syn.counts.to_numpy() >= 0).all()
    assert syn.ledger.total() == pytest.approx(1.0) and len(syn.ledger) == 3
    assert np.allclose(syn.alpha, np.array([4, 4, 7]) / np.expm1(1.0))


def test_synthesize_table_draws_the_posterior_predictive_of_the_slides():
    # two categories: the synthetic count of the first value follows md_transition(n, m, alpha)
    from privlib.synth import md_transition, min_alpha_for_dp, synthesize_table
    n1, n2, eps, reps = 3, 1, 2.0, 40_000
    table = np.tile([[n1, n2]], (reps, 1))
    syn = synthesize_table(table, eps=eps, rng=11, totals=np.full(reps, n1 + n2))
    freq = np.bincount(syn.counts.to_numpy()[:, 0], minlength=n1 + n2 + 1) / reps
    alpha = min_alpha_for_dp(n1 + n2, eps=eps)
    T = md_transition(n1 + n2, n1 + n2, alpha=alpha, kind="posterior-predictive")
    expected = T[n1]                       # row n = (n1, n2): Pr[m_1 = j | n]
    assert np.abs(freq - expected).max() < 0.01


def test_synthesize_table_is_eps_dp_for_two_values():
    from privlib.synth import dp_epsilon, md_transition, min_alpha_for_dp
    for m, eps in [(4, 1.0), (10, 0.5), (25, 2.0)]:
        T = md_transition(m, m, alpha=min_alpha_for_dp(m, eps=eps), kind="posterior-predictive")
        assert dp_epsilon(T) <= eps + 1e-9


def test_synthesize_table_without_public_totals_warns():
    from privlib import PrivacyLeakWarning
    from privlib.synth import synthesize_table
    with pytest.warns(PrivacyLeakWarning, match="totals"):
        syn = synthesize_table(_table(), eps=1.0, rng=0)
    assert syn.counts.sum(axis=1).tolist() == [4, 4, 7]


@pytest.mark.parametrize("counts, kw, match", [
    ([[1, -1]], {}, "counts"),
    ([[1.5, 1]], {}, "counts"),
    ([[np.nan, 1]], {}, "counts"),
    ([1, 2], {}, "counts"),
    (np.zeros((0, 2)), {}, "counts"),
    ([[1, 2]], {"totals": [3, 3]}, "totals"),
    ([[1, 2]], {"totals": [-3]}, "totals"),
    ([[1, 2]], {"totals": [2.5]}, "totals"),
    ([[1, 2]], {"totals": [3], "eps": 0.0}, "eps"),
    ([[1, 2]], {"totals": [3], "eps": float("nan")}, "eps"),
])
def test_synthesize_table_bad_inputs(counts, kw, match):
    from privlib.synth import synthesize_table
    kw = {"eps": 1.0, **kw}
    with pytest.raises((ValueError, TypeError), match=match):
        synthesize_table(counts, rng=0, **kw)


def test_sources_onthemap_tables_are_consistent():
    # the mass table's columns, as printed, do not sum to 1 (1.05 to 1.43: the chapter scores
    # this); pin the transcription by its column sums
    mass = np.array(onthemap.MASS_BY_DISTANCE, dtype=float)
    assert mass.shape == (len(synth.DISTANCE_LABELS), len(onthemap.MASS_COLUMNS))
    assert np.round(mass.sum(axis=0), 2).tolist() == [1.18, 1.17, 1.05, 1.4, 1.43, 1.36]
    for tab in (onthemap.FRACTION_POSITIVE_BEFORE, onthemap.FRACTION_POSITIVE_AFTER):
        assert np.array(tab, dtype=float).shape == (len(onthemap.FRACTION_BANDS), 2)
    support = np.array([[c.replace(",", "") for c in row] for row in onthemap.SUPPORT_POINTS], dtype=float)
    assert support.shape == (len(onthemap.SUPPORT_ROWS), 3)
    assert np.all((support[:, 1] <= support[:, 0]) & (support[:, 0] <= support[:, 2]))  # min <= mean <= max


def test_options_are_keyword_only():
    # data positional, options keyword-only (issue 13): a positional option is a TypeError
    with pytest.raises(TypeError):
        md_transition(5, 5, 0.5)
    with pytest.raises(TypeError):
        pdp_delta(md_transition(2, 2), "worst", 2.0)
    with pytest.raises(TypeError):
        pruned_epsilon(4.6, 0.025, 1.0)
    with pytest.raises(TypeError):
        min_alpha_for_pdp(5, 2.0, 1e-3)


def test_synth_owns_its_schema_and_does_not_import_the_simulators():
    import subprocess
    import sys

    from privlib.simulate import commuting

    assert commuting.Geography is synth.Geography and commuting.CommutingData is synth.CommutingData
    code = "import sys, privlib.synth; print(any(m.startswith('privlib.simulate') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    code = "import sys, privlib.synth; print('scipy.special' in sys.modules)"  # lean import
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("eps, m", [(0.05, 1), (0.1, 10), (0.5, 3), (1.0, 10), (2.0, 5)])
def test_pdp_delta_is_zero_at_the_eps_dp_prior(eps, m):
    """At alpha = m / (e^eps - 1) the worst likelihood ratio is exactly e^eps: eps-DP holds, so
    delta must be 0 -- not the floating-point rounding of ln(e^eps) just above eps (it was 0.49
    at eps = 0.05, m = 1)."""
    from privlib.synth import dp_epsilon, md_transition, min_alpha_for_dp, pdp_delta
    T = md_transition(m, m, alpha=float(min_alpha_for_dp(m, eps=eps)), kind="posterior-predictive")
    assert dp_epsilon(T) == pytest.approx(eps, rel=1e-12)
    for rule in ("smaller", "any"):
        assert pdp_delta(T, "worst", eps=eps, rule=rule) == 0.0
    # a ratio clearly above e^eps still fails: half the prior gives delta > 0
    T_half = md_transition(m, m, alpha=float(min_alpha_for_dp(m, eps=eps)) / 2, kind="posterior-predictive")
    assert pdp_delta(T_half, "worst", eps=eps) > 0.0
