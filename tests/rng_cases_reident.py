"""Randomness-contract cases: privlib.reident and privlib.simulate.ratings (see tests/contract.py).

Tiny populations (6 users x 24 rows) so that each case runs in a few milliseconds.
"""
import numpy as np
import pandas as pd

from contract import Case
from privlib import reident as R
from privlib.simulate.ratings import simulate_ratings

_g = np.random.default_rng(0)
OBS = pd.DataFrame({"user": np.repeat(np.arange(6), 24), "A": _g.integers(0, 3, 144), "B": _g.integers(0, 3, 144)})
EXH, FO = R.exhaustive(), R.first_order()

CASES = [
    Case(R.perceived_information, (OBS,), {"model": EXH, "folds": 4}, id="reident.perceived_information"),
    Case(R.perceived_information, (OBS,), {"model": EXH, "folds": 4, "outliers": ("drop", "floor"),
                                           "protect": lambda d: d},
         id="reident.perceived_information[protect]"),
    Case(R.success_rate, (OBS,), {"model": EXH, "leakages": 2, "levels": [1, 2, 3], "folds": 4},
         id="reident.success_rate"),
    Case(R.success_rate, (OBS,), {"model": FO, "leakages": 1, "levels": [1, 2, 3], "folds": 4, "n_obs": 20},
         id="reident.success_rate[one leakage]"),
    Case(R.fresh_success_rate, (R.encode_records(OBS, model=FO, n_obs=24),),
         {"n_train": 12, "leakages": 2, "levels": [1, 2, 3]},
         id="reident.fresh_success_rate"),
    Case(R.category_prediction, (OBS,), {"model": EXH, "levels": [1, 2], "folds": 4},
         id="reident.category_prediction"),
    Case(R.information_table, ({"g": OBS},), {"n_obs": (20, 30), "folds": 4}, id="reident.information_table"),
    Case(R.information_curve, (OBS,), {"model": FO, "n_obs_grid": [10, 20], "folds": 4},
         id="reident.information_curve"),
    Case(R.draw_folds, (R.encode_records(OBS, model=EXH),), {"folds": 4}, id="reident.draw_folds"),
    Case(R.swap, (OBS, ["A", "B"]), {}, id="reident.swap"),
    Case(simulate_ratings, (), {"n_users": 4, "n_ratings": 12, "categories": ("A", "B", "C"), "n_combinations": 5,
                                "n_movies": 8, "size_probs": (0.5, 0.5)}, id="simulate.ratings.simulate_ratings",
         view=lambda p: p.ratings),
]
