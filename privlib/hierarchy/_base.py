"""The hierarchy's error type and its pre-order array view type."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["HierarchyError", "Preorder"]


class HierarchyError(ValueError):
    """A value is missing from a hierarchy, or the hierarchy is malformed (a ``ValueError``).

    Examples
    --------
    >>> from privlib.hierarchy import Hierarchy
    >>> try:
    ...     Hierarchy.from_dict({"*": ["a", "b"]}, name="x").check_values(["c"])
    ... except HierarchyError as e:
    ...     print(str(e)[:50])
    value(s) 'c' of attribute 'x' not in its hierarchy
    """


class Preorder(NamedTuple):
    """A hierarchy flattened to arrays in depth-first pre-order (see :meth:`Hierarchy.preorder`).

    Attributes
    ----------
    nodes : tuple
        The nodes in depth-first pre-order, children in :meth:`Hierarchy.children` order.
    children : tuple of tuple of int
        For each node, the indices (into ``nodes``) of its children.
    lo, hi : ndarray of int64
        Leaf range ``[lo, hi)`` of each node in the depth-first leaf order ``leaves``.
    leaves : tuple
        The leaves in depth-first order (each subtree a contiguous block).

    Examples
    --------
    >>> from privlib.hierarchy import Hierarchy
    >>> Hierarchy.from_dict({"*": {"A": ["a1", "a2"], "B": ["b1"]}}).preorder().leaves
    ('a1', 'a2', 'b1')
    """

    nodes: tuple
    children: tuple
    lo: np.ndarray
    hi: np.ndarray
    leaves: tuple
