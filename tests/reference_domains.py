"""Frozen reference copy of ``privlib.synth.build_domains`` as it was before the sparse rewrite
(a dense work tract x home tract distance and unit-key matrix per chunk), kept to test the
rewrite point for point.

Not a test module (no ``test_`` prefix); public privlib names only (the private helpers are
copied here).  Inputs are assumed valid: the public function validates.
"""
from __future__ import annotations

import numpy as np

from privlib.synth import Domains, tract_distances


def _weighted_percentiles(values, weights, qs):
    order = np.argsort(values, kind="stable")
    v, w = values[order], weights[order]
    cw = np.cumsum(w) / w.sum()
    return [float(v[min(np.searchsorted(cw, q / 100.0), v.size - 1)]) for q in qs]


def unit_keys(geo, dist, cut):
    """Coarsened unit key level * n_tracts + id for a (work tracts x all tracts) distance matrix."""
    n_t = geo.n_tracts
    level = (dist >= cut[0]).astype(np.int64) + (dist >= cut[1])
    ids = np.stack([np.arange(n_t), geo.tracts["puma"].to_numpy(), geo.tracts["spuma"].to_numpy()])
    return level * n_t + ids[level, np.arange(n_t)[None, :] if dist.ndim == 2 else np.arange(n_t)]


def reference_build_domains(data, *, settings, rng, chunk=256) -> Domains:
    """``build_domains`` before the rewrite (``rng`` a numpy Generator)."""
    gen = rng
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
    for c0 in range(0, wt.size, chunk):
        tt = wt[c0:c0 + chunk]
        dist = tract_distances(geo, tt)
        key = unit_keys(geo, dist, cut)
        local = (np.arange(tt.size)[:, None] * K + key).ravel()
        u = gen.random(local.size)
        low = np.full(tt.size * K, np.inf)
        np.minimum.at(low, local, u)
        rep = np.flatnonzero(u == low[local])
        rep = rep[np.argsort(local[rep], kind="stable")]
        ucode = c0 * K + local[rep]
        rep_tract = rep % n_t
        rep_block = rep_tract * bpt + gen.integers(0, bpt, size=ucode.size)
        lo, hi = np.searchsorted(pw_s, tt[0], side="left"), np.searchsorted(pw_s, tt[-1], side="right")
        sel = pr_sorted[lo:hi]
        row = np.minimum(np.searchsorted(tt, pw[sel]), tt.size - 1)
        mine = tt[row] == pw[sel]
        sel, row = sel[mine], row[mine]
        pkey = key[row, ph[sel]]
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
    return Domains(work_tracts=wt, offsets=np.r_[0, np.cumsum(sizes)], code=code,
                   level=np.concatenate(parts["level"]), rep_block=np.concatenate(parts["rep"]),
                   prior_count=prior, eliminated=eliminated, distance=dist, cutoffs=cut, n_tracts=n_t)
