"""Randomness-contract cases: privlib.diffgen (see tests/contract.py).

Small inputs: a 200-row slice of Adult for :func:`diffgen` and a 200-record toy table for the
experiment helpers.  The ``seconds`` columns are timings (they vary between executions) and
are left out of the compared view.
"""
import numpy as np
import pandas as pd

from contract import Case
from privlib import diffgen as dg
from privlib.data import load_adult
from privlib.hierarchy import Hierarchy

ADULT = load_adult("train").iloc[:200].reset_index(drop=True)
ADULT_TAX = dg.adult_taxonomies(domains=dg.ADULT_DOMAINS)

JOB = Hierarchy.from_dict({"Any_Job": {"Professional": ["Engineer", "Lawyer"], "Artist": ["Dancer", "Writer"]}},
                          name="job")
_g = np.random.default_rng(0)
TOY = pd.DataFrame({"job": _g.choice(["Engineer", "Lawyer", "Dancer", "Writer"], 200),
                    "age": _g.integers(18, 65, 200)})
TOY["class"] = np.where((TOY["age"] > 40) ^ (_g.random(200) < 0.3), "Y", "N")
TAX = {"job": JOB, "age": (18, 65)}
PRED = ["job", "age"]
CLS = ("N", "Y")


def _release(r):
    return (r.history, r.group_codes, r.class_codes, r.counts)


def _no_seconds(df):
    return df.drop(columns="seconds")


CASES = [
    Case(dg.diffgen, (ADULT, dg.ADULT_PREDICTORS, "income", ADULT_TAX),
         {"eps": 1.0, "h": 4, "classes": dg.ADULT_CLASSES}, id="diffgen-adult200", view=_release),
    Case(dg.diffgen, (TOY, PRED, "class", TAX), {"eps": 0.5, "h": 3, "classes": CLS}, id="diffgen-toy",
         view=_release),
    Case(dg.blow_up, (TOY, 500, PRED), {}),
    Case(dg.sweep, (TOY.iloc[:150], TOY.iloc[150:], PRED, "class", TAX, [0.5], [2]),
         {"runs": 2, "classes": CLS}, view=_no_seconds),
    Case(dg.cross_validate, (TOY, PRED, "class", TAX),
         {"eps_values": [0.5], "h": 2, "folds": 2, "classes": CLS}, view=_no_seconds),
    Case(dg.select_min_leaf, (TOY, PRED, "class", TAX), {"grid": (0.0, 0.01), "folds": 3}),
    Case(dg.scalability, (TOY, [400], PRED, "class", TAX),
         {"eps": 0.5, "h": 3, "classes": CLS}, view=_no_seconds),
]
