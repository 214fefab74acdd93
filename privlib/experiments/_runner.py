"""One parallel runner for every sweep of the book, on joblib.

A sweep is a list of independent *tasks* and one function applied to each.  :func:`run`
applies it in this process (``n_jobs=1``) or in worker processes (joblib's ``loky`` backend by
default), returns the results in task order, and shows a progress bar.  Randomness follows one
rule, :func:`spawn`: a sweep that draws from one seed gives task ``i`` the child
``numpy.random.SeedSequence(seed).spawn(n)[i]``, so the results do not depend on ``n_jobs``, on
the backend or on the order in which workers finish (tested: 1 and 2 workers give identical
results).

On a cluster
------------
joblib's backend is chosen by the caller, not by privlib.  With a Dask cluster
(``pip install privlib[dask]``)::

    from dask.distributed import Client
    import joblib
    client = Client("scheduler-address:8786")  # or Client(LocalCluster(n_workers=...))
    with joblib.parallel_config(backend="dask"):
        frame = sweep(..., n_jobs=-1, backend=None)   # e.g. empirical_privacy.sweep

and with Ray, ``from ray.util.joblib import register_ray; register_ray()`` then
``joblib.parallel_config(backend="ray")``.  ``backend=None`` uses the active configuration;
the default, ``"loky"``, ignores it and runs on this machine's cores.  The tasks are then
pickled to the workers, which import privlib and the task function by name (tested on a
``dask.distributed.LocalCluster``: the same rows as ``n_jobs=1``).
"""
from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .._progress import check_progress, progress_bar
from .._validation import _fmt

__all__ = ["run", "spawn", "check_n_jobs"]


def spawn(seed, n: int) -> list[np.random.SeedSequence]:
    """The ``n`` child seeds of ``seed``: ``numpy.random.SeedSequence(seed).spawn(n)``.

    Parameters
    ----------
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The sweep's seed (``None``: fresh entropy from the operating system).  A Generator is consumed: one 63-bit draw becomes the root entropy
        (so a shared Generator advances and two calls give different children).
    n : int
        Number of children (one per task).

    Returns
    -------
    list of numpy.random.SeedSequence
        ``np.random.default_rng(child)`` is task ``i``'s generator.

    Raises
    ------
    TypeError
        If ``seed`` is a bool or not None / an int / SeedSequence / Generator.
    ValueError
        If ``seed`` or ``n`` is negative.

    Examples
    --------
    >>> a = [np.random.default_rng(s).integers(100) for s in spawn(7, 3)]
    >>> b = [np.random.default_rng(s).integers(100) for s in spawn(7, 3)]
    >>> a == b
    True
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
        raise ValueError(f"n: expected a non-negative int, got {_fmt(n)}")
    if seed is None:                  # fresh entropy from the operating system
        root = np.random.SeedSequence()
    elif isinstance(seed, np.random.SeedSequence):
        root = seed
    elif isinstance(seed, np.random.Generator):
        root = np.random.SeedSequence(int(seed.integers(2 ** 63)))
    elif isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed: expected an int, a SeedSequence or a Generator, got "
                        f"{type(seed).__name__} {_fmt(seed)} (randomness is never a default)")
    elif seed < 0:
        raise ValueError(f"seed: expected a non-negative int, got {seed}")
    else:
        root = np.random.SeedSequence(int(seed))
    return root.spawn(int(n))


def check_n_jobs(n_jobs) -> int:
    """``n_jobs``: a positive int, or -1 for every core (joblib's convention)."""
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or not (n_jobs >= 1 or n_jobs == -1):
        raise ValueError(f"n_jobs: expected a positive int or -1 (all cores), got {_fmt(n_jobs)}")
    return int(n_jobs)


def run(fn: Callable[..., Any], tasks: Iterable, *, n_jobs: int = 1, backend: str | None = "loky",
        shared: dict | None = None, progress=False, desc: str = "sweep") -> list:
    """``[fn(task, **shared) for task in tasks]``, in this process or in parallel.

    Parameters
    ----------
    fn : callable
        A module-level function (worker processes import it by name).
    tasks : iterable
        One item per call; results come back in this order.
    n_jobs : int, default 1
        1 runs in this process (no joblib, no pickling); more, or -1 for every core, uses
        joblib.
    backend : str or None, default "loky"
        joblib backend; ``None`` uses the one set by ``joblib.parallel_config`` (Dask, Ray,
        see the module docstring).
    shared : dict, optional
        Keyword arguments passed to every call (large arrays are memory-mapped by loky, not
        copied per task).  A random generator is refused here: workers would each draw from
        a copy; seed each task with :func:`spawn` instead.
    progress : bool or "text"
        ``True``: tqdm's live bar; ``"text"``: a reproducible text bar on stderr (for notebooks
        checked by nbval); ``False``: none.
    desc : str
        The bar's label.

    Returns
    -------
    list
        ``fn``'s results, in task order.

    Raises
    ------
    ValueError
        On a bad ``n_jobs`` or ``progress``.
    TypeError
        On a ``fn`` that is not callable, or a ``shared`` that is not a dict or holds a
        ``numpy.random.Generator`` (or ``RandomState``, ``BitGenerator``).

    Examples
    --------
    >>> run(abs, [-2, 3, -5])
    [2, 3, 5]
    """
    n_jobs = check_n_jobs(n_jobs)
    check_progress(progress)
    if not callable(fn):
        raise TypeError(f"fn: expected a callable, got {type(fn).__name__}")
    tasks = list(tasks)
    if shared is not None and not isinstance(shared, dict):
        raise TypeError(f"shared: expected a dict of keyword arguments, got {type(shared).__name__}")
    shared = dict(shared or {})
    for key, value in shared.items():
        if isinstance(value, (np.random.Generator, np.random.RandomState, np.random.BitGenerator)):
            raise TypeError(
                f"shared[{key!r}]: a {type(value).__name__} cannot be shared by the tasks: every worker would get "
                "a copy (the same noise in every task) and the results would depend on n_jobs; give each task "
                "its own seed with privlib.experiments.spawn(seed, len(tasks)) and put it in the task")
    bar = progress_bar(len(tasks), str(desc), progress)
    out = []
    try:
        if n_jobs == 1 or len(tasks) <= 1:
            for t in tasks:
                out.append(fn(t, **shared))
                bar.update()
        else:
            from joblib import Parallel, delayed     # imported where used: lean `import privlib`
            par = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator")
            for r in par(delayed(fn)(t, **shared) for t in tasks):
                out.append(r)
                bar.update()
    finally:
        bar.close()
    return out
