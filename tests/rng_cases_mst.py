"""Randomness-contract cases: privlib.synth.mst (see tests/contract.py)."""
import numpy as np
import pandas as pd

from contract import Case
from privlib import synth

_gen = np.random.default_rng(0)
DF = pd.DataFrame({"a": _gen.integers(0, 3, 60), "b": _gen.choice(["x", "y"], 60), "c": _gen.integers(0, 2, 60)})
DOMAIN = {"a": [0, 1, 2], "b": ["x", "y"], "c": [0, 1]}

CASES = [
    Case(synth.mst, (DF, DOMAIN), {"eps": 5.0, "delta": 1e-6}, id="synth.mst", view=lambda s: s.synthetic),
]
