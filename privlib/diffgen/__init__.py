"""DiffGen: differentially private data release for classification (Mohammed et al. 2011).

DiffGen (Algorithm 1 of Mohammed, Chen, Fung & Yu, KDD 2011) releases a whole table under
eps-differential privacy.  Starting from the most general state (every categorical value at
the root of its taxonomy tree, every numerical value in one interval spanning its domain) it
performs ``h`` specializations, each chosen by the exponential mechanism, then publishes the
count of every equivalence group (generalized predictor values x class) with Laplace noise.

Public names
============
* :func:`diffgen` -- Algorithm 1; returns a :class:`Release` (with its budget ledger).
* :func:`noisy_counts` -- Line 12: a noisy count for every cell of the generalized domain.
* :func:`tds` -- top-down specialization for k-anonymity (Fung, Wang & Yu 2005), the
  baseline of Figure 4; also returns a :class:`Release`.
* :func:`accuracy` -- CA: a C4.5-style tree trained on a release, tested on generalized
  records (:data:`TREE_PARAMS`).
* :func:`raw_data_accuracy` -- BA: the same learner on the raw data.
* :func:`lower_bound_accuracy` -- LA: all predictors removed (majority class of the training
  data).
* :func:`max_score`, :func:`infogain_score`, :func:`split_scores` -- the utility functions
  (Equations 3, 4 and 6).
* :func:`apply_cut` -- generalize a table to a given cut (Table 1.b).
* :func:`contingency_table` -- counts over every combination of cut values (Table 1.c, 1.d).
* :func:`partition_tree` -- the tree of partitions of Figure 2 / Example 3, built literally.

The chapter's experiments (Figures 3-5: sweeps, cross-validation, scalability, the Adult
set-up) are in :mod:`privlib.experiments.diffgen`.

Taxonomies
==========
``taxonomies`` maps *every* predictor either to a :class:`~privlib.hierarchy.Hierarchy`
(categorical predictor, specialized down its taxonomy tree) or to a pair ``(low, high)``:
a numerical predictor whose public domain is the half-open interval ``[low, high)``; it
starts as that one interval and is split dynamically (Section 4.2, "Split Value").

Implementation (Section 4.3)
============================
The cut of DiffGen is global (single-dimensional): the records generalized to a cut value
``v`` are the same whatever the other attributes' cuts are, so the scores of ``v`` and of
its children depend only on the class counts of ``v``'s records per child (and, for a
numerical value, per distinct data value).  We collect those counts once, in one pass over
the data: per attribute a table ``value x class`` whose rows are in depth-first leaf order
(categorical; the records of any taxonomy node are then a contiguous block of rows -- the
"link" from the cut value to its records) or in increasing value order (numerical; the
records of an interval are a contiguous block too).  Cumulative sums over these tables give
every count the source collects while splitting a partition (``|D_c|, |D_g|, |D_c^cls|,
|D_g^cls|``) and every split score of an interval in O(number of distinct values), so the
loop of Lines 6-11 never touches a record.  The leaf partitions of the partition tree
(Figure 2) are formed once at the end (Line 12) with one mixed-radix group key per record and
a ``bincount``.  Total cost ``O(|A^pr| |D| log |D|)`` for the sort, ``O(|A^pr| |D|)`` for Line 12,
and ``O(h (|cut| + distinct values))`` for the loop.  :func:`partition_tree` is the literal
partition tree with ``Link_v`` lists (a reference implementation for small data, used in
the tests to cross-check the fast one).

Submodules (private): ``_encoding`` (taxonomies and the counted table), ``_scores``
(Equations 3, 4, 6), ``_release`` (:class:`Release`, cuts), ``_diffgen`` (Algorithm 1),
``_tds``, ``_accuracy``, ``_tree`` (CA's learner on a large release grown from class-count
histograms: scikit-learn's tree, the same predictions), ``_reference`` (:func:`partition_tree`).
"""
from __future__ import annotations

from ._accuracy import TREE_PARAMS, accuracy, lower_bound_accuracy, raw_data_accuracy
from ._diffgen import DENSE_CELLS, MAX_H, diffgen, noisy_counts
from ._reference import partition_tree
from ._release import Release, Specialization, apply_cut, contingency_table
from ._scores import infogain_score, max_score, split_scores
from ._tds import tds

__all__ = [
    "Specialization",
    "Release",
    "diffgen",
    "noisy_counts",
    "tds",
    "accuracy",
    "raw_data_accuracy",
    "lower_bound_accuracy",
    "apply_cut",
    "contingency_table",
    "partition_tree",
    "max_score",
    "infogain_score",
    "split_scores",
    "TREE_PARAMS",
    "MAX_H",
    "DENSE_CELLS",
]
