"""The OnTheMap-style synthesizer's settings, grid and prior domains (slides "Coarsening
Steps" to "Refinement: Editing the Prior Domain", "Analytical Validity Measures")."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._schema import TOY_COMMUTING_DOC
from .._docs import shared_doc
from .._validation import (
    as_generator,
    check_array,
    check_delta,
    check_epsilon,
    check_in,
    check_int,
    check_positive,
    check_probability,
)
from ._schema import CommutingData, check_commuting_data, tract_distances
from ._transition import DISCLOSURE_RULES

# ----------------------------------------------------------------------------------------
# OnTheMap-style synthesizer
# ----------------------------------------------------------------------------------------
#: Upper edges (miles) of the grid's distance categories after 0 and (0-1).
DISTANCE_BINS = (1.0, 4.0, 10.0, 25.0, 100.0, 500.0)
#: Labels of the grid's distance categories.
DISTANCE_LABELS = ("0", "(0-1)", "[1-4)", "[4-10)", "[10-25)", "[25-100)", "[100-500)", "[500-high]")
#: Labels of the grid's direction categories (N/A: same place).
DIRECTION_LABELS = ("NW", "NE", "SW", "SE", "N/A")
#: Number of cells of the distance x direction grid.
N_GRID = len(DISTANCE_LABELS) * len(DIRECTION_LABELS)


def grid_cell(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """Cell of the slides' 8 distance x 5 direction grid (slide "Analytical Validity Measures").

    Distance categories (miles): 0, (0-1), [1-4), [4-10), [10-25), [25-100), [100-500), [500+);
    direction of the residence seen from the workplace: NW, NE, SW, SE, or "N/A" at distance 0.
    Returns ``8 * 5`` cell indices ``distance_category * 5 + direction`` (29 are reachable).

    Parameters
    ----------
    dx, dy : array_like
        Residence minus workplace coordinates (miles), finite.

    Returns
    -------
    numpy.ndarray of int
        Cell indices in 0..39, the shape of ``dx``.

    Raises
    ------
    ValueError
        NaN or infinite offsets.

    Examples
    --------
    >>> grid_cell([0.0, -0.5, 3.0], [0.0, 0.5, -1.0]).tolist()   # N/A at 0; NW (0-1); SE [1-4)
    [4, 5, 13]
    """
    dx = check_array(dx, "dx")
    dy = check_array(dy, "dy")
    d = np.hypot(dx, dy)
    cell = np.searchsorted(np.asarray(DISTANCE_BINS), d, side="right")
    cell += 1                                         # distance category 1.. (0 below)
    cell *= len(DIRECTION_LABELS)
    cell += 2 * (dy < 0) + (dx >= 0)                  # NW 0, NE 1, SW 2, SE 3
    cell[d == 0] = 4                                  # distance 0, direction N/A
    return cell


@dataclass(frozen=True)
class OTMSettings:
    """Parameters of the OnTheMap-style synthesizer (slide "Final Privacy Settings for OnTheMap V3").

    Parameters
    ----------
    eps, delta : float
        (eps, delta)-PDP target that sets the minimum prior sample size alpha_min(m) through
        :func:`min_alpha_for_pdp` (two-category search, ``alpha_rule`` / ``alpha_prior``),
        evaluated at ``min(m, m_cap)`` for a workplace with published employment m.
    min_p : float
        Minimum retention probability of the domain pruning.
    prior_strength : float
        f(prior density) = prior_strength x (prior share of the point); alpha_i =
        max(alpha_min, f).  With the default 1 every informative alpha_i <= 1, so ceil(alpha_i) = 1
        in :func:`pruned_epsilon` whenever alpha_min <= 1.
    coarsen_percentiles : tuple of float
        Tracts closer than the first percentile of the prior commute distances stay tracts,
        up to the second become PUMAs, beyond become super-PUMAs (slide "Coarsening Steps").
    edit_rules : tuple of (float, float)
        ((distance, elimination probability), ...) for prior-zero points (slide "Refinement:
        Editing the Prior Domain"): the first rule whose distance is exceeded applies.
    alpha_rule, alpha_prior : str
        ``rule`` and ``prior`` of the :func:`min_alpha_for_pdp` search.
    m_cap : int
        alpha_min(m) is computed at ``min(m, m_cap)``.

    Raises
    ------
    ValueError
        A setting out of range (named in the message).

    Examples
    --------
    >>> s = OTMSettings(eps=2.0)
    >>> s.eps, s.delta, s.min_p
    (2.0, 1e-06, 0.025)
    """

    eps: float = 4.6
    delta: float = 1e-6
    min_p: float = 0.025
    prior_strength: float = 1.0
    coarsen_percentiles: tuple = (50.0, 90.0)
    edit_rules: tuple = ((500.0, 0.98), (200.0, 0.9), (100.0, 0.5))
    alpha_rule: str = "any"
    alpha_prior: str = "worst"
    m_cap: int = 64

    def __post_init__(self):
        check_epsilon(self.eps)
        check_delta(self.delta)
        check_probability(self.min_p, "min_p", low_open=True)
        check_positive(self.prior_strength, "prior_strength")
        lo, hi = self.coarsen_percentiles
        if not 0 < lo <= hi < 100:
            raise ValueError(f"coarsen_percentiles: expected 0 < p1 <= p2 < 100, got {self.coarsen_percentiles!r}")
        for d, p in self.edit_rules:
            check_positive(d, "edit_rules distance")
            check_probability(p, "edit_rules probability")
        check_in(self.alpha_rule, "alpha_rule", DISCLOSURE_RULES)
        check_in(self.alpha_prior, "alpha_prior", ("worst", "prior"))
        check_int(self.m_cap, "m_cap", minimum=1)


#: One work tract with two points, a tract and a PUMA, the second edited away and far.
TOY_DOMAINS_DOC = """
Examples
--------
>>> import numpy as np
>>> d = Domains(np.array([0]), np.array([0, 2]), np.array([0, 1]), np.array([0, 1]),
...             np.array([0, 2]), np.array([5.0, 0.0]), np.array([False, True]),
...             np.array([0.1, 300.0]), (1.0, 2.0), 2)
"""
#: The distance bands (miles) of the slides' tables: ``(low, high, label)``, ``[low, high)``.
_BANDS = ((0, 10, "low-10"), (10, 25, "10-25"), (25, 100, "25-100"), (100, 500, "100-500"), (500, np.inf, "500-high"))


@dataclass(frozen=True)
@shared_doc(toy_domains=TOY_DOMAINS_DOC)
class Domains:
    """Coarsened, edited prior domains, one per work tract (CSR layout).

    Points of work tract ``work_tracts[i]`` are ``offsets[i]:offsets[i+1]``; ``code`` =
    i * 3 n_tracts + level * n_tracts + unit id (level 0 tract, 1 PUMA, 2 super-PUMA) is sorted.
    Made by :func:`build_domains`.

    Parameters
    ----------
    work_tracts, offsets, code, level : numpy.ndarray
        The CSR layout above.
    rep_block : numpy.ndarray
        Representative block of each point.
    prior_count : numpy.ndarray
        Public prior count of each point.
    eliminated : numpy.ndarray of bool
        Points edited away.
    distance : numpy.ndarray
        Work tract to representative block (miles).
    cutoffs : tuple of float
        The coarsening cut-offs (miles).
    n_tracts : int

    {{toy_domains}}
    >>> d.sizes.tolist(), float(d.summary().loc["Total", "Mean"])
    ([2], 1.0)
    """

    work_tracts: np.ndarray
    offsets: np.ndarray
    code: np.ndarray
    level: np.ndarray
    rep_block: np.ndarray
    prior_count: np.ndarray
    eliminated: np.ndarray
    distance: np.ndarray
    cutoffs: tuple
    n_tracts: int

    @property
    def sizes(self) -> np.ndarray:
        """Points per work tract (before pruning, edited points included)."""
        return np.diff(self.offsets)

    @shared_doc(toy_domains=TOY_DOMAINS_DOC)
    def summary(self) -> pd.DataFrame:
        """Support points per work tract before pruning, by level and by distance (form of the
        slides' table "Support Points in Prior Domain").

        Returns
        -------
        pandas.DataFrame
            Rows Total, Tract, PUMA, Super-PUMA and five distance bands; columns Mean, Min, Max.

        {{toy_domains}}
        >>> d.summary()["Mean"].tolist()
        [1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]
        """
        tid = np.repeat(np.arange(self.work_tracts.size), self.sizes)
        keep = ~self.eliminated
        rows = {}
        rows["Total"] = np.bincount(tid[keep], minlength=self.work_tracts.size)
        for lv, name in enumerate(("Tract", "PUMA", "Super-PUMA")):
            rows[name] = np.bincount(tid[keep & (self.level == lv)], minlength=self.work_tracts.size)
        for lo, hi, name in _BANDS:
            sel = keep & (self.distance >= lo) & (self.distance < hi)
            rows[name] = np.bincount(tid[sel], minlength=self.work_tracts.size)
        return pd.DataFrame({k: [v.mean(), v.min(), v.max()] for k, v in rows.items()},
                            index=["Mean", "Min", "Max"]).T

    @shared_doc(toy_domains=TOY_DOMAINS_DOC)
    def positive_fraction(self, *, edited: bool = True) -> pd.DataFrame:
        """Fraction of domain points with positive prior counts, by distance band: mean and SD
        across work tracts (form of the slides' tables "Fraction of Points in the Prior Domain
        with Positive Counts" before (``edited=False``) and after editing).

        Parameters
        ----------
        edited : bool
            Count only the points kept by the editing.

        Returns
        -------
        pandas.DataFrame
            Rows: five distance bands and All; columns Mean, SD.

        {{toy_domains}}
        >>> d.positive_fraction(edited=False).loc["All", "Mean"].item()
        0.5
        """
        tid = np.repeat(np.arange(self.work_tracts.size), self.sizes)
        keep = ~self.eliminated if edited else np.ones(self.code.size, bool)
        pos = (self.prior_count > 0).astype(float)
        rows = {}
        bands = [((self.distance >= lo) & (self.distance < hi), nm) for lo, hi, nm in _BANDS]
        bands.append((np.ones(self.code.size, bool), "All"))
        for sel, nm in bands:
            s = keep & sel
            cnt = np.bincount(tid[s], minlength=self.work_tracts.size)
            frac = np.bincount(tid[s], weights=pos[s], minlength=self.work_tracts.size)[cnt > 0] / cnt[cnt > 0]
            rows[nm] = {"Mean": frac.mean() if frac.size else np.nan, "SD": frac.std() if frac.size else np.nan}
        return pd.DataFrame(rows).T


def _weighted_percentiles(values, weights, qs):
    order = np.argsort(values, kind="stable")
    v, w = values[order], weights[order]
    cw = np.cumsum(w) / w.sum()
    return [float(v[min(np.searchsorted(cw, q / 100.0), v.size - 1)]) for q in qs]


@dataclass(frozen=True)
class _Blocks:
    """How the tracts group into PUMAs and super-PUMAs (for :func:`_block_minima`)."""

    puma: np.ndarray
    spuma: np.ndarray
    puma_size: int        # g > 0: units of g consecutive tracts each (0: any other layout)
    spuma_size: int

    @staticmethod
    def of(tracts: pd.DataFrame) -> "_Blocks":
        def size(ids):
            n = ids.size
            first = np.r_[True, ids[1:] != ids[:-1]]
            g = int(np.flatnonzero(first)[1]) if first.sum() > 1 else n
            ok = (n % g == 0 and np.all(np.diff(ids) >= 0) and np.all(first == (np.arange(n) % g == 0)))
            return g if ok else 0
        puma, spuma = tracts["puma"].to_numpy(), tracts["spuma"].to_numpy()
        return _Blocks(puma, spuma, size(puma), size(spuma))


def _block_minima(U: np.ndarray, ids: np.ndarray, g: int) -> np.ndarray:
    """Flat index of the smallest value of each (row, unit) of ``U`` (rows x tracts), the unit of
    tract j being ``ids[j]``; entries >= 1.5 are not in any unit (a unit of such entries only has
    none).  Units of ``g`` consecutive tracts: the argmin of each block; otherwise every entry
    equal to its unit's minimum (``minimum.reduceat`` over the tracts sorted by unit)."""
    nr, n_t = U.shape
    if g:
        arg = U.reshape(nr, n_t // g, g).argmin(axis=2)
        flat = (np.arange(nr)[:, None] * n_t + np.arange(0, n_t, g)[None, :] + arg).ravel()
        return flat[U.ravel()[flat] < 1.5]
    order = np.argsort(ids, kind="stable")
    uniq, start = np.unique(ids[order], return_index=True)
    m = np.minimum.reduceat(U[:, order], start, axis=1)
    is_min = (U == m[:, np.searchsorted(uniq, ids)]) & (U < 1.5)
    return np.flatnonzero(is_min)


def _dense_units(geo, tt, cut, u, blocks) -> _ChunkUnits:
    """:func:`_chunk_units` when most pairs are closer than cut[1]: the dense distance and key
    matrices (:func:`tract_distances`, as the units are defined), and the minimum draw of each
    PUMA and super-PUMA unit by :func:`_block_minima`."""
    n_t = geo.n_tracts
    K = 3 * n_t
    dist = tract_distances(geo, tt)
    a, b = dist >= cut[0], dist >= cut[1]               # level = a + b (b implies a)
    U = u.reshape(tt.size, n_t)
    rep0 = np.flatnonzero(~a)
    rep1 = _block_minima(np.where(a & ~b, U, 2.0), blocks.puma, blocks.puma_size)
    rep2 = _block_minima(np.where(b, U, 2.0), blocks.spuma, blocks.spuma_size)
    puma_key, spuma_key = n_t + blocks.puma, 2 * n_t + blocks.spuma
    rep = np.concatenate([rep0, rep1, rep2])
    key = np.concatenate([rep0 % n_t, puma_key[rep1 % n_t], spuma_key[rep2 % n_t]])
    local = (rep // n_t) * K + key
    o = np.argsort(local, kind="stable")
    empty = np.zeros(0, dtype=np.int64)
    return _ChunkUnits(rep=rep[o], local=local[o], near_flat=empty, near_key=puma_key, far_key=spuma_key,
                       n_tracts=n_t, dense_level=(a, b))


class _NearTracts:
    """The (work tract, home tract) pairs closer than ``radius`` miles, without the dense matrix.

    Tracts sorted by x: the candidates of a work tract lie in an x-strip (searchsorted) and a
    y-band around it (both padded); their distance is computed exactly as
    :func:`tract_distances` computes it (``np.hypot`` of the same differences), so the pairs
    and their distances are the ones the dense matrix would give.
    """

    def __init__(self, tx: np.ndarray, ty: np.ndarray, radius: float):
        self.tx, self.ty, self.radius = tx, ty, float(radius)
        self.order = np.argsort(tx, kind="stable")
        self.xs = tx[self.order]
        self.pad = abs(self.radius) * (1 + 1e-9) + 1e-9          # rounding of the differences

    def candidates(self, tt: np.ndarray) -> int:
        """How many pairs of ``tt`` lie in the x-strips (an upper bound of the near pairs)."""
        x0 = self.tx[tt]
        return int((np.searchsorted(self.xs, x0 + self.pad, side="right")
                    - np.searchsorted(self.xs, x0 - self.pad, side="left")).sum())

    def pairs(self, tt: np.ndarray):
        """``(row, col, dist)`` of the pairs (``tt[row]``, tract ``col``) with dist < radius,
        sorted by (row, col)."""
        x0, y0 = self.tx[tt], self.ty[tt]
        lo = np.searchsorted(self.xs, x0 - self.pad, side="left")
        hi = np.searchsorted(self.xs, x0 + self.pad, side="right")
        cnt = hi - lo
        row = np.repeat(np.arange(tt.size), cnt)
        pos = np.arange(row.size) - np.repeat(np.cumsum(cnt) - cnt, cnt) + np.repeat(lo, cnt)
        col = self.order[pos]
        dy = y0[row] - self.ty[col]
        band = np.abs(dy) <= self.pad
        row, col, dy = row[band], col[band], dy[band]
        dist = np.hypot(x0[row] - self.tx[col], dy)
        close = dist < self.radius
        row, col, dist = row[close], col[close], dist[close]
        o = np.lexsort((col, row))
        return row[o], col[o], dist[o]


@dataclass(frozen=True)
class _ChunkUnits:
    """The coarsened units of a chunk of work tracts (see :func:`_chunk_units`)."""

    rep: np.ndarray       # pair index row * n_tracts + home tract of each unit's representative
    local: np.ndarray     # row * 3 n_tracts + unit key of each unit, ascending
    near_flat: np.ndarray # the near pairs (row * n_tracts + home tract), sorted; empty when dense
    near_key: np.ndarray  # their unit keys; when dense: the unit key of a PUMA pair, by home tract
    far_key: np.ndarray   # unit key of a super-PUMA pair, by home tract
    n_tracts: int

    dense_level: tuple | None = None   # (d >= cut[0], d >= cut[1]) for every pair, when built

    def key(self, row: np.ndarray, col: np.ndarray) -> np.ndarray:
        """Unit key (level * n_tracts + unit id) of the pairs (``row``, ``col``)."""
        if self.dense_level is not None:
            (a, b), n_t = self.dense_level, self.n_tracts
            level = a[row, col].astype(np.int64) + b[row, col]
            return np.where(level == 0, col, np.where(level == 1, self.near_key[col], self.far_key[col]))
        out = self.far_key[col]
        if self.near_flat.size:
            flat = row * self.n_tracts + col
            pos = np.minimum(np.searchsorted(self.near_flat, flat), self.near_flat.size - 1)
            hit = self.near_flat[pos] == flat
            out = np.where(hit, self.near_key[pos], out)
        return out


def _chunk_units(geo, tt, cut, near, u, blocks) -> _ChunkUnits:
    """Coarsened units of the work tracts ``tt`` and their representatives (step 2-3 of
    :func:`build_domains`).

    Home tract r of work tract t is kept as a tract (d < cut[0]), coarsened to its PUMA
    (cut[0] <= d < cut[1]) or to its super-PUMA (d >= cut[1]), d = :func:`tract_distances`;
    the representative of a unit is its pair with the smallest draw ``u`` (one per pair, row
    major).  Only the pairs closer than cut[1] (``near``) are listed; the super-PUMA pairs,
    nearly all of them when cut[1] is small, are reduced per (row, super-PUMA) by
    :func:`_block_minima` on the draws, so no distance or key matrix is built.  Same units and
    representatives as the dense computation (``tests/test_synth_domains.py`` compares them
    with ``tests/reference_domains.py``).
    """
    n_t = geo.n_tracts
    K = 3 * n_t
    puma, spuma = blocks.puma, blocks.spuma
    row, col, dist = near.pairs(tt)
    level = (dist >= cut[0]).astype(np.int64)          # 0 tract, 1 PUMA (every pair here is < cut[1])
    nkey = np.where(level == 0, col, n_t + puma[col])
    nflat = row * n_t + col
    # tracts: every pair is its own unit
    rep0 = nflat[level == 0]
    # PUMAs: the smallest draw of each (row, PUMA) among its PUMA-level pairs
    f1 = nflat[level == 1]
    g1 = row[level == 1] * K + nkey[level == 1]
    u1 = u[f1]
    o = np.lexsort((u1, g1))
    first = np.r_[True, g1[o][1:] != g1[o][:-1]] if o.size else np.zeros(0, bool)
    gmin = np.empty(g1.size)
    gmin[o] = np.repeat(u1[o][first], np.diff(np.r_[np.flatnonzero(first), o.size]))
    rep1 = f1[u1 == gmin]
    # super-PUMAs: the smallest draw of each (row, super-PUMA) among the far pairs
    U = u.reshape(tt.size, n_t).copy()
    U.ravel()[nflat] = 2.0                               # not a super-PUMA pair (draws are < 1)
    rep2 = _block_minima(U, blocks.spuma, blocks.spuma_size)
    far_key = 2 * n_t + spuma
    rep = np.concatenate([rep0, rep1, rep2])
    rcol = rep % n_t
    key = np.concatenate([nkey[level == 0], n_t + puma[rcol[rep0.size:rep0.size + rep1.size]],
                          far_key[rcol[rep0.size + rep1.size:]]])
    local = (rep // n_t) * K + key
    o = np.argsort(local, kind="stable")
    return _ChunkUnits(rep=rep[o], local=local[o], near_flat=nflat, near_key=nkey, far_key=far_key,
                       n_tracts=n_t)


@shared_doc(toy_commuting=TOY_COMMUTING_DOC)
def build_domains(data: CommutingData, *, settings: OTMSettings = OTMSettings(), rng: int | np.random.Generator,
                  chunk: int = 256) -> Domains:
    """Coarsen and edit the prior domain of every work tract that has a workplace.

    Slides "Coarsening Steps", "Effects of Coarsening", "Refinement: Editing the Prior Domain":

    1. cut-offs = the ``coarsen_percentiles`` of the commute distances in the public prior
       table (tract centroid to tract centroid, weighted by counts);
    2. each origin tract r of work tract t is kept as a tract (d < p50), coarsened to its
       PUMA (p50 <= d < p90) or to its super-PUMA (d >= p90); a coarsened unit is the set of
       tracts mapped to it;
    3. each unit is represented by one block drawn at random among its tracts' blocks;
    4. units with zero prior count are eliminated with the ``edit_rules`` probabilities by
       the distance from the work tract to the representative block.

    Parameters
    ----------
    data : CommutingData
    settings : OTMSettings
    rng : int or numpy.random.Generator
        Required, keyword-only.
    chunk : int
        Work tracts per vectorised chunk, >= 1.

    Returns
    -------
    Domains
        Its arrays are read-only (:func:`synthesize` may keep its layout of them).

    Raises
    ------
    TypeError, ValueError
        Data without the CommutingData tables, ids out of range, NaN / infinite coordinates or
        counts, an empty workplace table or prior table, a ``chunk`` < 1.

    Examples
    --------
    {{toy_commuting}}
    >>> dom = build_domains(data, rng=0)
    >>> dom.sizes.tolist(), dom.prior_count.tolist()
    ([2], [5.0, 2.0])
    """
    if not isinstance(settings, OTMSettings):
        raise TypeError(f"settings: expected OTMSettings, got {type(settings).__name__}")
    check_commuting_data(data)
    chunk = check_int(chunk, "chunk", minimum=1)
    gen = as_generator(rng)
    geo = data.geography
    n_t = geo.n_tracts
    K = 3 * n_t
    bpt = len(geo.blocks) // n_t
    bx, by = geo.blocks["x"].to_numpy(), geo.blocks["y"].to_numpy()
    tx, ty = geo.tracts["x"].to_numpy(), geo.tracts["y"].to_numpy()
    pr = data.prior
    pw, ph, pc = pr["work_tract"].to_numpy(), pr["home_tract"].to_numpy(), pr["count"].to_numpy(float)
    pd_ = np.hypot(tx[pw] - tx[ph], ty[pw] - ty[ph])
    cut = tuple(_weighted_percentiles(pd_, pc, settings.coarsen_percentiles))
    wt = np.unique(data.workplaces["tract"].to_numpy())
    parts = {k: [] for k in ("code", "level", "rep", "prior", "dist")}
    sizes = np.zeros(wt.size, dtype=np.int64)
    pr_sorted = np.argsort(pw, kind="stable")
    pw_s = pw[pr_sorted]
    near = _NearTracts(tx, ty, cut[1])
    blocks = _Blocks.of(geo.tracts)
    for c0 in range(0, wt.size, chunk):
        tt = wt[c0:c0 + chunk]
        u = gen.random(tt.size * n_t)                            # one draw per (work, home) tract pair
        if near.candidates(tt) > tt.size * n_t // 4:             # most pairs near: dense matrices
            units = _dense_units(geo, tt, cut, u, blocks)
        else:
            units = _chunk_units(geo, tt, cut, near, u, blocks)
        rep, local = units.rep, units.local                      # one pair per unit, in unit order
        ucode = c0 * K + local
        rep_tract = rep % n_t
        rep_block = rep_tract * bpt + gen.integers(0, bpt, size=ucode.size)
        # prior counts of the chunk's work tracts, mapped to units
        lo, hi = np.searchsorted(pw_s, tt[0], side="left"), np.searchsorted(pw_s, tt[-1], side="right")
        sel = pr_sorted[lo:hi]
        row = np.minimum(np.searchsorted(tt, pw[sel]), tt.size - 1)
        mine = tt[row] == pw[sel]  # prior rows of work tracts without workplaces are ignored
        sel, row = sel[mine], row[mine]
        pkey = units.key(row, ph[sel])
        pcode = (c0 + row) * K + pkey
        prior = np.zeros(ucode.size)
        np.add.at(prior, np.searchsorted(ucode, pcode), pc[sel])
        ti = ucode // K - c0
        dist_rep = np.hypot(tx[tt[ti]] - bx[rep_block], ty[tt[ti]] - by[rep_block])
        parts["code"].append(ucode)
        parts["level"].append((ucode % K) // n_t)
        parts["rep"].append(rep_block)
        parts["prior"].append(prior)
        parts["dist"].append(dist_rep)
        sizes[c0:c0 + tt.size] = np.bincount(ti, minlength=tt.size)
    code = np.concatenate(parts["code"])
    prior = np.concatenate(parts["prior"])
    dist = np.concatenate(parts["dist"])
    p_elim = np.zeros(code.size)
    for d_min, p in sorted(settings.edit_rules, key=lambda r: r[0]):
        p_elim = np.where(dist > d_min, p, p_elim)
    eliminated = (prior == 0) & (gen.random(code.size) < p_elim)
    arrays = dict(work_tracts=wt, offsets=np.r_[0, np.cumsum(sizes)], code=code,
                  level=np.concatenate(parts["level"]), rep_block=np.concatenate(parts["rep"]),
                  prior_count=prior, eliminated=eliminated, distance=dist)
    for a in arrays.values():
        a.setflags(write=False)     # read-only: synthesize may keep its layout of them (see there)
    return Domains(**arrays, cutoffs=cut, n_tracts=n_t)


