"""Encoding of DiffGen's input: taxonomy trees and numerical domains flattened to arrays,
and the training table counted once (Section 4.3 of Mohammed et al. 2011)."""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._validation import check_columns, check_no_nan, check_nonempty, warn_privacy_leak
from ..hierarchy import Hierarchy, HierarchyError


class _Categorical:
    """A taxonomy tree flattened to arrays, leaves in depth-first order (contiguous blocks)."""

    kind = "categorical"

    def __init__(self, name: str, hierarchy: Hierarchy):
        self.name = name
        self.hierarchy = hierarchy
        view = hierarchy.preorder()   # cached on the Hierarchy, identical to a local DFS
        self.nodes = list(view.nodes)
        self.labels = [str(n) for n in view.nodes]
        self.children = view.children
        self.lo = view.lo
        self.hi = view.hi
        self.leaves = list(view.leaves)
        self.leaf_index = pd.Index(self.leaves)
        self.n_leaves = len(self.leaves)
        self.n_internal = sum(1 for c in view.children if c)
        self.node_of_label = {n: i for i, n in enumerate(view.nodes)}

    def encode(self, values, what: str) -> np.ndarray:
        idx = _index_of(self.leaf_index, values)
        if (idx < 0).any():
            check_no_nan(pd.DataFrame({self.name: pd.Series(values)}), what)
            try:
                self.hierarchy.check_values(pd.Series(values)[idx < 0])
            except HierarchyError as exc:
                raise HierarchyError(f"{what}: {exc}") from None
            raise HierarchyError(f"{what}: values of attribute {self.name!r} not in its taxonomy")  # pragma: no cover
        return idx.astype(np.int64)

    def cut_lookup(self, cut_nodes) -> np.ndarray:
        """Array leaf position -> index of the cut value above it."""
        out = np.full(self.n_leaves, -1, dtype=np.int64)
        for j, node in enumerate(cut_nodes):
            out[self.lo[node]:self.hi[node]] = j
        return out


class _Numerical:
    """A numerical predictor with public domain ``[low, high)``."""

    kind = "numerical"

    def __init__(self, name: str, low: float, high: float, step: float | None = None):
        self.name = name
        self.low = float(low)
        self.high = float(high)
        self.step = _grid_step(self.low, self.high) if step is None else float(step)
        self._unit_grid = self.step == 1.0 and self.low.is_integer() and abs(self.low) < 2.0 ** 52
        self.n_grid = int(self.first_k(np.array([self.high]))[0])   # grid points low + k step < high

    def grid(self, k) -> np.ndarray:
        """The public split points ``low + k * step`` (a function of the public ``k`` only)."""
        return self.low + np.asarray(k, dtype=np.int64).astype(float) * self.step

    def first_k(self, x, *, strict: bool = False) -> np.ndarray:
        """Per value of ``x``: the first grid index ``k >= 0`` with ``grid(k) >= x`` (``> x`` with
        ``strict``), computed against the floats :meth:`grid` returns (so that a split point
        ``grid(k)`` sends left exactly the values it is counted for)."""
        x = np.asarray(x, dtype=float)
        if self._unit_grid and x.size and np.all(np.abs(x) < 2.0 ** 52) and np.all(x == np.floor(x)):
            # integer grid low + k and integer x (all exact): k = x - low (+ 1 when strict), at least 0
            return np.maximum(x - self.low + (1.0 if strict else 0.0), 0.0).astype(np.int64)
        with np.errstate(over="ignore", invalid="ignore"):
            est = np.floor((x - self.low) / self.step)
        if not np.isfinite(est).all():
            est = np.nan_to_num(est, nan=0.0, posinf=2.0 ** 62, neginf=0.0)
        k = np.clip(est, 0, 2.0 ** 62).astype(np.int64)
        for _ in range(64):
            g = self.grid(k)
            up = (g <= x) if strict else (g < x)
            gm = self.grid(np.maximum(k - 1, 0))
            down = (k > 0) & ((gm > x) if strict else (gm >= x))
            if not (up.any() or down.any()):
                break
            k = k + up - down
        return k

    def encode(self, values, what: str) -> np.ndarray:
        values = pd.Series(values)
        if not (pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_complex_dtype(values)):
            raise TypeError(f"{what}: column {self.name!r} has a numerical domain in taxonomies but holds "
                            f"non-numeric values of dtype {values.dtype}")
        if values.dtype.kind in "iu":  # plain numpy integers: no missing values
            xi = values.to_numpy()
            if len(xi) and (xi.max() > 2 ** 53 or (xi.dtype.kind == "i" and xi.min() < -2 ** 53)):
                raise ValueError(f"{what}: integer values of {self.name!r} beyond 2**53 in magnitude (got "
                                 f"{max(abs(int(xi.min())), int(xi.max()))}) cannot be split exactly in "
                                 f"floating point; rescale them")
            x = xi.astype(float)
        else:
            x = values.to_numpy(dtype=float, na_value=np.nan)
        bad = ~((x >= self.low) & (x < self.high))
        if bad.any():
            check_no_nan(pd.DataFrame({self.name: x}), what)
            shown = values[bad].unique()[:5].tolist()
            raise HierarchyError(
                f"{what}: value(s) {shown} of numerical attribute {self.name!r} outside its public domain "
                f"[{_fmt(self.low)}, {_fmt(self.high)}) given in taxonomies[{self.name!r}]")
        return x


