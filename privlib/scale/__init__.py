"""Census scale: the counting algorithms on a Dask DataFrame (and a dask.distributed cluster).

Mondrian, the DP kd-tree, DiffGen's counts per cut and class and the k/l/t checks of a published
table read the records only through counts -- per cell of the quasi-identifiers (QIs) and the
sensitive attribute (SA) -- so they split into two steps:

1. **count on the cluster**: every partition of the Dask DataFrame is counted where it lives and
   the counts are summed (a group-by on the columns the algorithm reads, or a per-partition
   table); what comes back is one row per *distinct* cell with its multiplicity, not the records;
2. **finish in memory**: the in-memory algorithm runs on the distinct cells, each weighted by its
   count.

The result is exactly the in-memory one on the same records (same leaves, counts, noise draws,
ledger, reports): the functions accept a pandas DataFrame too and then equal
:func:`privlib.partition.mondrian`, :func:`privlib.partition.dp_kdtree`,
:func:`privlib.diffgen.contingency_table`, :func:`privlib.models.k_anonymity`,
:func:`privlib.models.l_diversity`, :func:`privlib.models.t_closeness` and
:func:`privlib.release.information_loss`.  What has to fit in
memory is the table of distinct cells: a census table of 10^8 records over a few coded QIs has
at most the product of their domain sizes (times the SA's) distinct cells -- 709,632 for the
empirical-privacy chapter's five Adult QIs and 14 occupations -- however many records it holds.
A QI with a distinct value per record (an exact income, a timestamp) makes the cells as many as
the records: :func:`dask_mondrian` then grows the top levels of its tree on the cluster, from
per-node counts, until each node's cells fit (the other functions need the cells in memory; code
such a QI coarser first).

Dask (``pip install privlib[dask]``) is imported only when a Dask DataFrame is passed: ``import
privlib.scale`` does not import it.  The computation runs on the scheduler Dask is configured
with: a ``dask.distributed.Client`` made current (``Client(cluster)``) sends it to its cluster.

================================ =================================================================
:func:`cell_counts`              distinct rows of some columns and their counts (the count step)
:func:`dask_mondrian`            Mondrian (k, l, t) from the cells (top levels on the cluster if need be)
:func:`dask_kdtree`              the DP kd-tree from the cells (same draws and noise)
:func:`dask_contingency_table`   DiffGen's counts per cut value combination and class
:func:`dask_k_anonymity`         k-anonymity, l-diversity and t-closeness of a published table,
:func:`dask_l_diversity`         from its class x SA counts
:func:`dask_t_closeness`
:func:`dask_information_loss`    NCP, discernibility and C_avg of a release on the records
================================ =================================================================
"""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..models import CheckReport, KAnonymityReport, check_counts, LDiversityReport, TClosenessReport
from ..partition import Decomposition
from ..release import InformationLoss
from ._top import _is_dask, _root_counts, _top_levels

__all__ = [
    "dask_check",
    "cell_counts",
    "dask_contingency_table",
    "dask_information_loss",
    "dask_k_anonymity",
    "dask_kdtree",
    "dask_l_diversity",
    "dask_mondrian",
    "dask_t_closeness",
]


def _check_data(data, columns, name) -> list:
    """``data`` is a pandas or Dask DataFrame holding ``columns`` (a name or a list of names)."""
    if not (isinstance(data, pd.DataFrame) or _is_dask(data) and hasattr(data, "columns")):
        raise TypeError(f"data: expected a pandas or Dask DataFrame, got {type(data).__name__}")
    cols = [columns] if isinstance(columns, str) or not isinstance(columns, Sequence) else list(columns)
    missing = [c for c in cols if c not in list(data.columns)]
    if missing:
        raise ValueError(f"{name}: column(s) {missing} are not in the data (columns: {list(data.columns)[:20]})")
    if not cols:
        raise ValueError(f"{name}: expected at least one column, got none")
    if len(set(cols)) != len(cols):
        raise ValueError(f"{name}: expected distinct columns, got {cols}")
    return cols


