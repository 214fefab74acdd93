"""Randomness-contract cases: privlib.hierarchical (see tests/contract.py)."""
import numpy as np

from contract import Case
from privlib import hierarchical as hi

CASES = [
    Case(hi.hierarchical_histogram, (np.arange(20),), {"eps": 1.0, "branching": 3}, view=lambda r: r.counts),
]
