"""Multiplicative noise infusion of the Quarterly Workforce Indicators (QWI).

Implements the "Noise Infusion" half of Abowd & Vilhuber (2011) {cite}`abowd2011slides`
(after Abowd, Stephens & Vilhuber 2006 {cite}`abowd2006qwi`):

* :class:`RampDistribution` -- the distortion-factor distribution (slide "Noise Factor
  Distribution"): density (b - d)/(b - a)^2 on [a, b] and (b + d - 2)/(b - a)^2 on
  [2 - b, 2 - a], so every factor moves a value away from the truth by between
  100(a - 1)% and 100(b - 1)%.
* :func:`draw_factors` -- one *permanent* factor per establishment (slide "The Quarterly
  Workforce Indicator System").
* :func:`distort` and :func:`aggregate` -- the formulas of slide "Multiplicative Noise
  Infusion": counts B* = delta B; ratios Z_W2* = delta W2 / E; changes
  JF* = JF x Ebar*/Ebar (and JC*, JD* by the same rule); change ratios
  Z_DWA* = (dWA / A) x (A* / A) (and Z_dWS*); each fuzzed item -- the changes included --
  weighted before aggregation (slide "Weighting");
  aggregation to county x industry cells; suppression flags (slide "QWIPU: Handling the
  Suppressions").
* :func:`replace_suppressed` -- synthetic replacements for suppressed cells (Table 1C / 9).
* :func:`category_table`, :func:`autocorrelation_difference`, :func:`relative_error` -- the
  comparisons of Tables 1A-1C, 7-9 and the error distributions.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._validation import (
    as_generator,
    check_array,
    check_columns,
    check_int,
    check_nonempty,
    check_positive,
    check_unique_columns,
)

__all__ = [
    "RampDistribution",
    "draw_factors",
    "distort",
    "aggregate",
    "replace_suppressed",
    "category_table",
    "autocorrelation",
    "autocorrelation_difference",
    "relative_error",
    "PERCENTILES",
    "SUPPRESSED",
    "OK",
]

PERCENTILES = (99, 95, 90, 75, 50, 25, 10, 5, 1)
OK = 1          # published as computed
SUPPRESSED = 5  # QWI status flag 5: suppressed, "must be treated as missing data and estimated"


@dataclass(frozen=True)
class RampDistribution:
    """The QWI distortion-factor ("fuzz factor") distribution.

    Slide "Noise Factor Distribution":

    p(d) = (b - d)/(b - a)^2 on [a, b];   p(d) = (b + d - 2)/(b - a)^2 on [2 - b, 2 - a]

    F(d) = 0.5 + [(b - a)^2 - (b - d)^2] / [2 (b - a)^2] on [a, b];
    F(d) = (d + b - 2)^2 / [2 (b - a)^2] on [2 - b, 2 - a].

    The density is a ramp falling from 1/(b - a) at a (and 2 - a) to 0 at b (and 2 - b); it
    is symmetric about 1, so the mean is 1.  The actual QWI values of a and b are
    confidential; the chapter uses illustrative ones.

    Parameters
    ----------
    a, b : float
        1 < a < b: minimum and maximum proportional distortion are a - 1 and b - 1.
    """

    a: float
    b: float

    def __post_init__(self):
        a = check_positive(self.a, "a")
        b = check_positive(self.b, "b")
        if a <= 1:
            raise ValueError(f"a: expected a > 1 (the minimum distortion a - 1 must be positive), got {self.a!r}")
        if b >= 2:
            raise ValueError(f"b: expected b < 2 (factors in [2 - b, 2 - a] must be positive), got {self.b!r}")
        if a >= b:
            raise ValueError(f"a, b: expected a < b, got a = {self.a!r} and b = {self.b!r}")

    @property
    def support(self):
        """The two intervals ((2 - b, 2 - a), (a, b))."""
        return ((2 - self.b, 2 - self.a), (self.a, self.b))

    def pdf(self, x):
        """Density (slide formula)."""
        x = np.asarray(x, dtype=float)
        a, b = self.a, self.b
        d2 = (b - a) ** 2
        up = (x >= a) & (x <= b)
        lo = (x >= 2 - b) & (x <= 2 - a)
        out = np.where(up, (b - x) / d2, np.where(lo, (b + x - 2) / d2, 0.0))
        return float(out) if out.ndim == 0 else out

    def cdf(self, x):
        """Distribution function (slide formula); 0.5 on the gap (2 - a, a)."""
        x = np.asarray(x, dtype=float)
        a, b = self.a, self.b
        d2 = (b - a) ** 2
        lo = np.clip(x, 2 - b, 2 - a)
        up = np.clip(x, a, b)
        F = np.where(x < a, (lo + b - 2) ** 2 / (2 * d2), 0.5 + (d2 - (b - up) ** 2) / (2 * d2))
        return float(F) if F.ndim == 0 else F

    def ppf(self, u):
        """Quantile function (inverse of :meth:`cdf`)."""
        u = np.asarray(u, dtype=float)
        if np.any((u < 0) | (u > 1)) or np.isnan(u).any():
            raise ValueError("u: expected probabilities in [0, 1]")
        a, b = self.a, self.b
        out = np.where(u < 0.5, 2 - b + (b - a) * np.sqrt(2 * u), b - (b - a) * np.sqrt(2 * (1 - u)))
        return float(out) if out.ndim == 0 else out

    def rvs(self, size=None, *, rng):
        """Draw factors by inversion: ``ppf(U)``, U uniform.

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape (``None``: one float).
        rng : int or numpy.random.Generator
            Required, keyword-only.
        """
        if size is not None:
            shape = (size,) if isinstance(size, (int, np.integer)) and not isinstance(size, bool) else size
            try:
                shape = tuple(check_int(k, "size", minimum=0) for k in shape)
            except TypeError:
                raise TypeError(f"size: expected a non-negative int or a tuple of them, got {size!r}") from None
            size = shape
        gen = as_generator(rng)
        return self.ppf(gen.random(size))

    def mean(self) -> float:
        return 1.0

    def var(self) -> float:
        """Variance E[(d - 1)^2] = (a - 1)^2 + 2 (a - 1)(b - a)/3 + (b - a)^2/6 (closed form)."""
        a, b = self.a, self.b
        return (a - 1) ** 2 + 2 * (a - 1) * (b - a) / 3 + (b - a) ** 2 / 6


def draw_factors(establishments, dist: RampDistribution, *, rng) -> pd.Series:
    """One permanent distortion factor per establishment (slide "The QWI System").

    Parameters
    ----------
    establishments : array_like
        Establishment identifiers (duplicates are allowed; each id gets one factor).
    dist : RampDistribution
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    pandas.Series indexed by establishment id (sorted).

    Raises
    ------
    ValueError
        ``establishments`` is not 1-d or contains missing ids (NaN / None).
    """
    if not isinstance(dist, RampDistribution):
        raise TypeError(f"dist: expected a RampDistribution, got {type(dist).__name__}")
    ids = np.asarray(establishments)
    if ids.ndim != 1:
        raise ValueError(f"establishments: expected a 1-d array of ids, got shape {ids.shape}")
    if np.asarray(pd.isna(ids)).any():
        raise ValueError("establishments: missing ids (NaN / None); every establishment needs an id")
    ids = np.unique(ids)
    gen = as_generator(rng)
    return pd.Series(dist.rvs(ids.size, rng=gen), index=ids, name="delta")


def distort(panel: pd.DataFrame, factors: pd.Series, counts=("B", "E", "M", "H", "R", "A", "S", "F"),
            magnitudes=("W1", "W2"), estab: str = "estab") -> pd.DataFrame:
    """Fuzz establishment-level micro data with each establishment's permanent factor.

    Slide "Multiplicative Noise Infusion": every count and magnitude X of establishment j in
    every quarter t becomes X*_{jt} = delta_j X_{jt} (B*, W2*, ...).  The output keeps the
    undistorted columns and adds ``<X>_star`` columns plus ``delta``.  Ratios and changes are
    formed at aggregation (:func:`aggregate`), from these starred items.

    Raises
    ------
    ValueError
        Missing columns or values, duplicated column names, negative or non-finite counts,
        non-finite magnitudes; ``factors`` with duplicated ids, missing ids, or a factor that
        is NaN, infinite or <= 0 (a distortion factor is a positive ratio fuzzed / true).
    TypeError
        ``factors`` is not a pandas Series indexed by establishment id.
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


