"""The OnTheMap-style synthesis of residence counts and its analytical validity (slides
"Synthetic Data Model" to "Posterior, Likelihood and Prior Mass across Commute Ranges")."""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field, fields

import numpy as np
import pandas as pd

from ._schema import TOY_COMMUTING_DOC
from .._docs import shared_doc
from .._validation import as_generator, check_array, check_in, check_int
from ..accounting import Ledger, LedgerEntry
from ._domains import DIRECTION_LABELS, DISTANCE_LABELS, N_GRID, Domains, OTMSettings, grid_cell
from ._pdp import min_alpha_for_pdp, pruned_epsilon
from ._schema import CommutingData, check_commuting_data
from ._transition import _MAX_DRAWS

@dataclass(frozen=True)
@shared_doc(toy_commuting=TOY_COMMUTING_DOC)
class Synthesis:
    """Result of :func:`synthesize`, summarised on the 8 x 5 grid per workplace.

    ``likelihood`` (W x 40) counts of the confidential jobs kept after editing; ``posterior``
    and ``prior`` (W x 40) posterior-mean and prior-mean probabilities; ``synthetic`` (W x 40)
    synthetic residence counts; ``n`` kept jobs; ``m`` published employment; ``alpha_min`` per
    workplace; ``max_alpha_pruned`` the largest alpha of a prunable point (n_i = 0) kept or not;
    ``adjusted_eps`` = :func:`pruned_epsilon`; ``points`` / ``retained`` domain sizes before /
    after pruning per workplace; ``ledger`` the privacy accounting (a
    :class:`privlib.accounting.Ledger`: one parallel entry per workplace synthesizer).

    Parameters
    ----------
    settings : OTMSettings
    workplace, n, m : numpy.ndarray
        Workplace ids, kept jobs, published employment (one per workplace).
    likelihood, posterior, prior, synthetic : numpy.ndarray
        W x 40 grid summaries (see above).
    alpha_min : numpy.ndarray
    max_alpha_pruned, adjusted_eps : float
    points, retained : numpy.ndarray
    ledger : privlib.accounting.Ledger

    Examples
    --------
    {{toy_commuting}}
    >>> syn = synthesize(data, build_domains(data, rng=0), rng=1)
    >>> int(syn.synthetic.sum()), round(syn.adjusted_eps, 3)
    (3, 8.982)
    """

    settings: OTMSettings
    workplace: np.ndarray
    n: np.ndarray
    m: np.ndarray
    likelihood: np.ndarray
    posterior: np.ndarray
    prior: np.ndarray
    synthetic: np.ndarray
    alpha_min: np.ndarray
    max_alpha_pruned: float
    adjusted_eps: float
    points: np.ndarray
    retained: np.ndarray
    ledger: Ledger = field(default_factory=Ledger)


#: Relative precision of alpha_min(m) in :func:`synthesize`: the search returns the passing end
#: of its bracket, so a coarser precision only makes alpha_min up to 0.1 % larger (safer).
ALPHA_MIN_RTOL = 1e-3


def _alpha_min_lookup(m: np.ndarray, settings: OTMSettings) -> np.ndarray:
    mm = np.minimum(np.asarray(m, dtype=np.int64), settings.m_cap)
    uniq = np.unique(mm)
    vals = np.array([min_alpha_for_pdp(int(v), eps=settings.eps, delta=settings.delta, kind="posterior-predictive",
                                       prior=settings.alpha_prior, rule=settings.alpha_rule,
                                       rtol=ALPHA_MIN_RTOL) for v in uniq])
    return vals[np.searchsorted(uniq, mm)]


def _work_tract_positions(domains: Domains, wtract: np.ndarray) -> np.ndarray:
    """Index in ``domains.work_tracts`` of each workplace's tract (ValueError if one is missing)."""
    t_pos = np.searchsorted(domains.work_tracts, wtract)
    if np.any(domains.work_tracts[np.minimum(t_pos, domains.work_tracts.size - 1)] != wtract):
        raise ValueError("domains: built for other work tracts than these workplaces'")
    return t_pos


