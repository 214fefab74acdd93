"""Empirical privacy and empirical utility (Cormode et al. 2013, Section II).

* :func:`privacy_breach` -- Definition 1 and the breach increase
  ``beta = (1 - pi) / rho - 1``: ``pi`` the fraction of records whose SA value the attack
  gets wrong, ``rho`` the accuracy of always predicting the most frequent SA value
  (:func:`majority_accuracy`).
* :func:`range_workload` -- the workload of Section III "Experiment Setup": COUNT(*)
  queries with a range on every quasi-identifier covering half of its domain and a
  non-zero true answer (:class:`Workload`, exact answers by :func:`true_answers`).
* :func:`median_relative_error` -- Definition 2: ``alpha = median_q |q(A(D)) - q(D)| / q(D)``,
  answering ``q(A(D))`` from the leaves under the uniformity assumption (each leaf
  contributes its count times the fraction of its box the query covers;
  :func:`estimate_answers`, :func:`overlap_fractions`, :func:`leaf_counts`,
  :func:`relative_errors`).
* :func:`best_breach`, :func:`best_error`, :func:`dominated_by` -- reading privacy/utility
  curves (the source's Figure 5) at a fixed utility or privacy.

The chapter's setups and sweeps (Adult and census, build / evaluate / sweep, the readings of
the workload) are in :mod:`privlib.experiments.empirical_privacy`.
"""
from __future__ import annotations

from ._breach import Breach, best_breach, best_error, dominated_by, majority_accuracy, privacy_breach
from ._error import estimate_answers, leaf_counts, median_relative_error, overlap_fractions, relative_errors
from ._workload import Workload, range_workload, true_answers

__all__ = [
    "Breach",
    "majority_accuracy",
    "privacy_breach",
    "Workload",
    "range_workload",
    "true_answers",
    "leaf_counts",
    "overlap_fractions",
    "estimate_answers",
    "relative_errors",
    "median_relative_error",
    "best_breach",
    "best_error",
    "dominated_by",
]
