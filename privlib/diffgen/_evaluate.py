"""Batch evaluation: many releases of one encoded training table, each scored by its CA.

The fast path of the chapter's sweeps (:mod:`privlib.experiments.diffgen`): the table and the
test records are encoded once, and each job runs on the codes (no DataFrame, no re-validation).
"""
from __future__ import annotations

import time

import numpy as np

from ._accuracy import _release_accuracy
from ._diffgen import _diffgen
from ._encoding import _Prepared, _subset
from ._release import _code_under_cut
from ._tds import _tds


def _evaluate(prep: _Prepared, test, job, tree_params) -> tuple:
    """One anonymization of ``prep`` and its CA on the encoded ``test = (raw codes, classes)``.

    ``job = (method, eps, h_or_k, utility, seed, qid)``; ``method`` is "diffgen" or "tds".
    Returns ``(ca, released rows, domain cells, seconds)``, ``seconds`` the anonymization's CPU time."""
    method, eps, h, utility, seed, qid = job
    t0 = time.process_time()   # CPU time: other processes' load does not count
    if method == "tds":
        rel = _tds(prep, h, qid, labels=False)   # the CA reads the codes only
    else:
        rel = _diffgen(prep, eps, h, utility, np.random.default_rng(seed), labels=False)   # the CA reads the codes only
    seconds = time.process_time() - t0
    codes = np.zeros((len(test[1]), len(prep.attrs)), dtype=np.int64)
    for j, a in enumerate(prep.attrs):
        if len(rel.cut_nodes[j]) > (1 if a.kind == "categorical" else 2):   # else one cut value: code 0
            codes[:, j] = _code_under_cut(a, test[0][j], rel.cut_nodes[j])
    ca = _release_accuracy(rel, codes, test[1], tree_params)
    return ca, rel.n_rows, rel.domain_cells, seconds


def _evaluate_many(prep: _Prepared, test, jobs, tree_params) -> list:
    """:func:`_evaluate` of every job on one prepared table."""
    return [_evaluate(prep, test, job, tree_params) for job in jobs]


def _evaluate_fold(full: _Prepared, train_idx, test_idx, jobs, tree_params) -> list:
    """Every job of one cross-validation fold: the fold's count tables are built once from the
    codes of its training records (Section 4.3's one pass) and shared by the fold's jobs."""
    prep = _subset(full, train_idx)
    test = ([x[test_idx] for x in full.raw], full.y[test_idx])
    return _evaluate_many(prep, test, jobs, tree_params)
