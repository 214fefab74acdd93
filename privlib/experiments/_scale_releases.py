"""Chapter 6's histogram and microdata releases: QWI, swapping, Laplace and Privelet.

Private module of :mod:`privlib.experiments.one_scale` (which re-exports :func:`privelet_release`
and dispatches to the others).  Each takes the chapter's setup, the family's parameter and a
generator, and returns a :class:`privlib.partition.Decomposition`.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..accounting import Ledger, LedgerEntry
from ..partition import Decomposition
from .empirical_privacy import Setup

__all__ = ["privelet_release"]


def privelet_release(setup: Setup, eps: float, *, rng: int | np.random.Generator) -> Decomposition:
    """Xiao, Wang & Gehrke (2010)'s Privelet over every QI cell x SA count of the public domain.

    The counts are flattened in the mixed-radix order of the domain (the SA varying fastest, as
    :func:`privlib.experiments.one_scale.hierarchical_release`), padded to a power of two, and
    released through the Haar wavelet with exact discrete Laplace noise
    (:func:`privlib.privelet.privelet_histogram`).  eps-DP under add/remove.

    Parameters
    ----------
    setup : Setup
    eps : float
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    privlib.partition.Decomposition

    Examples
    --------
    >>> s = Setup("toy", pd.DataFrame({"x": [0, 0, 1, 1], "s": list("aabb")}), ("x",), "s", {"x": (0, 1)},
    ...           sa_values=("a", "b"))
    >>> dec = privelet_release(s, 1e6, rng=0)
    >>> dec.histograms.round(6).tolist(), dec.ledger.total(), dec.params["sensitivity"]
    ([[2.0, 0.0], [0.0, 2.0]], 1000000.0, 3)
    """
    from ..privelet import privelet_histogram
    from .one_scale import _cell_table, _histogram
    cells, counts = _cell_table(setup, full=True)
    res = privelet_histogram(counts.ravel(), eps=eps, rng=rng)
    return _histogram(setup, cells, res.counts.reshape(counts.shape), ledger=res.ledger,
                      params={"model": "privelet", "eps": eps, "sensitivity": res.sensitivity})


def _qwi(setup: Setup, excess: float, gen) -> Decomposition:
    """One ramp factor per QI cell (the employer), then QWI's suppression of small cells.

    A published cell (QI cell x SA value) counting ``0 < X < QWI_MIN_PERSONS`` persons is
    suppressed (``privlib.noise.aggregate``'s persons rule) and released as missing, read as 0 by
    the analyst and the attacker.  The establishments rule (fewer than 3 establishments) is not
    applied: each QI cell is one employer here, so it would suppress every cell.
    """
    from ..noise import RampDistribution, draw_factors
    from .one_scale import QWI_MIN_PERSONS, _cell_table, _histogram
    cells, counts = _cell_table(setup, full=False)
    dist = RampDistribution(1 + excess / 2, 1 + excess)        # distortion between b/2 and b
    delta = draw_factors(np.arange(cells.shape[0]), dist=dist, rng=gen).to_numpy()
    suppressed = (counts > 0) & (counts < QWI_MIN_PERSONS)
    released = np.where(suppressed, 0.0, counts * delta[:, None])
    return _histogram(setup, cells, released, ledger=None,
                      params={"model": "qwi", "a": 1 + excess / 2, "b": 1 + excess,
                              "suppressed_cells": int(suppressed.sum()),
                              "suppressed_records": int(counts[suppressed].sum())})


def _swap(setup: Setup, rate: float, gen) -> Decomposition:
    from ..release import from_microdata
    from ..reident import swap
    from .one_scale import _domain
    n = setup.n
    chosen = gen.random(n) < rate
    frame = setup.df.copy()
    # the chosen records form one "user" whose SA values are permuted; every other record is its own user
    frame["_group"] = np.where(chosen, -1, np.arange(n))
    out = swap(frame, [setup.sa], rng=gen, user="_group")
    lo, hi = _domain(setup)
    return from_microdata(out.drop(columns="_group"), qi=list(setup.qi), sa=setup.sa,
                          sa_values=list(setup.sa_values), domain_lower=lo, domain_upper=hi,
                          params={"model": "swap", "rate": rate, "swapped": int(chosen.sum())})


def _laplace(setup: Setup, eps: float, gen) -> Decomposition:
    from ..mechanisms import discrete_laplace
    from .one_scale import _cell_table, _histogram
    cells, counts = _cell_table(setup, full=True)
    noisy = discrete_laplace(counts, eps=eps, sensitivity=1, rng=gen)
    ledger = Ledger([LedgerEntry("discrete laplace", eps, "parallel", group="QI cell x SA counts",
                                 detail="one count per cell of the public domain, sensitivity 1 (add/remove)")])
    ledger.check(eps)
    return _histogram(setup, cells, noisy, ledger=ledger, params={"model": "laplace", "eps": eps})
