"""The randomness contract every privlib function that draws must meet (shared by the tests).

A ``Case`` names one randomized public callable with small arguments.  Each area's cases live
in ``tests/rng_cases_<area>.py`` as a list ``CASES``; ``tests/test_rng_contract.py`` gathers
them and checks, for every case:

* calling without ``rng`` is a ``TypeError`` that names ``rng`` (never a default seed);
* ``rng=None`` (passed explicitly) draws fresh entropy from the operating system: two calls differ;
* two calls with the same int seed give equal outputs;
* two calls sharing one ``numpy.random.Generator`` give different outputs (the generator
  advances: a function that re-seeds itself would pass the equal-seed test and fail this one).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd


@dataclass
class Case:
    fn: Callable
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    id: str = ""
    #: maps the output to what is compared (e.g. ``lambda r: r.histograms``); default: the output
    view: Callable[[Any], Any] | None = None

    def __post_init__(self):
        if not self.id:
            self.id = getattr(self.fn, "__qualname__", repr(self.fn))

    def call(self, rng):
        out = self.fn(*self.args, **self.kwargs, rng=rng)
        return self.view(out) if self.view is not None else out


def equal(a, b) -> bool:
    """Deep equality for what privlib returns (arrays, frames, dataclasses, containers)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (pd.DataFrame, pd.Series)):
        return a.equals(b)
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if isinstance(a, float):
        return a == b or (a != a and b != b)
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return all(equal(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if hasattr(a, "__dict__") and not isinstance(a, type) and vars(a):
        return equal(vars(a), vars(b))
    try:
        return bool(a == b)
    except Exception:  # pragma: no cover
        return a is b
