"""Chapter 6's histogram cells: the QI cells of a setup's public domain and their SA counts.

Private module of :mod:`privlib.experiments.one_scale`.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..accounting import Ledger
from ..partition import Decomposition
from .empirical_privacy import Setup

__all__ = ["MAX_HISTOGRAM_CELLS"]

#: Largest histogram (QI cells x SA values) the Laplace family draws.
MAX_HISTOGRAM_CELLS = 50_000_000


def _decoded(setup: Setup, df: pd.DataFrame | None = None) -> pd.DataFrame:
    """The records with their categorical QIs as values (codes index ``setup.orders``)."""
    df = setup.df if df is None else df
    out = df.copy()
    for a, order in setup.orders.items():
        if a in setup.qi:
            out[a] = np.asarray(order, dtype=object)[df[a].to_numpy()]
    return out


def _domain(setup: Setup) -> tuple[np.ndarray, np.ndarray]:
    lo = np.array([setup.domain[a][0] for a in setup.qi], dtype=np.int64)
    hi = np.array([setup.domain[a][1] for a in setup.qi], dtype=np.int64)
    return lo, hi


def _cell_table(setup: Setup, *, full: bool) -> tuple[np.ndarray, np.ndarray]:
    """QI cells and their SA counts: every cell of the public domain (``full``) or those present.

    The cell key is a mixed-radix index over the public domain; its size is checked against
    int64 before it is formed.
    """
    lo, hi = _domain(setup)
    width = hi - lo + 1
    if float(np.prod(width.astype(float))) >= 2.0 ** 62:
        raise ValueError(f"setup: the QI domain has {np.prod(width.astype(float)):.3g} cells, too many for an "
                         "int64 cell key")
    X = setup.df[list(setup.qi)].to_numpy(np.int64) - lo
    key = np.ravel_multi_index(X.T, tuple(width))
    S = len(setup.sa_values)
    s = pd.Index(setup.sa_values).get_indexer(setup.df[setup.sa])
    if (s < 0).any():
        raise ValueError(f"setup: values of {setup.sa!r} outside sa_values")
    if full:
        n_cells = int(np.prod(width.astype(float)))
        if n_cells * len(setup.sa_values) > MAX_HISTOGRAM_CELLS:
            raise ValueError(f"setup: the public domain has {n_cells:,} QI cells x {len(setup.sa_values)} SA values, "
                             f"more than MAX_HISTOGRAM_CELLS = {MAX_HISTOGRAM_CELLS:,} histogram cells")
        counts = np.bincount(key * S + s, minlength=n_cells * S).reshape(n_cells, S)
        cells = np.stack(np.unravel_index(np.arange(n_cells), tuple(width)), axis=1) + lo
        return cells, counts
    uniq, inv = np.unique(key, return_inverse=True)
    counts = np.bincount(inv.ravel() * S + s, minlength=uniq.size * S).reshape(uniq.size, S)
    cells = np.stack(np.unravel_index(uniq, tuple(width)), axis=1) + lo
    return cells, counts


def _histogram(setup: Setup, cells, counts, *, ledger: Ledger | None, params: dict) -> Decomposition:
    from ..release import from_histogram
    lo, hi = _domain(setup)
    return from_histogram(cells, counts, qi=list(setup.qi), sa=setup.sa, sa_values=list(setup.sa_values),
                          domain_lower=lo, domain_upper=hi, ledger=ledger, params=params)
