"""Randomness-contract cases: privlib.mechanisms (see tests/contract.py)."""
import numpy as np

from contract import Case
from privlib import attacks
from privlib import mechanisms as m

U = np.linspace(0.0, 50.0, 200)

CASES = [
    Case(m.laplace, (np.zeros(20),), {"eps": 1.0}),
    Case(m.geometric, (np.zeros(20, dtype=np.int64),), {"eps": 1.0}),
    Case(m.discrete_laplace, (np.zeros(20, dtype=np.int64),), {"eps": 1.0}),
    Case(m.textbook_laplace, (np.zeros(20),), {"eps": 1.0}),
    Case(m.snapping, (np.zeros(20),), {"eps": 1.0, "bound": 100.0}),
    # Mironov's attack game (privlib.attacks) draws the secrets, the noise and the coin flips
    Case(attacks.mironov_experiment, ("textbook_laplace",), {"eps": 1.0, "n": 50}, view=lambda r: r.success),
    Case(attacks.mironov_experiment, ("discrete_laplace",), {"eps": 1.0, "n": 50}, view=lambda r: r.success),
    Case(attacks.mironov_curve, (), {"eps": [1.0], "samplers": ["snapping", "laplace"], "n": 50},
         view=lambda df: df["success"].to_numpy()),
    Case(m.exponential, (U,), {"eps": 0.01}, view=lambda i: i),
    Case(m.exponential_rows, (np.tile(U, (30, 1)),), {"eps": 0.01}),
    Case(m.discrete_gaussian, (np.zeros(20, dtype=np.int64),), {"sigma2": 25}),
    Case(m.randomized_response, (np.zeros(40, dtype=bool),), {"eps": 0.5}),
]
