"""Chapter 2's multiverse helpers: the share of utility levels where a model is best, and the
three alphas of a noisy release computed together (equal to the metric's own answers)."""
import numpy as np
import pandas as pd
import pytest

from privlib import metrics
from privlib.experiments import empirical_privacy as ep
from privlib.scorecard import load_readings


def _points(dp_beta, k_beta):
    return pd.DataFrame({"model": ["eps"] * 3 + ["k"] * 3, "alpha": [0.01, 0.1, 1.0] * 2,
                         "beta": list(dp_beta) + list(k_beta)})


def test_best_share_counts_levels_where_the_model_is_lowest():
    assert ep.best_share(_points([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])) == 1.0
    assert ep.best_share(_points([2.0, 2.0, 2.0], [1.0, 1.0, 1.0])) == 0.0
    # ties count for the model judged
    assert ep.best_share(_points([1.0, 1.0, 1.0], [1.0, 1.0, 1.0])) == 1.0


def test_best_share_can_fail_and_pass_on_the_same_curves():
    # DP best only at large error: below half of the levels for DP, above half for k
    p = _points([3.0, 2.0, 0.0], [1.0, 1.0, 1.0])
    assert ep.best_share(p, "eps", n=25) < 0.5 < ep.best_share(p, "k", n=25)


def test_best_share_ignores_curves_outside_their_range():
    # k only covers [0.01, 0.1]: beyond it DP is compared with nobody and counts as best
    p = pd.DataFrame({"model": ["eps", "eps", "k", "k"], "alpha": [0.01, 1.0, 0.01, 0.1],
                      "beta": [1.0, 1.0, 0.0, 0.0]})
    assert ep.best_share(p, n=3) == pytest.approx(0.0)        # the common range is [0.01, 0.1]
    far = pd.DataFrame({"model": ["eps", "eps", "k", "k"], "alpha": [1.0, 2.0, 0.01, 0.1],
                        "beta": [1.0, 1.0, 0.0, 0.0]})
    assert np.isnan(ep.best_share(far))


@pytest.mark.parametrize("points, kw, match", [
    (pd.DataFrame({"model": ["eps"], "alpha": [0.1]}), {}, "beta"),
    (_points([0, 0, 0], [0, 0, 0]).assign(alpha=0.0), {}, "positive"),
    (_points([0, 0, 0], [0, 0, 0]), {"n": 1}, "n: expected"),
    (_points([0, 0, 0], [0, 0, 0]), {"n": True}, "n: expected"),
    (_points([0, 0, 0], [0, 0, 0]).query("model == 'k'"), {}, "model: expected"),
])
def test_best_share_errors(points, kw, match):
    with pytest.raises(ValueError, match=match):
        ep.best_share(points, **kw)


@pytest.mark.parametrize("width", [8, 2000])      # the grid method, then one shared overlap matrix
def test_alpha_variants_equal_the_metric(width):
    rng = np.random.default_rng(5)
    n = 400
    df = pd.DataFrame({"x": rng.integers(0, width, n), "y": rng.integers(0, width, n),
                       "s": rng.choice(list("abc"), n)})
    s = ep.Setup("toy", df, ("x", "y"), "s", {"x": (0, width - 1), "y": (0, width - 1)}, sa_values=("a", "b", "c"))
    wl = metrics.range_workload(s.df, ["x", "y"], n=60, rng=1, domain=s.domain)
    row = ep.evaluate(s, wl, "eps", 0.5, rng=3, height=4, alpha_variants=True)
    dec = ep.build(s, "eps", 0.5, rng=3, height=4)
    assert row["alpha"] == ep.measure(s, wl, dec)["alpha"]
    assert row["alpha_clipped"] == metrics.median_relative_error(dec, wl, clip_negative=True)
    assert row["alpha_clipped_total"] == metrics.median_relative_error(dec, wl, clip_negative=True, match_total=True)


def test_chapter_registry_meets_the_multiverse_rules():
    # no pending rule: every noise-dependent reproduction on >= 20 seeds, every test says how it can fail
    r = load_readings("empirical-privacy")
    noisy = r[(r["kind"] == "reproduction") & (r["seeds"] != "")]
    assert (noisy["seeds"].astype(int) >= 20).all()
    holds = r[(r["kind"] == "reproduction") & (r["compare"] == "holds")]
    assert (holds["can_fail"] != "").all()
    assert {"workload-reading", "l-diversity-reading", "dp-count-postprocessing"} <= set(r["choice"])
