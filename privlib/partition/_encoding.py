"""Ordered integer codes of the quasi-identifiers, their root box and the sensitive values."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._validation import check_columns, check_int, check_no_nan, check_nonempty, check_unique_columns

#: Largest domain width (codes per QI) and largest combined sort key ``group * width + code``:
#: below 2**62 every sum of two such numbers still fits in int64.
_INT_LIMIT = 2 ** 62


def encode_ordinal(df: pd.DataFrame, orders: Mapping[str, Sequence]) -> pd.DataFrame:
    """Return a copy of ``df`` whose columns in ``orders`` are replaced by ordered integer codes.

    Parameters
    ----------
    df : pandas.DataFrame
        The data; columns not in ``orders`` are copied unchanged.
    orders : mapping
        ``{column: sequence of values in their order}``; value ``orders[c][i]`` becomes code ``i``.

    Returns
    -------
    pandas.DataFrame
        A copy with int64 codes in the ordered columns.

    Raises
    ------
    ValueError
        If a column is unknown, an order has duplicates, or a column holds a value absent from
        its order (the value is named).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"size": ["M", "S", "L"], "n": [1, 2, 3]})
    >>> encode_ordinal(df, {"size": ["S", "M", "L"]})["size"].tolist()
    [1, 0, 2]
    """
    check_columns(df, list(orders), "orders")
    out = df.copy()
    for col, order in orders.items():
        order = list(order)
        if len(set(order)) != len(order):
            raise ValueError(f"orders[{col!r}]: expected distinct values, got duplicates in {order}")
        lookup = pd.Index(order)
        codes = lookup.get_indexer(df[col])
        if (codes < 0).any():
            bad = sorted(set(pd.Series(df[col])[codes < 0].astype(str)))[:5]
            raise ValueError(f"orders[{col!r}]: value(s) {bad} of column {col!r} are not in the given order")
        out[col] = codes.astype(np.int64)
    return out


def qi_codes(df: pd.DataFrame, qi: Sequence[str], *, name: str = "qi") -> np.ndarray:
    """The QI columns of ``df`` as an ``n x d`` int64 array of ordered codes.

    Accepts integer (or boolean) columns, integer-valued floats and pandas *ordered*
    categoricals (their codes).  Anything else -- strings, unordered categoricals -- is
    not orderable (use :func:`encode_ordinal` first).

    Parameters
    ----------
    df : pandas.DataFrame
    qi : sequence of str
        The quasi-identifier columns, in the order of the array's columns.
    name : str, default "qi"
        The argument name used in error messages.

    Returns
    -------
    numpy.ndarray
        ``len(df) x len(qi)`` int64 codes.

    Raises
    ------
    TypeError
        For a column that is not orderable integer codes.
    ValueError
        For no, duplicated or unknown columns, missing values, infinite values or codes beyond
        2**62.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"a": [3, 1], "b": pd.Categorical(["y", "x"], ["x", "y"], ordered=True)})
    >>> qi_codes(df, ["a", "b"]).tolist()
    [[3, 1], [1, 0]]
    """
    qi = check_columns(df, qi, name)
    if len(qi) == 0:
        raise ValueError(f"{name}: expected at least one quasi-identifier, got none")
    if len(set(qi)) != len(qi):
        raise ValueError(f"{name}: expected distinct quasi-identifiers, got {qi}")
    check_no_nan(df, "df", qi)
    cols = []
    for c in qi:
        s = df[c]
        if isinstance(s.dtype, pd.CategoricalDtype):
            if not s.dtype.ordered:
                raise TypeError(f"{name}: quasi-identifier {c!r} is an unordered categorical, not orderable; "
                                "give it an order with privlib.partition.encode_ordinal or an ordered Categorical")
            cols.append(s.cat.codes.to_numpy(np.int64))
        elif pd.api.types.is_unsigned_integer_dtype(s) and s.max() >= _INT_LIMIT:
            # uint64 codes of 2**63 or more would wrap to negative int64 codes
            raise ValueError(f"{name}: quasi-identifier {c!r} has values up to {int(s.max())}, beyond the "
                             f"integer codes privlib handles (|code| < 2**62)")
        elif pd.api.types.is_bool_dtype(s) or pd.api.types.is_integer_dtype(s):
            cols.append(s.to_numpy(np.int64))
        elif pd.api.types.is_float_dtype(s) and not np.all(np.isfinite(s.to_numpy())):
            raise ValueError(f"{name}: quasi-identifier {c!r} has infinite values; expected finite integer codes")
        elif pd.api.types.is_float_dtype(s) and np.all(np.mod(s.to_numpy(), 1) == 0):
            v = s.to_numpy()
            if np.abs(v).max(initial=0.0) >= _INT_LIMIT:
                raise ValueError(f"{name}: quasi-identifier {c!r} has values up to {np.abs(v).max()!r}, beyond the "
                                 f"integer codes privlib handles (|code| < 2**62)")
            cols.append(v.astype(np.int64))
        else:
            raise TypeError(f"{name}: quasi-identifier {c!r} has dtype {s.dtype}, not orderable integer codes; "
                            "encode it with privlib.partition.encode_ordinal(df, {column: order})")
    return np.column_stack(cols)


def root_box(codes: np.ndarray, qi: Sequence[str], *,
             domain: Mapping[str, tuple[int, int]] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The root box ``(lo, hi)`` of the QI codes: ``domain`` checked, or the data's min and max.

    Bounds must be integers (integer-valued floats are accepted; ``0.5`` is refused, never
    truncated) and every width ``hi - lo + 1`` below 2**62 so that code arithmetic fits in int64.

    Parameters
    ----------
    codes : numpy.ndarray
        ``n x d`` integer codes (:func:`qi_codes`).
    qi : sequence of str
        The names of the ``d`` columns (for ``domain`` and the messages).
    domain : mapping, optional
        ``{qi: (low, high)}`` public bounds; default the data's min and max per QI.

    Returns
    -------
    tuple of numpy.ndarray
        ``(lo, hi)``, two int64 arrays of length ``d``.

    Raises
    ------
    TypeError
        For a ``domain`` that is not a dict or has non-integer bounds.
    ValueError
        For a missing or malformed pair, ``low > high``, data outside the bounds or a width of
        2**62 codes or more.

    Examples
    --------
    >>> import numpy as np
    >>> lo, hi = root_box(np.array([[2, 5], [4, 1]]), ["a", "b"], domain={"a": (0, 9), "b": (1, 5)})
    >>> lo.tolist(), hi.tolist()
    ([0, 1], [9, 5])
    """
    X = codes
    if domain is None:
        lo, hi = X.min(axis=0), X.max(axis=0)
        _check_widths(lo.tolist(), hi.tolist(), qi)
        return lo, hi
    if not isinstance(domain, dict):
        raise TypeError(f"domain: expected a dict {{quasi-identifier: (low, high)}}, got {type(domain).__name__}")
    missing = [c for c in qi if c not in domain]
    if missing:
        raise ValueError(f"domain: expected a (low, high) pair for every quasi-identifier, missing {missing}")
    bounds = []
    for c in qi:
        pair = domain[c]
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise ValueError(f"domain[{c!r}]: expected a (low, high) pair of integer codes, got {pair!r}")
        try:
            bounds.append((check_int(pair[0], f"domain[{c!r}] low"), check_int(pair[1], f"domain[{c!r}] high")))
        except TypeError as exc:
            raise TypeError(f"domain: {exc}; quasi-identifiers are integer codes, so are their domains") from None
    _check_widths([b[0] for b in bounds], [b[1] for b in bounds], qi)
    lo = np.array([b[0] for b in bounds], dtype=np.int64)
    hi = np.array([b[1] for b in bounds], dtype=np.int64)
    if np.any(hi < lo):
        raise ValueError(f"domain: expected low <= high, got {dict(zip(qi, zip(lo.tolist(), hi.tolist())))}")
    outside = (X < lo) | (X > hi)
    if outside.any():
        j = int(np.argmax(outside.any(axis=0)))
        raise ValueError(f"domain: quasi-identifier {qi[j]!r} has values outside [{lo[j]}, {hi[j]}]")
    return lo, hi


