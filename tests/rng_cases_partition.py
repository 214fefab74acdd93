"""Randomness-contract cases: privlib.partition and privlib.metrics (see tests/contract.py).

Every randomized public callable of the empirical-privacy chapter: the DP kd-tree, the workload
generators, the setup's subsample and the sweep's ``build`` / ``evaluate`` (the sweep's tasks
carry their own required int seed, passed to ``evaluate`` as ``rng``).
"""
import numpy as np
import pandas as pd

from contract import Case
from privlib import metrics, partition

_gen = np.random.default_rng(0)
DF = pd.DataFrame({"x": _gen.integers(0, 16, 200), "y": _gen.integers(0, 8, 200),
                   "s": _gen.choice(["a", "b", "c"], 200)})
DOMAIN = {"x": (0, 15), "y": (0, 7)}
SA_VALUES = ("a", "b", "c")
SETUP = metrics.Setup("toy", DF, ("x", "y"), "s", DOMAIN, sa_values=SA_VALUES)
WORKLOAD = metrics.range_workload(DF, ["x", "y"], 40, rng=1, domain=DOMAIN)

CASES = [
    Case(partition.dp_kdtree, (DF, ["x", "y"], "s", 1.0, 3), {"domain": DOMAIN, "sa_values": SA_VALUES},
         view=lambda d: (d.histograms, d.tree_threshold)),
    Case(metrics.range_workload, (DF, ["x", "y"], 30), {"domain": DOMAIN},
         view=lambda w: (w.lower, w.upper, w.answers)),
    Case(metrics.query_readings, (DF, ["x", "y"], 30), {"domain": DOMAIN, "reading": "around_record"},
         view=lambda q: (q.lower, q.upper, q.answers)),
    Case(SETUP.sample, (0.5,), {}, id="Setup.sample", view=lambda s: s.df),
    Case(metrics.build, (SETUP, "eps", 0.5), {"height": 3}, view=lambda d: d.histograms),
    Case(metrics.evaluate, (SETUP, WORKLOAD, "eps", 0.5), {"height": 3},
         view=lambda r: (r["alpha"], r["accuracy"])),
]
