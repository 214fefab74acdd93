"""Spatial decompositions: Mondrian (k, l, t) and the differentially private kd-tree.

Cormode, Procopiuc, Shen, Srivastava & Yu, *Empirical privacy and empirical utility of
anonymized data* (ICDE Workshops 2013), Section II "Anonymization techniques": every
anonymization studied is a *spatial decomposition* -- a partition of the space of the
quasi-identifiers (QIs) into hyper-rectangles (the leaves), each published with a
histogram of the sensitive attribute (SA): exact for the syntactic models, noisy for
differential privacy.

* :func:`mondrian` -- LeFevre, DeWitt & Ramakrishnan's Mondrian (ICDE 2006): strict
  multidimensional median splits, a split being allowed only if neither child breaks the
  requested k (records per leaf) or l (ell-diversity of the SA); t (EMD of a node's SA
  distribution to the whole table's; Li, Li & Venkatasubramanian 2007) either stops the
  splitting of a node that is farther than t from the root (``t_rule="source"``, Section III
  of the source) or forbids any child farther than t (``t_rule="strict"``).
* :func:`dp_kdtree` -- the private kd-tree of Cormode et al., *Differentially private
  spatial decompositions* (ICDE 2012): split points chosen by the exponential-mechanism
  median, Laplace noise on the leaves' SA histograms; every mechanism call is recorded in
  a budget ledger.

QIs must be *ordered integer codes* (integer columns, or pandas ordered categoricals whose
codes are used); :func:`encode_ordinal` turns categorical columns into such codes given an order.
Leaves are boxes of integer codes ``[lower, upper]`` (inclusive), and the leaves of a tree
partition the whole QI domain (the root box), so that every point of the domain belongs
to exactly one leaf.

Both builders read the records only through counts, so they first reduce the table to its
distinct (QI codes, SA value) cells with their multiplicities -- one pass over the records, a
few hundred thousand cells for a 10^7-record census table over a few coded QIs -- and then
grow the tree on the weighted cells, every node of a level at once (``np.bincount`` tables per
node and code, no per-node or per-record Python loop): the same tree, leaves, histograms, draws
and ledger as on the records (``benchmarks/bench_scale.py`` measures 10^5 .. 10^7 records).

================================ =================================================================
:class:`Decomposition`           the release: leaves (boxes) with SA histograms, the tree, a ledger
:func:`mondrian`                 Mondrian with k, l and t (``_mondrian.py``)
:func:`dp_kdtree`                the DP kd-tree (``_kdtree.py``)
:func:`private_medians`          the kd-tree's exponential-mechanism medians, and
:func:`median_cut_probabilities` their distribution
:func:`encode_ordinal`           categorical columns to ordered integer codes (``_encoding.py``)
:func:`qi_codes`                 the QI columns as an n x d int64 code matrix
:func:`root_box`                 the checked root box (public ``domain`` or the data's range)
================================ =================================================================
"""
from __future__ import annotations

from ._decomposition import Decomposition
from ._encoding import encode_ordinal, qi_codes, root_box
from ._kdtree import dp_kdtree, median_cut_probabilities, private_medians
from ._mondrian import mondrian

__all__ = [
    "Decomposition",
    "dp_kdtree",
    "encode_ordinal",
    "median_cut_probabilities",
    "mondrian",
    "private_medians",
    "qi_codes",
    "root_box",
]
