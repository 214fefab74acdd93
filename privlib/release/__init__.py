"""Every anonymization on one scale: releases as decompositions, the anonymized table, information loss.

Cormode, Procopiuc, Shen, Srivastava & Yu, *Empirical privacy and empirical utility of
anonymized data* (ICDE Workshops 2013), Section II, measure any anonymization by what an
adversary learns (the naive-Bayes breach ``beta``, :func:`privlib.attacks.naive_bayes`,
:func:`privlib.metrics.privacy_breach`) and by what an analyst loses (the median relative
error ``alpha`` of range queries, :func:`privlib.metrics.median_relative_error`), both read
from one release type: a *spatial decomposition*, boxes over the quasi-identifiers (QIs) with
a histogram of the sensitive attribute (SA) each (:class:`privlib.partition.Decomposition`:
boxes of inclusive integer codes ``[lower, upper]`` that partition the domain
``[domain_lower, domain_upper]``).  Mondrian and the DP kd-tree produce one; this module
converts the other releases so that the same attack and the same workload run on them:

=============================== =====================================================================
:func:`from_boxes`              boxes with SA histograms (another anonymizer's partition)
:func:`from_histogram`          a (noisy) histogram over QI cells x SA values: one unit box per cell
:func:`from_microdata`          synthetic or swapped records: one unit box per distinct QI combination
:func:`from_generalization`     a full-domain generalization (a lattice node): one box per class
:func:`anonymized_table`        the anonymized table: each record's QIs as its class's range
:func:`information_loss`        NCP in its GCP variant (tight and box ranges), discernibility, C_avg
                                (:class:`InformationLoss`)
:func:`ncp_xu`                  NCP as Xu et al. define it (least common ancestors on categorical QIs)
=============================== =====================================================================

**The tree.**  A Decomposition also carries a binary tree (``tree_*``) that
:meth:`~privlib.partition.Decomposition.assign` descends to locate a record's box
(:func:`privlib.attacks.leaf_majority`, :func:`anonymized_table`).  A converted release has
none, so one is rebuilt from the boxes: top-down, each node is cut where no box straddles
the cut (the most balanced such cut), level by level and vectorised.  It exists exactly for
*hierarchical* (guillotine) partitions -- kd-trees, Mondrian, grids, histograms,
generalizations; :func:`from_boxes` names two overlapping boxes, a point in no box, or a
pinwheel otherwise.  The boxes and histograms are kept as given (box ``i`` is leaf ``i``), so
the attack's beliefs and the workload's answers are those of the original release exactly,
and the rebuilt tree assigns every code to the box containing it.

**Empty cells.**  A histogram or a table lists only some cells; the rest of the domain is
released as empty boxes (zero counts, after the listed ones: ``n_leaves`` counts them).  They
change neither the kernels of the attack nor any query answer.

**Categorical QIs.**  A generalized categorical value (a hierarchy node) is an interval of
codes only if the codes follow the hierarchy's depth-first leaf order
(:meth:`privlib.hierarchy.Hierarchy.preorder`); :func:`from_generalization` checks the codes it
is given and names the node whose leaves are not consecutive.
"""
from __future__ import annotations

from ._convert import from_boxes, from_generalization, from_histogram, from_microdata
from ._ncp import ncp_xu
from ._table import InformationLoss, anonymized_table, information_loss

__all__ = [
    "from_boxes",
    "from_histogram",
    "from_microdata",
    "from_generalization",
    "anonymized_table",
    "InformationLoss",
    "information_loss",
    "ncp_xu",
]
