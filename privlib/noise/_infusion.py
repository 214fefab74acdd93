"""Multiplicative noise infusion, aggregation with suppression flags and synthetic
replacements of suppressed cells (slides "Multiplicative Noise Infusion", "Weighting",
"QWIPU: Aggregating Formulas", "QWIPU: Handling the Suppressions")."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import (
    as_generator,
    check_array,
    check_columns,
    check_int,
    check_nonempty,
    check_positive,
    check_unique_columns,
)

#: QWI status flag 1: published as computed.
OK = 1
#: QWI status flag 5: suppressed, "must be treated as missing data and estimated".
SUPPRESSED = 5


def distort(panel: pd.DataFrame, factors: pd.Series, *,
            counts: tuple[str, ...] = ("B", "E", "M", "H", "R", "A", "S", "F"),
            magnitudes: tuple[str, ...] = ("W1", "W2"), estab: str = "estab") -> pd.DataFrame:
    """Fuzz establishment-level micro data with each establishment's permanent factor.

    Slide "Multiplicative Noise Infusion": every count and magnitude X of establishment j in
    every quarter t becomes X*_{jt} = delta_j X_{jt} (B*, W2*, ...).  The output keeps the
    undistorted columns and adds ``<X>_star`` columns plus ``delta``.  Ratios and changes are
    formed at aggregation (:func:`aggregate`), from these starred items.

    Parameters
    ----------
    panel : pandas.DataFrame
        Establishment micro data: the ``estab`` column, the ``counts`` and ``magnitudes``.
    factors : pandas.Series
        One permanent factor per establishment id (:func:`draw_factors`).
    counts, magnitudes : tuple of str
        Columns to fuzz (counts must be >= 0).
    estab : str
        The establishment id column.

    Returns
    -------
    pandas.DataFrame
        ``panel`` with ``delta`` and one ``<X>_star`` column per fuzzed item.

    Raises
    ------
    ValueError
        Missing columns or values, duplicated column names, negative or non-finite counts,
        non-finite magnitudes; ``factors`` with duplicated ids, missing ids, or a factor that
        is NaN, infinite or <= 0 (a distortion factor is a positive ratio fuzzed / true).
    TypeError
        ``factors`` is not a pandas Series indexed by establishment id.

    Examples
    --------
    >>> import pandas as pd
    >>> panel = pd.DataFrame({"estab": [0, 1], "B": [10, 4]})
    >>> out = distort(panel, pd.Series([1.1, 0.9], index=[0, 1]), counts=("B",), magnitudes=())
    >>> out["B_star"].round(6).tolist()
    [11.0, 3.6]
    """
    check_nonempty(panel, "panel")
    check_unique_columns(panel, "panel")
    cols = check_columns(panel, [estab, *counts, *magnitudes], "panel")
    if panel[cols].isna().to_numpy().any():
        raise ValueError("panel: missing values (NaN) in the micro data; impute them first")
    for c in counts:
        check_array(panel[c].to_numpy(), f"panel[{c!r}]", minimum=0)
    for c in magnitudes:
        check_array(panel[c].to_numpy(), f"panel[{c!r}]")
    if not isinstance(factors, pd.Series):
        raise TypeError(f"factors: expected a pandas Series indexed by establishment id, got {type(factors).__name__}")
    if not factors.index.is_unique:
        dup = factors.index[factors.index.duplicated()].unique()[:5].tolist()
        raise ValueError(f"factors: duplicated establishment id(s) {dup}; one permanent factor per establishment")
    fv = check_array(factors.to_numpy(), "factors")
    if fv.size and fv.min() <= 0:
        raise ValueError(f"factors: expected distortion factors > 0, got a minimum of {fv.min()!r}")
    missing = np.setdiff1d(panel[estab].unique(), factors.index.to_numpy())
    if missing.size:
        raise ValueError(f"factors: no distortion factor for establishment(s) {missing[:5].tolist()}")
    out = panel.copy()
    out["delta"] = factors.reindex(panel[estab]).to_numpy()
    for c in (*counts, *magnitudes):
        out[f"{c}_star"] = out["delta"] * out[c].astype(float)
    return out


def aggregate(fuzzed: pd.DataFrame, *, by: tuple[str, ...] = ("county", "industry", "quarter"),
              counts: tuple[str, ...] = ("B", "E", "M", "H", "R", "A", "S", "F"),
              weighted: bool = True, min_establishments: int = 3, min_persons: int = 3,
              weight: str = "weight") -> pd.DataFrame:
    """Aggregate fuzzed micro data to cells (county x industry x quarter by default).

    For each count X the cell gets (slides "Weighting" and "QWIPU: Aggregating Formulas"):

    * ``X``      the undistorted, unweighted total sum_j X_j (the confidential benchmark);
    * ``X_star`` the released total sum_j w_j delta_j X_j (w_j = 1 when ``weighted=False``);
    * ``X_flag`` the status flag: ``SUPPRESSED`` (5) when fewer than ``min_establishments``
      establishments have X_j > 0 or fewer than ``min_persons`` persons are counted
      (0 < X < min_persons), otherwise ``OK`` (1).  Zero cells are published as zero.

    Ratios and changes (slide "Multiplicative Noise Infusion"):

    * ``Z_W2_star = sum w delta W2 / sum w E`` (average end-of-quarter earnings; the
      denominator is *not* fuzzed) and ``Z_W2 = sum W2 / sum E``;
    * ``JF = sum (E - B)`` (net job flows, the undistorted unweighted benchmark) and
      ``JF_star = G x Ebar* = JF_w x Ebar*/Ebar`` (slide "Multiplicative Noise Infusion"), with
      every item weighted before aggregation as slide "Weighting" requires: JF_w = sum w (E - B),
      Ebar = sum w (B + E)/2 and Ebar* = sum w delta (B + E)/2.  When every establishment of a
      cell has the same factor, JF_star = E_star - B_star exactly.
    * ``JC`` / ``JD`` (job creations / destructions, sum_j max(E - B, 0) / max(B - E, 0)) and
      ``JC_star`` / ``JD_star``: the same "change" rule as JF (spreadsheet rows JobCreate,
      JobDest: fuzz value JC, change ratio delta_EBAR / EBAR), so JF* = JC* - JD*.
    * ``Z_dWA`` / ``Z_dWS`` (average earnings change of accessions / separations, when the
      micro data have ``dWA`` / ``dWS`` columns): ``Z_dWA = sum dWA / sum A`` and
      ``Z_dWA_star = (sum w dWA / sum w A) x (A* / sum w A)`` with ``A* = sum w delta A`` --
      slide "Multiplicative Noise Infusion": Z_DWA* = (Delta WA / A) x (A* / A).

    Parameters
    ----------
    fuzzed : pandas.DataFrame
        Output of :func:`distort` (with the ``by`` columns and, if ``weighted``, ``weight``).
    by : tuple of str
        Cell columns.
    counts : tuple of str
        Count variables to aggregate (each with its ``_star`` column).
    weighted : bool
        Weight each item by ``weight`` before aggregation (slide "Weighting").
    min_establishments, min_persons : int
        Suppression thresholds, >= 0.
    weight : str
        The final-weight column.

    Returns
    -------
    pandas.DataFrame
        One row per cell, sorted by ``by``.

    Raises
    ------
    ValueError
        Missing columns, duplicated column names, an empty table, NaN in the counts, or
        weights that are NaN, infinite or <= 0.

    Examples
    --------
    >>> import pandas as pd
    >>> micro = pd.DataFrame({"cell": [0, 0, 1], "B": [2, 3, 1], "B_star": [2.2, 2.7, 1.1],
    ...                       "delta": [1.1, 0.9, 1.1]})
    >>> cells = aggregate(micro, by=("cell",), counts=("B",), weighted=False, min_establishments=2)
    >>> cells[["cell", "B", "B_star", "B_flag"]].round(6).values.tolist()
    [[0.0, 5.0, 4.9, 1.0], [1.0, 1.0, 1.1, 5.0]]
    """
    check_nonempty(fuzzed, "fuzzed")
    check_unique_columns(fuzzed, "fuzzed")
    by = check_columns(fuzzed, list(by), "by")
    if fuzzed[by].isna().to_numpy().any():
        raise ValueError(f"by: missing values (NaN) in the grouping column(s) {by}; every record needs a cell")
    need = [*counts, *(f"{c}_star" for c in counts), "delta"]
    if weighted:
        need.append(weight)
    check_columns(fuzzed, need, "fuzzed")
    check_int(min_establishments, "min_establishments", minimum=0)
    check_int(min_persons, "min_persons", minimum=0)
    for c in need:
        if c != weight:
            check_array(fuzzed[c].to_numpy(), f"fuzzed[{c!r}]")
    if weighted:
        w = check_array(fuzzed[weight].to_numpy(), f"fuzzed[{weight!r}] (weight)")
        if w.min() <= 0:
            raise ValueError(f"weight: expected final weights > 0, got a minimum of {w.min()!r}")
    else:
        w = np.ones(len(fuzzed))
    data = {c: fuzzed[c].to_numpy(float) for c in counts}
    for c in counts:
        data[f"{c}_star"] = w * fuzzed[f"{c}_star"].to_numpy(float)
        data[f"{c}_n"] = (fuzzed[c].to_numpy() > 0).astype(np.int64)
    have_w = {"W2", "E"} <= set(fuzzed.columns) and "W2_star" in fuzzed.columns
    if have_w:
        data["W2"] = fuzzed["W2"].to_numpy(float)
        data["W2_star"] = w * fuzzed["W2_star"].to_numpy(float)
        data["E_w"] = w * fuzzed["E"].to_numpy(float)
    # change ratios Z_dWA, Z_dWS (spreadsheet "change_ratio": numerator dWA, denominator A,
    # change ratio delta_A / A), when the micro data carry the earnings changes
    dw_pairs = [(d, c) for d, c in (("dWA", "A"), ("dWS", "S")) if d in fuzzed.columns and c in counts]
    for d, c in dw_pairs:
        dv = check_array(fuzzed[d].to_numpy(float), f"fuzzed[{d!r}]")
        data[d] = dv
        data[f"{d}_w"] = w * dv
        data[f"{c}_w"] = w * fuzzed[c].to_numpy(float)
    if {"B", "E"} <= set(counts):
        ebar = (fuzzed["B"].to_numpy(float) + fuzzed["E"].to_numpy(float)) / 2
        change = fuzzed["E"].to_numpy(float) - fuzzed["B"].to_numpy(float)
        data["JF_w"] = w * change
        data["JC"] = np.maximum(change, 0.0)
        data["JD"] = np.maximum(-change, 0.0)
        data["JC_w"] = w * data["JC"]
        data["JD_w"] = w * data["JD"]
        data["Ebar_w"] = w * ebar
        data["Ebar_star"] = w * fuzzed["delta"].to_numpy(float) * ebar
    frame = pd.DataFrame(data)
    for col in by:
        frame[col] = fuzzed[col].to_numpy()
    cells = frame.groupby(by, sort=True).sum().reset_index()
    for c in counts:
        small = ((cells[f"{c}_n"] > 0) & (cells[f"{c}_n"] < min_establishments)) | \
                ((cells[c] > 0) & (cells[c] < min_persons))
        cells[f"{c}_flag"] = np.where(small, SUPPRESSED, OK)
    if have_w:
        with np.errstate(divide="ignore", invalid="ignore"):
            cells["Z_W2"] = cells["W2"] / cells["E"]
            cells["Z_W2_star"] = cells["W2_star"] / cells["E_w"]
    if "Ebar_w" in cells:
        cells["JF"] = cells["E"] - cells["B"]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(cells["Ebar_w"] > 0, cells["Ebar_star"] / cells["Ebar_w"], 1.0)
        cells["JF_star"] = cells["JF_w"] * ratio
        cells["JC_star"] = cells["JC_w"] * ratio
        cells["JD_star"] = cells["JD_w"] * ratio
    for d, c in dw_pairs:
        with np.errstate(divide="ignore", invalid="ignore"):
            cells[f"Z_{d}"] = cells[d] / cells[c]
            base = cells[f"{c}_w"]
            cells[f"Z_{d}_star"] = (cells[f"{d}_w"] / base) * (cells[f"{c}_star"] / base)
    return cells


def replace_suppressed(cells: pd.DataFrame, variable: str, *, rng: int | np.random.Generator,
                       prior_shape: float = 0.5, prior_rate: float = 0.0) -> pd.Series:
    """Released values of ``variable`` with suppressed cells replaced by synthetic values.

    Our stand-in for the synthetic replacements of Abowd, Gittings, Stephens & Vilhuber
    (Table 1C, Table 9; the slides do not give the model): for every cell flagged
    ``SUPPRESSED``, draw lambda ~ Gamma(prior_shape + X*, prior_rate + 1) (the Poisson-Gamma
    posterior given the fuzzed, weighted cell value X*, with the vague default prior
    Gamma(0.5, 0)) and release a Poisson(lambda) draw -- a posterior predictive draw whose
    mean is X* + 0.5 and whose variance is about 2 X*.  Unsuppressed cells keep X*.

    Parameters
    ----------
    cells : pandas.DataFrame
        Output of :func:`aggregate` (columns ``<variable>_star`` and ``<variable>_flag``).
    variable : str
        The count variable's column stem, e.g. ``"B"``.
    rng : int or numpy.random.Generator
        Required, keyword-only.
    prior_shape, prior_rate : float
        Gamma prior of the cell's Poisson mean: shape > 0, rate >= 0.

    Returns
    -------
    pandas.Series
        Named ``<variable>_synth``, aligned with ``cells``.

    Raises
    ------
    ValueError
        A suppressed cell's X* NaN, infinite or negative (it is the Gamma shape), or a flag
        neither ``OK`` nor ``SUPPRESSED``.
    TypeError
        ``variable`` not a string.

    Examples
    --------
    >>> import pandas as pd
    >>> cells = pd.DataFrame({"B_star": [12.3, 1.8], "B_flag": [OK, SUPPRESSED]})
    >>> out = replace_suppressed(cells, "B", rng=0)
    >>> float(out[0]), float(out[1]) == round(float(out[1]))
    (12.3, True)
    """
    if not isinstance(variable, str):
        raise TypeError(f"variable: expected a column stem (str), got {type(variable).__name__} {variable!r}")
    check_unique_columns(cells, "cells")
    check_columns(cells, [f"{variable}_star", f"{variable}_flag"], "cells")
    check_positive(prior_shape, "prior_shape")
    check_positive(prior_rate, "prior_rate", allow_zero=True)
    gen = as_generator(rng)
    x = cells[f"{variable}_star"].to_numpy(float).copy()
    flag = cells[f"{variable}_flag"].to_numpy()
    bad_flag = ~np.isin(flag, (OK, SUPPRESSED))
    if bad_flag.any():
        raise ValueError(f"cells[{variable + '_flag'!r}]: expected flags {OK} (OK) or {SUPPRESSED} (suppressed), "
                         f"got {flag[bad_flag][0]!r}")
    sup = flag == SUPPRESSED
    check_array(x[sup], f"cells[{variable + '_star'!r}] (suppressed cells)", minimum=0)
    lam = gen.gamma(prior_shape + x[sup], 1.0 / (prior_rate + 1.0))
    x[sup] = gen.poisson(lam)
    return pd.Series(x, index=cells.index, name=f"{variable}_synth")


def estimate_suppressed(released: np.ndarray, suppressed: np.ndarray, margins: np.ndarray, *,
                        prior: np.ndarray | None = None) -> np.ndarray:
    """Suppressed cells estimated from their row's published margin.

    Slide "QWIPU: Handling the Suppressions": "Status flag 5 suppressions -- Must be treated as
    missing data and estimated"; the slides name no estimator.  This one uses what QWI publishes
    beside the suppressed cells: the margin of their row (a county's total beside its county x
    industry cells), distorted with the same establishment factors.  For row ``i`` the
    remainder ``r_i = max(m_i - sum_{j not suppressed} x_ij, 0)`` is the suppressed cells'
    (noisy) total; it is spread over them in proportion to ``prior_j``, a public non-negative
    weight per column, or equally when ``prior`` is None or gives the row's suppressed cells no
    weight.  A row whose margin is not published (NaN: suppressed itself) keeps its suppressed
    cells missing (NaN); so does no cell outside the suppressed ones.

    Parameters
    ----------
    released : array_like (rows x columns)
        The published cells; the values at suppressed positions are ignored.
    suppressed : array_like of bool (rows x columns)
        The cells flagged suppressed (status flag 5).
    margins : array_like (rows,)
        Each row's published margin, NaN where it is not published.
    prior : array_like (columns,), optional
        Public non-negative weights of the columns (default: equal weights).

    Returns
    -------
    numpy.ndarray
        ``released`` with every suppressed cell replaced by its estimate (NaN where the row's
        margin is missing).

    Raises
    ------
    TypeError
        ``suppressed`` not boolean.
    ValueError
        Shapes that disagree; a published cell not finite; a margin negative or infinite; a
        prior weight negative or not finite.

    Examples
    --------
    >>> x = np.array([[5.0, 0.0, 0.0], [4.0, 0.0, 3.0], [0.0, 0.0, 0.0]])
    >>> sup = np.array([[False, True, True], [False, True, False], [True, True, False]])
    >>> estimate_suppressed(x, sup, np.array([9.0, 8.5, np.nan])).tolist()
    [[5.0, 2.0, 2.0], [4.0, 1.5, 3.0], [nan, nan, 0.0]]
    >>> estimate_suppressed(x, sup, np.array([9.0, 8.5, np.nan]), prior=np.array([1.0, 1.0, 3.0]))[0].tolist()
    [5.0, 1.0, 3.0]
    """
    x = np.asarray(released, dtype=float)
    if x.ndim != 2:
        raise ValueError(f"released: expected a (rows x columns) array, got shape {x.shape}")
    sup = np.asarray(suppressed)
    if sup.dtype != bool:
        raise TypeError(f"suppressed: expected a boolean array, got dtype {sup.dtype}")
    if sup.shape != x.shape:
        raise ValueError(f"suppressed: expected the shape of released {x.shape}, got {sup.shape}")
    m = np.asarray(margins, dtype=float)
    if m.shape != (x.shape[0],):
        raise ValueError(f"margins: expected one margin per row, shape {(x.shape[0],)}, got {m.shape}")
    if np.isinf(m).any() or (m < 0).any():
        raise ValueError(f"margins: expected non-negative margins or NaN (not published), got "
                         f"{m[np.isinf(m) | (m < 0)][0]!r}")
    if not np.isfinite(x[~sup]).all():
        raise ValueError("released: expected finite published (unsuppressed) cells")
    if prior is None:
        w = np.ones(x.shape[1])
    else:
        w = np.asarray(prior, dtype=float)
        if w.shape != (x.shape[1],):
            raise ValueError(f"prior: expected one weight per column, shape {(x.shape[1],)}, got {w.shape}")
        if not np.isfinite(w).all() or (w < 0).any():
            raise ValueError(f"prior: expected finite non-negative weights, got {w.tolist()!r}")
    published = np.where(sup, 0.0, x).sum(axis=1)
    remainder = np.clip(m - published, 0.0, None)                   # NaN where the margin is missing
    weight = np.where(sup, w[None, :], 0.0)
    total = weight.sum(axis=1, keepdims=True)
    equal = sup.astype(float)
    weight = np.where(total > 0, weight, equal)                     # no prior weight on the row: equal shares
    total = weight.sum(axis=1, keepdims=True)
    share = np.divide(weight, total, out=np.zeros_like(weight), where=total > 0)
    return np.where(sup, remainder[:, None] * share, x)