def cell_counts(data: Any, columns: Sequence[str], *, name: str = "count") -> pd.DataFrame:
    """The distinct rows of ``data[columns]`` and how many records each stands for.

    The count step of every function of this module: on a Dask DataFrame a group-by computed
    partition by partition on its scheduler (a ``dask.distributed`` cluster when a client is
    current), on a pandas DataFrame in memory.  Missing values form their own cells (the
    algorithms then refuse them, naming the column).

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The records.
    columns : sequence of str
        The columns whose distinct combinations are counted.
    name : str, default "count"
        The name of the count column.

    Returns
    -------
    pandas.DataFrame
        One row per distinct combination, sorted by ``columns``; the columns and an int64
        ``name`` column summing to the number of records.

    Raises
    ------
    TypeError, ValueError
        For data that is not a DataFrame, unknown, duplicated or no columns, or a ``name`` that is
        one of ``columns``.

    Examples
    --------
    >>> import pandas as pd
    >>> cell_counts(pd.DataFrame({"x": [2, 1, 2, 2], "s": list("abab")}), ["x", "s"])
       x  s  count
    0  1  b      1
    1  2  a      2
    2  2  b      1
    """
    cols = _check_data(data, columns, "columns")
    if name in cols:
        raise ValueError(f"name: expected a name that is not one of the columns {cols}, got {name!r}")
    sizes = data[cols].groupby(cols, sort=True, observed=True, dropna=False).size()
    if _is_dask(data):
        sizes = sizes.compute().sort_index(kind="stable")       # partial sums arrive in any order
    out = sizes.rename(name).reset_index()
    out[name] = out[name].astype(np.int64)
    return out


def _weighted(data, qi, sa):
    """The distinct (QI, SA) rows of ``data`` and their counts (int64)."""
    cols = _check_data(data, list(qi) + [sa], "qi and sa")
    cells = cell_counts(data, cols, name="__count__" if "count" in cols else "count")
    counts = cells.columns[-1]
    w = cells[counts].to_numpy(np.int64)
    return cells.drop(columns=[counts]), w


def dask_mondrian(data: Any, qi: Sequence[str], sa: str, *, k: int, l: int | None = None, t: float | None = None,
                  max_height: int | None = None, l_kind: str = "distinct", distance: str | None = None,
                  t_rule: str = "strict", domain: Mapping[str, tuple[int, int]] | None = None,
                  sa_values: Sequence[Hashable] | None = None, requirements: Sequence = (),
                  max_cells: int | None = None) -> Decomposition:
    """:func:`privlib.partition.mondrian` on a Dask (or pandas) DataFrame: the same decomposition.

    The distinct ``(qi, sa)`` cells are counted on the cluster first, before anything is built.
    When they fit (at most ``max_cells``), they are brought into memory (:func:`cell_counts`)
    and Mondrian runs on them, each weighted by its count: every node's count, median and SA
    histogram is the records', so the tree, the leaves and their histograms are the in-memory
    ones, and so is the guarantee (every leaf holds at least ``k`` records; l and t as
    requested).

    When they do not fit, the top levels of the tree are grown on the cluster, level by level.
    Each partition's records are read once, where they live, into arrays kept there (persisted
    on the workers): every QI's 0-based codes, the SA indices and each record's node.  A level
    moves every record of a node just split one step down (its code against the split) and
    counts per node, in one pass over those arrays, the records, their SA histogram and their
    smallest and largest code per QI; the distinct cells of a node are counted (from a hash of
    each record's cell, computed once) only when it holds more than ``max_cells`` records --
    with fewer it has fewer cells.  A node whose cells fit is set aside, every other node is
    split as in memory -- on the QI of widest normalised spread (then the next widest), at its
    median, read from the counts per (node, code, SA value) of that QI, the cut allowed by the
    same rules (k, l, t, ``requirements``: one object decides in both places).  Each node set
    aside then has its cells brought into memory (in batches of at most ``max_cells`` cells,
    counted as its records when they were not counted) and its subtree grown there; the pieces
    are numbered as one tree.  The result is the in-memory one, leaf for leaf, node for node.
    Memory: in the client, ``max_cells`` cells and, per level, the counts per (node, code, SA
    value) of the QI each node is cut on; on the workers, per record, its codes (the smallest
    unsigned dtype of each QI's width), SA index, node (4 bytes) and, once counted, cell hash
    (8 bytes).

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The records (QIs as ordered integer codes, as for :func:`privlib.partition.mondrian`;
        plain integer columns when the cells do not fit).
    qi, sa, k, l, t, max_height, l_kind, distance, t_rule, domain, sa_values, requirements
        As for :func:`privlib.partition.mondrian`.
    max_cells : int, optional
        The most distinct cells brought into memory at once; default: what fits in half the
        memory available now (``_CELL_BYTES`` bytes per cell and column).

    Returns
    -------
    privlib.partition.Decomposition
        ``params["n"]`` is the number of records.

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.partition.mondrian`; ``k`` is checked against the number of records;
        a TypeError for a QI that is not a plain integer column when the cells do not fit.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> df = pd.DataFrame({"x": [0, 1, 1, 2, 3, 3, 3, 5], "s": list("abababab")})
    >>> dask_mondrian(df, ["x"], "s", k=2).lower.ravel().tolist() == mondrian(df, ["x"], "s", k=2).lower.ravel().tolist()
    True
    >>> dask_mondrian(df, ["x"], "s", k=2, max_cells=3).lower.ravel().tolist() == mondrian(df, ["x"], "s", k=2).lower.ravel().tolist()
    True
    """
    from ..partition._mondrian import _mondrian

    kw = dict(k=k, l=l, t=t, max_height=max_height, l_kind=l_kind, distance=distance, t_rule=t_rule,
              domain=domain, sa_values=sa_values, requirements=requirements)
    cols = _check_data(data, list(qi) + [sa], "qi and sa")
    max_cells = _max_cells(max_cells, len(cols))
    root = _root_counts(data, cols)                      # the distinct cells, counted before anything is built
    if root["cells"] <= max_cells:
        cells, w = _weighted(data, qi, sa)
        return _mondrian(cells, qi, sa, w, **kw)
    return _top_levels(data, list(qi), sa, max_cells, root, **kw)