#: A non-integer numerical domain ``[low, high)`` gets the public grid of split points
#: ``low + k * step`` with ``step = 2**(floor(log2(high - low)) - GRID_BITS)`` (at least twice the
#: float spacing at ``max(|low|, |high|)``, so that distinct ``k`` give distinct floats).
GRID_BITS = 20


def _grid_step(low: float, high: float) -> float:
    """The default public grid step of the numerical domain ``[low, high)``: 1 when both ends
    are integers at least 2 apart (integer split points, as the kd-tree's), else a power of 2
    about ``2**-GRID_BITS`` of the domain's width."""
    if float(low).is_integer() and float(high).is_integer() and high - low >= 2:
        return 1.0
    width = high - low
    e = math.frexp(width)[1] - 1 - GRID_BITS if width > 0 else -1074
    step = math.ldexp(1.0, max(e, -1074))
    return max(step, 2.0 * float(np.spacing(max(abs(low), abs(high)))))


def _fmt(x: float) -> str:
    x = float(x)
    if x.is_integer():
        return str(int(x))
    return f"{x:.2f}"


def _interval_label(lo: float, hi: float) -> str:
    return f"[{_fmt(lo)}-{_fmt(hi)})"


def _make_attrs(df, predictors, taxonomies) -> list:
    if not isinstance(taxonomies, dict):
        raise TypeError(f"taxonomies: expected a dict attribute -> Hierarchy or (low, high), "
                        f"got {type(taxonomies).__name__}")
    attrs = []
    for a in predictors:
        if a not in taxonomies:
            raise ValueError(
                f"taxonomies: predictor {a!r} has no taxonomy; give a Hierarchy (categorical) or a "
                f"numerical domain (low, high)")
        t = taxonomies[a]
        if isinstance(t, Hierarchy):
            attrs.append(_Categorical(a, t))
        elif (isinstance(t, (tuple, list)) and len(t) in (2, 3)
              and all(isinstance(v, (numbers.Real, np.integer, np.floating)) and not isinstance(v, bool)
                      for v in t)):
            lo, hi = float(t[0]), float(t[1])
            if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi and _splittable(lo, hi)):
                raise ValueError(f"taxonomies[{a!r}]: expected a numerical domain (low, high) with "
                                 f"low < high, got {t!r}")
            step = None
            if len(t) == 3:
                step = float(t[2])
                if not (np.isfinite(step) and step > 0 and step >= 2.0 * float(np.spacing(max(abs(lo), abs(hi))))):
                    raise ValueError(f"taxonomies[{a!r}]: expected (low, high, step) with a finite grid step > 0 "
                                     f"(at least twice the float spacing of the domain), got {t!r}")
            if not pd.api.types.is_numeric_dtype(df[a]):
                raise TypeError(f"taxonomies[{a!r}]: numerical domain given for the non-numeric column {a!r}")
            num = _Numerical(a, lo, hi, step)
            if num.n_grid < 2:
                raise ValueError(f"taxonomies[{a!r}]: the public grid of split points low + k * step "
                                 f"(step {num.step!r}) has no point strictly inside ({lo!r}, {hi!r}); "
                                 f"expected a wider domain or a finer step (low, high, step), got {t!r}")
            attrs.append(num)
        else:
            raise TypeError(f"taxonomies[{a!r}]: expected a Hierarchy or a pair (low, high), "
                            f"got {type(t).__name__} {t!r}")
    return attrs


