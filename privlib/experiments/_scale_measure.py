"""Chapter 6's scale: the Definition-2 workload, the post-processing policies, beta and alpha of a release.

Private module of :mod:`privlib.experiments.one_scale` (which re-exports its public names).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._validation import check_in, check_int
from ..metrics import Workload
from ..metrics._error import _check_answering
from ..partition import Decomposition
from .empirical_privacy import Setup

__all__ = ["POLICIES", "definition2_workload", "postprocess", "estimate_sa_answers", "median_error", "relative_errors",
           "measure"]

#: Post-processing of the released counts before the workload is answered (:func:`postprocess`).
POLICIES = ("raw", "nonneg-total")


def _check_setup(setup) -> Setup:
    """A Setup whose records lie in its public domain, with its public SA values."""
    if not isinstance(setup, Setup):
        raise TypeError(f"setup: expected a privlib.experiments.empirical_privacy.Setup, got {type(setup).__name__}")
    if setup.sa_values is None:
        raise ValueError("setup.sa_values: expected the public values of the sensitive attribute (the histogram "
                         "columns), got None")
    for a in setup.qi:
        col = setup.df[a]
        if not pd.api.types.is_integer_dtype(col):
            raise TypeError(f"setup.df[{a!r}]: expected integer codes, got dtype {col.dtype}")
        lo, hi = setup.domain[a]
        out = np.flatnonzero((col.to_numpy() < lo) | (col.to_numpy() > hi))
        if out.size:
            raise ValueError(f"setup.df[{a!r}]: value {col.iloc[out[0]].item()!r} (row {int(out[0])}) lies outside the "
                             f"setup's public domain [{lo}, {hi}]")
    bad = ~setup.df[setup.sa].isin(list(setup.sa_values)).to_numpy()
    if bad.any():
        raise ValueError(f"setup.df[{setup.sa!r}]: value {setup.df[setup.sa].iloc[int(np.flatnonzero(bad)[0])]!r} "
                         f"is not one of setup.sa_values {list(setup.sa_values)}")
    return setup


def definition2_workload(setup: Setup, *, n: int, rng: int | np.random.Generator) -> Workload:
    """Range COUNT(*) queries with range conditions on every attribute, the SA included (Definition 2).

    :func:`privlib.metrics.range_workload` on the QIs and the SA coded by its position in
    ``setup.sa_values`` (public domain ``0 .. S - 1``): each query has, on every attribute, a
    range of half its domain (for Adult's 14 occupations: 7 consecutive ones in
    ``sa_values`` order).  The workload's last attribute is the SA; :func:`measure` answers it
    from each leaf's histogram restricted to the query's SA values.

    Parameters
    ----------
    setup : Setup
    n : int
        Number of queries (>= 1).
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    privlib.metrics.Workload
        Over ``setup.qi + (setup.sa,)``.

    Examples
    --------
    >>> import pandas as pd
    >>> s = Setup("toy", pd.DataFrame({"x": range(8), "s": list("aabbccdd")}), ("x",), "s", {"x": (0, 7)},
    ...           sa_values=("a", "b", "c", "d"))
    >>> wl = definition2_workload(s, n=4, rng=0)
    >>> wl.qi, bool((wl.upper[:, 1] - wl.lower[:, 1] == 1).all())
    (('x', 's'), True)
    """
    from ..metrics import range_workload
    setup = _check_setup(setup)
    n = check_int(n, "n", minimum=1)
    frame = setup.df[list(setup.qi)].copy()
    frame[setup.sa] = pd.Index(setup.sa_values).get_indexer(setup.df[setup.sa])
    domain = {**{a: setup.domain[a] for a in setup.qi}, setup.sa: (0, len(setup.sa_values) - 1)}
    return range_workload(frame, list(setup.qi) + [setup.sa], n=n, rng=rng, domain=domain)


def postprocess(decomposition: Decomposition, policy: str) -> Decomposition:
    """The release's counts under one post-processing policy (the same for every family).

    ``"raw"``: the counts as released (noisy counts may be negative or fractional).
    ``"nonneg-total"``: every negative cell (leaf x SA value) set to 0, then all cells rescaled
    so that they sum to the released grand total (floored at 0) -- post-processing, no budget.
    Exact non-negative releases are unchanged by both.

    Parameters
    ----------
    decomposition : privlib.partition.Decomposition
    policy : {"raw", "nonneg-total"}

    Returns
    -------
    privlib.partition.Decomposition

    Examples
    --------
    >>> import numpy as np
    >>> from privlib.release import from_histogram
    >>> dec = from_histogram([[0], [1]], [[3, -1], [2, 0]], qi=["x"], sa="s", sa_values=["a", "b"],
    ...                      domain_lower=[0], domain_upper=[1])
    >>> postprocess(dec, "nonneg-total").histograms.round(6).tolist()
    [[2.4, 0.0], [1.6, 0.0]]
    """
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")
    check_in(policy, "policy", POLICIES)
    hist = np.asarray(decomposition.histograms, dtype=float)
    if policy == "raw" or not (hist < 0).any():
        return decomposition
    total = max(float(hist.sum()), 0.0)
    clipped = np.clip(hist, 0.0, None)
    s = clipped.sum()
    out = clipped * (total / s) if s > 0 else np.full(hist.shape, total / hist.size)
    return dataclasses.replace(decomposition, histograms=out)


def _sa_answers_by_group(decomposition: Decomposition, workload: Workload) -> np.ndarray:
    """Answers of a Definition-2 workload (last attribute the SA, coded by position in sa_values).

    One :func:`privlib.metrics.estimate_answers` call per distinct SA range of the workload, on
    the leaves' histograms restricted to that range (the uniformity assumption of Section III on
    the QIs; the SA values are exact).  :func:`_sa_answers` computes the same in one pass over a
    domain x SA grid (the independent check).
    """
    from ..metrics import estimate_answers
    S = len(decomposition.sa_values)
    slo, shi = workload.lower[:, -1], workload.upper[:, -1]
    if slo.min() < 0 or shi.max() >= S or (slo > shi).any():
        raise ValueError(f"workload: its SA ranges must lie in 0 .. {S - 1} (positions in sa_values)")
    key = slo * (S + 1) + shi
    est = np.empty(workload.n_queries)
    hist = np.asarray(decomposition.histograms, dtype=float)
    for k in np.unique(key):
        sel = np.flatnonzero(key == k)
        mask = np.zeros(S)
        mask[slo[sel[0]]:shi[sel[0]] + 1] = 1.0
        sub = dataclasses.replace(decomposition, histograms=hist * mask)
        part = Workload(tuple(decomposition.qi), workload.lower[sel, :-1], workload.upper[sel, :-1],
                        workload.answers[sel], workload.n_records)
        est[sel] = estimate_answers(sub, part)
    return est


def _sa_answers(decomposition: Decomposition, workload: Workload) -> np.ndarray:
    """Answers of a Definition-2 workload (last attribute the SA, coded by position in sa_values).

    Each leaf's count of SA value ``s`` is spread uniformly over the leaf's QI cells (the
    uniformity assumption of Section III).  The SA ranges of the workload are few (a Definition-2
    query takes half of the SA values in the public order): each leaf's counts are first summed
    over every distinct SA range (prefix sums over the SA values), then each range's density over
    the QI domain is built at once (a difference array with ``2**d`` corner updates per leaf, one
    ``bincount``, then cumulative sums) and each query is answered from the ``2**d`` corners of
    its range's prefix sums.  Domains of more than 5e7 cells x ranges fall back on
    :func:`_sa_answers_by_group` (the independent check).
    """
    from ..metrics._workload import _corners, _inner_corners, _padded_prefix
    S = len(decomposition.sa_values)
    slo, shi = workload.lower[:, -1], workload.upper[:, -1]
    if slo.min() < 0 or shi.max() >= S or (slo > shi).any():
        raise ValueError(f"workload: its SA ranges must lie in 0 .. {S - 1} (positions in sa_values)")
    ranges, which = np.unique(slo * (S + 1) + shi, return_inverse=True)
    which = which.ravel()
    R = ranges.size
    rlo, rhi = ranges // (S + 1), ranges % (S + 1)
    dlo, dhi = decomposition.domain_lower, decomposition.domain_upper
    W = (dhi - dlo + 1).astype(np.int64)
    d = W.size
    shape = tuple(int(w) + 1 for w in W)
    ncell = float(np.prod(np.array(shape, dtype=float)))
    if ncell * R > 5e7:
        return _sa_answers_by_group(decomposition, workload)
    hist = np.asarray(decomposition.histograms, dtype=float)
    cum = np.zeros((hist.shape[0], S + 1))
    np.cumsum(hist, axis=1, out=cum[:, 1:])
    C = cum[:, rhi + 1] - cum[:, rlo]                          # leaves x ranges
    keep = np.flatnonzero((hist != 0).any(axis=1))            # leaves with no count add nothing
    widths = decomposition.widths[keep].astype(float)
    dens = C[keep] / np.prod(widths, axis=1)[:, None]
    a, b = decomposition.lower[keep] - dlo, decomposition.upper[keep] - dlo + 1
    unit = bool((widths == 1).all())
    n_corner = 1 if unit else 1 << d                          # unit cells: the density is the count itself
    # the corner updates inside the W grid (those at index W are never read: _inner_corners)
    flat = np.empty((n_corner, keep.size), dtype=np.int64)
    inside = np.empty((n_corner, keep.size), dtype=bool)
    sign = np.empty(n_corner)
    for corner, (f, k, s) in zip(range(n_corner), _inner_corners(a, b, W)):
        flat[corner], inside[corner], sign[corner] = f, True if k is None else k, s
    sel = np.broadcast_to(inside[:, :, None], (n_corner, keep.size, R))
    G = np.bincount((flat[:, :, None] * R + np.arange(R))[sel],
                    weights=(sign[:, None, None] * dens[None, :, :])[sel], minlength=int(np.prod(W)) * R)
    # density per cell and range (unless every leaf is one cell), prefix sums over the QIs
    P = _padded_prefix(G.reshape(tuple(int(w) for w in W) + (R,)), d, density=not unit)
    QL = np.clip(workload.lower[:, :-1] - dlo, 0, W)
    QU = np.clip(workload.upper[:, :-1] - dlo + 1, 0, W)
    out = np.zeros(workload.n_queries)
    for idx, s in _corners(QU, QL):
        out += s * P[idx + (which,)]
    return out


def estimate_sa_answers(decomposition: Decomposition, workload: Workload, *, method: str = "auto") -> np.ndarray:
    """Answer a Definition-2 workload (its last attribute the SA) from a release.

    Each leaf's count of SA value ``s`` is spread uniformly over the leaf's QI cells (Section III's
    uniformity assumption; the SA values are exact); a query counts the SA values of its range.
    Two methods, equal up to float round-off: ``"groups"``, one
    :func:`privlib.metrics.estimate_answers` call per distinct SA range on the histograms
    restricted to it; ``"grid"``, one pass over a domain x SA-ranges grid (each leaf's counts
    summed over every distinct SA range of the workload, a difference array, cumulative sums, and
    the ``2**d`` corners of each query).  ``"auto"``: the groups when the queries x counted leaves
    are fewer than about twice the domain's cells (the overlap of few leaves is cheaper than a pass
    over the grid), else the grid.

    Parameters
    ----------
    decomposition : privlib.partition.Decomposition
    workload : privlib.metrics.Workload
        Over the release's QIs followed by its SA (:func:`definition2_workload`).
    method : {"auto", "grid", "groups"}

    Returns
    -------
    numpy.ndarray
        One estimate per query.

    Raises
    ------
    ValueError
        For a workload over other attributes, SA ranges outside ``0 .. S - 1`` or a bad ``method``.

    Examples
    --------
    >>> import numpy as np
    >>> from privlib.release import from_histogram
    >>> dec = from_histogram([[0], [1]], [[3, 1], [2, 0]], qi=["x"], sa="s", sa_values=["a", "b"],
    ...                      domain_lower=[0], domain_upper=[1])
    >>> wl = Workload(("x", "s"), np.array([[0, 0], [0, 1]]), np.array([[1, 0], [0, 1]]), np.array([5, 1]), 6)
    >>> estimate_sa_answers(dec, wl).tolist()
    [5.0, 1.0]
    """
    _check_answering(decomposition, workload)
    check_in(method, "method", ("auto", "grid", "groups"))
    if tuple(workload.qi) != tuple(decomposition.qi) + (decomposition.sa,):
        raise ValueError(f"workload: expected the release's QIs {list(decomposition.qi)} followed by its SA "
                         f"{decomposition.sa!r}, got {list(workload.qi)}")
    if method == "auto":
        # the grid's cost is fixed by the domain (two passes of cumulative sums over its cells per range); the
        # groups' by the leaves (estimate_answers on few leaves: a queries x leaves overlap per range)
        counted = int((np.asarray(decomposition.histograms) != 0).any(axis=1).sum())
        cells = float(np.prod((decomposition.domain_upper - decomposition.domain_lower + 2).astype(float)))
        method = "groups" if 20.0 * workload.n_queries * counted < 36.0 * cells else "grid"
    return _sa_answers(decomposition, workload) if method == "grid" else _sa_answers_by_group(decomposition, workload)


def median_error(decomposition: Decomposition, workload: Workload) -> float:
    """alpha: the median relative error of ``workload`` on the release's counts as given.

    A workload over the release's QIs is answered by :func:`privlib.metrics.estimate_answers`;
    one over the QIs and the SA (:func:`definition2_workload`) by :func:`estimate_sa_answers`.

    Parameters
    ----------
    decomposition : privlib.partition.Decomposition
    workload : privlib.metrics.Workload

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For a workload over other attributes.
    """
    return float(np.median(relative_errors(decomposition, workload)))


def relative_errors(decomposition: Decomposition, workload: Workload) -> np.ndarray:
    """Every query's relative error ``|estimate - answer| / answer`` on the release's counts as given.

    As :func:`median_error` (whose median this is), one value per query.

    Parameters
    ----------
    decomposition : privlib.partition.Decomposition
    workload : privlib.metrics.Workload

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> from privlib.release import from_histogram
    >>> dec = from_histogram([[0], [1]], [[3, 1], [2, 0]], qi=["x"], sa="s", sa_values=["a", "b"],
    ...                      domain_lower=[0], domain_upper=[1])
    >>> wl = Workload(("x",), np.array([[0], [0]]), np.array([[0], [1]]), np.array([2, 8]), 8)
    >>> relative_errors(dec, wl).tolist()
    [1.0, 0.25]
    """
    from ..metrics import estimate_answers
    if not isinstance(workload, Workload):
        raise TypeError(f"workload: expected a privlib.metrics.Workload, got {type(workload).__name__}")
    if tuple(workload.qi) == tuple(decomposition.qi):
        est = estimate_answers(decomposition, workload)
    elif tuple(workload.qi) == tuple(decomposition.qi) + (decomposition.sa,):
        est = estimate_sa_answers(decomposition, workload)
    else:
        raise ValueError(f"workload: expected the release's QIs {list(decomposition.qi)}, optionally followed by "
                         f"its SA {decomposition.sa!r}, got {list(workload.qi)}")
    return np.abs(est - workload.answers) / workload.answers


def measure(setup: Setup, workloads: Workload | Mapping[str, Workload], decomposition: Decomposition, *,
            errors: bool = False, policies: Sequence[str] = POLICIES) -> dict:
    """beta and alpha of one release: the naive-Bayes attack on every record, each workload's error.

    ``beta_raw`` is the attack's breach increase ``accuracy / rho - 1`` (negative when the attack
    does worse than always guessing the most frequent value); ``beta = max(beta_raw, 0)`` is the
    breach of an attacker that may fall back on that baseline.  The attack reads negative counts
    as 0 and is invariant to rescaling, so beta is the same under both :data:`POLICIES`.

    Parameters
    ----------
    setup : Setup
    workloads : Workload or mapping of str to Workload
        Over the QIs, or the QIs and the SA (:func:`definition2_workload`); a single Workload is
        named ``"w"``.
    decomposition : privlib.partition.Decomposition
    errors : bool, default False
        Also each workload's per-query relative errors on the raw counts (``err_<name>``).
    policies : sequence of str, default POLICIES
        The post-processing policies measured (a non-empty subset of :data:`POLICIES`, in their
        order; ``errors`` needs ``"raw"``).

    Returns
    -------
    dict
        ``leaves, accuracy, rho, beta_raw, beta, released_total`` and ``alpha_<name>_<policy>``
        for every workload and policy of ``policies`` (``nonneg-total`` written ``nonneg``).

    Raises
    ------
    TypeError, ValueError
        For workloads that are not Workloads, or ``policies`` empty, unknown, or without
        ``"raw"`` when ``errors`` is set.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.metrics import range_workload
    >>> s = Setup("toy", pd.DataFrame({"x": range(8), "s": list("aaaabbbb")}), ("x",), "s", {"x": (0, 7)},
    ...           sa_values=("a", "b"))
    >>> from privlib.experiments.empirical_privacy import build
    >>> wl = range_workload(s.df, ["x"], n=5, rng=0, domain=s.domain)
    >>> m = measure(s, wl, build(s, "k", 4, rng=0))
    >>> m["beta"], m["alpha_w_raw"], m["alpha_w_nonneg"]
    (1.0, 0.0, 0.0)
    """
    return _measure(setup, workloads, decomposition, errors=errors, policies=policies)


def _measure(setup: Setup, workloads: Workload | Mapping[str, Workload], decomposition: Decomposition, *,
             errors: bool = False, policies: Sequence[str] = POLICIES, prediction=None,
             checked: bool = False, rho: float | None = None) -> dict:
    """:func:`measure`; ``prediction``: ``naive_bayes(decomposition, setup.df)`` when the caller
    already has it (the attack of :func:`privlib.experiments.one_scale.sweep`'s ``attacks``);
    ``checked``: ``setup`` has just passed :func:`_check_setup` (in :func:`release`); ``rho``:
    ``majority_accuracy(setup.df[setup.sa])``, the baseline, when the caller has it."""
    from ..attacks import naive_bayes
    from ..metrics import privacy_breach
    if not checked:
        setup = _check_setup(setup)
    if isinstance(workloads, Workload):
        workloads = {"w": workloads}
    if not isinstance(workloads, Mapping) or not all(isinstance(w, Workload) for w in workloads.values()):
        raise TypeError(f"workloads: expected a Workload or a mapping of names to Workloads, got "
                        f"{type(workloads).__name__}")
    policies = _check_policies(policies, errors=errors)
    br = privacy_breach(naive_bayes(decomposition, setup.df) if prediction is None else prediction, rho=rho)
    out = {"leaves": int(decomposition.n_leaves), "accuracy": br.accuracy, "rho": br.rho, "beta_raw": br.beta,
           "beta": max(br.beta, 0.0), "released_total": float(np.asarray(decomposition.histograms).sum())}
    first = None
    for policy in policies:
        dec = postprocess(decomposition, policy)
        for name, wl in workloads.items():
            key = f"alpha_{name}_{policy.split('-')[0]}"
            # a release the policy leaves unchanged has the first policy's answers
            if dec is first:
                out[key] = out[f"alpha_{name}_{policies[0].split('-')[0]}"]
            elif errors and policy == "raw":
                out[f"err_{name}"] = relative_errors(dec, wl)
                out[key] = float(np.median(out[f"err_{name}"]))
            else:
                out[key] = median_error(dec, wl)
        first = decomposition if first is None else first
    return out


def _check_policies(policies, *, errors: bool) -> tuple:
    """``policies`` as a tuple in the order of :data:`POLICIES` (non-empty, known; ``"raw"`` with ``errors``)."""
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        raise TypeError(f"policies: expected a sequence of policy names, got {policies!r}")
    for p in policies:
        check_in(p, "policies", POLICIES)
    if not policies or len(set(policies)) != len(policies):
        raise ValueError(f"policies: expected distinct policies out of {list(POLICIES)}, got {list(policies)}")
    if errors and "raw" not in policies:
        raise ValueError(f"policies: errors=True reports the raw counts' errors and needs 'raw', got {list(policies)}")
    return tuple(p for p in POLICIES if p in policies)
