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
    """The same state with super-PUMA ids out of tract order and of unequal sizes."""
    tr = data.geography.tracts.copy()
    rng = np.random.default_rng(seed)
    sp = tr["spuma"].to_numpy()
    perm = rng.permutation(sp.max() + 1)
    sp = perm[sp]
    sp = np.where(sp == 1, 0, sp)                     # two super-PUMAs merged: unequal sizes
    tr["spuma"] = sp
    geo = dataclasses.replace(data.geography, tracts=tr)
    return dataclasses.replace(data, geography=geo)


def _same(a, b):
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y), f.name
        else:
            assert x == y, f.name


@pytest.mark.parametrize("seed, chunk, settings", [
    (1, 256, synth.OTMSettings()),
    (2, 7, synth.OTMSettings()),
    (3, 1, synth.OTMSettings(coarsen_percentiles=(50.0, 50.0))),
    (4, 64, synth.OTMSettings(coarsen_percentiles=(5.0, 99.0))),
    (5, 300, synth.OTMSettings(coarsen_percentiles=(1.0, 2.0))),
])
def test_build_domains_matches_dense_reference(seed, chunk, settings):
    for data in (_data(seed), _scrambled(_data(seed), seed)):
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
