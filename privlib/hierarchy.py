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

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["Hierarchy", "HierarchyError"]


class HierarchyError(ValueError):
    """A value is missing from a hierarchy, or the hierarchy is malformed."""


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
    """

    def __init__(self, parent: Mapping, root, name: str | None = None, leaf_order: Sequence | None = None):
        self.name = name
        self.root = root
        self._parent = dict(parent)
        if root in self._parent:
            raise HierarchyError(f"hierarchy {name!r}: the root {root!r} cannot have a parent")
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
                    raise HierarchyError(f"hierarchy {name!r}: node {node!r} does not lead to the root {root!r}")
                seen.add(cur)
                cur = self._parent[cur]
        leaves = [n for n, ch in children.items() if not ch]
        if leaf_order is not None:
            leaf_order = list(leaf_order)
            if set(leaf_order) != set(leaves) or len(leaf_order) != len(leaves):
                raise HierarchyError(f"hierarchy {name!r}: leaf_order does not list exactly the leaves")
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

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_dict(cls, nested, name: str | None = None, root="*") -> "Hierarchy":
        """Build from a nested dict with lists (or sets) of leaves at the bottom.

        ``{"Respiratory": {"Infection": ["flu", "pneumonia"], ...}, "Digestive": {...}}``.
        If the dict has a single key, that key is the root; otherwise ``root`` is added
        above the top-level keys.
        """
        if not isinstance(nested, Mapping):
            raise TypeError(f"nested: expected a dict, got {type(nested).__name__}")
        if len(nested) == 1:
            (root, body), = nested.items()
        else:
            body = nested
        parent: dict = {}

        def walk(node, sub):
            if isinstance(sub, Mapping):
                for key, val in sub.items():
                    _add(key, node)
                    walk(key, val)
            elif isinstance(sub, (list, tuple, set, frozenset)):
                for leaf in sub:
                    if isinstance(leaf, (Mapping, list, tuple, set)):
                        raise HierarchyError(f"hierarchy {name!r}: leaves must be scalars, got {leaf!r}")
                    _add(leaf, node)
            else:
                raise HierarchyError(f"hierarchy {name!r}: expected a dict or a list under {node!r}, got {sub!r}")

        def _add(child, par):
            if child in parent or child == root:
                raise HierarchyError(f"hierarchy {name!r}: value {child!r} appears twice")
            parent[child] = par

        walk(root, body)
        return cls(parent, root, name=name)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence], name: str | None = None) -> "Hierarchy":
        """Build from rows ``[leaf, generalization 1, ..., root]`` (ARX format).

        All rows must end in the same root.  A label repeated in consecutive columns (ARX's
        way of padding a shallow path) is one node: ``[v, v, g, *]`` makes ``g`` the parent of
        ``v``.  An inner label that would get two different parents is an error.
        """
        rows = [list(r) for r in rows if len(r) and any(str(x).strip() for x in r)]
        if not rows:
            raise HierarchyError(f"hierarchy {name!r}: no rows")
        roots = {r[-1] for r in rows}
        if len(roots) != 1:
            raise HierarchyError(f"hierarchy {name!r}: rows end in different roots {sorted(map(str, roots))}")
        root = rows[0][-1]
        parent: dict = {}
        leaf_order = []
        for r in rows:
            leaf = r[0]
            if leaf in parent:
                raise HierarchyError(f"hierarchy {name!r}: leaf {leaf!r} is listed twice")
            leaf_order.append(leaf)
            for child, par in zip(r[:-1], r[1:]):
                if child == par:
                    continue  # a level that does not generalize this value further
                old = parent.get(child)
                if old is not None and old != par:
                    raise HierarchyError(
                        f"hierarchy {name!r}: {child!r} has two parents, {old!r} and {par!r}")
                parent[child] = par
        return cls(parent, root, name=name, leaf_order=leaf_order)

    @classmethod
    def from_csv(cls, path, name: str | None = None, delimiter: str = ";", converter=None) -> "Hierarchy":
        """Read an ARX-style hierarchy file: one ``;``-separated row per leaf.

        ``converter`` is applied to the leaf column (e.g. ``int`` for numeric attributes).
        A UTF-8 byte-order mark (as Excel writes one) is removed; a leaf the converter
        refuses raises ``ValueError`` naming the file and the line.
        """
        path = Path(path)
        if converter is not None and not callable(converter):
            raise TypeError(f"converter: expected a callable such as int, got {type(converter).__name__} {converter!r}")
        with path.open(newline="", encoding="utf-8-sig") as fh:
            reader = csv.reader(fh, delimiter=delimiter)
            rows, lines = [], []
            for r in reader:
                rows.append(r)
                lines.append(reader.line_num)
        if converter is not None:
            converted = []
            for r, line in zip(rows, lines):
                if not r or not any(x.strip() for x in r):
                    continue
                try:
                    converted.append([converter(r[0])] + r[1:])
                except (TypeError, ValueError) as exc:
                    raise HierarchyError(f"{path}, line {line}: leaf {r[0]!r} cannot be converted with "
                                         f"{getattr(converter, '__name__', converter)!s} ({exc})") from None
            rows = converted
        return cls.from_rows(rows, name=name or path.stem)

    # ------------------------------------------------------------------ structure
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
    def nodes(self) -> tuple:
        """All nodes, breadth first from the root."""
        return tuple(self._bfs(self.root))

    def children(self, node) -> tuple:
        self._check_node(node)
        return tuple(self._children[node])

    def parent(self, node):
        self._check_node(node)
        return self._parent.get(node)

    def node_height(self, node) -> int:
        """Height of ``node``: 0 for a leaf, 1 + the largest child height otherwise."""
        self._check_node(node)
        return self._height[node]

    def depth(self, node) -> int:
        self._check_node(node)
        return self._depth[node]

    def is_leaf(self, node) -> bool:
        self._check_node(node)
        return not self._children[node]

    def is_balanced(self) -> bool:
        """True when every leaf lies at depth ``height``."""
        return all(self._depth[v] == self.height for v in self.leaves)

    def path(self, value) -> list:
        """``[value, parent, ..., root]``."""
        self._check_node(value)
        out = [value]
        while out[-1] != self.root:
            out.append(self._parent[out[-1]])
        return out

    def leaves_under(self, node) -> tuple:
        """The leaves of the subtree rooted at ``node``."""
        self._check_node(node)
        return tuple(self._dfs_leaves(node))

    def leaf_index(self, value) -> int:
        self.check_values([value])
        return self._leaf_index[value]

    # ------------------------------------------------------------------ checks
    def _label(self) -> str:
        return f"attribute {self.name!r}" if self.name else "the hierarchy"

    def _check_node(self, node):
        if node != self.root and node not in self._parent:
            raise HierarchyError(f"value {node!r} of {self._label()} is not in its hierarchy")

    def check_values(self, values) -> None:
        """Raise :class:`HierarchyError` naming the first values that are not leaves."""
        uniq = pd.unique(pd.Series(list(values) if not isinstance(values, (pd.Series, np.ndarray)) else values))
        missing = [v.item() if isinstance(v, np.generic) else v for v in uniq if v not in self._leaf_index]
        if missing:
            shown = ", ".join(repr(v) for v in missing[:5])
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            raise HierarchyError(
                f"value(s) {shown}{more} of {self._label()} not in its hierarchy "
                f"(which has {len(self.leaves)} leaves, e.g. {list(self.leaves[:3])})")

    # ------------------------------------------------------------------ generalization
    def ancestor(self, value, level: int):
        """The generalization of ``value`` at ``level`` (0 = the value, ``height`` = root).

        The highest node on the path to the root whose height is at most ``level``.  On an
        unbalanced tree a value on a short path therefore stays as it is until its parent's
        level is reached, as in ARX's padded rows: ``Never-married;Never-married;Not-married;*``
        gives ``Never-married`` at level 1 and ``Not-married`` at level 2.  Two leaves under a
        node of height 2 are not merged at level 1.
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
        if isinstance(level, bool) or not isinstance(level, (int, np.integer)):
            raise TypeError(f"level: expected an integer in [0, {self.height}], got {type(level).__name__} {level!r}")
        if not 0 <= level <= self.height:
            raise ValueError(f"level: expected an integer in [0, {self.height}], got {level}")
        return int(level)

    def generalization_map(self, level: int) -> dict:
        """Mapping leaf -> its ancestor at ``level``."""
        level = self._check_level(level)
        return {v: self.ancestor(v, level) for v in self.leaves}

    def generalize(self, values, level: int) -> np.ndarray:
        """Generalize an array of leaf values to ``level`` (vectorised lookup).

        Raises :class:`HierarchyError` naming the value and attribute if any value is not a
        leaf of this hierarchy.
        """
        level = self._check_level(level)
        s = pd.Series(values) if not isinstance(values, pd.Series) else values
        self.check_values(s)
        mapping = self.generalization_map(level)
        return s.map(mapping).to_numpy()

    # ------------------------------------------------------------------ distance
    def lca(self, a, b):
        """Lowest common ancestor of two nodes."""
        pa = self.path(a)
        setb = set(self.path(b))
        for node in pa:
            if node in setb:
                return node
        return self.root  # pragma: no cover

    def distance(self, a, b) -> float:
        """Hierarchical ground distance ``level(lca(a, b)) / H`` (Li et al. 2007).

        ``level`` is the height of the lowest common ancestor, ``H`` the height of the tree.
        """
        if self.height == 0:
            return 0.0
        return self._height[self.lca(a, b)] / self.height

    def distance_matrix(self) -> np.ndarray:
        """Ground-distance matrix over ``leaves`` (for the linear-programming EMD)."""
        m = len(self.leaves)
        d = np.zeros((m, m))
        for i in range(m):
            for j in range(i + 1, m):
                d[i, j] = d[j, i] = self.distance(self.leaves[i], self.leaves[j])
        return d

    def to_dict(self):
        """Nested-dict form (inverse of :meth:`from_dict`)."""
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
