"""Conversions of releases to the common release type, a :class:`~privlib.partition.Decomposition`."""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._docs import shared_doc
from .._validation import _fmt, check_array, check_columns, check_int, check_no_nan, check_nonempty, \
    check_unique_columns
from ..accounting import Ledger
from ..hierarchy import Hierarchy
from ..partition import Decomposition, qi_codes
from ._tree import build_tree

#: Bound of every code and width (as :func:`privlib.partition.root_box`): sums stay in int64.
_INT_LIMIT = 2 ** 62


#: The names, sensitive values and domain every conversion takes.
NAMES_DOMAIN_DOC = """
qi : sequence of str
    The quasi-identifiers.
sa : hashable
    The sensitive attribute's name.
sa_values : sequence
    The public sensitive values, in the order of the histogram (count) columns.
domain_lower, domain_upper : array_like (d,)
    The root box (public), inclusive.
"""

#: The last argument and the result of every conversion.
PARAMS_RETURNS_DOC = """
params : dict, optional
    How the release was built; ``{"conversion": NAME}`` is added, ``NAME`` the conversion's
    name (``"from_boxes"``, ...).

Returns
-------
privlib.partition.Decomposition
"""


# ----------------------------------------------------------------------------- validation
def _distinct_sequence(values, name: str, kind: str, one: str, distinct: str, show) -> tuple:
    """``values`` as a tuple: a sequence (not a string) of at least one ``one``, no duplicate
    (the message shows ``show(values)`` after ``distinct``)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise TypeError(f"{name}: expected a sequence of {kind}, got {type(values).__name__} {_fmt(values)}")
    values = tuple(values)
    if not values:
        raise ValueError(f"{name}: expected at least one {one}, got none")
    if len(set(values)) != len(values):
        raise ValueError(f"{name}: expected distinct {distinct} {show(values)}")
    return values


def _check_names(qi, sa) -> tuple:
    qi = _distinct_sequence(qi, "qi", "column names", "quasi-identifier", "quasi-identifiers, got", list)
    if not isinstance(sa, Hashable) or isinstance(sa, (list, tuple)):
        raise TypeError(f"sa: expected one column name, got {type(sa).__name__} {_fmt(sa)}")
    if sa in qi:
        raise ValueError(f"sa: the sensitive attribute {sa!r} is also listed as a quasi-identifier")
    return qi


def _check_sa_values(sa_values) -> tuple:
    return _distinct_sequence(sa_values, "sa_values", "sensitive values", "sensitive value",
                              "values, got duplicates in", lambda v: _fmt(list(v)))


def _codes(values, name: str, ndim: int) -> np.ndarray:
    """Integer codes (integer-valued floats accepted, never truncated) with ``|code| < 2**62``."""
    arr = np.asarray(values)
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iuf":
        raise TypeError(f"{name}: expected integer codes, got an array of dtype {arr.dtype}")
    if arr.ndim != ndim:
        raise ValueError(f"{name}: expected a {ndim}-d array, got shape {arr.shape}")
    if arr.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(arr) | (np.mod(arr, 1) != 0)
        if bad.any():
            raise ValueError(f"{name}: expected integer codes, got {arr[bad].ravel()[0]!r}")
    if arr.size and np.abs(arr.astype(float)).max() >= _INT_LIMIT:
        raise ValueError(f"{name}: expected codes below 2**62 in absolute value, got {np.abs(arr).max()!r}")
    return arr.astype(np.int64)


def _check_domain(domain_lower, domain_upper, qi) -> tuple[np.ndarray, np.ndarray]:
    dlo = _codes(domain_lower, "domain_lower", 1)
    dhi = _codes(domain_upper, "domain_upper", 1)
    for name, arr in (("domain_lower", dlo), ("domain_upper", dhi)):
        if arr.shape != (len(qi),):
            raise ValueError(f"{name}: expected one code per quasi-identifier {list(qi)}, got {arr.tolist()}")
    bad = np.flatnonzero(dhi < dlo)
    if bad.size:
        j = int(bad[0])
        raise ValueError(f"domain_upper: expected domain_lower <= domain_upper, got [{dlo[j]}, {dhi[j]}] for "
                         f"quasi-identifier {qi[j]!r}")
    wide = np.flatnonzero(dhi.astype(object) - dlo.astype(object) + 1 > _INT_LIMIT)
    if wide.size:
        raise ValueError(f"domain_upper: quasi-identifier {qi[int(wide[0])]!r} spans more than 2**62 codes")
    return dlo, dhi


def _check_inside(lower, upper, dlo, dhi, qi, name_lo, name_hi, what="box") -> None:
    for name, arr, bad in ((name_lo, lower, lower < dlo), (name_hi, upper, upper > dhi)):
        if bad.any():
            i, j = (int(v) for v in np.argwhere(bad)[0])
            raise ValueError(f"{name}: {what} {i} has {qi[j]!r} = {arr[i, j]}, outside the domain "
                             f"[{dlo[j]}, {dhi[j]}] (domain_lower, domain_upper)")


def _check_counts(counts, name: str, m: int, n_values: int) -> np.ndarray:
    arr = check_array(counts, name, ndim=2)
    if arr.shape != (m, n_values):
        raise ValueError(f"{name}: expected shape ({m}, {n_values}) (one row per box, one column per "
                         f"sensitive value), got {arr.shape}")
    return arr


def _check_extras(ledger, params, default: dict) -> tuple[Ledger, dict]:
    if ledger is None:
        ledger = Ledger()
    elif not isinstance(ledger, Ledger):
        raise TypeError(f"ledger: expected a privlib Ledger or None, got {type(ledger).__name__}")
    if params is not None and not isinstance(params, Mapping):
        raise TypeError(f"params: expected a dict or None, got {type(params).__name__}")
    return ledger, {**default, **(params or {})}


def _release(lower, upper, hist, *, qi, sa, sa_values, dlo, dhi, ledger, params, fill: bool,
             name: str) -> Decomposition:
    tree = build_tree(lower, upper, dlo, dhi, fill=fill, qi=qi, name=name)
    n_fill = tree["fill_lower"].shape[0]
    return Decomposition(
        qi=qi, sa=sa, sa_values=sa_values,
        lower=np.concatenate([lower, tree["fill_lower"]]), upper=np.concatenate([upper, tree["fill_upper"]]),
        histograms=np.concatenate([hist, np.zeros((n_fill, hist.shape[1]))]),
        domain_lower=dlo, domain_upper=dhi,
        tree_dim=tree["dim"], tree_threshold=tree["threshold"], tree_left=tree["left"], tree_right=tree["right"],
        tree_leaf=tree["leaf"], tree_depth=tree["depth"], ledger=ledger, params=params)


# ----------------------------------------------------------------------------- conversions
@shared_doc(names_domain=NAMES_DOMAIN_DOC, params_returns=PARAMS_RETURNS_DOC)
def from_boxes(lower: ArrayLike, upper: ArrayLike, histograms: ArrayLike, *, qi: Sequence[str], sa: Hashable,
               sa_values: Sequence, domain_lower: ArrayLike, domain_upper: ArrayLike,
               ledger: Ledger | None = None, params: Mapping | None = None) -> Decomposition:
    """A release given as boxes with SA histograms, as a Decomposition (its tree rebuilt).

    The boxes are leaves in the sense of Cormode et al. (2013), Section II: hyper-rectangles
    of inclusive integer codes ``[lower, upper]`` that partition the domain, each with a
    (possibly noisy, negative) count per sensitive value.  Box ``i`` is leaf ``i``: the arrays
    are kept as given, so :func:`privlib.attacks.naive_bayes` and the workload answers of
    :mod:`privlib.metrics` are exactly those of the release the boxes came from.  The tree
    that :meth:`~privlib.partition.Decomposition.assign` descends is rebuilt from the boxes
    (most balanced guillotine cuts, :mod:`privlib.release`); it assigns every code to the box
    that contains it, as the original tree did.

    Parameters
    ----------
    lower, upper : array_like (boxes x d)
        Inclusive integer bounds of the boxes, columns in the order of ``qi``.
    histograms : array_like (boxes x len(sa_values))
        Counts per box and sensitive value (finite; negative noisy counts allowed).
    {{names_domain}}
    ledger : privlib.accounting.Ledger, optional
        The privacy spend of the release (default: empty).  Kept as given: its ``total()``
        holds, but ``"path"`` entries name the node ids of the tree that made the release, not
        of the rebuilt one (so :meth:`~privlib.partition.Decomposition.path_spend` of the
        result is not meaningful).
    {{params_returns}}

    Raises
    ------
    TypeError
        For non-integer bounds, a non-sequence ``qi`` or ``sa_values``, a ``ledger`` that is not
        a Ledger or ``params`` that is not a dict.
    ValueError
        For shapes that disagree, a box with ``lower > upper`` or outside the domain, boxes that
        overlap or leave gaps in the domain (the message names two overlapping boxes or a point
        in no box), or a partition that is not hierarchical (no axis cut separates its boxes).

    Examples
    --------
    >>> import numpy as np
    >>> dec = from_boxes([[0, 0], [2, 0], [2, 1]], [[1, 1], [3, 0], [3, 1]], [[3, 1], [0, 2], [1, 1]],
    ...                  qi=["x", "y"], sa="s", sa_values=["a", "b"], domain_lower=[0, 0], domain_upper=[3, 1])
    >>> dec.n_leaves, dec.assign_codes(np.array([[1, 0], [3, 0], [2, 1]])).tolist()
    (3, [0, 1, 2])
    """
    qi = _check_names(qi, sa)
    sa_values = _check_sa_values(sa_values)
    lo = _codes(lower, "lower", 2)
    hi = _codes(upper, "upper", 2)
    if lo.shape[0] == 0:
        raise ValueError("lower: expected at least one box, got none")
    if lo.shape[1] != len(qi) or hi.shape != lo.shape:
        raise ValueError(f"lower, upper: expected two arrays of shape (boxes, {len(qi)}) for the quasi-identifiers "
                         f"{list(qi)}, got {lo.shape} and {hi.shape}")
    bad = np.argwhere(lo > hi)
    if bad.size:
        i, j = (int(v) for v in bad[0])
        raise ValueError(f"upper: box {i} has upper {hi[i, j]} < lower {lo[i, j]} on {qi[j]!r}; expected "
                         "lower <= upper (inclusive bounds)")
    hist = _check_counts(histograms, "histograms", lo.shape[0], len(sa_values))
    dlo, dhi = _check_domain(domain_lower, domain_upper, qi)
    _check_inside(lo, hi, dlo, dhi, qi, "lower", "upper")
    ledger, params = _check_extras(ledger, params, {"conversion": "from_boxes"})
    return _release(lo, hi, hist, qi=qi, sa=sa, sa_values=sa_values, dlo=dlo, dhi=dhi, ledger=ledger,
                    params=params, fill=False, name="lower, upper")


@shared_doc(names_domain=NAMES_DOMAIN_DOC, params_returns=PARAMS_RETURNS_DOC)
def from_histogram(cells: ArrayLike, counts: ArrayLike, *, qi: Sequence[str], sa: Hashable, sa_values: Sequence,
                   domain_lower: ArrayLike, domain_upper: ArrayLike, ledger: Ledger | None = None,
                   params: Mapping | None = None) -> Decomposition:
    """A (noisy) histogram over QI cells x SA values, as a Decomposition of unit boxes.

    Cell ``i`` becomes leaf ``i``, the unit box ``[cells[i], cells[i]]``.  Cells not listed are
    released as zero: the rest of the domain is cut into empty boxes (zero counts; at most
    ``2 d`` per cell, after the listed ones), so that the boxes partition the domain as every
    Decomposition's do.  Empty boxes change neither the naive-Bayes kernels nor any query
    answer.

    Parameters
    ----------
    cells : array_like (cells x d)
        Distinct integer codes of the cells, columns in the order of ``qi``.
    counts : array_like (cells x len(sa_values))
        Count per cell and sensitive value (finite; negative noisy counts allowed).
    {{names_domain}}
    ledger : privlib.accounting.Ledger, optional
        The privacy spend of the histogram (default: empty).
    {{params_returns}}

    Raises
    ------
    TypeError
        For non-integer cells (or as :func:`from_boxes`).
    ValueError
        For no cell, a repeated cell, a cell outside the domain or shapes that disagree.

    Examples
    --------
    >>> dec = from_histogram([[0, 1], [2, 0]], [[2, 0], [1, 1]], qi=["x", "y"], sa="s", sa_values=["a", "b"],
    ...                      domain_lower=[0, 0], domain_upper=[2, 1])
    >>> dec.counts.tolist()[:2], int(dec.widths.prod(axis=1).sum())
    ([2.0, 2.0], 6)
    """
    qi = _check_names(qi, sa)
    sa_values = _check_sa_values(sa_values)
    X = _codes(cells, "cells", 2)
    if X.shape[0] == 0:
        raise ValueError("cells: expected at least one cell, got none")
    if X.shape[1] != len(qi):
        raise ValueError(f"cells: expected shape (cells, {len(qi)}) for the quasi-identifiers {list(qi)}, "
                         f"got {X.shape}")
    hist = _check_counts(counts, "counts", X.shape[0], len(sa_values))
    dlo, dhi = _check_domain(domain_lower, domain_upper, qi)
    _check_inside(X, X, dlo, dhi, qi, "cells", "cells", "cell")
    uniq, first, inv = np.unique(X, axis=0, return_index=True, return_inverse=True)
    if uniq.shape[0] < X.shape[0]:
        dup = np.flatnonzero(np.bincount(inv.ravel()) > 1)[0]
        raise ValueError(f"cells: cell {dict(zip(qi, uniq[dup].tolist()))} is listed more than once; expected "
                         "distinct cells (sum their counts)")
    ledger, params = _check_extras(ledger, params, {"conversion": "from_histogram"})
    return _release(X, X.copy(), hist, qi=qi, sa=sa, sa_values=sa_values, dlo=dlo, dhi=dhi, ledger=ledger,
                    params=params, fill=True, name="cells")


def _sa_index(df, sa, sa_values) -> np.ndarray:
    check_columns(df, [sa], "sa")
    check_no_nan(df, "df", [sa])
    idx = pd.Index(sa_values).get_indexer(df[sa])
    if (idx < 0).any():
        bad = sorted(set(df[sa][idx < 0].astype(str)))[:5]
        raise ValueError(f"sa_values: value(s) {bad} of {sa!r} are not listed in sa_values")
    return idx.astype(np.int64)


def _check_frame(df) -> None:
    check_unique_columns(df, "df")                 # a DataFrame, distinct column names
    check_nonempty(df, "df")


@shared_doc(names_domain=NAMES_DOMAIN_DOC, params_returns=PARAMS_RETURNS_DOC)
def from_microdata(df: pd.DataFrame, *, qi: Sequence[str], sa: Hashable, sa_values: Sequence,
                   domain_lower: ArrayLike, domain_upper: ArrayLike, ledger: Ledger | None = None,
                   params: Mapping | None = None) -> Decomposition:
    """Record-level data (synthetic or swapped microdata) as a Decomposition of its finest boxes.

    One unit box per distinct QI combination present, with the SA counts of its records
    (:func:`from_histogram` of the exact counts; the rest of the domain as empty boxes).  The
    combinations are grouped with ``np.unique(axis=0)`` on the code matrix (no mixed-radix key
    that could overflow int64); cells come in lexicographic order of their codes.

    Parameters
    ----------
    df : pandas.DataFrame
        The released records, QIs as ordered integer codes (:func:`privlib.partition.qi_codes`).
    {{names_domain}}
    ledger : privlib.accounting.Ledger, optional
        The privacy spend of the synthesizer (default: empty).
    {{params_returns}}

    Raises
    ------
    TypeError, ValueError
        For a non-DataFrame or empty ``df``, unknown columns, QIs that are not integer codes,
        records outside the domain, or sensitive values not in ``sa_values``.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"x": [0, 0, 2], "y": [1, 1, 0], "s": ["a", "b", "a"]})
    >>> dec = from_microdata(df, qi=["x", "y"], sa="s", sa_values=["a", "b"], domain_lower=[0, 0],
    ...                      domain_upper=[2, 1])
    >>> dec.lower[:2].tolist(), dec.histograms[:2].tolist()
    ([[0, 1], [2, 0]], [[1.0, 1.0], [1.0, 0.0]])
    """
    _check_frame(df)
    qi = _check_names(qi, sa)
    sa_values = _check_sa_values(sa_values)
    X = qi_codes(df, list(qi))
    s = _sa_index(df, sa, sa_values)
    dlo, dhi = _check_domain(domain_lower, domain_upper, qi)
    _check_inside(X, X, dlo, dhi, qi, "df", "df", "record")
    cells, inv = np.unique(X, axis=0, return_inverse=True)
    S = len(sa_values)
    counts = np.bincount(inv.ravel() * S + s, minlength=cells.shape[0] * S).reshape(-1, S).astype(float)
    _, params = _check_extras(None, params, {"conversion": "from_microdata"})
    return from_histogram(cells, counts, qi=qi, sa=sa, sa_values=sa_values, domain_lower=dlo, domain_upper=dhi,
                          ledger=ledger, params=params)


def _generalized_runs(a: str, h: Hierarchy, level: int, order):
    """Leaf codes of ``h`` and the intervals of codes of its nodes at ``level`` (run starts, ends).

    A node's leaves must be consecutive codes: with ``order`` the codes are positions in it,
    without, the leaves themselves (integers).
    """
    leaves = list(h.leaves)
    if order is not None:
        if isinstance(order, (str, bytes)) or not isinstance(order, Sequence):
            raise TypeError(f"orders[{a!r}]: expected a sequence of values in code order, got {_fmt(order)}")
        index = pd.Index(list(order))
        if index.has_duplicates:
            raise ValueError(f"orders[{a!r}]: expected distinct values, got duplicates "
                             f"{list(index[index.duplicated()][:5])}")
        code = index.get_indexer(leaves)
        if (code < 0).any() or len(index) != len(leaves):
            missing = [v for v, c in zip(leaves, code) if c < 0][:5]
            extra = [v for v in index if v not in set(leaves)][:5]
            raise ValueError(f"orders[{a!r}]: expected exactly the leaves of hierarchies[{a!r}]; leaves missing from "
                             f"the order: {missing}, values that are not leaves: {extra}")
        code = code.astype(np.int64)
    else:
        code = np.asarray(leaves)
        if code.dtype.kind not in "iu":
            raise TypeError(f"hierarchies[{a!r}]: its leaves are not integer codes (e.g. {leaves[0]!r}); give "
                            f"orders[{a!r}], the leaves in code order (e.g. hierarchies[{a!r}].preorder().leaves)")
        code = code.astype(np.int64)
    group = h.level_codes()[level][0]
    o = np.argsort(code, kind="stable")
    sc, sg = code[o], group[o]
    change = np.r_[True, sg[1:] != sg[:-1]]
    run_group = sg[change]
    if np.unique(run_group).size != run_group.size:
        g = next(x for x in run_group if (run_group == x).sum() > 1)
        mine = np.flatnonzero(sg == g)                      # positions in code order
        i = int(np.flatnonzero(np.diff(mine) > 1)[0])
        first, second, between = (leaves[o[p]] for p in (mine[i], mine[i + 1], mine[i] + 1))
        node = h.ancestor(first, level)
        raise ValueError(f"hierarchies[{a!r}]: at level {level} the leaves under {node!r} are not consecutive codes "
                         f"({first!r} and {second!r} are separated by {between!r}); a generalized value is a box "
                         f"only when its leaves are an interval of codes: code {a!r} in the hierarchy's "
                         f"depth-first leaf order, orders[{a!r}] = hierarchies[{a!r}].preorder().leaves")
    starts = sc[change]
    ends = np.r_[starts[1:] - 1, sc[-1]]
    return sc, starts, ends


def from_generalization(df: pd.DataFrame, levels: Sequence[int] | Mapping[str, int], *, qi: Sequence[str],
                        sa: Hashable, sa_values: Sequence, hierarchies: Mapping[str, Hierarchy],
                        orders: Mapping[str, Sequence] | None = None) -> Decomposition:
    """A full-domain generalization (one lattice node) as a Decomposition of its classes' boxes.

    Full-domain generalization (LeFevre, DeWitt & Ramakrishnan 2005; :mod:`privlib.generalization`)
    replaces every value of QI ``a`` by its ancestor at level ``levels[a]`` of ``a``'s hierarchy
    (:meth:`privlib.hierarchy.Hierarchy.ancestor`).  The leaves under a node are an interval of
    the hierarchy's depth-first leaf order, so each generalized value is an interval of codes
    when the codes follow that order, and each equivalence class (a combination of generalized
    values present in ``df``) a box, with the SA counts of its records.  Combinations absent from
    ``df`` are released as empty boxes (zero counts).

    The codes of ``df`` are checked, never assumed: a QI listed in ``orders`` has code ``i`` for
    the value ``orders[a][i]`` (e.g. ``Setup.orders`` of :mod:`privlib.experiments.empirical_privacy`),
    and ``orders[a]`` must list exactly the hierarchy's leaves; a QI not listed has its leaves as
    codes (integer leaves, e.g. hours per week).  If at the requested level some node's leaves
    are not consecutive codes, a ValueError names the node and asks for the depth-first order
    (``hierarchies[a].preorder().leaves``).  Codes between two nodes' leaves belong to the lower
    node's box; the domain of ``a`` runs from its smallest to its largest leaf code.

    Parameters
    ----------
    df : pandas.DataFrame
        The records, QIs as integer codes.
    levels : sequence of int or mapping
        The lattice node: one level per QI (in the order of ``qi``, as
        ``SearchResult.best`` of :func:`privlib.generalization.search`) or ``{qi: level}``.
    qi : sequence of str
        The quasi-identifiers.
    sa : hashable
        The sensitive column.
    sa_values : sequence
        The public sensitive values (histogram columns).
    hierarchies : mapping
        ``{qi: Hierarchy}`` over the values of each QI.
    orders : mapping, optional
        ``{qi: leaves in code order}`` for the QIs whose codes index an order.

    Returns
    -------
    privlib.partition.Decomposition
        ``params`` holds ``model="full-domain generalization"``, the ``levels`` and the number of
        classes.

    Raises
    ------
    TypeError
        For a non-DataFrame, a missing or non-Hierarchy hierarchy, non-integer leaves without an
        order, or malformed ``levels``.
    ValueError
        For a level outside ``[0, height]``, an order that does not list exactly the leaves, a
        node whose leaves are not consecutive codes, codes that are no leaf's code, or sensitive
        values not in ``sa_values``.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.hierarchy import Hierarchy
    >>> age = Hierarchy.from_dict({"*": {"young": [0, 1], "old": [2, 3]}})
    >>> df = pd.DataFrame({"age": [0, 1, 1, 3], "s": ["a", "b", "a", "b"]})
    >>> dec = from_generalization(df, [1], qi=["age"], sa="s", sa_values=["a", "b"], hierarchies={"age": age})
    >>> dec.lower.ravel().tolist(), dec.upper.ravel().tolist(), dec.histograms.tolist()
    ([0, 2], [1, 3], [[2.0, 1.0], [0.0, 1.0]])
    """
    _check_frame(df)
    qi = _check_names(qi, sa)
    sa_values = _check_sa_values(sa_values)
    if not isinstance(hierarchies, Mapping):
        raise TypeError(f"hierarchies: expected a mapping column -> Hierarchy, got {type(hierarchies).__name__}")
    if orders is not None and not isinstance(orders, Mapping):
        raise TypeError(f"orders: expected a mapping column -> values in code order, got {type(orders).__name__}")
    if isinstance(levels, Mapping):
        unknown = [a for a in levels if a not in qi]
        if unknown or len(levels) != len(qi):
            raise ValueError(f"levels: expected one level for each quasi-identifier {list(qi)}, got {dict(levels)}")
        levels = [levels[a] for a in qi]
    elif isinstance(levels, (str, bytes)) or not isinstance(levels, Sequence):
        raise TypeError(f"levels: expected a sequence of one level per quasi-identifier, got {_fmt(levels)}")
    if len(levels) != len(qi):
        raise ValueError(f"levels: expected one level per quasi-identifier {list(qi)}, got {list(levels)}")
    X = qi_codes(df, list(qi))
    s = _sa_index(df, sa, sa_values)
    runs, lo, hi, starts, ends = np.empty_like(X), [], [], [], []
    for j, a in enumerate(qi):
        h = hierarchies.get(a)
        if not isinstance(h, Hierarchy):
            raise TypeError(f"hierarchies[{a!r}]: expected a privlib Hierarchy, got {type(h).__name__}")
        level = check_int(levels[j], f"levels[{j}] ({a!r})", minimum=0, maximum=h.height)
        sc, st, en = _generalized_runs(a, h, level, None if orders is None else orders.get(a))
        pos = np.searchsorted(sc, X[:, j])
        known = (pos < sc.size) & (sc[np.minimum(pos, sc.size - 1)] == X[:, j])
        if not known.all():
            raise ValueError(f"df: code(s) {sorted(set(X[~known, j].tolist()))[:5]} of {a!r} are no leaf's code in "
                             f"hierarchies[{a!r}] (codes {sc[0]} .. {sc[-1]})")
        runs[:, j] = np.searchsorted(st, X[:, j], side="right") - 1
        lo.append(sc[0])
        hi.append(sc[-1])
        starts.append(st)
        ends.append(en)
    cells, inv = np.unique(runs, axis=0, return_inverse=True)
    S = len(sa_values)
    counts = np.bincount(inv.ravel() * S + s, minlength=cells.shape[0] * S).reshape(-1, S).astype(float)
    lower = np.column_stack([starts[j][cells[:, j]] for j in range(len(qi))])
    upper = np.column_stack([ends[j][cells[:, j]] for j in range(len(qi))])
    params = {"model": "full-domain generalization", "levels": dict(zip(qi, (int(v) for v in levels))),
              "n_classes": int(cells.shape[0]), "n": len(df), "conversion": "from_generalization"}
    return _release(lower, upper, counts, qi=qi, sa=sa, sa_values=sa_values, dlo=np.array(lo, np.int64),
                    dhi=np.array(hi, np.int64), ledger=Ledger(), params=params, fill=True, name="levels")