def aggregate(fuzzed: pd.DataFrame, by=("county", "industry", "quarter"), counts=("B", "E", "M", "H", "R", "A", "S", "F"),
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

    Raises
    ------
    ValueError
        Missing columns, duplicated column names, an empty table, NaN in the counts, or
        weights that are NaN, infinite or <= 0.
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


def replace_suppressed(cells: pd.DataFrame, variable: str, *, rng, prior_shape: float = 0.5,
                       prior_rate: float = 0.0) -> pd.Series:
    """Released values of ``variable`` with suppressed cells replaced by synthetic values.

    Our stand-in for the synthetic replacements of Abowd, Gittings, Stephens & Vilhuber
    (Table 1C, Table 9; the slides do not give the model): for every cell flagged
    ``SUPPRESSED``, draw lambda ~ Gamma(prior_shape + X*, prior_rate + 1) (the Poisson-Gamma
    posterior given the fuzzed, weighted cell value X*, with the vague default prior
    Gamma(0.5, 0)) and release a Poisson(lambda) draw -- a posterior predictive draw whose
    mean is X* + 0.5 and whose variance is about 2 X*.  Unsuppressed cells keep X*.

    ``rng`` is required and keyword-only.  Raises ``ValueError`` when a suppressed cell's X*
    is NaN, infinite or negative (it is the Gamma shape), or a flag is neither ``OK`` nor
    ``SUPPRESSED``.
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


def category_table(true, released, top: int = 5) -> pd.DataFrame:
    """Row percentages of true vs released counts in categories 0, 1, ..., top-1, top+.

    The form of Tables 1A-1C: rows are the undistorted (unweighted) value's category, columns
    the released value's category after rounding to the nearest integer (slide "Weighting":
    "final disclosure control formulas must reflect rounding of the counts").  Rows with no
    cells are NaN.
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
    than 3 pairs or a constant series.  ``values`` must be 2-d; NaN marks a missing value,
    +-inf is refused.
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


def autocorrelation_difference(cells: pd.DataFrame, released: dict, variables, series=("county", "industry"),
                               time: str = "quarter", percentiles=PERCENTILES) -> pd.DataFrame:
    """Percentiles of (released - undistorted) lag-1 autocorrelation across cell series.

    The form of Tables 7-9.  ``released[v]`` is an array aligned with ``cells`` holding the
    released value of variable ``v`` (NaN for suppressed cells that are treated as missing,
    Table 8).  Series whose autocorrelation is undefined in either version are dropped.
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


def relative_error(true, released) -> np.ndarray:
    """(released - true) / true for true > 0 (the error distributions of the slides).

    Raises ``ValueError`` for arrays of different shapes or non-finite values.
    """
    t = check_array(true, "true")
    r = check_array(released, "released")
    if t.shape != r.shape:
        raise ValueError(f"released: expected the shape of true {t.shape}, got {r.shape}")
    keep = t > 0
    return (r[keep] - t[keep]) / t[keep]
