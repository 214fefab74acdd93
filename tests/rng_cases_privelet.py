"""Randomness-contract cases: privlib.privelet (see tests/contract.py)."""
import numpy as np

from contract import Case
from privlib import privelet as pv

CASES = [
    Case(pv.privelet_histogram, (np.arange(20),), {"eps": 1.0}, view=lambda r: r.counts),
]
