"""Full-domain generalization and the lattice search of the t-closeness experiment.

Li, Li & Venkatasubramanian (ICDE 2007), slide "Experiment": the Adult data (30,162
records), seven quasi-identifiers generalized along their hierarchies, and five privacy
requirements compared for efficiency (Figure 3) and data quality (Figure 4).  The original
used *full-domain generalization* searched with the Incognito algorithm (LeFevre, DeWitt &
Ramakrishnan 2005): every value of attribute ``a`` is replaced by its ancestor at one level
``L_a`` of ``a``'s hierarchy, and the *generalization lattice* is the set of level vectors
``(L_1, ..., L_d)``, ordered componentwise.

The search (:func:`search`) is exact.  Every privacy requirement used here is monotone --
if a node satisfies it, so does every more general node (for t-closeness this is the
slide "Properties of t-closeness", generalization property; for k-anonymity and the three
l-diversities it is classical) -- so most nodes can be decided without touching the data:

* ``direction="bottom-up"``: Incognito's breadth-first traversal from the bottom, with its
  generalization property (a node with a satisfying direct specialization is *tagged*
  satisfying) and its *rollup* (an evaluated node's frequency set is computed from the
  smaller frequency set of a direct specialization, not from the data);
* ``direction="top-down"``: the same traversal from the root, with the contrapositive (a
  node with a failing direct generalization is tagged failing).  With many QIs and strict
  requirements almost every node fails, so bottom-up evaluates nearly the whole lattice
  while top-down evaluates the few satisfying nodes and their boundary -- for the seven
  Adult QIs (2,880 nodes, k = l = 5) about 2,800 evaluations against 8 to 104.

Both return every minimal satisfying node, from which the best node under a data-quality
metric is chosen.  Incognito's other pruning, the a-priori iteration over subsets of the
QIs, is not implemented.

Data-quality metrics (slide "Experimental Results", Figure 4):

* **discernibility metric** (Bayardo & Agrawal 2005): ``DM = sum over classes |E|^2``
  (no record is suppressed here);
* **average group size** ``n / number of classes``; Figure 4(b) reports its minimum over
  the generalizations that satisfy the requirement.

Everything is vectorised: QI values are encoded once as integer leaf codes; a node is
evaluated by generalizing with lookup arrays, forming one mixed-radix integer key per
distinct QI row, grouping with ``np.bincount``/``np.unique``, and counting sensitive values
with one ``np.bincount`` per sensitive attribute.  The mixed-radix key never overflows
int64: when the product of the level widths would pass ``2**62`` the partial key is
re-factorised (``np.unique(return_inverse=True)``) so that it stays below the number of rows.
"""
from __future__ import annotations

from ._encoding import Encoded, class_ids, encode_lattice, lattice
from ._publish import generalize_table, generalize_to_cut
from ._search import SearchResult, discernibility, evaluate_node, search

__all__ = [
    "Encoded",
    "encode_lattice",
    "lattice",
    "class_ids",
    "generalize_table",
    "generalize_to_cut",
    "evaluate_node",
    "SearchResult",
    "search",
    "discernibility",
]
