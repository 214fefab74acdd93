"""Equivalence classes of a table and their sensitive-value counts (:func:`class_counts`)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._validation import check_columns, check_no_nan, check_nonempty, check_unique_columns

__all__ = ["class_counts"]

_BLOCK_CELLS = 2_000_000  # dense cells per block of classes (16 MB of float64)


def _check_count(v, name):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer, float, np.floating)):
        raise TypeError(f"{name}: expected a number, got {type(v).__name__} {v!r}")
    if not np.isfinite(v) or v < 1:
        raise ValueError(f"{name}: expected a number >= 1, got {v!r}")
    return v


def _qi_list(df, qi):
    check_unique_columns(df, "df")                 # a DataFrame, distinct column names
    qi = check_columns(df, qi, "qi")
    if not qi:
        raise ValueError("qi: expected at least one quasi-identifier column, got none")
    check_nonempty(df, "df")
    check_no_nan(df, "df", qi)
    return qi


def _group(df, qi):
    """Class id of every record (0 .. n_classes-1, classes sorted by QI values) and the keys."""
    g = df.groupby(qi, sort=True, observed=True, dropna=False)
    ids = g.ngroup().to_numpy()
    keys = g.size()
    return ids, keys.index


def _domain_codes(values: pd.Series, sa_values, sa: str):
    if sa_values is None and isinstance(values.dtype, pd.CategoricalDtype) and values.dtype.ordered:
        sa_values = list(values.cat.categories)                 # an ordered categorical declares its order
    if sa_values is None:
        domain = pd.Index(pd.unique(values)).sort_values()  # sort: unique keys
    else:
        domain = pd.Index(list(sa_values))
        if domain.has_duplicates:
            raise ValueError(f"sa_values: expected distinct values, got duplicates "
                             f"{list(domain[domain.duplicated()][:5])}")
    codes = domain.get_indexer(values)
    if (codes < 0).any():
        missing = pd.Series(pd.unique(values[codes < 0])[:5]).tolist()
        raise ValueError(f"sa: value(s) {list(missing)} of column {sa!r} are not in the domain {list(domain[:10])}")
    return codes, domain


def class_counts(df: pd.DataFrame, qi: Sequence[str], sa: str, *, sa_values: Sequence | None = None) -> tuple:
    """Count the sensitive values of every equivalence class.

    Parameters
    ----------
    df : DataFrame
    qi : list of str
        Quasi-identifier columns (the released, generalized values).
    sa : str
        Sensitive attribute.
    sa_values : sequence, optional
        The sensitive domain, in order (default: the sorted distinct values of ``sa``, or the
        categories of an ordered categorical).  Needed for the ordered distance when some
        value of the domain does not occur.

    Returns
    -------
    keys : pandas.Index
        QI values of the classes (a MultiIndex for several QIs).
    counts : scipy.sparse.csr_matrix, shape (n_classes, len(domain))
    domain : pandas.Index

    Raises
    ------
    ValueError
        For unknown columns, missing values, duplicated ``sa_values`` or a value of ``sa``
        outside ``sa_values``.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"zip": ["a", "a", "b"], "disease": ["flu", "ulcer", "flu"]})
    >>> keys, counts, domain = class_counts(t, ["zip"], "disease")
    >>> list(keys), counts.toarray().tolist(), list(domain)
    (['a', 'b'], [[1.0, 1.0], [1.0, 0.0]], ['flu', 'ulcer'])
    """
    from scipy import sparse

    qi = _qi_list(df, qi)
    (sa,) = check_columns(df, [sa], "sa")
    check_no_nan(df, "df", [sa])
    ids, keys = _group(df, qi)
    codes, domain = _domain_codes(df[sa], sa_values, sa)
    counts = sparse.csr_matrix((np.ones(len(ids)), (ids, codes)), shape=(len(keys), len(domain)))
    counts.sum_duplicates()
    return keys, counts, domain


def _as_counts(counts):
    from scipy import sparse

    c = counts if sparse.issparse(counts) else np.asarray(counts, dtype=float)
    if c.ndim != 2:
        raise ValueError(f"counts: expected a 2-d classes x values matrix, got shape {c.shape}")
    if c.shape[0] == 0 or c.shape[1] == 0:
        raise ValueError(f"counts: expected at least one class and one value, got shape {c.shape}")
    c = sparse.csr_matrix(c, dtype=float)
    if c.nnz and not np.all(np.isfinite(c.data)):
        raise ValueError("counts: expected finite counts, got NaN or inf")
    if c.nnz and (c.data < 0).any():
        raise ValueError("counts: expected non-negative counts, got a negative entry")
    sizes = np.asarray(c.sum(axis=1)).ravel()
    if (sizes <= 0).any():
        i = int(np.flatnonzero(sizes <= 0)[0])
        raise ValueError(f"counts: equivalence class {i} is empty (no records); every class needs at least one")
    return c, sizes
