"""The literal partition tree of Section 4.3 (Figure 2): a reference implementation for small
tables, against which the fast engine of :func:`diffgen` is tested."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._docs import shared_doc
from ..hierarchy import HierarchyError
from ._encoding import _interval_label, _prepare
from ._pieces import PREDICTORS_DOC, TABLE_1A_DOC


@shared_doc(predictors=PREDICTORS_DOC, table_1a=TABLE_1A_DOC)
def partition_tree(df: pd.DataFrame, predictors: Sequence[str], target: str, taxonomies: Mapping, *,
                   steps: Sequence[tuple]) -> pd.DataFrame:
    """The tree of partitions of Figure 2, built literally as Section 4.3 describes.

    Reference implementation for small tables: the leaf partitions hold record index arrays,
    ``Link_v`` lists the leaf partitions whose generalized record contains ``v``, and
    specializing ``v`` splits exactly the partitions on ``Link_v`` into one new partition per
    child (empty ones included), collecting the counts ``|D_c|`` and ``|D_c^cls|`` in the same pass.

    Parameters
    ----------
    df : pandas.DataFrame
        The raw table.
    {{predictors}}
    steps : list of (attribute, value) or (attribute, value, split)
        The specializations, in order (``value`` a taxonomy node, or the label of the interval
        to split at ``split``).

    Returns
    -------
    pandas.DataFrame
        One row per partition: ``id, parent, depth, <predictors>, count`` and one count
        column per class, in creation order, and ``leaf`` (a partition of the final cut).

    Raises
    ------
    ValueError, privlib.hierarchy.HierarchyError
        An unknown attribute or value, a leaf to specialize, a split outside the interval.

    {{table_1a}}
    >>> t = partition_tree(df, ["job", "age"], "class", {"job": job, "age": (18, 65)},
    ...                    steps=[("job", "Any"), ("age", "[18-65)", 40)])   # Example 3
    >>> t["count"].tolist()
    [8, 4, 4, 3, 1, 4, 0]
    """
    prep = _prepare(df, predictors, target, taxonomies)
    d = len(prep.attrs)
    top = tuple(0 if a.kind == "categorical" else (a.low, a.high) for a in prep.attrs)
    parts = [{"id": 0, "parent": -1, "depth": 0, "rec": top, "idx": np.arange(prep.n)}]
    leaves = [0]
    link: dict = {}
    for j in range(d):
        link.setdefault((j, top[j]), []).append(0)

    def label(a, v):
        return a.labels[v] if a.kind == "categorical" else _interval_label(*v)

    for step in steps:
        attr, value = step[0], step[1]
        if attr not in prep.predictors:
            raise ValueError(f"steps: unknown attribute {attr!r}")
        j = prep.predictors.index(attr)
        a = prep.attrs[j]
        if a.kind == "categorical":
            if value not in a.node_of_label:
                raise HierarchyError(f"steps: {value!r} is not a node of the taxonomy of {attr!r}")
            v = a.node_of_label[value]
            kids = list(a.children[v])
            if not kids:
                raise ValueError(f"steps: {value!r} is a leaf of {attr!r}; it cannot be specialized")
        else:
            if len(step) < 3:
                raise ValueError(f"steps: a numerical specialization needs a split point, got {step!r}")
            v = next((key for (jj, key) in link if jj == j and _interval_label(*key) == value), None)
            if v is None:
                raise ValueError(f"steps: interval {value!r} of {attr!r} is not in the current cut")
            s = float(step[2])
            if not v[0] < s < v[1]:
                raise ValueError(f"steps: split {s} outside {value}")
            kids = [(v[0], s), (s, v[1])]
        for pid in link.pop((j, v), []):
            p = parts[pid]
            x = prep.raw[j][p["idx"]]
            leaves.remove(pid)
            for jj in range(d):
                if jj != j:
                    link[(jj, p["rec"][jj])].remove(pid)
            for kk in kids:
                mask = ((x >= a.lo[kk]) & (x < a.hi[kk])) if a.kind == "categorical" else ((x >= kk[0]) & (x < kk[1]))
                rec = tuple(kk if jj == j else p["rec"][jj] for jj in range(d))
                q = {"id": len(parts), "parent": pid, "depth": p["depth"] + 1, "rec": rec, "idx": p["idx"][mask]}
                parts.append(q)
                leaves.append(q["id"])
                for jj in range(d):
                    link.setdefault((jj, rec[jj]), []).append(q["id"])
    rows = []
    for p in parts:
        row = {"id": p["id"], "parent": p["parent"], "depth": p["depth"]}
        for jj, a in enumerate(prep.attrs):
            row[a.name] = label(a, p["rec"][jj])
        yy = prep.y[p["idx"]]
        row["count"] = len(p["idx"])
        for c, name in enumerate(prep.classes):
            row[f"{prep.target}={name}"] = int((yy == c).sum())
        row["leaf"] = p["id"] in leaves
        rows.append(row)
    return pd.DataFrame(rows)


