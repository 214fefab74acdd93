"""Generalization hierarchies (taxonomy trees).

A :class:`Hierarchy` is a rooted tree whose leaves are the raw values of one attribute
and whose inner nodes are their generalizations ("Flu" -> "Respiratory infection" ->
"Respiratory system diseases" -> "*").  It is used for

* full-domain generalization (``generalize(values, level)``),
* the hierarchical ground distance of t-closeness (Li, Li & Venkatasubramanian 2007,
  slide "Hierarchical Distance"): ``distance(a, b) = level(lca(a, b)) / H``, where
  ``level`` is the height of the lowest common ancestor and ``H`` the tree height,
* DiffGen's taxonomy trees (Mohammed et al. 2011, Figure 1).

Two constructors read the two plain formats the compendium uses:

* :meth:`Hierarchy.from_dict` -- a nested dict with lists of leaves at the bottom;
* :meth:`Hierarchy.from_csv` / :meth:`Hierarchy.from_rows` -- one row per leaf, listing the
  leaf then its ancestors up to the root (the format of the ARX anonymization tool, ``;``
  separated), used for the Adult hierarchies in ``data/adult/hierarchies/``.

A value that is not a leaf of the hierarchy is always an error that names the value and
the attribute -- never a silent ``NaN`` or a silent suppression.
"""
from __future__ import annotations

from ._base import HierarchyError, Preorder
from ._tree import Hierarchy

__all__ = ["Hierarchy", "HierarchyError", "Preorder"]
