"""Chapter 6's Privelet and MST releases.

Private module of :mod:`privlib.experiments.one_scale` (which re-exports :func:`privelet_release`
and :func:`mst_release`).  Each takes the chapter's setup, eps and a generator, and returns a
:class:`privlib.partition.Decomposition`.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._docs import shared_doc
from ..partition import Decomposition
from ._scale_cells import _cell_table, _histogram
from .empirical_privacy import Setup

__all__ = ["MST_DELTA", "privelet_release", "mst_release"]

#: The arguments and result of a release of the chapter's setup at one eps.
SETUP_EPS_RNG_DOC = """
Parameters
----------
setup : Setup
eps : float
rng : int or numpy.random.Generator
    Required, keyword-only.

Returns
-------
privlib.partition.Decomposition
"""

#: The delta of MST's (eps, delta) guarantee (OnTheMap's operating point's delta, so that the two compare).
MST_DELTA = 1e-6


@shared_doc(setup_eps_rng=SETUP_EPS_RNG_DOC)
def privelet_release(setup: Setup, eps: float, *, rng: int | np.random.Generator) -> Decomposition:
    """Xiao, Wang & Gehrke (2010)'s Privelet over every QI cell x SA count of the public domain.

    The counts are flattened in the mixed-radix order of the domain (the SA varying fastest, as
    :func:`privlib.experiments.one_scale.hierarchical_release`), padded to a power of two, and
    released through the Haar wavelet with exact discrete Laplace noise
    (:func:`privlib.privelet.privelet_histogram`).  eps-DP under add/remove.

    {{setup_eps_rng}}

    Examples
    --------
    >>> s = Setup("toy", pd.DataFrame({"x": [0, 0, 1, 1], "s": list("aabb")}), ("x",), "s", {"x": (0, 1)},
    ...           sa_values=("a", "b"))
    >>> dec = privelet_release(s, 1e6, rng=0)
    >>> dec.histograms.round(6).tolist(), dec.ledger.total(), dec.params["sensitivity"]
    ([[2.0, 0.0], [0.0, 2.0]], 1000000.0, 3)
    """
    from ..privelet import privelet_histogram
    cells, counts = _cell_table(setup, full=True)
    res = privelet_histogram(counts.ravel(), eps=eps, rng=rng)
    return _histogram(setup, cells, res.counts.reshape(counts.shape), ledger=res.ledger,
                      params={"model": "privelet", "eps": eps, "sensitivity": res.sensitivity})


@shared_doc(setup_eps_rng=SETUP_EPS_RNG_DOC)
def mst_release(setup: Setup, eps: float, *, rng: int | np.random.Generator) -> Decomposition:
    """MST (:func:`privlib.synth.mst`) over the QIs and the SA, at (eps, :data:`MST_DELTA`).

    Every attribute's public domain is its range of codes (the QIs) or ``sa_values`` (the SA);
    the synthetic records are released as microdata (:func:`privlib.release.from_microdata`),
    with MST's ledger: (eps, delta)-DP under add/remove, from rho-zCDP.

    {{setup_eps_rng}}

    Examples
    --------
    >>> s = Setup("toy", pd.DataFrame({"x": [0, 0, 1, 1] * 25, "s": list("aabb") * 25}), ("x",), "s",
    ...           {"x": (0, 1)}, sa_values=("a", "b"))
    >>> dec = mst_release(s, 100.0, rng=0)
    >>> h = dec.histograms                 # the records are drawn: only x = s holds them
    >>> float(h[0, 1] + h[1, 0]), float(h.sum()), dec.ledger.total() <= 100.0
    (0.0, 100.0, True)
    """
    from ..release import from_microdata
    from ..synth import mst
    cols = [*setup.qi, setup.sa]
    domain = {a: range(setup.domain[a][0], setup.domain[a][1] + 1) for a in setup.qi}
    domain[setup.sa] = list(setup.sa_values)
    syn = mst(setup.df[cols], domain, eps=eps, delta=MST_DELTA, rng=rng)
    lo = [setup.domain[a][0] for a in setup.qi]
    hi = [setup.domain[a][1] for a in setup.qi]
    params = {"model": "mst", "eps": eps, "delta": MST_DELTA, "rho": syn.rho, "tree": syn.tree,
              "released_records": len(syn.synthetic), "kept": {a: len(v) for a, v in syn.kept.items()}}
    if syn.synthetic.empty:             # a noisy total rounded to 0 records: one empty box
        from ..release import from_boxes
        return from_boxes([lo], [hi], np.zeros((1, len(setup.sa_values))), qi=list(setup.qi), sa=setup.sa,
                          sa_values=list(setup.sa_values), domain_lower=lo, domain_upper=hi, ledger=syn.ledger,
                          params=params)
    return from_microdata(syn.synthetic, qi=list(setup.qi), sa=setup.sa, sa_values=list(setup.sa_values),
                          domain_lower=lo, domain_upper=hi, ledger=syn.ledger, params=params)
