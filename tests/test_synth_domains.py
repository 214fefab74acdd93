"""``privlib.synth.build_domains`` (sparse near pairs, super-PUMA blocks reduced without a
distance matrix) against the dense reference it replaced (``tests/reference_domains.py``):
the same domains, point for point, and the same random stream afterwards."""
import dataclasses

import numpy as np
import pytest

from privlib import synth
from privlib.simulate import simulate_commuting, simulate_geography
from reference_domains import reference_build_domains


def _data(seed, n_spumas=12, far_weight=3e-4):
    g = simulate_geography(n_spumas=n_spumas, rng=seed)
    return simulate_commuting(g, n_workplaces=400, decay=10, far_weight=far_weight, rng=seed + 1)


def _scrambled(data, seed):
    """The same state with PUMA and super-PUMA ids out of tract order, super-PUMAs of unequal sizes."""
    tr = data.geography.tracts.copy()
    rng = np.random.default_rng(seed)
    sp = tr["spuma"].to_numpy()
    perm = rng.permutation(sp.max() + 1)
    sp = perm[sp]
    sp = np.where(sp == 1, 0, sp)                     # two super-PUMAs merged: unequal sizes
    tr["spuma"] = sp
    pu = tr["puma"].to_numpy()
    tr["puma"] = rng.permutation(pu.max() + 1)[pu]    # PUMA ids out of tract order
    geo = dataclasses.replace(data.geography, tracts=tr)
    return dataclasses.replace(data, geography=geo)


def _same(a, b):
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y), f.name
        else:
            assert x == y, f.name


@pytest.mark.parametrize("seed, chunk, settings, far_weight", [
    (1, 256, synth.OTMSettings(), 3e-4),
    (2, 7, synth.OTMSettings(), 3e-4),
    (3, 1, synth.OTMSettings(coarsen_percentiles=(50.0, 50.0)), 3e-4),
    (4, 64, synth.OTMSettings(coarsen_percentiles=(5.0, 99.0)), 3e-4),
    (5, 300, synth.OTMSettings(coarsen_percentiles=(1.0, 2.0)), 3e-4),
    # far commutes: the second cut-off spans the state, most pairs are near (dense matrices)
    (6, 256, synth.OTMSettings(), 3e-2),
    (7, 5, synth.OTMSettings(coarsen_percentiles=(20.0, 99.5)), 3e-2),
])
def test_build_domains_matches_dense_reference(seed, chunk, settings, far_weight):
    for data in (_data(seed, far_weight=far_weight), _scrambled(_data(seed, far_weight=far_weight), seed)):
        gen_a, gen_b = np.random.default_rng(seed), np.random.default_rng(seed)
        new = synth.build_domains(data, settings=settings, rng=gen_a, chunk=chunk)
        ref = reference_build_domains(data, settings=settings, rng=gen_b, chunk=chunk)
        _same(new, ref)
        assert gen_a.random() == gen_b.random()      # the same draws were consumed


def test_build_domains_near_radius_at_a_pair_distance():
    """A cut-off equal to a tract pair's distance: that pair is coarsened (d >= cut), as before."""
    data = _data(8)
    geo = data.geography
    d = synth.tract_distances(geo, np.arange(geo.n_tracts))
    pw, ph = data.prior["work_tract"].to_numpy(), data.prior["home_tract"].to_numpy()
    for q in (20.0, 60.0):     # the percentiles are prior pairs' distances: exact ties occur
        settings = synth.OTMSettings(coarsen_percentiles=(q, q + 10))
        new = synth.build_domains(data, settings=settings, rng=np.random.default_rng(9))
        assert any(np.any(d[pw, ph] == c) for c in new.cutoffs)
        _same(new, reference_build_domains(data, settings=settings, rng=np.random.default_rng(9)))


# ---------------------------------------------------------------- kept_jobs
@pytest.mark.parametrize("seed", [1, 2])
def test_kept_jobs_is_the_synthesis_likelihood_count(seed):
    data = _data(seed)
    dom = synth.build_domains(data, rng=seed)
    kept = synth.kept_jobs(data, dom)
    for settings, rng in ((synth.OTMSettings(), 0), (synth.OTMSettings(eps=2.0, min_p=0.1), 5)):
        syn = synth.synthesize(data, dom, settings=settings, rng=rng)
        assert kept.dtype == syn.n.dtype and np.array_equal(kept, syn.n)
        assert np.array_equal(kept, syn.likelihood.sum(axis=1).astype(np.int64))
    assert 0 < kept.sum() <= data.workplaces["n"].sum()


