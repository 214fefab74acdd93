"""Chapter 6's histogram cells: the QI cells of a setup's public domain and their SA counts.

Private module of :mod:`privlib.experiments.one_scale`.
"""
from __future__ import annotations

import weakref

import numpy as np
import pandas as pd

from ..accounting import Ledger
from ..partition import Decomposition
from .empirical_privacy import Setup

__all__ = ["MAX_HISTOGRAM_CELLS"]

#: Largest histogram (QI cells x SA values) the Laplace family draws.
MAX_HISTOGRAM_CELLS = 50_000_000


#: The decoded records of each setup (:func:`_decoded` without ``df``), computed once: a
#: :class:`Setup` is frozen and its records are not changed in place (each DiffGen release of a
#: sweep reads them).
_DECODED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _decoded(setup: Setup, df: pd.DataFrame | None = None) -> pd.DataFrame:
    """The records with their categorical QIs as values (codes index ``setup.orders``); without
    ``df``, the setup's records, decoded once per setup (the caller must not change the frame)."""
    if df is None:
        memo = _DECODED.get(setup)
        if memo is None or memo[0] is not setup.df:
            memo = _DECODED[setup] = (setup.df, _decode(setup, setup.df))
        return memo[1]
    return _decode(setup, df)


def _decode(setup: Setup, df: pd.DataFrame) -> pd.DataFrame:
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


#: The unit-box structures of :func:`_histogram`, by cell layout (the sweeps release the same cells again and again).
_LAYOUTS: dict = {}
_MAX_LAYOUTS = 8


def _histogram(setup: Setup, cells, counts, *, ledger: Ledger | None, params: dict) -> Decomposition:
    """:func:`privlib.release.from_histogram` of ``cells`` with ``counts``, its tree built once per cell layout.

    The boxes and tree of a histogram release depend only on its cells and the public domain, so
    the structure of the first release over a layout (built, and checked, by ``from_histogram``
    with zero counts) is reused with the next release's counts; the result equals
    ``from_histogram(cells, counts, ...)`` field by field.
    """
    import dataclasses
    import hashlib

    from ..accounting import Ledger as _Ledger
    from ..release import from_histogram
    lo, hi = _domain(setup)
    cells = np.ascontiguousarray(cells, dtype=np.int64)
    counts = np.asarray(counts, dtype=float)
    if counts.shape != (cells.shape[0], len(setup.sa_values)) or not np.isfinite(counts).all():
        raise ValueError(f"counts: expected finite counts of shape {(cells.shape[0], len(setup.sa_values))}, "
                         f"got shape {counts.shape}")
    key = (tuple(setup.qi), setup.sa, tuple(setup.sa_values), lo.tobytes(), hi.tobytes(), cells.shape,
           hashlib.blake2b(cells.tobytes(), digest_size=16).hexdigest())
    template = _LAYOUTS.get(key)
    if template is None:
        template = from_histogram(cells, np.zeros(counts.shape), qi=list(setup.qi), sa=setup.sa,
                                  sa_values=list(setup.sa_values), domain_lower=lo, domain_upper=hi)
        for f in dataclasses.fields(template):     # shared by every release of the layout: read-only
            v = getattr(template, f.name)
            if isinstance(v, np.ndarray) and f.name != "histograms":
                v.flags.writeable = False
        if len(_LAYOUTS) >= _MAX_LAYOUTS:
            _LAYOUTS.pop(next(iter(_LAYOUTS)))
        _LAYOUTS[key] = template
    hist = np.zeros(template.histograms.shape)
    hist[:counts.shape[0]] = counts
    return dataclasses.replace(template, histograms=hist, ledger=ledger if ledger is not None else _Ledger(),
                               params={**template.params, **(params or {})})
