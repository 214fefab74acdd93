"""Randomness-contract cases: privlib.experiments.one_scale (see tests/contract.py).

``release`` draws for the randomized families (here the Laplace histogram, swapping, OnTheMap with its
noise-infused totals and the Definition-2 workload); the sweep's
tasks get their generators from ``privlib.experiments.spawn`` of the required ``seed``.
"""
import numpy as np
import pandas as pd

from contract import Case
from privlib.experiments import empirical_privacy as ep
from privlib.experiments import one_scale as osc

_gen = np.random.default_rng(0)
DF = pd.DataFrame({"x": _gen.integers(0, 4, 40), "y": _gen.integers(0, 2, 40), "s": _gen.choice(["a", "b"], 40)})
SETUP = ep.Setup("toy", DF, ("x", "y"), "s", {"x": (0, 3), "y": (0, 1)}, sa_values=("a", "b"))

_ROWS = pd.DataFrame({"family": ["a"] * 2 + ["b"] * 2, "value": [1, 2, 1, 2], "seed": 0,
                      "beta_raw": [0.0, 1.0, 0.0, 1.0],
                      "e": [_gen.random(30), _gen.random(30) / 10, _gen.random(30), _gen.random(30) / 5]})

CASES = [
    Case(osc.release, (SETUP, "laplace", 1.0), {}, view=lambda r: r.decomposition.histograms),
    Case(osc.release, (SETUP, "swap", 0.5), {}, id="release swap", view=lambda r: r.decomposition.histograms),
    Case(osc.release, (SETUP, "onthemap", 1.0), {}, id="release onthemap", view=lambda r: r.decomposition.histograms),
    Case(osc.definition2_workload, (SETUP,), {"n": 20}, view=lambda w: np.c_[w.lower, w.upper]),
    Case(osc.fraction_workload, (SETUP,), {"n": 20, "fraction": 0.75}, view=lambda w: np.c_[w.lower, w.upper]),
    Case(osc.bootstrap_difference, (_ROWS, "a", ["b"]), {"errors": "e", "n_boot": 20},
         view=lambda r: np.array([r["lo"], r["hi"]])),
    Case(osc.hierarchical_release, (SETUP, 1.0), {}, view=lambda d: d.histograms),
    Case(osc.privelet_release, (SETUP, 1.0), {}, view=lambda d: d.histograms),
    Case(osc.mst_release, (SETUP, 5.0), {}, view=lambda d: d.histograms),
    Case(osc.bootstrap_bands, (_ROWS, ["a", "b"]), {"errors": "e", "levels": np.array([0.5, 2.0]), "n_boot": 20},
         view=lambda b: b[["lo", "hi"]].to_numpy()),
    Case(osc.attack_measures, (SETUP, osc.anchor_release(SETUP, "unprotected")), {},
         view=lambda m: np.array([m["beta_sample-tree"]])),
]