# ============================================================================ preparation
@dataclass
class _Prepared:
    """A training table encoded once: per-attribute codes and value x class count tables."""

    predictors: list
    target: str
    attrs: list
    classes: np.ndarray
    y: np.ndarray
    raw: list            # per attribute: leaf positions (categorical) or float values (numerical)
    vals: list           # numerical: sorted distinct values; categorical: None
    cum: list            # per attribute: cumulative (rows + 1) x K class counts
    n: int = 0
    cache: dict = field(default_factory=dict, repr=False)   # derived arrays, computed once (see _sorted_index)

    @property
    def K(self) -> int:
        return len(self.classes)

    def __getstate__(self):
        """Pickled (shipped to a worker process) without the split cache of ``_diffgen``: it is
        rebuilt where it is used."""
        state = self.__dict__.copy()
        state["cache"] = {k: v for k, v in self.cache.items() if k != SPLIT_CACHE}
        return state


#: The key of ``_Prepared.cache`` under which ``_diffgen`` caches its split distributions.
SPLIT_CACHE = "diffgen split distributions"


def _check_target(df, target):
    if isinstance(target, (list, tuple, set, dict, np.ndarray, pd.Index)):
        raise TypeError(f"target: expected one column name, got {type(target).__name__} {target!r}")
    col = df[target]
    if pd.api.types.is_float_dtype(col) or pd.api.types.is_complex_dtype(col):
        raise TypeError(f"target: the class attribute {target!r} must be categorical, got a "
                        f"numerical column of dtype {col.dtype}")


def _validate(df, predictors, target, taxonomies):
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    if isinstance(predictors, str):
        predictors = [predictors]
    if not isinstance(predictors, (list, tuple, pd.Index, np.ndarray)):
        raise TypeError(f"predictors: expected a list of column names, got {type(predictors).__name__} "
                        f"{predictors!r}")
    predictors = list(predictors)
    if not predictors:
        raise ValueError("predictors: expected at least one predictor attribute, got none")
    if len(set(predictors)) != len(predictors):
        dup = sorted({str(a) for a in predictors if predictors.count(a) > 1})
        raise ValueError(f"predictors: expected distinct attributes, got {dup} more than once")
    if isinstance(target, (list, tuple, set, dict, np.ndarray, pd.Index)):
        raise TypeError(f"target: expected one column name, got {type(target).__name__} {target!r}")
    check_columns(df, predictors, "predictors")
    check_columns(df, [target], "target")
    if target in predictors:
        raise ValueError(f"target: the class attribute {target!r} is also listed as a predictor")
    _check_unique_used(df, predictors + [target], "df")
    check_nonempty(df, "df")
    if df[target].isna().any():
        check_no_nan(df, "df", [target])
    _check_target(df, target)
    attrs = _make_attrs(df, predictors, taxonomies)
    return predictors, attrs


def _check_unique_used(df, columns, name):
    """The columns used are not duplicated in ``df`` (``df[c]`` would be a frame)."""
    dup = df.columns[df.columns.duplicated()]
    bad = sorted({str(c) for c in dup if c in set(columns)})
    if bad:
        raise ValueError(f"{name}: duplicated column name(s) {bad}; rename them so that every column "
                         f"has one name")


def _check_classes(classes) -> np.ndarray:
    """A public class domain: a non-empty sequence of distinct, non-missing labels."""
    if isinstance(classes, (str, bytes)) or not isinstance(classes, (list, tuple, np.ndarray, pd.Index)):
        raise TypeError(f"classes: expected a list of class labels, got {type(classes).__name__} {classes!r}")
    out = np.empty(len(classes), dtype=object)
    out[:] = list(classes)
    if len(out) == 0:
        raise ValueError("classes: expected at least one class label, got none")
    if pd.isna(pd.Series(out, dtype=object)).any():
        raise ValueError(f"classes: expected class labels, got a missing value in {list(out)}")
    if pd.Index(out).has_duplicates:
        raise ValueError(f"classes: expected distinct class labels, got {list(out)}")
    return out


def _derive_classes(df, target, fn: str) -> np.ndarray:
    """The class labels read from the data (published outside the budget: warned about)."""
    warn_privacy_leak(
        f"classes: not given; {fn} derives the class domain from the data's {target!r} values and "
        f"publishes it outside the privacy budget (a record with a unique class is told apart). "
        f"Pass the public class domain, e.g. classes=['<=50K', '>50K'] for Adult.", stacklevel=4)
    return np.asarray(sorted(pd.unique(df[target]), key=str), dtype=object)


