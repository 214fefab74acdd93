"""Randomness-contract cases: privlib.scale (the DP kd-tree from counted cells; a pandas
DataFrame here, so that the contract holds without dask installed)."""
import numpy as np
import pandas as pd

from contract import Case
from privlib import scale

_gen = np.random.default_rng(0)
DF = pd.DataFrame({"x": _gen.integers(0, 16, 200), "y": _gen.integers(0, 8, 200),
                   "s": _gen.choice(["a", "b", "c"], 200)})

CASES = [
    Case(scale.dask_kdtree, (DF, ["x", "y"], "s"),
         {"eps": 1.0, "height": 3, "domain": {"x": (0, 15), "y": (0, 7)}, "sa_values": ("a", "b", "c")},
         view=lambda d: (d.histograms, d.tree_threshold)),
]
