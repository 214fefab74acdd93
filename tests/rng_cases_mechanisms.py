"""Randomness-contract cases: privlib.mechanisms (see tests/contract.py)."""
import numpy as np

from contract import Case
from privlib import mechanisms as m

U = np.linspace(0.0, 50.0, 200)

CASES = [
    Case(m.laplace, (np.zeros(20),), {"eps": 1.0}),
    Case(m.geometric, (np.zeros(20, dtype=np.int64),), {"eps": 1.0}),
    Case(m.exponential, (U,), {"eps": 0.01}, view=lambda i: i),
    Case(m.exponential_rows, (np.tile(U, (30, 1)),), {"eps": 0.01}),
]
