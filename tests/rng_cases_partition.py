"""Randomness-contract cases: privlib.partition, privlib.metrics and privlib.experiments.empirical_privacy.

Every randomized public callable of the empirical-privacy chapter: the DP kd-tree and its private
medians, the workload generators, the setup's subsample and the sweep's ``build`` / ``evaluate`` (the sweep's tasks
carry their own required int seed, passed to ``evaluate`` as ``rng``).
"""
import numpy as np
import pandas as pd

from contract import Case
from privlib import metrics, partition
from privlib.experiments import empirical_privacy as ep

_gen = np.random.default_rng(0)
DF = pd.DataFrame({"x": _gen.integers(0, 16, 200), "y": _gen.integers(0, 8, 200),
                   "s": _gen.choice(["a", "b", "c"], 200)})
DOMAIN = {"x": (0, 15), "y": (0, 7)}
SA_VALUES = ("a", "b", "c")
SETUP = ep.Setup("toy", DF, ("x", "y"), "s", DOMAIN, sa_values=SA_VALUES)
WORKLOAD = metrics.range_workload(DF, ["x", "y"], n=40, rng=1, domain=DOMAIN)

CASES = [
    Case(partition.dp_kdtree, (DF, ["x", "y"], "s"),
         {"eps": 1.0, "height": 3, "domain": DOMAIN, "sa_values": SA_VALUES},
         view=lambda d: (d.histograms, d.tree_threshold)),
    Case(metrics.range_workload, (DF, ["x", "y"]), {"n": 30, "domain": DOMAIN},
         view=lambda w: (w.lower, w.upper, w.answers)),
    Case(ep.query_readings, (DF, ["x", "y"]), {"n": 30, "domain": DOMAIN, "reading": "around_record"},
         view=lambda q: (q.lower, q.upper, q.answers)),
    Case(SETUP.sample, (0.5,), {}, id="Setup.sample", view=lambda s: s.df),
    Case(ep.build, (SETUP, "eps", 0.5), {"height": 3}, view=lambda d: d.histograms),
    Case(ep.evaluate, (SETUP, WORKLOAD, "eps", 0.5), {"height": 3},
         view=lambda r: (r["alpha"], r["accuracy"])),
    Case(partition.private_medians, (np.tile([1, 2, 2, 7], 50), np.repeat(np.arange(50), 4), np.zeros(50, dtype=int),
                                     np.full(50, 9)), {"eps": 0.5}),
]