def _check_widths(lo, hi, qi):
    for c, a, b in zip(qi, lo, hi):
        if abs(int(a)) >= _INT_LIMIT or abs(int(b)) >= _INT_LIMIT or int(b) - int(a) + 1 > _INT_LIMIT:
            raise ValueError(f"domain: quasi-identifier {c!r} spans [{a}, {b}]; expected bounds and a width "
                             "below 2**62 (rescale the codes, e.g. to seconds or days)")


def _sensitive(df, sa, sa_values=None):
    check_columns(df, [sa], "sa")
    check_no_nan(df, "df", [sa])
    s = df[sa]
    if sa_values is None:
        if isinstance(s.dtype, pd.CategoricalDtype):
            values = list(s.cat.categories)
        else:
            uniq = pd.unique(s).tolist()
            try:
                values = sorted(uniq)
            except TypeError:   # e.g. ints and strings: no order to put the histogram columns in
                kinds = sorted({type(v).__name__ for v in uniq})
                raise TypeError(f"sa: the sensitive column {sa!r} mixes values of types {kinds} that have no common "
                                f"order (e.g. {uniq[:4]}); cast it to one type (df[{sa!r}].astype(str)) or pass "
                                "sa_values=[...] in the order you want") from None
    else:
        if isinstance(sa_values, (str, bytes)):
            raise TypeError(f"sa_values: expected a sequence of sensitive values, got the string {sa_values!r}")
        values = list(sa_values)
        if not values:
            raise ValueError("sa_values: expected at least one sensitive value, got none")
        if len(set(values)) != len(values):
            raise ValueError(f"sa_values: expected distinct values, got duplicates in {values[:20]}")
    idx = pd.Index(values).get_indexer(s)
    if (idx < 0).any():
        raise ValueError(f"sa_values: value(s) {sorted(set(s[idx < 0].astype(str)))[:5]} of {sa!r} are not listed")
    return tuple(values), idx.astype(np.int64)


def _check_common(df, qi, sa):
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_nonempty(df, "df")
    check_unique_columns(df, "df")
    qi = check_columns(df, qi, "qi")
    if not isinstance(sa, str) and not np.isscalar(sa):
        raise TypeError(f"sa: expected one column name, got {type(sa).__name__} {sa!r}")
    check_columns(df, [sa], "sa")
    if sa in qi:
        raise ValueError(f"sa: the sensitive attribute {sa!r} is also listed as a quasi-identifier")
    return qi

