"""Randomness-contract cases: privlib.diffgen and privlib.experiments.diffgen (see tests/contract.py).

Small inputs: a 200-row slice of Adult for :func:`diffgen` and a 200-record toy table for the
experiment helpers.  The ``seconds`` columns are timings (they vary between executions) and
are left out of the compared view.
"""
import numpy as np
import pandas as pd

from contract import Case
from privlib import diffgen as dg
from privlib.data import load_adult
from privlib.experiments import diffgen as xdg
from privlib.sources import diffgen as src

ADULT = load_adult(split="train").iloc[:200].reset_index(drop=True)
ADULT_TAX = xdg.adult_taxonomies(domains=xdg.ADULT_DOMAINS)

JOB = src.job_taxonomy()
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


_KEY = np.repeat(np.arange(40), 5)
_Y = np.tile(np.arange(2), 100)

CASES = [
    Case(dg.diffgen, (ADULT, xdg.ADULT_PREDICTORS, "income", ADULT_TAX),
         {"eps": 1.0, "h": 4, "classes": xdg.ADULT_CLASSES}, id="diffgen-adult200", view=_release),
    Case(dg.diffgen, (TOY, PRED, "class", TAX), {"eps": 0.5, "h": 3, "classes": CLS}, id="diffgen-toy",
         view=_release),
    Case(dg.noisy_counts, (_KEY, _Y), {"n_groups": 50, "n_classes": 2, "eps": 0.5}, id="noisy-counts-dense"),
    Case(dg.noisy_counts, (_KEY, _Y), {"n_groups": 50, "n_classes": 2, "eps": 0.5, "dense_cells": 10},
         id="noisy-counts-sparse"),
    Case(xdg.blow_up, (TOY, PRED), {"n_records": 500}),
    Case(xdg.sweep, (TOY.iloc[:150], TOY.iloc[150:], PRED, "class", TAX),
         {"eps_values": [0.5], "h_values": [2], "runs": 2, "classes": CLS}, view=_no_seconds),
    Case(xdg.cross_validate, (TOY, PRED, "class", TAX),
         {"eps_values": [0.5], "h": 2, "folds": 2, "classes": CLS}, view=_no_seconds),
    Case(xdg.cv_folds, (200,), {"folds": 3, "repeats": 2}),
    Case(xdg.select_min_leaf, (TOY, PRED, "class", TAX), {"grid": (0.0, 0.01), "folds": 3}),
    Case(xdg.scalability, (TOY, PRED, "class", TAX),
         {"sizes": [400], "eps": 0.5, "h": 3, "classes": CLS}, view=_no_seconds),
    Case(xdg.random_split, (TOY,), {}, view=lambda parts: (parts[0].index.tolist(), parts[1].index.tolist())),
    Case(xdg.split_accuracy, (TOY, PRED, "class", TAX), {"eps": 0.5, "h": 2, "runs": 2, "seeds": 2, "classes": CLS}),
    Case(xdg.contingency_accuracy, (TOY.iloc[:150], TOY.iloc[150:], PRED, "class", TAX),
         {"eps": 0.5, "classes": CLS, "sample": 50},
         view=lambda d: (d["ca"], d["released_empty"], d["real_weight"], d["noise_weight"])),
]
