"""Parsing the two plain hierarchy formats: nested dicts and ARX rows (one row per leaf)."""
from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path

from ._base import HierarchyError


def what(name) -> str:
    """``"hierarchy 'age'"``, or ``"the hierarchy"`` without a name (the subject of every message)."""
    return f"hierarchy {name!r}" if name is not None else "the hierarchy"


def parse_dict(nested, name, root) -> tuple:
    """``(parent mapping, root)`` of a nested dict (see ``Hierarchy.from_dict``)."""
    if not isinstance(nested, Mapping):
        raise TypeError(f"nested: expected a dict, got {type(nested).__name__}")
    if len(nested) == 1:
        (root, body), = nested.items()
    else:
        body = nested
    parent: dict = {}

    def walk(node, sub):
        if isinstance(sub, (Mapping, list, tuple, set, frozenset)) and not len(sub):
            raise HierarchyError(f"{what(name)}: the group {node!r} is empty; a group needs at least one value "
                                 f"(a value without generalizations is a leaf: list it in its parent's list)")
        if isinstance(sub, Mapping):
            for key, val in sub.items():
                _add(key, node)
                walk(key, val)
        elif isinstance(sub, (list, tuple, set, frozenset)):
            for leaf in sub:
                if isinstance(leaf, (Mapping, list, tuple, set)):
                    raise HierarchyError(f"{what(name)}: leaves must be scalars, got {leaf!r}")
                _add(leaf, node)
        else:
            raise HierarchyError(f"{what(name)}: expected a dict or a list under {node!r}, got {sub!r}")

    def _add(child, par):
        if child in parent or child == root:
            raise HierarchyError(f"{what(name)}: value {child!r} appears twice")
        parent[child] = par

    walk(root, body)
    return parent, root


def _blank(x) -> bool:
    return x is None or (isinstance(x, float) and x != x) or not str(x).strip()


def find_cycle(parents: Mapping) -> list | None:
    """A cycle ``[a, b, ..., a]`` of the graph ``{node: iterable of its parents}``, or None.

    Iterative depth-first search (a hierarchy may be deep), linear in nodes and edges.
    """
    color: dict = {}   # 1: on the current path, 2: done
    for start in parents:
        if start in color:
            continue
        color[start] = 1
        path, stack = [start], [iter(parents.get(start, ()))]
        while stack:
            nxt = next(stack[-1], _END)
            if nxt is _END:
                color[path.pop()] = 2
                stack.pop()
            elif color.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            elif nxt not in color:
                color[nxt] = 1
                path.append(nxt)
                stack.append(iter(parents.get(nxt, ())))
    return None


_END = object()


def _rows_with(numbered, test) -> list:
    """Numbers of the rows for which ``test(row)`` holds (to name rows in an error: slow path only)."""
    return [i for i, r in numbered if test(r)]


def parse_rows(rows: Sequence[Sequence], name) -> tuple:
    """``(parent mapping, root, leaf order)`` of ARX rows (see ``Hierarchy.from_rows``).

    The hot loop is as cheap as a dict assignment per cell; rows are located only to word an error.
    """
    numbered = [(i + 1, list(r)) for i, r in enumerate(rows)
                if len(r) and (not _blank(r[0]) or not all(_blank(x) for x in r))]
    if not numbered:
        raise HierarchyError(f"{what(name)}: no rows")
    cells: set = set()
    for _, r in numbered:
        cells.update(r)
    if any(_blank(x) for x in cells):
        i, r = next((i, r) for i, r in numbered if any(_blank(x) for x in r))
        j = next(j for j, x in enumerate(r) if _blank(x))
        raise HierarchyError(f"{what(name)}: row {i} {r!r} has an empty cell in column {j + 1}; every "
                             "level needs a label (repeat the label below it to pad a short path)")
    roots = {r[-1] for _, r in numbered}
    if len(roots) != 1:
        raise HierarchyError(f"{what(name)}: rows end in different roots {sorted(map(str, roots))}")
    root = numbered[0][1][-1]
    parent: dict = {}
    extra: dict = {}      # child -> its other parents (a malformed file only)
    leaf_order = [r[0] for _, r in numbered]
    for _, r in numbered:
        for child, par in zip(r[:-1], r[1:]):
            if child == par:
                continue  # a level that does not generalize this value further
            old = parent.setdefault(child, par)
            if old != par and par not in extra.setdefault(child, [old]):
                extra[child].append(par)
    if extra:
        cycle = find_cycle({**{c: [p] for c, p in parent.items()}, **extra})
        if cycle:
            raise HierarchyError(f"{what(name)}: the labels form a cycle {' -> '.join(map(repr, cycle))}")
        child, (p1, p2) = next((c, ps[:2]) for c, ps in extra.items() if len(ps) > 1)
        r1, r2 = (_rows_with(numbered, lambda r, p=p: any(a == child and b == p for a, b in zip(r, r[1:])))[0]
                  for p in (p1, p2))
        raise HierarchyError(f"{what(name)}: {child!r} has two parents, {p1!r} (row {r1}) and {p2!r} (row {r2})")
    # a cycle of single parents is found (and shown) by the Hierarchy's own walk to the root
    if len(set(leaf_order)) != len(leaf_order):
        seen: dict = {}
        leaf, first = next((v, seen[v]) for i, v in enumerate(leaf_order) if seen.setdefault(v, i) != i)
        rows_ = _rows_with(numbered, lambda r: r[0] == leaf)
        raise HierarchyError(f"{what(name)}: leaf {leaf!r} is listed twice (rows {rows_[0]} and {rows_[1]})")
    both = set(leaf_order) & set(parent.values())
    if both:
        v = next(v for v in leaf_order if v in both)
        leaf_row = _rows_with(numbered, lambda r: r[0] == v)[0]
        inner_row = _rows_with(numbered, lambda r: any(b == v and a != b for a, b in zip(r, r[1:])))[0]
        raise HierarchyError(f"{what(name)}: {v!r} is a leaf (row {leaf_row}) and a generalization of other "
                             f"values (row {inner_row})")
    return parent, root, leaf_order


def read_csv_rows(path, delimiter: str, converter, encoding: str = "utf-8-sig") -> tuple:
    """``(rows, path)`` of an ARX file, leaves converted (see ``Hierarchy.from_csv``)."""
    path = Path(path)
    if converter is not None and not callable(converter):
        raise TypeError(f"converter: expected a callable such as int, got {type(converter).__name__} {converter!r}")
    if not isinstance(encoding, str) or not encoding:
        raise TypeError(f"encoding: expected the name of a text encoding (a str such as 'utf-8'), got "
                        f"{type(encoding).__name__} {encoding!r}")
    rows, lines = [], []
    try:
        with path.open(newline="", encoding=encoding) as fh:
            reader = csv.reader(fh, delimiter=delimiter)
            for r in reader:
                rows.append(r)
                lines.append(reader.line_num)
    except UnicodeDecodeError as exc:
        enc = "UTF-8" if encoding.lower().replace("_", "-") in ("utf-8-sig", "utf-8", "utf8") else encoding
        raise HierarchyError(f"encoding: {path} is not {enc} text (byte {exc.object[exc.start:exc.start + 1]!r}: "
                             f"{exc.reason}, after {len(rows)} complete row(s)); pass encoding= (e.g. "
                             "encoding='latin-1') or re-save the file as UTF-8") from None
    except LookupError:
        raise ValueError(f"encoding: unknown text encoding {encoding!r}") from None
    if rows and rows[0] and rows[0][0].startswith("\ufeff"):     # a byte-order mark read as text
        rows[0][0] = rows[0][0][1:]
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
    return rows, path
