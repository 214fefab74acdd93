"""MST: synthetic data from the 1-way marginals and a maximum spanning tree of 2-way marginals.

McKenna, Miklau & Sheldon (2021), "Winning the NIST Contest: A scalable and general approach to
differentially private synthetic data", Journal of Privacy and Confidentiality 11(3), Section 4
(MST), written natively on privlib's exact noise and ledger.  A budget ``rho`` of
zero-concentrated DP (zCDP) is split in thirds:

1. **Measure** every 1-way marginal with Gaussian noise (here the exact discrete Gaussian,
   :func:`privlib.mechanisms.discrete_gaussian`), then **compress** each attribute's domain: the
   values whose noisy count is below ``3 sigma`` are merged into one value (the paper's domain
   compression).
2. **Select** a maximum spanning tree over the attributes with ``d - 1`` draws of the exponential
   mechanism (Kruskal's order: each draw picks among the pairs that join two components).  The
   weight of a pair is the L1 distance between its true 2-way marginal and the independent
   estimate built from the noisy 1-way marginals; adding or removing one record moves it by at
   most 1 (sensitivity 1).  Each draw at ``eps_sel`` is ``eps_sel**2 / 8``-zCDP (the
   exponential mechanism is eps-bounded-range; Cesar & Rogers 2021), so
   ``eps_sel = sqrt(8 (rho / 3) / (d - 1))`` as in the paper's code.
3. **Measure** the ``d - 1`` selected 2-way marginals (on the compressed domains) with Gaussian
   noise.

Each Gaussian step releases its marginals at once: one record moves each of the ``k`` marginals
by 1 in one cell, an L2 sensitivity of ``sqrt(k)``, so the noise variance is
``sigma2 = k / (2 rho / 3)`` (Canonne, Kamath & Steinke 2020, Theorem 4).  The result is
``rho``-zCDP, hence (eps, delta)-DP (:func:`privlib.accounting.zcdp_to_dp`, Bun & Steinke 2016,
Proposition 1.3) for the largest such rho, ``sqrt(rho) = eps / (sqrt(L + eps) + sqrt(L))`` with
``L = ln(1/delta)``, under adding or removing one record.

**Estimation (departure from Private-PGM).**  The paper fits a graphical model to the noisy
marginals by mirror descent (Private-PGM).  For a tree, the maximum-entropy distribution with
given consistent marginals is the tree factorisation
``p(x) = prod_(i,j) p(x_i, x_j) / prod_i p(x_i)**(deg_i - 1)``, so this module makes the noisy
marginals non-negative and consistent and samples from that factorisation directly:

* the total is the inverse-variance weighted mean of every measured marginal's total;
* each attribute's 1-way marginal is the inverse-variance weighted mean of its own measurement
  and the row or column sums of its measured 2-way marginals, projected (Euclidean) onto the
  non-negative vectors with that total;
* each 2-way marginal is moved (least squares, additively) onto the tables with those two
  margins, clipped at 0, and brought back to the margins by iterative proportional fitting
  (:data:`IPF_ROUNDS` rounds, the last on the parent's side);
* records are drawn root to leaves (the root is the first attribute, the tree walked breadth
  first): the root from its 1-way marginal, every child from its parent's row of the edge's
  table; a merged (compressed) value is spread uniformly over the values it merged, as the
  paper's code does.

This is post-processing: it spends no budget.  It does not weigh the measurements jointly as
Private-PGM's least-squares fit does, and the records are sampled (the paper's code rounds the
counts), so its error differs from the paper's MST.  ``mbi`` (Private-PGM) 2.0.0 on PyPI ships no
MST mechanism and depends on JAX, hence this native version.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import as_generator, check_delta, check_epsilon
from ..accounting import Ledger, LedgerEntry, check_rho, zcdp_to_dp

__all__ = ["IPF_ROUNDS", "MSTSynthesis", "mst"]

#: Rounds of iterative proportional fitting that bring each clipped 2-way marginal back to its margins.
IPF_ROUNDS = 100


@dataclass(frozen=True, eq=False)
class MSTSynthesis:
    """Result of :func:`mst`.

    Attributes
    ----------
    synthetic : pandas.DataFrame
        The synthetic records, the columns of the input with values of their public domains.
    tree : tuple of (str, str)
        The selected attribute pairs, in the order the exponential mechanism chose them.
    kept : dict of str to tuple
        Per attribute, the values kept apart by domain compression (the others were merged).
    one_way : dict of str to numpy.ndarray
        Per attribute, the estimated (consistent, non-negative) marginal distribution over its
        public domain.
    two_way : dict of (str, str) to numpy.ndarray
        Per tree edge ``(parent, child)``, the estimated joint distribution over the two public
        domains (rows the parent's values): the pair distribution of the synthetic records.
    total : float
        The estimated number of records (the synthetic data hold it rounded).
    eps, delta, rho : float
        The target (eps, delta) and its zCDP budget, the largest rho with
        ``zcdp_to_dp(rho, delta=delta) <= eps``.
    rho_spent : float
        The sum of the calls' rho.
    calls : pandas.DataFrame
        One row per mechanism call: ``step``, ``mechanism``, ``what``, ``sensitivity`` (L2 for the
        Gaussian, of the utility for the exponential mechanism), ``scale`` (``sigma2``, or the
        exponential mechanism's eps) and ``rho``.
    ledger : privlib.accounting.Ledger
        One sequential entry: ``rho_spent`` as (eps, delta)-DP (:func:`privlib.accounting.zcdp_to_dp`),
        checked against ``eps``.

    Examples
    --------
    >>> df = pd.DataFrame({"a": [0, 1] * 20, "b": [0, 1] * 20})
    >>> syn = mst(df, {"a": [0, 1], "b": [0, 1]}, eps=100.0, delta=1e-6, rng=0)
    >>> syn.tree, round(syn.total, 6), syn.two_way[("a", "b")].tolist()
    ((('a', 'b'),), 40.0, [[0.5, 0.0], [0.0, 0.5]])
    """

    synthetic: pd.DataFrame
    tree: tuple
    kept: dict
    one_way: dict
    two_way: dict
    total: float
    eps: float
    delta: float
    rho: float
    rho_spent: float
    calls: pd.DataFrame
    ledger: Ledger


# ----------------------------------------------------------------------------- checks and encoding
def _check_inputs(data, domain) -> tuple[list, list, list]:
    """(columns, their public values as Index, their codes) after checking ``data`` and ``domain``."""
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data: expected a pandas DataFrame, got {type(data).__name__}")
    if not isinstance(domain, Mapping):
        raise TypeError(f"domain: expected a mapping column -> sequence of public values, got "
                        f"{type(domain).__name__}")
    cols = list(data.columns)
    if len(cols) < 2:
        raise ValueError(f"data: expected at least two columns (a tree needs two attributes), got {cols}")
    if len(set(cols)) != len(cols):
        raise ValueError(f"data: expected unique column names, got {cols}")
    if set(domain) != set(cols):
        raise ValueError(f"domain: expected exactly the columns of data {cols}, got keys {list(domain)}")
    values, codes = [], []
    for c in cols:
        v = domain[c]
        if isinstance(v, (str, bytes)) or not isinstance(v, (Sequence, np.ndarray, pd.Index, range)):
            raise TypeError(f"domain: expected a sequence of public values for column {c!r}, got "
                            f"{type(v).__name__} {v!r}")
        idx = pd.Index(list(v))
        if idx.size == 0 or not idx.is_unique or idx.hasnans:
            raise ValueError(f"domain: expected a non-empty sequence of distinct values (no NaN) for column {c!r}, "
                             f"got {list(v)[:10]!r}")
        code = idx.get_indexer(data[c])
        if (code < 0).any():
            bad = data[c].to_numpy()[code < 0][0]
            bad = bad.item() if isinstance(bad, np.generic) else bad
            raise ValueError(f"data: column {c!r} holds {bad!r}, outside its public domain {list(idx)[:10]!r}"
                             f"{' ...' if idx.size > 10 else ''}")
        values.append(idx)
        codes.append(code.astype(np.int64))
    return cols, values, codes


def _rho_for(eps: float, delta: float) -> float:
    """The largest rho with ``zcdp_to_dp(rho, delta=delta) <= eps``: Bun & Steinke (2016), Proposition
    1.3 inverted, ``sqrt(rho) = sqrt(L + eps) - sqrt(L) = eps / (sqrt(L + eps) + sqrt(L))``."""
    L = math.log(1 / delta)
    rho = (eps / (math.sqrt(L + eps) + math.sqrt(L))) ** 2
    while rho + 2 * math.sqrt(rho * L) > eps:      # rounded above eps: step down to the last bit
        rho = math.nextafter(rho, 0.0)
    return rho


def _simplex(v: np.ndarray, total: float) -> np.ndarray:
    """Euclidean projection of ``v`` onto ``{x >= 0, sum x = total}`` (sort and threshold)."""
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - total
    j = np.arange(1, v.size + 1)
    k = int(np.flatnonzero(u - css / j > 0)[-1])
    return np.maximum(v - css[k] / (k + 1), 0.0)


def _fit_table(m: np.ndarray, r: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Table near ``m`` with row sums ``r``, column sums ``c`` (approximately), non-negative.

    Least-squares additive move onto the margins, clip at 0, :data:`IPF_ROUNDS` rounds of
    iterative proportional fitting ending on the rows (exact row sums)."""
    a, b = m.shape
    t = (m + (r - m.sum(axis=1))[:, None] / b + (c - m.sum(axis=0))[None, :] / a
         - (r.sum() - m.sum()) / (a * b))
    t = np.maximum(t, 0.0)
    for _ in range(IPF_ROUNDS):
        s = t.sum(axis=0)
        t = t * np.divide(c, s, out=np.zeros_like(s), where=s > 0)[None, :]
        s = t.sum(axis=1)
        t = t * np.divide(r, s, out=np.zeros_like(s), where=s > 0)[:, None]
    empty = (t.sum(axis=1) <= 0) & (r > 0)          # a row the fit emptied: the child's margin
    if empty.any():
        t[empty] = r[empty, None] * (c / c.sum())[None, :]
    return t


def _draw_rows(p: np.ndarray, parent: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """One draw per record from row ``parent[i]`` of the row-stochastic ``p`` (inverse CDF)."""
    cum = np.cumsum(p, axis=1)
    cum /= cum[:, -1:]
    u = gen.random(parent.size)
    return np.minimum((u[:, None] >= cum[parent]).sum(axis=1), p.shape[1] - 1)


# ----------------------------------------------------------------------------- the mechanism
def mst(data: pd.DataFrame, domain: Mapping[str, Sequence], *, eps: float, delta: float,
        rng: int | np.random.Generator) -> MSTSynthesis:
    """Synthesize ``data`` with MST (McKenna, Miklau & Sheldon 2021, Section 4), (eps, delta)-DP.

    The three measurements of the module docstring at ``rho / 3`` each, ``rho`` the zCDP budget of
    (eps, delta) (the largest rho that :func:`privlib.accounting.zcdp_to_dp` turns into at most eps), then the tree factorisation of the
    consistent marginals sampled root to leaves.  Under adding or removing one record.

    Parameters
    ----------
    data : pandas.DataFrame
        The records, at least two columns, every value inside its public domain.
    domain : mapping of str to sequence
        Per column, its public values (distinct, not read from the data), in any order.
    eps : float
        Target eps, > 0.
    delta : float
        Target delta, in (0, 1).
    rng : int or numpy.random.Generator
        Required, keyword-only: the noise, the selection and the sampling.

    Returns
    -------
    MSTSynthesis

    Raises
    ------
    TypeError
        ``data`` not a DataFrame, ``domain`` not a mapping of sequences, a bad ``rng``.
    ValueError
        Fewer than two columns, duplicate columns, ``domain``'s keys not the columns, a domain
        empty, with duplicates or NaN, a value outside its domain, a bad ``eps`` or ``delta``, or
        an eps so small that the Gaussian variance exceeds the exact sampler's range.

    Examples
    --------
    >>> df = pd.DataFrame({"a": [0, 0, 1, 1] * 50, "b": ["x", "x", "y", "y"] * 50})
    >>> syn = mst(df, {"a": [0, 1], "b": ["x", "y"]}, eps=50.0, delta=1e-6, rng=0)
    >>> syn.tree, len(syn.synthetic), syn.two_way[("a", "b")].round(2).tolist()
    ((('a', 'b'),), 200, [[0.5, 0.0], [0.0, 0.5]])
    >>> syn.rho_spent <= syn.rho, syn.ledger.total() <= 50.0
    (True, True)

    The result:

    >>> sorted(syn.kept), syn.one_way["a"].round(3).tolist(), syn.calls["step"].tolist()
    (['a', 'b'], [0.5, 0.5], ['1-way marginals', 'tree selection', '2-way marginals'])
    """
    from ..mechanisms import discrete_gaussian, exponential
    cols, values, codes = _check_inputs(data, domain)
    eps = check_epsilon(eps)
    delta = check_delta(delta)
    gen = as_generator(rng, release=True)
    d = len(cols)
    rho = _rho_for(eps, delta)
    step = rho / 3.0
    sizes = [v.size for v in values]

    def gaussian(counts: np.ndarray, k: int) -> tuple[np.ndarray, float]:
        sigma2 = k / (2.0 * step)
        try:
            return np.asarray(discrete_gaussian(counts, sigma2=sigma2, rng=gen)), sigma2
        except ValueError as exc:
            if "too large" not in str(exc):       # pragma: no cover - counts are small int64
                raise
            raise ValueError(f"eps: {eps!r} (delta = {delta!r}) needs Gaussian noise of variance {sigma2:.4g}, "
                             "beyond the exact sampler's range; expected a larger eps") from None

    calls = []
    # 1. every 1-way marginal, one Gaussian release of L2 sensitivity sqrt(d)
    true1 = [np.bincount(c, minlength=k) for c, k in zip(codes, sizes)]
    noisy, s1 = gaussian(np.concatenate(true1), d)
    y1 = np.split(noisy.astype(float), np.cumsum(sizes)[:-1])
    calls.append(("1-way marginals", "discrete gaussian", f"all {d} 1-way marginals", math.sqrt(d), s1,
                  d / (2.0 * s1)))
    # domain compression: values with a noisy count below 3 sigma merged into one
    sigma1 = math.sqrt(s1)
    kept = [y >= 3.0 * sigma1 for y in y1]
    comp, ksize, merged = [], [], []
    for keep in kept:
        n_keep = int(keep.sum())
        rare = n_keep < keep.size
        m = np.where(keep, np.cumsum(keep) - 1, n_keep)
        comp.append(m)
        ksize.append(n_keep + int(rare))
        merged.append(np.bincount(m, minlength=n_keep + int(rare)).astype(float))
    ccodes = [m[c] for m, c in zip(comp, codes)]
    z1 = [np.bincount(m, weights=y, minlength=k) for m, y, k in zip(comp, y1, ksize)]
    # 2. the tree: Kruskal with the exponential mechanism, weights against the independent estimate
    tot1 = np.array([y.sum() for y in y1])
    n1 = float(np.sum(tot1 / np.array(sizes, float)) / np.sum(1.0 / np.array(sizes, float)))
    base = max(n1, 1.0)
    p1 = [_simplex(z, base) / base for z in z1]
    pairs = list(itertools.combinations(range(d), 2))
    true2 = {}
    weight = np.empty(len(pairs))
    for e, (i, j) in enumerate(pairs):
        t = np.bincount(ccodes[i] * ksize[j] + ccodes[j], minlength=ksize[i] * ksize[j]).reshape(ksize[i], ksize[j])
        true2[(i, j)] = t
        weight[e] = np.abs(t - n1 * np.outer(p1[i], p1[j])).sum()
    eps_sel = math.sqrt(8.0 * step / (d - 1))
    comp_of = list(range(d))

    def root(i: int) -> int:
        while comp_of[i] != i:
            i = comp_of[i]
        return i

    tree = []
    for k in range(d - 1):
        open_ = [e for e, (i, j) in enumerate(pairs) if root(i) != root(j)]
        pick = open_[exponential(weight[open_], eps=eps_sel, sensitivity=1.0, rng=gen)]
        i, j = pairs[pick]
        comp_of[root(j)] = root(i)
        tree.append((i, j))
        calls.append(("tree selection", "exponential", f"edge {k + 1} of {d - 1}", 1.0, eps_sel, eps_sel ** 2 / 8.0))
    # 3. the tree's 2-way marginals, one Gaussian release of L2 sensitivity sqrt(d - 1)
    flat = np.concatenate([true2[e].ravel() for e in tree])
    noisy2, s3 = gaussian(flat, d - 1)
    cuts = np.cumsum([true2[e].size for e in tree])[:-1]
    y2 = {e: part.astype(float).reshape(true2[e].shape) for e, part in zip(tree, np.split(noisy2, cuts))}
    calls.append(("2-way marginals", "discrete gaussian", f"the {d - 1} marginals of the tree", math.sqrt(d - 1), s3,
                  (d - 1) / (2.0 * s3)))
    calls = pd.DataFrame(calls, columns=["step", "mechanism", "what", "sensitivity", "scale", "rho"])
    rho_spent = float(calls["rho"].sum())
    check_rho(rho_spent, rho)
    ledger = Ledger([LedgerEntry("MST (zCDP)", zcdp_to_dp(rho_spent, delta=delta), "sequential",
                                 detail=f"rho = {rho_spent:.6g} (three thirds: 1-way, tree selection, 2-way) as "
                                        f"(eps, delta = {delta:g})-DP, Bun & Steinke 2016, Proposition 1.3")])
    ledger.check(eps)

    # estimation (post-processing): total, consistent 1-way, fitted 2-way
    est_tot = [(y.sum(), s1 * n) for y, n in zip(y1, sizes)]
    est_tot += [(y2[e].sum(), s3 * y2[e].size) for e in tree]
    # in exact rationals: the number of records drawn (its rounding) must not hang on a last bit
    w = [1 / Fraction(v) for _, v in est_tot]
    exact = sum(wi * Fraction(int(t)) for wi, (t, _) in zip(w, est_tot)) / sum(w)
    total = float(exact)
    base = max(total, 1.0)
    p = []
    for a in range(d):
        num, den = z1[a] / (s1 * merged[a]), 1.0 / (s1 * merged[a])
        for (i, j) in tree:
            if a in (i, j):
                axis, other = (1, ksize[j]) if a == i else (0, ksize[i])
                num = num + y2[(i, j)].sum(axis=axis) / (s3 * other)
                den = den + 1.0 / (s3 * other)
        p.append(_simplex(num / den, base) / base)
    adj = {a: [] for a in range(d)}
    for (i, j) in tree:
        adj[i].append(j)
        adj[j].append(i)
    order, parent, seen = [0], {}, {0}
    for a in order:                                   # breadth first from the first attribute
        for b in sorted(adj[a]):
            if b not in seen:
                seen.add(b)
                parent[b] = a
                order.append(b)
    tables = {}
    for b in order[1:]:
        a = parent[b]
        m = y2[(a, b)] if (a, b) in y2 else y2[(b, a)].T
        tables[(a, b)] = _fit_table(m, p[a] * base, p[b] * base) / base

    # sampling root to leaves on the compressed domains, then the merged values spread uniformly
    n_syn = max(round(exact), 0)
    draw = {0: _draw_rows(p[0][None, :], np.zeros(n_syn, dtype=np.int64), gen) if n_syn else
            np.zeros(0, dtype=np.int64)}
    for b in order[1:]:
        a = parent[b]
        t = tables[(a, b)]
        rows = np.where(t.sum(axis=1, keepdims=True) > 0, t, p[b][None, :])
        draw[b] = _draw_rows(rows, draw[a], gen) if n_syn else np.zeros(0, dtype=np.int64)
    out, spread, one_way = {}, [], {}
    for a, c in enumerate(cols):
        keep = kept[a]
        s = np.zeros((sizes[a], ksize[a]))          # public value x compressed value: the spreading
        s[np.arange(sizes[a]), comp[a]] = np.where(keep, 1.0, 1.0 / max(int((~keep).sum()), 1))
        spread.append(s)
        code = np.flatnonzero(keep)[np.minimum(draw[a], max(int(keep.sum()) - 1, 0))] if keep.any() else \
            np.zeros(draw[a].size, dtype=np.int64)
        rare = draw[a] == ksize[a] - 1 if not keep.all() else np.zeros(draw[a].size, dtype=bool)
        if rare.any():
            code = code.copy()
            code[rare] = np.flatnonzero(~keep)[gen.integers(0, int((~keep).sum()), size=int(rare.sum()))]
        out[c] = values[a][code].to_numpy() if n_syn else values[a][:0].to_numpy()
        one_way[c] = s @ p[a]
    two_way = {(cols[a], cols[b]): spread[a] @ t @ spread[b].T for (a, b), t in tables.items()}
    return MSTSynthesis(synthetic=pd.DataFrame(out, columns=cols), tree=tuple((cols[i], cols[j]) for i, j in tree),
                        kept={c: tuple(values[a][kept[a]]) for a, c in enumerate(cols)}, one_way=one_way,
                        two_way=two_way, total=total, eps=eps, delta=delta, rho=rho, rho_spent=rho_spent,
                        calls=calls, ledger=ledger)
