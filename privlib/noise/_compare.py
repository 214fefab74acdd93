"""The comparisons of the slides' Tables 1A-1C and 7-9 and the error distributions."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import check_array, check_columns, check_int, check_nonempty, check_unique_columns

#: The percentiles of Tables 7-9, in the slides' order.
PERCENTILES = (99, 95, 90, 75, 50, 25, 10, 5, 1)


def category_table(true: np.ndarray, released: np.ndarray, *, top: int = 5) -> pd.DataFrame:
    """Row percentages of true vs released counts in categories 0, 1, ..., top-1, top+.

    The form of Tables 1A-1C: rows are the undistorted (unweighted) value's category, columns
    the released value's category after rounding to the nearest integer (slide "Weighting":
    "final disclosure control formulas must reflect rounding of the counts").  Rows with no
    cells are NaN.

    Parameters
    ----------
    true, released : array_like
        Counts of the same shape, >= 0 (NaN = missing, dropped pairwise).
    top : int
        The last category ``top+``, in 1..10,000.

    Returns
    -------
    pandas.DataFrame
        ``(top + 1) x (top + 1)`` row percentages.

    Raises
    ------
    ValueError
        Shapes differ, infinite or negative counts, ``top`` out of range.

    Examples
    --------
    >>> category_table([1, 1, 2, 2], [1.2, 1.6, 2.0, 1.4], top=2).loc["1", "2+"].item()
    50.0
    """
    t = check_array(true, "true", finite=False)
    r = check_array(released, "released", finite=False)
    if t.shape != r.shape:
        raise ValueError(f"released: expected the shape of true {t.shape}, got {r.shape}")
    for arr, nm in ((t, "true"), (r, "released")):
        if np.isinf(arr).any():
            raise ValueError(f"{nm}: expected finite counts (NaN = missing), got inf")
        if arr.size and np.nanmin(arr, initial=0.0) < 0:
            raise ValueError(f"{nm}: expected counts >= 0, got a minimum of {np.nanmin(arr)!r}")
    keep = ~(np.isnan(t) | np.isnan(r))
    check_int(top, "top", minimum=1, maximum=10_000)
    ct = np.clip(np.round(t[keep]), 0, top).astype(int)
    cr = np.clip(np.floor(r[keep] + 0.5), 0, top).astype(int)
    counts = np.bincount(ct * (top + 1) + cr, minlength=(top + 1) ** 2).reshape(top + 1, top + 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        pct = 100 * counts / counts.sum(axis=1, keepdims=True)
    labels = [str(i) for i in range(top)] + [f"{top}+"]
    return pd.DataFrame(pct, index=pd.Index(labels, name="undistorted"), columns=pd.Index(labels, name="released"))


def autocorrelation(values: np.ndarray) -> np.ndarray:
    """Lag-1 autocorrelation of each row of a (series x time) array, NaN-aware.

    The Pearson correlation of the pairs (x_{t-1}, x_t) with both present; NaN when fewer
    than 3 pairs or a constant series.

    Parameters
    ----------
    values : array_like, 2-d
        Series x time; NaN marks a missing value.

    Returns
    -------
    numpy.ndarray
        One autocorrelation per row.

    Raises
    ------
    ValueError
        ``values`` not 2-d, or holding +-inf.

    Examples
    --------
    >>> autocorrelation([[1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 1.0, 1.0, 1.0, 1.0]]).tolist()
    [1.0, nan]
    """
    x = check_array(values, "values", ndim=2, finite=False)
    if np.isinf(x).any():
        raise ValueError("values: expected finite numbers (NaN = missing), got inf")
    a, b = x[:, :-1], x[:, 1:]
    ok = ~(np.isnan(a) | np.isnan(b))
    n = ok.sum(axis=1)
    a0 = np.where(ok, a, 0.0)
    b0 = np.where(ok, b, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        ma = a0.sum(axis=1) / n
        mb = b0.sum(axis=1) / n
        da = np.where(ok, a - ma[:, None], 0.0)
        db = np.where(ok, b - mb[:, None], 0.0)
        num = (da * db).sum(axis=1)
        den = np.sqrt((da ** 2).sum(axis=1) * (db ** 2).sum(axis=1))
        r = num / den
    r[(n < 3) | ~np.isfinite(r)] = np.nan
    return r


def autocorrelation_difference(cells: pd.DataFrame, released: dict[str, np.ndarray], variables: str | list[str], *,
                               series: tuple[str, ...] = ("county", "industry"), time: str = "quarter",
                               percentiles: tuple[float, ...] = PERCENTILES) -> pd.DataFrame:
    """Percentiles of (released - undistorted) lag-1 autocorrelation across cell series.

    The form of Tables 7-9.  ``released[v]`` is an array aligned with ``cells`` holding the
    released value of variable ``v`` (NaN for suppressed cells that are treated as missing,
    Table 8).  Series whose autocorrelation is undefined in either version are dropped.

    Parameters
    ----------
    cells : pandas.DataFrame
        Cells with the ``series`` and ``time`` columns and the undistorted ``variables``.
    released : dict
        Variable -> released values aligned with ``cells``.
    variables : str or list of str
    series : tuple of str
        Columns identifying a time series.
    time : str
        The time column.
    percentiles : tuple of float

    Returns
    -------
    pandas.DataFrame
        One row per percentile, one column per variable.

    Raises
    ------
    ValueError
        Missing columns, an empty table, released values missing or misaligned.

    Examples
    --------
    >>> import pandas as pd
    >>> cells = pd.DataFrame({"s": 0, "quarter": range(5), "B": [1.0, 3.0, 2.0, 5.0, 4.0]})
    >>> autocorrelation_difference(cells, {"B": cells["B"] * 2}, "B", series=("s",),
    ...                            percentiles=(50,)).round(12).loc[50, "B"].item()
    0.0
    """
    check_nonempty(cells, "cells")
    check_unique_columns(cells, "cells")
    if isinstance(variables, str):
        variables = [variables]
    series = check_columns(cells, list(series), "series")
    check_columns(cells, [time, *variables], "cells")
    sidx = cells.groupby(series, sort=True).ngroup().to_numpy()
    sid = np.arange(sidx.max() + 1 if sidx.size else 0)
    tt, tidx = np.unique(cells[time].to_numpy(), return_inverse=True)
    out = {}
    for v in variables:
        if v not in released:
            raise ValueError(f"released: no released values for variable {v!r}")
        grid_t = np.full((sid.size, tt.size), np.nan)
        grid_r = np.full((sid.size, tt.size), np.nan)
        grid_t[sidx, tidx] = cells[v].to_numpy(float)
        rel = check_array(released[v], f"released[{v!r}]", ndim=1, finite=False)
        if rel.shape != (len(cells),):
            raise ValueError(f"released[{v!r}]: expected {len(cells)} values aligned with cells, got shape {rel.shape}")
        grid_r[sidx, tidx] = rel
        d = autocorrelation(grid_r) - autocorrelation(grid_t)
        d = d[~np.isnan(d)]
        out[v] = np.percentile(d, percentiles) if d.size else np.full(len(percentiles), np.nan)
    return pd.DataFrame(out, index=pd.Index(list(percentiles), name="percentile"))


def relative_error(true: np.ndarray, released: np.ndarray) -> np.ndarray:
    """(released - true) / true for true > 0 (the error distributions of the slides).

    Parameters
    ----------
    true, released : array_like
        Values of the same shape, finite.

    Returns
    -------
    numpy.ndarray
        One relative error per element with ``true > 0`` (flattened).

    Raises
    ------
    ValueError
        Arrays of different shapes or non-finite values.

    Examples
    --------
    >>> relative_error([10, 0, 4], [11, 1, 3]).tolist()
    [0.1, -0.25]
    """
    t = check_array(true, "true")
    r = check_array(released, "released")
    if t.shape != r.shape:
        raise ValueError(f"released: expected the shape of true {t.shape}, got {r.shape}")
    keep = t > 0
    return (r[keep] - t[keep]) / t[keep]