def _index_of(index, values) -> np.ndarray:
    """``index.get_indexer(values)`` looked up once per distinct value (``pandas.factorize``: fast
    on Arrow strings, where converting every record to a Python object is what costs); -1 for a
    missing or unknown value."""
    codes, uniq = pd.factorize(pd.Series(values), use_na_sentinel=True)
    look = index.get_indexer(uniq)
    return np.where(codes >= 0, look[np.maximum(codes, 0)], -1) if len(look) else np.full(len(codes), -1)


def _class_codes(df, target, classes) -> np.ndarray:
    y = _index_of(pd.Index(classes), df[target])
    if (y < 0).any():
        raise ValueError(f"classes: class value(s) {sorted(set(df[target][y < 0]), key=str)[:5]} of "
                         f"{target!r} in the data are not in the class domain {list(classes)}")
    return y


def _prepare(df, predictors, target, taxonomies, classes=None, validated=None) -> _Prepared:
    """Validate (unless ``validated = (predictors, attrs)`` of :func:`_validate` is given) and
    encode a table: class codes, per-attribute codes and their count tables."""
    predictors, attrs = _validate(df, predictors, target, taxonomies) if validated is None else validated
    if classes is None:  # internal callers that do not publish the class domain (TDS, BA, cuts)
        classes = np.asarray(sorted(pd.unique(df[target]), key=str), dtype=object)
    else:
        classes = _check_classes(classes)
    y = _class_codes(df, target, classes)
    raw = [a.encode(df[a.name], "df") for a in attrs]
    return _from_codes(predictors, target, attrs, classes, y, raw)


def _from_codes(predictors, target, attrs, classes, y, raw) -> _Prepared:
    """The count tables of :class:`_Prepared` from encoded columns (Section 4.3's one pass)."""
    K = len(classes)
    vals, cum = [], []
    for a, x in zip(attrs, raw):
        if a.kind == "categorical":
            table = np.bincount(x * K + y, minlength=a.n_leaves * K).reshape(a.n_leaves, K)
            vals.append(None)
        else:
            v, inv = _distinct(x)
            table = np.bincount(inv * K + y, minlength=len(v) * K).reshape(len(v), K)
            vals.append(v)
        c = np.zeros((table.shape[0] + 1, K), dtype=np.int64)
        np.cumsum(table, axis=0, out=c[1:])
        cum.append(c)
    return _Prepared(list(predictors), target, attrs, classes, np.asarray(y, dtype=np.int64), list(raw), vals,
                     cum, n=len(y))


def _sorted_index(prep: _Prepared, a_idx: int):
    """The records of attribute ``a_idx`` ordered by code (stable) and the sorted codes, so that
    the records of a cut value are one slice; computed once per prepared table."""
    key = ("sorted", a_idx)
    if key not in prep.cache:
        x = prep.raw[a_idx]
        order = np.argsort(x, kind="stable")
        prep.cache[key] = (order, x[order])
    return prep.cache[key]


def _subset(prep: _Prepared, idx) -> _Prepared:
    """The prepared table of the records ``idx`` of ``prep`` (a training fold), without
    re-encoding: the codes are sliced and the count tables recomputed from the fold alone."""
    return _from_codes(prep.predictors, prep.target, prep.attrs, prep.classes, prep.y[idx],
                       [x[idx] for x in prep.raw])


def _distinct(x):
    """Sorted distinct values and the inverse index; a counting sort for integer data with a
    modest range (Section 4.3 sorts; the order is all that is needed)."""
    lo, hi = x.min(), x.max()
    if np.all(x == np.floor(x)) and hi - lo <= 4 * len(x) + 1_000_000:
        xi = (x - lo).astype(np.int64)
        present = np.bincount(xi, minlength=int(hi - lo) + 1) > 0
        rank = np.cumsum(present) - 1
        return np.flatnonzero(present).astype(float) + lo, rank[xi]
    return np.unique(x, return_inverse=True)



def _splittable(lo: float, hi: float) -> bool:
    """An interval [lo, hi) holds a split point s with lo < s < hi (floating point)."""
    return bool(np.nextafter(lo, hi) < hi)


def _check_list(values, name):
    """A non-empty list argument (not a string)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name}: expected a list, got {type(values).__name__} {values!r}")
    values = list(values)
    if not values:
        raise ValueError(f"{name}: expected at least one value, got none")
    return values
