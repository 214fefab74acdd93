"""A seeded, documented stand-in for the OnTheMap commuting data (LEHD residence x workplace).

The confidential OnTheMap micro data (Job, Residence, Workplace and Geo-code tables; slide
"The OnTheMap Data Structure") cannot be redistributed, so the OnTheMap chapter runs on this
simulator.  It produces

* a nested geography: super-PUMAs > PUMAs > census tracts > blocks, each block with planar
  coordinates in miles (:func:`simulate_geography`);
* workplaces (employer blocks) with heavy-tailed employment, one residence block per job
  (the confidential "likelihood" data), and a public tract-to-tract prior table standing in
  for the CTPP / previous-year OnTheMap data (:func:`simulate_commuting`).

Design choices (ours; the slides give none):

* super-PUMA centres uniform on a ``width`` x ``height`` mile rectangle; PUMAs scattered
  around their super-PUMA centre (sd ``puma_sd`` miles), tracts around their PUMA (sd
  ``tract_sd``), blocks around their tract (sd ``block_sd``); tract populations lognormal;
* a residence tract r for a job in work tract t is drawn with probability proportional to
  pop_r x [exp(-d_tr / decay) + far_weight x exp(-d_tr / far_decay)] (a gravity model with a
  thin long-distance tail), then a block uniformly within r; with probability
  ``same_block`` the worker lives in the workplace's own block (distance 0);
* workplace employment n = 1 + floor(LogNormal(size_logmean, size_logsd)), so that many
  workplaces have 1-9 workers (the slides' "small populations");
* the public prior table is an independent draw of ``prior_jobs_per_job`` x the jobs of each
  work tract from the same model with a 10 % longer ``decay`` (last year's data differs).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ._checks import check_lognormal_size
from .._validation import as_generator, check_int, check_positive, check_probability
from ..synth import CommutingData, Geography, tract_distances

#: Largest number of blocks / of jobs the simulators generate (memory guard).
_MAX_BLOCKS = 20_000_000
_MAX_JOBS = 50_000_000

#: The data types are the synthesizer's schema (:mod:`privlib.synth`), re-exported here for convenience.
__all__ = ["simulate_geography", "simulate_commuting"]


def simulate_geography(*, n_spumas: int = 60, pumas_per_spuma: int = 4, tracts_per_puma: int = 10,
                       blocks_per_tract: int = 5, width: float = 2500.0, height: float = 1200.0,
                       puma_sd: float = 30.0, tract_sd: float = 6.0, block_sd: float = 0.6,
                       rng: int | np.random.Generator) -> Geography:
    """Simulate nested geography with coordinates (miles).  Blocks of tract r are
    ``r * blocks_per_tract ... r * blocks_per_tract + blocks_per_tract - 1``.

    Parameters
    ----------
    n_spumas, pumas_per_spuma, tracts_per_puma, blocks_per_tract : int
        Nesting sizes, >= 1.
    width, height : float
        The rectangle (miles) holding the super-PUMA centres, > 0.
    puma_sd, tract_sd, block_sd : float
        Scatter (miles) of PUMAs, tracts and blocks around their parent, > 0.
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    privlib.synth.Geography

    Raises
    ------
    ValueError
        Counts < 1, more than 2e7 blocks in total, sizes / standard deviations NaN, infinite
        or <= 0.

    Examples
    --------
    >>> geo = simulate_geography(n_spumas=2, pumas_per_spuma=2, tracts_per_puma=3, rng=0)
    >>> geo.n_tracts, len(geo.blocks), geo.n_pumas
    (12, 60, 4)
    """
    S = check_int(n_spumas, "n_spumas", minimum=1)
    P = check_int(pumas_per_spuma, "pumas_per_spuma", minimum=1)
    T = check_int(tracts_per_puma, "tracts_per_puma", minimum=1)
    Bk = check_int(blocks_per_tract, "blocks_per_tract", minimum=1)
    if S * P * T * Bk > _MAX_BLOCKS:
        raise ValueError(f"n_spumas, pumas_per_spuma, tracts_per_puma, blocks_per_tract: expected at most "
                         f"{_MAX_BLOCKS:,} blocks in total, got {S * P * T * Bk:,}")
    for v, nm in ((width, "width"), (height, "height"), (puma_sd, "puma_sd"), (tract_sd, "tract_sd"),
                  (block_sd, "block_sd")):
        check_positive(v, nm)
    gen = as_generator(rng)
    sx, sy = gen.uniform(0, width, S), gen.uniform(0, height, S)
    n_p = S * P
    p_sp = np.repeat(np.arange(S), P)
    px, py = sx[p_sp] + gen.normal(0, puma_sd, n_p), sy[p_sp] + gen.normal(0, puma_sd, n_p)
    n_t = n_p * T
    t_p = np.repeat(np.arange(n_p), T)
    tx, ty = px[t_p] + gen.normal(0, tract_sd, n_t), py[t_p] + gen.normal(0, tract_sd, n_t)
    n_b = n_t * Bk
    b_t = np.repeat(np.arange(n_t), Bk)
    bx, by = tx[b_t] + gen.normal(0, block_sd, n_b), ty[b_t] + gen.normal(0, block_sd, n_b)
    blocks = pd.DataFrame({"block": np.arange(n_b), "tract": b_t, "puma": t_p[b_t], "spuma": p_sp[t_p[b_t]],
                           "x": bx, "y": by})
    cx = np.bincount(b_t, weights=bx) / Bk
    cy = np.bincount(b_t, weights=by) / Bk
    pop = np.exp(gen.normal(np.log(4000.0), 0.5, n_t))
    tracts = pd.DataFrame({"tract": np.arange(n_t), "puma": t_p, "spuma": p_sp[t_p], "x": cx, "y": cy, "pop": pop})
    return Geography(blocks=blocks, tracts=tracts)


def _draw_home_tracts(geo, work_tract, decay, far_weight, far_decay, gen, chunk=256):
    """One residence tract per job; inverse-CDF sampling by chunks of work tracts."""
    pop = geo.tracts["pop"].to_numpy()
    order = np.argsort(work_tract, kind="stable")
    wt_sorted = work_tract[order]
    uniq, start = np.unique(wt_sorted, return_index=True)
    end = np.append(start[1:], wt_sorted.size)
    home = np.empty(work_tract.size, dtype=np.int64)
    n_t = geo.n_tracts
    for c0 in range(0, uniq.size, chunk):
        tt = uniq[c0:c0 + chunk]
        d = tract_distances(geo, tt)
        w = pop[None, :] * (np.exp(-d / decay) + far_weight * np.exp(-d / far_decay))
        cdf = np.cumsum(w, axis=1)
        cdf /= cdf[:, -1:]
        cdf[:, -1] = 1.0
        lo, hi = start[c0], end[min(c0 + chunk, uniq.size) - 1]
        rows = np.repeat(np.arange(tt.size), end[c0:c0 + chunk] - start[c0:c0 + chunk])
        u = gen.random(hi - lo)
        flat = (cdf + np.arange(tt.size)[:, None]).ravel()
        pos = np.searchsorted(flat, u + rows, side="right")
        home[order[lo:hi]] = np.minimum(pos - rows * n_t, n_t - 1)
    return home


def simulate_commuting(geo: Geography, *, n_workplaces: int = 2000, size_logmean: float = 1.0,
                       size_logsd: float = 1.3, decay: float = 7.0, far_weight: float = 0.003,
                       far_decay: float = 400.0, same_block: float = 0.05,
                       prior_jobs_per_job: float = 1.0, rng: int | np.random.Generator) -> CommutingData:
    """Simulate workplaces, their jobs' residence blocks, and a public prior table.

    Parameters
    ----------
    geo : Geography
    n_workplaces : int
        Number of workplace blocks (distinct blocks, drawn with probability proportional to
        their tract's population).
    size_logmean, size_logsd : float
        Employment n = 1 + floor(LogNormal(size_logmean, size_logsd)).
    decay, far_weight, far_decay : float
        Gravity model of residence choice (miles).
    same_block : float
        Probability that a worker lives in the workplace's own block.
    prior_jobs_per_job : float
        Size of the public prior table relative to the confidential jobs.
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    privlib.synth.CommutingData

    Raises
    ------
    ValueError
        A parameter NaN, infinite or out of range (``size_logmean`` in [-20, 12],
        ``size_logsd`` in (0, 5]), or a draw with more than 5e7 jobs.
    TypeError
        ``geo`` not a Geography.

    Examples
    --------
    >>> geo = simulate_geography(n_spumas=2, pumas_per_spuma=2, tracts_per_puma=3, rng=0)
    >>> data = simulate_commuting(geo, n_workplaces=10, rng=1)
    >>> len(data.workplaces), len(data.jobs) == int(data.workplaces["n"].sum())
    (10, True)
    """
    if not isinstance(geo, Geography):
        raise TypeError(f"geo: expected a Geography, got {type(geo).__name__}")
    W = check_int(n_workplaces, "n_workplaces", minimum=1)
    n_blocks = len(geo.blocks)
    if W > n_blocks:
        raise ValueError(f"n_workplaces: expected at most {n_blocks} (one per block), got {W}")
    for v, nm in ((decay, "decay"), (far_decay, "far_decay"), (prior_jobs_per_job, "prior_jobs_per_job")):
        check_positive(v, nm)
    check_positive(far_weight, "far_weight", allow_zero=True)
    check_probability(same_block, "same_block")
    mu, sd = check_lognormal_size(size_logmean, size_logsd)
    gen = as_generator(rng)
    btract = geo.blocks["tract"].to_numpy()
    bp = geo.tracts["pop"].to_numpy()[btract]
    wblock = np.sort(gen.choice(n_blocks, size=W, replace=False, p=bp / bp.sum()))
    wtract = btract[wblock]
    n = 1 + np.floor(np.exp(gen.normal(mu, sd, W))).astype(np.int64)
    if n.sum() > _MAX_JOBS or n.sum() * prior_jobs_per_job > _MAX_JOBS:
        raise ValueError(f"size_logmean, size_logsd, prior_jobs_per_job: the draw gives {n.sum():,} jobs, "
                         f"more than the {_MAX_JOBS:,} this simulator generates")
    workplaces = pd.DataFrame({"workplace": np.arange(W), "block": wblock, "tract": wtract, "n": n})

    job_w = np.repeat(np.arange(W), n)
    job_t = wtract[job_w]
    home_t = _draw_home_tracts(geo, job_t, decay, far_weight, far_decay, gen)
    bpt = n_blocks // geo.n_tracts
    home_b = home_t * bpt + gen.integers(0, bpt, size=job_w.size)
    same = gen.random(job_w.size) < same_block
    home_b[same] = wblock[job_w[same]]
    home_t[same] = wtract[job_w[same]]
    jobs = pd.DataFrame({"workplace": job_w, "home_block": home_b, "home_tract": home_t})

    # public prior table: an independent draw, tract to tract
    tr_jobs = np.bincount(wtract, weights=n, minlength=geo.n_tracts)
    n_prior = gen.poisson(prior_jobs_per_job * tr_jobs)
    pr_t = np.repeat(np.arange(geo.n_tracts), n_prior)
    pr_h = _draw_home_tracts(geo, pr_t, 1.1 * decay, far_weight, far_decay, gen)
    prior = (pd.DataFrame({"work_tract": pr_t, "home_tract": pr_h}).groupby(["work_tract", "home_tract"])
             .size().rename("count").reset_index())
    return CommutingData(geography=geo, workplaces=workplaces, jobs=jobs, prior=prior)
