"""The Hierarchy class: a rooted tree of generalizations over the values of one attribute."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from . import _views
from ._base import HierarchyError, Preorder
from .._docs import shared_doc
from ._build import find_cycle, parse_dict, parse_rows, read_csv_rows, what

__all__ = ["Hierarchy"]

#: The toy tree every example of :class:`Hierarchy` reads.
TOY_TREE_DOC = """
Examples
--------
>>> h = Hierarchy.from_dict({"*": {"A": ["a1", "a2"], "B": ["b1"]}})
"""
#: The argument of a method that reads one node of the tree (``node`` or ``value``).
NODE_DOC = """
Parameters
----------
{name} : hashable
    A node of the tree.
"""
_tree_doc = shared_doc(toy_tree=TOY_TREE_DOC, node=NODE_DOC.format(name="node"), value=NODE_DOC.format(name="value"))


class Hierarchy:
    """A generalization hierarchy over the values of one attribute.

    Parameters
    ----------
    parent : mapping node -> parent node
        Every node but the root.  Leaves are nodes that are nobody's parent.
    root : hashable
        The root node (the fully suppressed value, usually ``"*"``).
    name : str, optional
        Attribute name, used in error messages.
    leaf_order : sequence, optional
        Order of ``leaves`` (default: order of first appearance, i.e. depth-first).

    Raises
    ------
    HierarchyError
        For a root with a parent, a node that does not lead to the root, or a ``leaf_order``
        that does not list exactly the leaves.

    Examples
    --------
    >>> h = Hierarchy({"a1": "A", "a2": "A", "b1": "*", "A": "*"}, "*", name="x")
    >>> h, h.leaves, h.is_balanced()
    (Hierarchy(name='x', leaves=3, height=2), ('b1', 'a1', 'a2'), False)
    """

    def __init__(self, parent: Mapping, root: Hashable, *, name: str | None = None, leaf_order: Sequence | None = None):
        self.name = name
        self.root = root
        self._parent = dict(parent)
        if root in self._parent:
            raise HierarchyError(f"{what(name)}: the root {root!r} cannot have a parent")
        children: dict = {root: []}
        for node, par in self._parent.items():
            children.setdefault(par, []).append(node)
            children.setdefault(node, [])
        self._children = children
        # check every node reaches the root without cycles
        for node in self._parent:
            seen = set()
            cur = node
            while cur != root:
                if cur in seen or cur not in self._parent:
                    how = (f"lies on the cycle {' -> '.join(map(repr, find_cycle({c: [p] for c, p in parent.items()})))}"
                           if cur in seen else f"leads to {cur!r}, which has no parent,")
                    raise HierarchyError(f"{what(name)}: node {node!r} {how} and does not reach the root {root!r}")
                seen.add(cur)
                cur = self._parent[cur]
        leaves = [n for n, ch in children.items() if not ch]
        if leaf_order is not None:
            leaf_order = list(leaf_order)
            if set(leaf_order) != set(leaves) or len(leaf_order) != len(leaves):
                raise HierarchyError(f"{what(name)}: leaf_order does not list exactly the leaves")
            leaves = leaf_order
        else:
            leaves = self._dfs_leaves(root)
        self.leaves = tuple(leaves)
        self._leaf_index = {v: i for i, v in enumerate(self.leaves)}
        # heights: leaves 0, inner nodes 1 + max child height
        self._height = {}
        self._compute_height(root)
        self.height = self._height[root]
        self._depth = {root: 0}
        for node in self._bfs(root):
            for c in children[node]:
                self._depth[c] = self._depth[node] + 1
        self._views: dict = {}   # cached array views (preorder, level_codes, emd_matrices)

    @classmethod
    def from_dict(cls, nested: Mapping, *, name: str | None = None, root: Hashable = "*") -> "Hierarchy":
        """Build from a nested dict with lists (or sets) of leaves at the bottom.

        Parameters
        ----------
        nested : dict
            ``{"Respiratory": {"Infection": ["flu", "pneumonia"], ...}, "Digestive": {...}}``.
            If the dict has a single key, that key is the root; otherwise ``root`` is added
            above the top-level keys.
        name : str, optional
            Attribute name, used in error messages.
        root : hashable
            The root added above several top-level keys.

        Returns
        -------
        Hierarchy

        Raises
        ------
        TypeError, HierarchyError
            For a non-dict, a value listed twice, an empty group or a non-scalar leaf.

        Examples
        --------
        >>> Hierarchy.from_dict({"A": ["a1", "a2"], "B": ["b1"]}).to_dict()
        {'*': {'A': ['a1', 'a2'], 'B': ['b1']}}
        """
        parent, root = parse_dict(nested, name, root)
        return cls(parent, root, name=name)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence], *, name: str | None = None) -> "Hierarchy":
        """Build from rows ``[leaf, generalization 1, ..., root]`` (ARX format).

        All rows must end in the same root.  A label repeated in consecutive columns (ARX's
        way of padding a shallow path) is one node: ``[v, v, g, *]`` makes ``g`` the parent of
        ``v``.

        Parameters
        ----------
        rows : sequence of sequences
            One row per leaf; blank rows are skipped.
        name : str, optional
            Attribute name, used in error messages.

        Returns
        -------
        Hierarchy

        Raises
        ------
        HierarchyError
            For no rows, an empty cell, different roots, a leaf listed twice, a cycle, a label
            with two parents or one both a leaf and a group (naming the rows).

        Examples
        --------
        >>> h = Hierarchy.from_rows([["47677", "4767*", "*"], ["47678", "4767*", "*"], ["47905", "4790*", "*"]])
        >>> h.height, h.ancestor("47678", 1)
        (2, '4767*')
        """
        parent, root, leaf_order = parse_rows(rows, name)
        return cls(parent, root, name=name, leaf_order=leaf_order)

    @classmethod
    def from_csv(cls, path: str | Path, *, name: str | None = None, delimiter: str = ";",
                 converter: Callable | None = None, encoding: str = "utf-8-sig") -> "Hierarchy":
        """Read an ARX-style hierarchy file: one ``;``-separated row per leaf (:meth:`from_rows`).

        Parameters
        ----------
        path : str or Path
        name : str, optional
            Attribute name (default: the file's stem).
        delimiter : str
        converter : callable, optional
            Applied to the leaf column (e.g. ``int`` for numeric attributes).
        encoding : str, default "utf-8-sig"
            The file's text encoding (UTF-8; a byte-order mark, as Excel writes one, is removed).

        Returns
        -------
        Hierarchy

        Raises
        ------
        HierarchyError
            For a leaf the converter refuses (naming the file and the line), text that is not in
            ``encoding`` (naming the file and the byte), or a malformed hierarchy.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> f = pathlib.Path(tempfile.mkdtemp()) / "age.csv"
        >>> _ = f.write_text(chr(10).join(["17;<20;*", "18;<20;*", "45;>=20;*"]))
        >>> Hierarchy.from_csv(f, converter=int).leaves
        (17, 18, 45)
        """
        rows, path = read_csv_rows(path, delimiter, converter, encoding)
        return cls.from_rows(rows, name=name or path.stem)

    def _dfs_leaves(self, node):
        out, stack = [], [node]
        while stack:
            n = stack.pop()
            ch = self._children[n]
            if not ch:
                out.append(n)
            else:
                stack.extend(reversed(ch))
        return out

    def _bfs(self, node):
        queue = [node]
        i = 0
        while i < len(queue):
            queue.extend(self._children[queue[i]])
            i += 1
        return queue

    def _compute_height(self, root):
        for n in reversed(self._bfs(root)):
            ch = self._children[n]
            self._height[n] = 0 if not ch else 1 + max(self._height[c] for c in ch)

    @property
    @_tree_doc
    def nodes(self) -> tuple:
        """All nodes, breadth first from the root.

        {{toy_tree}}
        >>> h.nodes
        ('*', 'A', 'B', 'a1', 'a2', 'b1')
        """
        return tuple(self._bfs(self.root))

    @_tree_doc
    def children(self, node: Hashable) -> tuple:
        """The children of ``node``, in insertion order (empty for a leaf).

        {{node}}

        Returns
        -------
        tuple

        {{toy_tree}}
        >>> h.children("*"), h.children("a1")
        (('A', 'B'), ())
        """
        self._check_node(node)
        return tuple(self._children[node])

    @_tree_doc
    def parent(self, node: Hashable) -> Hashable | None:
        """The parent of ``node`` (``None`` for the root).

        {{node}}

        Returns
        -------
        hashable or None

        {{toy_tree}}
        >>> h.parent("a1"), h.parent("*")
        ('A', None)
        """
        self._check_node(node)
        return self._parent.get(node)

    @_tree_doc
    def node_height(self, node: Hashable) -> int:
        """Height of ``node``: 0 for a leaf, 1 + the largest child height otherwise.

        {{node}}

        Returns
        -------
        int

        {{toy_tree}}
        >>> h.node_height("*"), h.node_height("B"), h.node_height("b1")
        (2, 1, 0)
        """
        self._check_node(node)
        return self._height[node]

    @_tree_doc
    def depth(self, node: Hashable) -> int:
        """Depth of ``node``: 0 for the root, 1 + its parent's depth otherwise.

        {{node}}

        Returns
        -------
        int

        {{toy_tree}}
        >>> h.depth("*"), h.depth("a1")
        (0, 2)
        """
        self._check_node(node)
        return self._depth[node]

    @_tree_doc
    def is_leaf(self, node: Hashable) -> bool:
        """True when ``node`` has no children.

        {{node}}

        Returns
        -------
        bool

        {{toy_tree}}
        >>> h.is_leaf("a1"), h.is_leaf("A")
        (True, False)
        """
        self._check_node(node)
        return not self._children[node]

    @_tree_doc
    def is_balanced(self) -> bool:
        """True when every leaf lies at depth ``height``.

        Returns
        -------
        bool

        {{toy_tree}}
        >>> h.is_balanced()
        True
        """
        return all(self._depth[v] == self.height for v in self.leaves)

    @_tree_doc
    def path(self, value: Hashable) -> list:
        """The path ``[value, parent, ..., root]``.

        {{value}}

        Returns
        -------
        list

        {{toy_tree}}
        >>> h.path("a2")
        ['a2', 'A', '*']
        """
        self._check_node(value)
        out = [value]
        while out[-1] != self.root:
            out.append(self._parent[out[-1]])
        return out

    @_tree_doc
    def leaves_under(self, node: Hashable) -> tuple:
        """The leaves of the subtree rooted at ``node``, depth first.

        {{node}}

        Returns
        -------
        tuple

        {{toy_tree}}
        >>> h.leaves_under("A"), h.leaves_under("b1")
        (('a1', 'a2'), ('b1',))
        """
        self._check_node(node)
        return tuple(self._dfs_leaves(node))

    @_tree_doc
    def leaf_index(self, value: Hashable) -> int:
        """Position of the leaf ``value`` in ``leaves``.

        Parameters
        ----------
        value : hashable
            A leaf (else :class:`HierarchyError`).

        Returns
        -------
        int

        {{toy_tree}}
        >>> h.leaf_index("b1")
        2
        """
        self.check_values([value])
        return self._leaf_index[value]

    def _label(self) -> str:
        return f"attribute {self.name!r}" if self.name else "the hierarchy"

    def _check_node(self, node):
        if node != self.root and node not in self._parent:
            raise HierarchyError(f"value {node!r} of {self._label()} is not in its hierarchy")

    @_tree_doc
    def check_values(self, values: Iterable) -> None:
        """Raise :class:`HierarchyError` naming the first values that are not leaves.

        Parameters
        ----------
        values : array-like

        Raises
        ------
        HierarchyError
            Naming up to five values that are not leaves, and the attribute.

        {{toy_tree}}
        >>> h.check_values(["a1", "b1", "a1"])     # silent: every value is a leaf
        """
        uniq = pd.unique(pd.Series(list(values) if not isinstance(values, (pd.Series, np.ndarray)) else values))
        missing = [v.item() if isinstance(v, np.generic) else v for v in uniq if v not in self._leaf_index]
        if missing:
            shown = ", ".join(repr(v) for v in missing[:5])
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            raise HierarchyError(
                f"value(s) {shown}{more} of {self._label()} not in its hierarchy "
                f"(which has {len(self.leaves)} leaves, e.g. {list(self.leaves[:3])})")

    @_tree_doc
    def ancestor(self, value: Hashable, level: int) -> Hashable:
        """The generalization of ``value`` at ``level`` (0 = the value, ``height`` = root).

        The highest node on the path to the root whose height is at most ``level``.  On an
        unbalanced tree a value on a short path therefore stays as it is until its parent's
        level is reached, as in ARX's padded rows: ``Never-married;Never-married;Not-married;*``
        gives ``Never-married`` at level 1 and ``Not-married`` at level 2.  Two leaves under a
        node of height 2 are not merged at level 1.

        {{value}}
        level : int
            In ``[0, height]``.

        Returns
        -------
        hashable

        {{toy_tree}}
        >>> h.ancestor("a1", 0), h.ancestor("a1", 1), h.ancestor("a1", 2)
        ('a1', 'A', '*')
        """
        level = self._check_level(level)
        path = self.path(value)
        best = path[0]  # an inner node above ``level`` is returned as it is
        for node in path[1:]:
            if self._height[node] > level:
                break
            best = node
        return best

    def _check_level(self, level) -> int:
        if isinstance(level, (float, np.floating)) and not np.isfinite(level):
            raise ValueError(f"level: expected an integer in [0, {self.height}], got {level!r}")
        if isinstance(level, bool) or not isinstance(level, (int, np.integer)):
            raise TypeError(f"level: expected an integer in [0, {self.height}], got {type(level).__name__} {level!r}")
        if not 0 <= level <= self.height:
            raise ValueError(f"level: expected an integer in [0, {self.height}], got {level}")
        return int(level)

    @_tree_doc
    def generalization_map(self, level: int) -> dict:
        """Mapping leaf -> its ancestor at ``level`` (:meth:`ancestor`).

        Parameters
        ----------
        level : int
            In ``[0, height]``.

        Returns
        -------
        dict

        {{toy_tree}}
        >>> h.generalization_map(1)
        {'a1': 'A', 'a2': 'A', 'b1': 'B'}
        """
        level = self._check_level(level)
        return {v: self.ancestor(v, level) for v in self.leaves}

    @_tree_doc
    def generalize(self, values: Iterable, level: int) -> np.ndarray:
        """Generalize an array of leaf values to ``level`` (vectorised lookup).

        Parameters
        ----------
        values : array-like
            Leaves of this hierarchy.
        level : int
            In ``[0, height]``.

        Returns
        -------
        ndarray

        Raises
        ------
        HierarchyError
            Naming the value and attribute if any value is not a leaf.

        {{toy_tree}}
        >>> h.generalize(["a1", "b1", "a2"], 1).tolist()
        ['A', 'B', 'A']
        """
        level = self._check_level(level)
        s = pd.Series(values) if not isinstance(values, pd.Series) else values
        self.check_values(s)
        mapping = self.generalization_map(level)
        return s.map(mapping).to_numpy()

    @_tree_doc
    def lca(self, a: Hashable, b: Hashable) -> Hashable:
        """Lowest common ancestor of two nodes.

        Parameters
        ----------
        a, b : hashable
            Nodes of the tree.

        Returns
        -------
        hashable

        {{toy_tree}}
        >>> h.lca("a1", "a2"), h.lca("a1", "b1")
        ('A', '*')
        """
        pa = self.path(a)
        setb = set(self.path(b))
        for node in pa:
            if node in setb:
                return node
        return self.root  # pragma: no cover

    @_tree_doc
    def distance(self, a: Hashable, b: Hashable) -> float:
        """Hierarchical ground distance ``level(lca(a, b)) / H`` (Li et al. 2007).

        ``level`` is the height of the lowest common ancestor, ``H`` the height of the tree.

        Parameters
        ----------
        a, b : hashable
            Nodes of the tree.

        Returns
        -------
        float

        {{toy_tree}}
        >>> h.distance("a1", "a2"), h.distance("a1", "b1"), h.distance("a1", "a1")
        (0.5, 1.0, 0.0)
        """
        if self.height == 0:
            return 0.0
        return self._height[self.lca(a, b)] / self.height

    @_tree_doc
    def distance_matrix(self) -> np.ndarray:
        """Ground-distance matrix over ``leaves`` (for the general EMD, :func:`privlib.closeness.emd`).

        Returns
        -------
        ndarray of shape (leaves, leaves)

        {{toy_tree}}
        >>> h.distance_matrix().tolist()
        [[0.0, 0.5, 1.0], [0.5, 0.0, 1.0], [1.0, 1.0, 0.0]]
        """
        return _views.distance_matrix(self)   # vectorised on the level codes: 10,000 leaves in about a second

    @_tree_doc
    def preorder(self) -> Preorder:
        """The tree flattened to arrays in depth-first pre-order (cached).

        Returns
        -------
        Preorder
            ``(nodes, children, lo, hi, leaves)``: nodes in pre-order, children as tuples of
            node indices, each node's leaf range ``[lo, hi)`` in the depth-first leaf order
            ``leaves`` (the layout of DiffGen's taxonomy trees, Mohammed et al. 2011, Figure 1).

        {{toy_tree}}
        >>> v = h.preorder()
        >>> v.nodes
        ('*', 'A', 'a1', 'a2', 'B', 'b1')
        >>> v.children[0], v.lo.tolist(), v.hi.tolist()
        ((1, 4), [0, 0, 0, 1, 2, 2], [3, 2, 1, 2, 3, 3])
        """
        return self._view("preorder", _views.preorder)

    @_tree_doc
    def level_codes(self) -> tuple:
        """Per level ``0 .. height``: the generalized value of every leaf as an integer code (cached).

        Returns
        -------
        tuple of (ndarray, int)
            For each level ``L``, ``(codes, width)``: ``codes[i]`` numbers the ancestor at
            ``L`` of ``leaves[i]`` (:meth:`ancestor`) in order of first appearance
            (``pd.factorize``), and ``width`` is the number of distinct ancestors.

        {{toy_tree}}
        >>> [(c.tolist(), w) for c, w in h.level_codes()]
        [([0, 1, 2], 3), ([0, 0, 1], 2), ([0, 0, 0], 1)]
        """
        return self._view("level_codes", _views.level_codes)

    @_tree_doc
    def emd_matrices(self) -> tuple:
        """Sparse matrices of the hierarchical EMD's closed form (cached).

        Returns
        -------
        A : scipy.sparse.csr_matrix, shape (leaves, nodes)
            ``A[i, k] = 1`` when node ``k`` (of :attr:`nodes`, breadth first) lies on the path
            of ``leaves[i]`` to the root (the leaf itself included).
        C : scipy.sparse.csr_matrix, shape (nodes, inner nodes)
            ``C[k, j] = 1`` when inner node ``j`` is the parent of node ``k``.
        weights : ndarray
            ``height(N) / H`` of each inner node ``N`` (slide "Hierarchical Distance" of
            Li, Li & Venkatasubramanian 2007).

        {{toy_tree}}
        >>> A, C, w = h.emd_matrices()
        >>> A.shape, C.shape, w.tolist()
        ((3, 6), (6, 3), [1.0, 0.5, 0.5])
        """
        return self._view("emd_matrices", _views.emd_matrices)

    def _view(self, key: str, build):
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = build(self)
        return view

    @_tree_doc
    def to_dict(self) -> dict:
        """Nested-dict form (inverse of :meth:`from_dict`).

        Returns
        -------
        dict

        {{toy_tree}}
        >>> h.to_dict()
        {'*': {'A': ['a1', 'a2'], 'B': ['b1']}}
        """
        def build(node):
            ch = self._children[node]
            if all(not self._children[c] for c in ch):
                return list(ch)
            return {c: (build(c) if self._children[c] else []) for c in ch}
        return {self.root: build(self.root)}

    def __len__(self) -> int:
        return len(self.leaves)

    def __contains__(self, value) -> bool:
        return value in self._leaf_index

    def __repr__(self) -> str:
        return f"Hierarchy(name={self.name!r}, leaves={len(self.leaves)}, height={self.height})"