def test_kept_jobs_bad_input():
    data = _data(3)
    dom = synth.build_domains(data, rng=0)
    with pytest.raises(TypeError, match="domains: expected Domains, got dict"):
        synth.kept_jobs(data, {})
    with pytest.raises(TypeError, match="data: expected CommutingData"):
        synth.kept_jobs(object(), dom)
    other = dataclasses.replace(dom, work_tracts=dom.work_tracts + 1)
    with pytest.raises(ValueError, match="domains: built for other work tracts"):
        synth.kept_jobs(data, other)


def test_grid_cell_edges_and_signed_zeros():
    """Every category edge on both axes and the four directions, against the slide's rule written out."""
    edges = np.array((0.0,) + synth.DISTANCE_BINS)
    r = np.r_[edges, np.nextafter(edges, np.inf)[1:], np.nextafter(edges, -np.inf)[1:], 1e4]
    dx = np.r_[r, -r, r, -r, -0.0, 0.0, -0.0]
    dy = np.r_[r, r, -r, -r, -0.0, -0.0, 2.0]
    d = np.hypot(dx, dy)
    cat = np.where(d == 0, 0, 1 + np.searchsorted(np.asarray(synth.DISTANCE_BINS), d, side="right"))
    direc = np.where(d == 0, 4, np.where(dy >= 0, np.where(dx < 0, 0, 1), np.where(dx < 0, 2, 3)))
    assert np.array_equal(synth.grid_cell(dx, dy), cat * 5 + direc)
    with pytest.raises(ValueError, match="dx"):
        synth.grid_cell([np.nan], [0.0])


# ---------------------------------------------------------------- synthesize's kept layout
def _writeable(dom):
    """The same domains with writeable copies of its arrays (synthesize keeps no layout of them)."""
    return dataclasses.replace(dom, **{f.name: getattr(dom, f.name).copy() for f in dataclasses.fields(dom)
                                       if isinstance(getattr(dom, f.name), np.ndarray)})


def _same_synthesis(a, b):
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y), f.name
        elif f.name == "ledger":
            assert list(x) == list(y)
        else:
            assert x == y, f.name


def test_build_domains_arrays_are_read_only():
    dom = synth.build_domains(_data(1), rng=0)
    for f in dataclasses.fields(dom):
        a = getattr(dom, f.name)
        if isinstance(a, np.ndarray):
            assert not a.flags.writeable, f.name
            with pytest.raises(ValueError, match="read-only"):
                a[...] = a


@pytest.mark.parametrize("chunk", [4000, 37])
def test_synthesize_same_with_and_without_the_kept_layout(chunk):
    data = _data(2)
    dom = synth.build_domains(data, rng=1)
    pub = data.workplaces["n"].to_numpy() + 1
    for settings, seed, published in ((synth.OTMSettings(), 3, None), (synth.OTMSettings(eps=2.0, min_p=0.1), 4, pub),
                                      (synth.OTMSettings(prior_strength=10.0), 3, None), (synth.OTMSettings(), 3, None)):
        kept = synth.synthesize(data, dom, settings=settings, published=published, rng=seed, chunk=chunk)
        fresh = synth.synthesize(data, _writeable(dom), settings=settings, published=published, rng=seed,
                                 chunk=chunk)
        _same_synthesis(kept, fresh)


def test_synthesize_lays_out_again_data_changed_in_place():
    data = _data(3)
    dom = synth.build_domains(data, rng=1)
    before = synth.synthesize(data, dom, rng=5)
    homes = data.jobs["home_tract"].to_numpy().copy()
    data.jobs["home_tract"] = np.roll(homes, 1)             # the same tables, other residences
    after = synth.synthesize(data, dom, rng=5)
    _same_synthesis(after, synth.synthesize(data, _writeable(dom), rng=5))
    assert not np.array_equal(after.likelihood, before.likelihood)
    data.jobs["home_tract"] = homes
    _same_synthesis(synth.synthesize(data, dom, rng=5), before)
    other = _data(4)                                        # other data, same domains object: refused as before
    with pytest.raises(ValueError, match="domains: built for other work tracts"):
        synth.synthesize(other, dom, rng=5)