def _job_points(domains: Domains, tracts: pd.DataFrame, wpos: np.ndarray, t_of: np.ndarray,
                h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Step 1 of :func:`synthesize` (the likelihood): the domain point of each job.

    A job of work tract ``t_of`` (at ``wpos`` in ``domains.work_tracts``) living in tract ``h``
    falls on the tract, PUMA or super-PUMA unit that the coarsening made of ``h``.  Returns
    ``(ok, di)``: whether the point exists and was not edited away, and its index in
    ``domains.code``.
    """
    tx, ty = tracts["x"].to_numpy(), tracts["y"].to_numpy()
    tpuma, tsp = tracts["puma"].to_numpy(), tracts["spuma"].to_numpy()
    n_t = domains.n_tracts
    d = np.hypot(tx[t_of] - tx[h], ty[t_of] - ty[h])
    level = (d >= domains.cutoffs[0]).astype(np.int64) + (d >= domains.cutoffs[1])
    uid = np.where(level == 0, h, np.where(level == 1, tpuma[h], tsp[h]))
    code = wpos * (3 * n_t) + level * n_t + uid
    di = np.searchsorted(domains.code, code)
    last = np.minimum(di, domains.code.size - 1)
    ok = (di < domains.code.size)
    ok &= domains.code[last] == code
    ok &= ~domains.eliminated[last]
    return ok, di


@dataclass(frozen=True)
class _ChunkLayout:
    """What :func:`synthesize` computes on one chunk of workplaces before any noise and
    whatever the settings: the (workplace, point) layout, step 1 (the likelihood), the prior
    shares of step 2 and the grid cells of the summaries."""

    ws: np.ndarray         # workplaces of the chunk
    grp: np.ndarray        # workplace (in the chunk) of each (workplace, point) entry
    start: np.ndarray      # first entry of each workplace, and the end
    L: np.ndarray          # entries per workplace
    E: int
    elim: np.ndarray       # the entry's point was edited away
    n: np.ndarray          # likelihood counts (float)
    n_kept: np.ndarray     # kept jobs per workplace
    q: np.ndarray          # prior share of the point
    q_rel: np.ndarray      # q / (the workplace's largest q)
    prunable: np.ndarray   # not edited away and no job
    points: np.ndarray     # live points per workplace
    idx: np.ndarray        # workplace * N_GRID + grid cell of the entry
    lik: np.ndarray        # the likelihood on the grid (nw x N_GRID)


def _chunk_layouts(data: CommutingData, domains: Domains, chunk: int, t_pos: np.ndarray) -> list:
    geo = data.geography
    wp = data.workplaces
    W = len(wp)
    wblock = wp["block"].to_numpy()
    wtract = wp["tract"].to_numpy()
    bx, by = geo.blocks["x"].to_numpy(), geo.blocks["y"].to_numpy()
    jw = data.jobs["workplace"].to_numpy()
    jorder = np.argsort(jw, kind="stable")
    jw_s = jw[jorder]
    jh = data.jobs["home_tract"].to_numpy()[jorder]
    G = N_GRID
    out = []
    for c0 in range(0, W, chunk):
        ws = np.arange(c0, min(c0 + chunk, W))
        nw = ws.size
        tp = t_pos[ws]
        beg, L = domains.offsets[tp], domains.offsets[tp + 1] - domains.offsets[tp]
        start = np.r_[0, np.cumsum(L)]
        E = int(start[-1])
        grp = np.repeat(np.arange(nw), L)
        dom = np.repeat(beg - start[:-1], L) + np.arange(E)
        elim = domains.eliminated[dom]
        # 1. likelihood
        j0, j1 = np.searchsorted(jw_s, [ws[0], ws[-1] + 1])
        jl = jw_s[j0:j1] - c0
        h = jh[j0:j1]
        ok, di = _job_points(domains, geo.tracts, t_pos[ws][jl], wtract[ws][jl], h)
        entry = start[jl[ok]] + (di[ok] - beg[jl[ok]])
        n = np.bincount(entry, minlength=E).astype(float)
        n_kept = np.bincount(jl[ok], minlength=nw)
        # 2. informative prior: the shares
        pc = np.where(elim, 0.0, domains.prior_count[dom])
        live = (~elim).astype(float)
        tot = np.bincount(grp, weights=pc, minlength=nw)
        nlive = np.bincount(grp, weights=live, minlength=nw)
        tg = tot[grp]
        q = np.where(tg > 0, pc / np.where(tg > 0, tg, 1), live / np.maximum(nlive[grp], 1))
        # 3. pruning: the relative shares
        qmax = np.zeros(nw)
        np.maximum.at(qmax, grp, q)
        q_rel = q / np.where(qmax[grp] > 0, qmax[grp], 1)
        # grid cells
        rb = domains.rep_block[dom]
        wb = wblock[ws][grp]
        cell = grid_cell(bx[rb] - bx[wb], by[rb] - by[wb])
        idx = grp * G + cell
        lik = np.bincount(idx, weights=n, minlength=nw * G).reshape(nw, G)
        out.append(_ChunkLayout(ws=ws, grp=grp, start=start, L=L, E=E, elim=elim, n=n, n_kept=n_kept, q=q,
                                q_rel=q_rel, prunable=~elim & (n == 0), points=nlive.astype(np.int64),
                                idx=idx, lik=lik))
    return out


def _data_fingerprint(data: CommutingData) -> bytes:
    """A digest of every input column the layout reads (any change of a value changes it)."""
    geo = data.geography
    h = hashlib.blake2b(digest_size=16)
    for frame, cols in ((data.workplaces, ("block", "tract")), (data.jobs, ("workplace", "home_tract")),
                        (geo.blocks, ("x", "y")), (geo.tracts, ("x", "y", "puma", "spuma"))):
        h.update(str(len(frame)).encode())
        for c in cols:
            a = np.ascontiguousarray(frame[c].to_numpy())
            h.update(str(a.dtype).encode())
            h.update(a.tobytes())
    return h.digest()


def _layout(data: CommutingData, domains: Domains, chunk: int, t_pos: np.ndarray) -> list:
    """:func:`_chunk_layouts`, kept on ``domains`` for the next synthesis of the same data.

    Kept only when every array of ``domains`` is read-only (as :func:`build_domains` returns
    them: they cannot change under the cache), under a digest of the data's columns (so data
    changed in place is laid out again); the two most recent layouts are kept.
    """
    arrays = [getattr(domains, f.name) for f in fields(domains)]
    if any(isinstance(a, np.ndarray) and a.flags.writeable for a in arrays):
        return _chunk_layouts(data, domains, chunk, t_pos)
    key = (_data_fingerprint(data), int(chunk))
    cache = domains.__dict__.setdefault("_synthesis_layouts", {})
    if key not in cache:
        while len(cache) >= 2:
            cache.pop(next(iter(cache)))
        cache[key] = _chunk_layouts(data, domains, chunk, t_pos)
    return cache[key]


@shared_doc(toy_commuting=TOY_COMMUTING_DOC)
def kept_jobs(data: CommutingData, domains: Domains) -> np.ndarray:
    """Jobs of each workplace kept in the likelihood after editing (``Synthesis.n``).

    Step 1 of :func:`synthesize` alone (slide "Refinement: Editing the Prior Domain"): a job
    whose residence falls on a domain point edited away is dropped from the likelihood.  The
    count depends on the data and the domains only -- not on the settings, the published
    employment or the synthesizer's seed -- and no noise is drawn.

    Parameters
    ----------
    data : CommutingData
    domains : Domains
        From :func:`build_domains` on the same data.

    Returns
    -------
    numpy.ndarray of int64
        One count per row of ``data.workplaces``.

    Raises
    ------
    TypeError, ValueError
        Bad ``data`` (see :func:`build_domains`), ``domains`` that is not a :class:`Domains`
        or was built for other work tracts.

    Examples
    --------
    {{toy_commuting}}
    >>> kept_jobs(data, build_domains(data, rng=0)).tolist()
    [3]
    """
    if not isinstance(domains, Domains):
        raise TypeError(f"domains: expected Domains, got {type(domains).__name__}")
    check_commuting_data(data)
    wtract = data.workplaces["tract"].to_numpy()
    t_pos = _work_tract_positions(domains, wtract)
    jw = data.jobs["workplace"].to_numpy()
    ok, _ = _job_points(domains, data.geography.tracts, t_pos[jw], wtract[jw],
                        data.jobs["home_tract"].to_numpy())
    return np.bincount(jw[ok], minlength=len(wtract)).astype(np.int64)


@shared_doc(toy_commuting=TOY_COMMUTING_DOC)
def synthesize(data: CommutingData, domains: Domains, *, settings: OTMSettings = OTMSettings(),
               published: np.ndarray | None = None, rng: int | np.random.Generator,
               chunk: int = 4000) -> Synthesis:
    """Posterior-predictive synthesis of residence counts for every workplace (vectorised).

    Slides "Synthetic Data Model" to "Refinement: Domain Pruning".  For workplace w in work
    tract t with published employment m_w (``published``; default the true n):

    1. likelihood n_i: its jobs tabulated on t's domain; jobs at eliminated points dropped;
    2. informative prior alpha_i = max(alpha_min(m_w), prior_strength * q_i), q_i the share of
       point i in the public prior table (uniform if the table has none);
    3. pruning: points with n_i > 0 are kept; the others with probability
       f_i = max(min_p, q_i / max_i q_i);
    4. pi ~ Dirichlet(alpha + n) on the kept points; m_w residences ~ Multinomial(m_w, pi).

    Everything is computed on flat (workplace, point) arrays by chunks of ``chunk``
    workplaces: Gamma draws normalised by group sums, and inverse-CDF multinomial draws with
    a per-group offset, so there is no Python loop over workplaces.  What precedes the noise
    and does not depend on the settings (the entries, step 1, the prior shares, the grid cells)
    is kept on ``domains`` when its arrays are read-only (as :func:`build_domains` returns
    them), under a digest of the data's columns, and reused by the next synthesis of the same
    data: the results are the same with or without it.

    The returned ``ledger`` (a :class:`privlib.accounting.Ledger`) records the privacy
    accounting: one ``"parallel"`` entry per workplace synthesizer in the group
    ``"workplaces"`` (each job belongs to one workplace: disjoint records), each at
    ``adjusted_eps`` (Theorem 5.2, slide "Refinement: Domain Pruning"), with the PDP delta in
    its ``detail``; it is checked against ``adjusted_eps`` before returning.

    Parameters
    ----------
    data : CommutingData
    domains : Domains
        From :func:`build_domains` on the same data.
    settings : OTMSettings
    published : array_like, optional
        Published employment per workplace (default: the true ``n``).
    rng : int or numpy.random.Generator
        Required, keyword-only.
    chunk : int
        Workplaces per vectorised chunk, >= 1.

    Returns
    -------
    Synthesis

    Raises
    ------
    TypeError, ValueError
        Bad ``data`` (see :func:`build_domains`), ``domains`` of other work tracts,
        ``published`` of the wrong shape, NaN, infinite or negative, or totalling more than
        2e7 residences.

    Examples
    --------
    {{toy_commuting}}
    >>> syn = synthesize(data, build_domains(data, rng=0), rng=1)
    >>> syn.synthetic.sum(axis=1).tolist(), syn.ledger.total() == syn.adjusted_eps
    ([3.0], True)
    """
    if not isinstance(domains, Domains):
        raise TypeError(f"domains: expected Domains, got {type(domains).__name__}")
    if not isinstance(settings, OTMSettings):
        raise TypeError(f"settings: expected OTMSettings, got {type(settings).__name__}")
    check_commuting_data(data)
    chunk = check_int(chunk, "chunk", minimum=1)
    gen = as_generator(rng, release=True)
    wp = data.workplaces
    W = len(wp)
    wtract = wp["tract"].to_numpy()
    if published is None:
        m_pub = check_array(wp["n"].to_numpy(), "data.workplaces['n']", minimum=0)
    else:
        m_pub = check_array(published, "published")
    if m_pub.shape != (W,):
        raise ValueError(f"published: expected {W} published employment counts, got shape {m_pub.shape}")
    if m_pub.size and m_pub.min() < 0:
        raise ValueError(f"published: expected counts >= 0, got a minimum of {m_pub.min()}")
    if m_pub.sum() > _MAX_DRAWS:
        raise ValueError(f"published: expected at most {_MAX_DRAWS:,} synthetic residences in total, "
                         f"got {m_pub.sum():.6g}")
    m_pub = np.round(m_pub).astype(np.int64)
    amin = _alpha_min_lookup(np.maximum(m_pub, 1), settings)
    t_pos = _work_tract_positions(domains, wtract)
    G = N_GRID
    out = {k: np.zeros((W, G)) for k in ("lik", "post", "prior", "syn")}
    n_kept = np.zeros(W, dtype=np.int64)
    points = np.zeros(W, dtype=np.int64)
    retained = np.zeros(W, dtype=np.int64)
    max_alpha = 0.0
    for lay in _layout(data, domains, chunk, t_pos):
        ws, grp, start, L, E, elim, n = lay.ws, lay.grp, lay.start, lay.L, lay.E, lay.elim, lay.n
        nw = ws.size
        n_kept[ws] = lay.n_kept
        # 2. informative prior
        alpha = np.maximum(amin[ws][grp], settings.prior_strength * lay.q)
        # 3. pruning
        f = np.maximum(settings.min_p, lay.q_rel)
        keep = ~elim & ((n > 0) | (gen.random(E) < f))
        prunable = lay.prunable
        if prunable.any():
            max_alpha = max(max_alpha, float(alpha[prunable].max()))
        points[ws] = lay.points
        retained[ws] = np.bincount(grp, weights=keep, minlength=nw).astype(np.int64)
        a_post = np.where(keep, alpha + n, 0.0)
        a_prior = np.where(keep, alpha, 0.0)
        post_mean = a_post / np.bincount(grp, weights=a_post, minlength=nw)[grp]
        prior_mean = a_prior / np.bincount(grp, weights=a_prior, minlength=nw)[grp]
        # 4. posterior draw and multinomial synthesis
        g = np.where(keep, gen.standard_gamma(np.where(keep, a_post, 1.0)), 0.0)
        gs = np.bincount(grp, weights=g, minlength=nw)
        bad = gs[grp] <= 0
        g = np.where(bad, keep.astype(float), g)
        pi = g / np.bincount(grp, weights=g, minlength=nw)[grp]
        cum = np.cumsum(pi)
        cum -= np.repeat(np.r_[0.0, cum[start[1:-1] - 1]], L)
        cum = np.minimum(cum, 1.0)
        cum[start[1:] - 1] = 1.0 + 1e-12  # guard: every draw lands in its own group
        mw = m_pub[ws]
        dgrp = np.repeat(np.arange(nw), mw)
        u = gen.random(dgrp.size) * (1.0 - 1e-12)
        pos = np.searchsorted(cum + 2.0 * grp, u + 2.0 * dgrp, side="right")
        syn = np.bincount(pos, minlength=E).astype(float)
        # grid summaries
        out["lik"][ws] = lay.lik
        for key, val in (("post", post_mean), ("prior", prior_mean), ("syn", syn)):
            out[key][ws] = np.bincount(lay.idx, weights=val, minlength=nw * G).reshape(nw, G)
    adj = pruned_epsilon(settings.eps, min_p=settings.min_p, alpha=max(max_alpha, 1e-12))
    detail = (f"Multinomial-Dirichlet synthesizer of one workplace: ({settings.eps:g}, {settings.delta:g})-PDP "
              f"before pruning, min_p = {settings.min_p:g}, largest prunable alpha {max_alpha:.6g} "
              "(Theorem 5.2: eps + ln(1/min_p) + ceil(alpha) ln 2)")
    entry = LedgerEntry("multinomial-dirichlet synthesizer", float(adj), "parallel", group="workplaces",
                        detail=detail)
    ledger = Ledger([entry] * W).check(adj, name="adjusted_eps")
    return Synthesis(settings=settings, workplace=wp["workplace"].to_numpy(), n=n_kept, m=m_pub,
                     likelihood=out["lik"], posterior=out["post"], prior=out["prior"], synthetic=out["syn"],
                     alpha_min=amin, max_alpha_pruned=max_alpha, adjusted_eps=adj, points=points,
                     retained=retained, ledger=ledger)


@shared_doc(toy_commuting=TOY_COMMUTING_DOC)
def validity_grid(syn: Synthesis, *, which: str = "posterior") -> np.ndarray:
    """Per-workplace distributions over the 40 grid cells (rows sum to 1 where defined).

    Parameters
    ----------
    syn : Synthesis
    which : {"posterior", "likelihood", "prior", "synthetic"}
        Counts (likelihood, synthetic) are normalised per workplace; NaN rows where a
        workplace has none.

    Returns
    -------
    numpy.ndarray
        Shape (W, 40).

    Raises
    ------
    ValueError
        Unknown ``which``.

    Examples
    --------
    {{toy_commuting}}
    >>> syn = synthesize(data, build_domains(data, rng=0), rng=1)
    >>> validity_grid(syn, which="likelihood").sum(axis=1).tolist()
    [1.0]
    """
    check_in(which, "which", ("posterior", "likelihood", "prior", "synthetic"))
    if which in ("posterior", "prior"):
        return getattr(syn, which)
    arr = getattr(syn, which)
    tot = arr.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(tot > 0, arr / np.where(tot > 0, tot, 1), np.nan)


@shared_doc(toy_commuting=TOY_COMMUTING_DOC)
def analytical_validity(syn: Synthesis, *, small: tuple[int, int] = (1, 9)) -> pd.DataFrame:
    """Population-weighted KL divergence and integrated squared error, all and small workplaces.

    Slide "Analytical Validity Measures": for each workplace, L = the likelihood (confidential
    data) distribution and P = the posterior (mean) distribution on the 8 x 5 grid;
    D_KL(L || P) = sum_i L(i) ln(L(i)/P(i)) (the slide prints sum L ln(P/L), the same quantity
    with the opposite sign), IMSE = sum_i (P(i) - L(i))^2.  Workplaces are weighted by their
    number of (kept) jobs; "small" = 1 to 9 jobs.

    Parameters
    ----------
    syn : Synthesis
    small : (int, int)
        Employment range of the "small" workplaces (inclusive).

    Returns
    -------
    pandas.DataFrame
        Rows ``all``, ``small``; columns KL, IMSE, workplaces, jobs.

    Examples
    --------
    {{toy_commuting}}
    >>> syn = synthesize(data, build_domains(data, rng=0), rng=1)
    >>> analytical_validity(syn).loc["all", ["workplaces", "jobs"]].tolist()
    [1.0, 3.0]
    """
    L = validity_grid(syn, which="likelihood")
    P = syn.posterior
    w = syn.n.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(L > 0, L * np.log(np.where(L > 0, L, 1) / P), 0.0)
    kl = np.where(w > 0, terms.sum(axis=1), 0.0)
    imse = np.where(w > 0, np.nansum((P - L) ** 2, axis=1), 0.0)
    lo, hi = small
    sm = (syn.n >= lo) & (syn.n <= hi)
    rows = {}
    for name, sel in (("all", w > 0), ("small", sm)):
        ww = w[sel]
        rows[name] = {"KL": float(np.sum(ww * kl[sel]) / ww.sum()) if ww.sum() else math.nan,
                      "IMSE": float(np.sum(ww * imse[sel]) / ww.sum()) if ww.sum() else math.nan,
                      "workplaces": int(sel.sum()), "jobs": int(ww.sum())}
    return pd.DataFrame(rows).T


@shared_doc(toy_commuting=TOY_COMMUTING_DOC)
def mass_by_distance(syn: Synthesis, *, small: tuple[int, int] | None = None) -> pd.DataFrame:
    """Posterior, likelihood and prior mass across the 8 commute ranges, population-weighted.

    Form of the slides' table "Posterior, Likelihood and Prior Mass across Commute Ranges";
    ``small=(1, 9)`` restricts to small workplaces.

    Parameters
    ----------
    syn : Synthesis
    small : (int, int), optional
        Employment range (inclusive) to restrict to.

    Returns
    -------
    pandas.DataFrame
        Index: the 8 distance labels; columns Post., Lik., Prior (each sums to 1).

    Examples
    --------
    {{toy_commuting}}
    >>> syn = synthesize(data, build_domains(data, rng=0), rng=1)
    >>> mass_by_distance(syn).sum().round(6).tolist()
    [1.0, 1.0, 1.0]
    """
    sel = syn.n > 0
    if small is not None:
        sel &= (syn.n >= small[0]) & (syn.n <= small[1])
    w = syn.n[sel].astype(float)
    nd = len(DISTANCE_LABELS)
    cols = {}
    for name, arr in (("Post.", syn.posterior), ("Lik.", validity_grid(syn, which="likelihood")), ("Prior", syn.prior)):
        dist = arr[sel].reshape(-1, nd, len(DIRECTION_LABELS)).sum(axis=2)
        cols[name] = (w[:, None] * dist).sum(axis=0) / w.sum()
    return pd.DataFrame(cols, index=pd.Index(DISTANCE_LABELS, name="Distance"))


