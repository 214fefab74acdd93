"""Chapter 6's Privelet release.

Private module of :mod:`privlib.experiments.one_scale` (which re-exports :func:`privelet_release`).
It takes the chapter's setup, eps and a generator, and returns a :class:`privlib.partition.Decomposition`.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..partition import Decomposition
from ._scale_cells import _cell_table, _histogram
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
    cells, counts = _cell_table(setup, full=True)
    res = privelet_histogram(counts.ravel(), eps=eps, rng=rng)
    return _histogram(setup, cells, res.counts.reshape(counts.shape), ledger=res.ledger,
                      params={"model": "privelet", "eps": eps, "sensitivity": res.sensitivity})