#: Working memory of in-memory Mondrian per distinct cell and column (codes, ranks, layouts, copies).
_CELL_BYTES = 64


def _max_cells(max_cells, n_cols):
    """``max_cells`` checked, or by default what fits in half the available memory."""
    if max_cells is None:
        import psutil
        return int(psutil.virtual_memory().available // 2 // (_CELL_BYTES * n_cols))
    from .._validation import check_int
    return check_int(max_cells, "max_cells", minimum=1)


def dask_kdtree(data: Any, qi: Sequence[str], sa: str, *, eps: float, height: int, rng: int | np.random.Generator,
                median_fraction: float = 0.3, domain: Mapping[str, tuple[int, int]] | None = None,
                sa_values: Sequence[Hashable] | None = None, requirements: Sequence = ()) -> Decomposition:
    """:func:`privlib.partition.dp_kdtree` on a Dask (or pandas) DataFrame: the same release.

    The distinct ``(qi, sa)`` cells are counted on the cluster (:func:`cell_counts`); the tree
    is then grown in memory on the cells, each weighted by its count.  The private medians
    draw from the same distributions with the same random numbers (their runs of cuts depend
    on the counts per code, not on the records' order) and the leaves' noisy counts are the
    same discrete Laplace draws on the same true counts: with the same ``rng`` the release, its
    ledger and its warnings are the in-memory ones.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The records (QIs as ordered integer codes).
    qi, sa, eps, height, median_fraction, domain, sa_values, requirements
        As for :func:`privlib.partition.dp_kdtree`.
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    privlib.partition.Decomposition
        Noisy leaf histograms and the budget ledger (checked against ``eps``).

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.partition.dp_kdtree`.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"x": range(16), "s": list("ab") * 8})
    >>> dec = dask_kdtree(df, ["x"], "s", eps=1.0, height=2, rng=0, domain={"x": (0, 15)}, sa_values=("a", "b"))
    >>> dec.n_leaves, dec.path_spend().round(6).tolist()
    (4, [1.0, 1.0, 1.0, 1.0])
    """
    from ..partition._kdtree import _dp_kdtree

    cells, w = _weighted(data, qi, sa)
    return _dp_kdtree(cells, qi, sa, w, eps=eps, height=height, rng=rng, median_fraction=median_fraction,
                      domain=domain, sa_values=sa_values, requirements=requirements)


def _table_part(part, skeleton, predictors, taxonomies, cuts, target):
    from ..diffgen import contingency_table

    both = contingency_table(pd.concat([skeleton, part[skeleton.columns]], ignore_index=True), predictors,
                             taxonomies, cuts=cuts, target=target)
    alone = contingency_table(skeleton, predictors, taxonomies, cuts=cuts, target=target)
    both["count"] = both["count"].to_numpy() - alone["count"].to_numpy()
    return both


def _sum_tables(tables):
    out = tables[0].copy()
    out["count"] = np.sum([t["count"].to_numpy() for t in tables], axis=0)
    return out


def dask_contingency_table(data: Any, predictors: Sequence[str], taxonomies: Mapping, *, cuts: Mapping,
                           target: str | None = None) -> pd.DataFrame:
    """:func:`privlib.diffgen.contingency_table` on a Dask (or pandas) DataFrame: DiffGen's exact
    counts per combination of cut values (and class), the counts its Line 12 adds noise to.

    Each partition is counted where it lives (every partition's table lists the same cells: one
    record per class, taken from the data, is added to each partition and its count taken off
    again) and the tables are summed: the in-memory table of the whole data, row for row.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The raw records.
    predictors, taxonomies, cuts, target
        As for :func:`privlib.diffgen.contingency_table`.

    Returns
    -------
    pandas.DataFrame
        One row per combination and a ``count`` column.

    Raises
    ------
    TypeError, ValueError, privlib.hierarchy.HierarchyError
        As :func:`privlib.diffgen.contingency_table`.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.hierarchy import Hierarchy
    >>> job = Hierarchy.from_dict({"Any": {"Pro": ["Eng", "Law"], "Art": ["Dan", "Wri"]}})
    >>> df = pd.DataFrame({"job": ["Eng", "Law", "Dan"], "age": [34, 50, 20]})
    >>> dask_contingency_table(df, ["job", "age"], {"job": job, "age": (18, 65)},
    ...                        cuts={"job": ["Pro", "Art"], "age": [40]})["count"].tolist()
    [1, 1, 1, 0]
    """
    from ..diffgen import contingency_table

    cols = _check_data(data, list(predictors) + ([] if target is None else [target]), "predictors and target")
    if not _is_dask(data):
        return contingency_table(data, predictors, taxonomies, cuts=cuts, target=target)
    import dask

    if target is None:
        skeleton = data[cols].head(1, npartitions=-1)
    else:
        skeleton = data[cols].drop_duplicates(subset=[target]).compute()
        skeleton = skeleton.sort_values(target, kind="stable").reset_index(drop=True)
    if len(skeleton) == 0:
        raise ValueError("data: expected at least one record, got none")
    parts = [dask.delayed(_table_part)(p, skeleton, list(predictors), taxonomies, cuts, target)
             for p in data[cols].to_delayed()]
    (total,) = dask.compute(dask.delayed(_sum_tables)(parts))
    return total


def _class_counts(data, qi, sa, sa_values):
    """``(keys, counts, domain)`` of :func:`privlib.models.class_counts`, from the cells."""
    from scipy import sparse

    from ..models._classes import _domain_codes

    cells, w = _weighted(data, qi, sa)
    if cells[qi].isna().any().any() or cells[sa].isna().any():
        bad = [c for c in qi + [sa] if cells[c].isna().any()]
        raise ValueError(f"df: column(s) {bad} have missing values")
    g = cells.groupby(qi, sort=True, observed=True, dropna=False)
    ids = g.ngroup().to_numpy()
    keys = g.size().index
    codes, domain = _domain_codes(cells[sa], sa_values, sa)
    counts = sparse.csr_matrix((w.astype(float), (ids, codes)), shape=(len(keys), len(domain)))
    counts.sum_duplicates()
    return keys, counts, domain


def dask_check(data: Any, qi: Sequence[str], sa: str, requirements: Sequence, /, *,
               sa_values: Sequence | None = None) -> CheckReport:
    """:func:`privlib.models.check` of a published table given as a Dask (or pandas) DataFrame.

    The classes' sensitive counts are computed on the cluster (the distinct cells); every
    requirement is then read through its protocol in memory
    (:func:`privlib.models.check_counts`): no formula is written twice.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The published (generalized) table.
    qi, sa, requirements, sa_values
        As for :func:`privlib.models.check`.

    Returns
    -------
    privlib.models.CheckReport

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.models.check`.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.requirements import BetaLikeness
    >>> t = pd.DataFrame({"zip": ["a", "a", "b", "b"], "d": ["x", "y", "x", "x"]})
    >>> dask_check(t, ["zip"], "d", [BetaLikeness(0.5)]).holds
    False
    """
    qi = _check_data(data, qi, "qi")
    _, counts, _ = _class_counts(data, qi, sa, sa_values)
    return check_counts(counts, requirements)


def dask_k_anonymity(data: Any, qi: Sequence[str]) -> KAnonymityReport:
    """:func:`privlib.models.k_anonymity` of a published table given as a Dask (or pandas) DataFrame.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The published (generalized) table.
    qi : list of str
        Quasi-identifier columns.

    Returns
    -------
    privlib.models.KAnonymityReport
        The in-memory report: ``k`` and the size of every class (sorted by QI values).

    Raises
    ------
    TypeError, ValueError
        For data that is not a DataFrame, unknown or duplicated columns, missing QI values or no
        records.

    Examples
    --------
    >>> import pandas as pd
    >>> dask_k_anonymity(pd.DataFrame({"zip": ["476**"] * 3 + ["4790*"] * 2}), ["zip"]).k
    2
    """
    qi = _check_data(data, qi, "qi")
    cells = cell_counts(data, qi, name="__size__" if "size" in qi else "size")
    if len(cells) == 0:
        raise ValueError("df: expected at least one record, got an empty table")
    if cells[qi].isna().any().any():
        raise ValueError(f"df: column(s) {[c for c in qi if cells[c].isna().any()]} have missing values")
    sizes = cells.set_index(qi)[cells.columns[-1]].rename("size")
    return KAnonymityReport(k=int(sizes.min()), sizes=sizes)


def dask_l_diversity(data: Any, qi: Sequence[str], sa: str, *, kind: str = "distinct",
                     c: float | None = None) -> LDiversityReport:
    """:func:`privlib.models.l_diversity` of a published table given as a Dask (or pandas) DataFrame.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The published table.
    qi, sa, kind, c
        As for :func:`privlib.models.l_diversity`.

    Returns
    -------
    privlib.models.LDiversityReport
        The in-memory report.

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.models.l_diversity`.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"zip": ["a"] * 3 + ["b"] * 3, "disease": ["flu", "flu", "ulcer"] * 2})
    >>> dask_l_diversity(t, ["zip"], "disease").l
    2
    """
    from ..models import _l_report, _l_requirement

    _l_requirement(kind, c)                      # the options checked before any counting
    qi = _check_data(data, qi, "qi")
    keys, counts, _ = _class_counts(data, qi, sa, None)
    return _l_report(keys, counts, kind=kind, c=c)


def dask_t_closeness(data: Any, qi: Sequence[str], sa: str, *, distance: str = "equal",
                     sa_values: Sequence | None = None) -> TClosenessReport:
    """:func:`privlib.models.t_closeness` of a published table given as a Dask (or pandas) DataFrame,
    against the whole table's SA distribution.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The published table.
    qi, sa : list of str, str
        As for :func:`privlib.models.t_closeness`.
    distance : {"equal", "ordered"}
        The ground distance (``ordered`` needs a numeric SA, an ordered categorical or
        ``sa_values`` in order).
    sa_values : sequence, optional
        As for :func:`privlib.models.t_closeness`.

    Returns
    -------
    privlib.models.TClosenessReport
        The in-memory report (``q`` the whole table's distribution).

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.models.t_closeness`; ``distance="hierarchical"`` is not offered here.

    Examples
    --------
    >>> import pandas as pd
    >>> r = dask_t_closeness(pd.DataFrame({"g": [0, 0, 1, 1], "s": [3, 4, 5, 11]}), ["g"], "s", distance="ordered")
    >>> round(r.t, 3)
    0.333
    """
    from .._validation import check_has_order, check_in
    from ..models import _t_report
    from ..requirements import TCloseness

    check_in(distance, "distance", ("equal", "ordered"))
    TCloseness(1.0, distance=distance)
    qi = _check_data(data, qi, "qi")
    (sa,) = _check_data(data, [sa], "sa")
    if distance == "ordered" and sa_values is None:
        check_has_order(data[sa].head(1, npartitions=-1) if _is_dask(data) else data[sa], "sa_values")
    keys, counts, dom = _class_counts(data, qi, sa, sa_values)
    qv = np.asarray(counts.sum(axis=0)).ravel()
    return _t_report(keys, counts, dom, qv / qv.sum(), distance=distance)


def dask_information_loss(data: Any, decomposition: Decomposition, *, qi: Sequence[str] | None = None,
                          k: int | None = None, ranges: str = "tight",
                          categorical: Sequence[str] = ()) -> InformationLoss:
    """:func:`privlib.release.information_loss` of a release on records given as a Dask (or pandas)
    DataFrame: the same NCP, discernibility and C_avg.

    Each class's size and tight ranges (its records' smallest and largest codes) are those of
    the distinct QI rows of ``data`` weighted by their counts, counted on the cluster.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The original records (the release's QIs as integer codes inside its domain).
    decomposition : privlib.partition.Decomposition
        The release.
    qi, k, ranges, categorical
        As for :func:`privlib.release.information_loss`.

    Returns
    -------
    privlib.release.InformationLoss
        The in-memory result.

    Raises
    ------
    TypeError, ValueError
        As :func:`privlib.release.information_loss`.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> df = pd.DataFrame({"age": [21, 23, 35, 38], "s": ["a", "b", "a", "b"]})
    >>> loss = dask_information_loss(df, mondrian(df, ["age"], "s", k=2, domain={"age": (20, 39)}))
    >>> round(loss.ncp_tight, 4), round(loss.ncp_box, 4), loss.dm, loss.c_avg
    (0.1316, 0.4737, 8.0, 1.0)
    """
    import math

    from ..partition import qi_codes
    from ..release._table import _check_options, _ncp

    qi, categorical, k = _check_options(decomposition, qi, ranges, categorical, k)
    cells = cell_counts(data, list(decomposition.qi), name="__count__")
    if len(cells) == 0:
        raise ValueError("df: expected at least one record, got an empty table")
    w = cells["__count__"].to_numpy(np.int64)
    X = qi_codes(cells, list(decomposition.qi), name="df")
    leaf = decomposition.assign_codes(X)
    cols = [decomposition.qi.index(c) for c in qi]
    cls, idx = np.unique(leaf, return_inverse=True)                 # the leaves holding records, ascending
    sizes = np.bincount(idx, weights=w, minlength=cls.size)
    tlo = np.full((cls.size, len(cols)), np.iinfo(np.int64).max)
    thi = np.full((cls.size, len(cols)), np.iinfo(np.int64).min)
    np.minimum.at(tlo, idx, X[:, cols])
    np.maximum.at(thi, idx, X[:, cols])
    blo, bhi = decomposition.lower[cls][:, cols], decomposition.upper[cls][:, cols]
    n = int(w.sum())
    dlo, dhi = decomposition.domain_lower[cols], decomposition.domain_upper[cols]
    is_cat = np.array([c in categorical for c in qi])
    per_qi = {name: sizes @ _ncp(lo, hi, dlo, dhi, is_cat) / n for name, lo, hi in (("tight", tlo, thi),
                                                                                   ("box", blo, bhi))}
    return InformationLoss(
        ncp=float(per_qi[ranges].mean()), ncp_tight=float(per_qi["tight"].mean()),
        ncp_box=float(per_qi["box"].mean()), ncp_by_qi=dict(zip(qi, per_qi[ranges].tolist())),
        dm=float((sizes ** 2).sum()), c_avg=(n / cls.size) / k if k is not None else math.nan,
        n_records=n, n_classes=int(cls.size), k=k, ranges=ranges, qi=qi)
