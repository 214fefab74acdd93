"""Parsing the two plain hierarchy formats: nested dicts and ARX rows (one row per leaf)."""
from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path

from ._base import HierarchyError


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
    return parent, root


def parse_rows(rows: Sequence[Sequence], name) -> tuple:
    """``(parent mapping, root, leaf order)`` of ARX rows (see ``Hierarchy.from_rows``)."""
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
    return parent, root, leaf_order


def read_csv_rows(path, delimiter: str, converter) -> tuple:
    """``(rows, path)`` of an ARX file, leaves converted (see ``Hierarchy.from_csv``)."""
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
    return rows, path
