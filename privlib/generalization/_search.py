"""The lattice search (Incognito's traversal, bottom-up and top-down) and node evaluation."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ._encoding import TOY_LATTICE_DOC
from .._docs import shared_doc
from .._validation import check_array, check_in
from ..requirements import TCloseness
from ._encoding import (Encoded, _check_enc, _check_levels, _freqset, _FreqSet, _merge, _up_maps,
                        lattice)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["discernibility", "evaluate_node", "SearchResult", "search"]


def discernibility(sizes: ArrayLike) -> float:
    """Discernibility metric ``sum |E|^2`` of a partition into classes of the given sizes.

    Bayardo & Agrawal (2005), slide "Experimental Results" (Figure 4a).

    Parameters
    ----------
    sizes : array of shape (classes,)
        Class sizes.

    Returns
    -------
    float

    Examples
    --------
    >>> discernibility([3, 3, 4])
    34.0
    """
    sizes = check_array(sizes, "sizes", ndim=1, minimum=0)
    return float((sizes ** 2).sum())


def _needed(bound) -> set:
    return {sa for _, sa, _ in bound if sa is not None}


def _judge(enc, levels, fs: _FreqSet, bound) -> dict:
    ok = all(r.holds(fs.sizes, None if sa is None else fs.counts[sa], q=q) for r, sa, q in bound)
    nc = len(fs.sizes)
    return {"levels": tuple(levels), "satisfied": ok, "n_classes": nc, "dm": discernibility(fs.sizes),
            "avg_size": enc.n / nc}


@shared_doc(toy_lattice=TOY_LATTICE_DOC)
def evaluate_node(enc: Encoded, levels: Sequence[int], /, *, requirements: Sequence = ()) -> dict:
    """Evaluate one lattice node: whether it satisfies every requirement, and its quality.

    Parameters
    ----------
    enc : Encoded
    levels : sequence of int
        One generalization level per QI.
    requirements : sequence of requirement objects, default ()
        :class:`~privlib.requirements.KAnonymity`, :class:`~privlib.requirements.LDiversity`,
        :class:`~privlib.requirements.TCloseness` (empty: only the quality is computed).

    Returns
    -------
    dict
        ``levels, satisfied, n_classes, dm`` (discernibility metric) and ``avg_size``
        (records per class).

    Examples
    --------
    {{toy_lattice}}
    >>> from privlib.requirements import KAnonymity
    >>> evaluate_node(enc, (1,), requirements=[KAnonymity(3)])
    {'levels': (1,), 'satisfied': True, 'n_classes': 2, 'dm': 18.0, 'avg_size': 3.0}
    """
    levels = _check_levels(enc, levels)
    bound = _bind(enc, _as_requirements(requirements), allow_empty=True)
    return _judge(enc, levels, _freqset(enc, levels, _needed(bound)), bound)


@dataclass(frozen=True)
@shared_doc(toy_lattice=TOY_LATTICE_DOC)
class SearchResult:
    """Outcome of :func:`search`.

    Attributes
    ----------
    minimal : DataFrame
        The minimal satisfying nodes (no satisfying direct specialization), with their
        ``n_classes``, ``dm`` and ``avg_size``.
    best : tuple or None
        The minimal node of smallest discernibility metric (``None`` if nothing satisfies).
    dm : float
        Its discernibility metric (NaN if nothing satisfies).
    min_avg_size : float
        The smallest average group size ``n / classes`` over the satisfying nodes.
    n_nodes, n_evaluated, n_tagged : int
        Lattice size, nodes evaluated on the data, nodes tagged by the generalization property.

    Examples
    --------
    {{toy_lattice}}
    >>> from privlib.requirements import LDiversity
    >>> res = search(enc, [LDiversity(2)])
    >>> res.best, res.dm, res.n_nodes
    ((1,), 18.0, 3)
    """

    qi: tuple
    requirements: tuple
    minimal: pd.DataFrame
    best: tuple | None
    dm: float
    min_avg_size: float
    n_nodes: int
    n_evaluated: int
    n_tagged: int


@shared_doc(toy_lattice=TOY_LATTICE_DOC)
def search(enc: Encoded, requirements: Sequence, *, direction: str = "bottom-up") -> SearchResult:
    """Find every minimal full-domain generalization satisfying all ``requirements``.

    ``direction="bottom-up"`` (default): breadth-first from the bottom of the lattice, as
    Incognito traverses it, with its generalization property -- a node with a satisfying
    direct specialization is tagged as satisfying without evaluation -- and its rollup:
    an evaluated node's frequency set is computed from the (smaller) frequency set of a
    direct specialization rather than from the data.

    ``direction="top-down"``: breadth-first from the root, with the contrapositive -- a node
    with a failing direct generalization is tagged as failing; cheaper when few nodes
    satisfy (strict requirements, many QIs).

    Both are exact for monotone requirements (all those of :mod:`privlib.requirements`)
    and return the same minimal nodes.

    Parameters
    ----------
    enc : Encoded
        From :func:`encode_lattice`, with every sensitive attribute a requirement names.
    requirements : sequence of requirement objects
        At least one; a requirement with ``sa=None`` is about the only encoded sensitive
        attribute.
    direction : {"bottom-up", "top-down"}

    Returns
    -------
    SearchResult

    Raises
    ------
    ValueError, TypeError
        For no requirements, a sensitive attribute that was not encoded (or several with
        ``sa=None``), an ordered or hierarchical distance on a domain encoded without its
        order, or an unknown ``direction``.

    Examples
    --------
    {{toy_lattice}}
    >>> from privlib.requirements import KAnonymity
    >>> search(enc, [KAnonymity(2)], direction="top-down").minimal
      levels  n_classes    dm  avg_size
    0   (1,)          2  18.0       3.0
    """
    _check_enc(enc)
    check_in(direction, "direction", ("bottom-up", "top-down"))
    requirements = _as_requirements(requirements)
    bound = _bind(enc, requirements)
    if direction == "top-down":
        return _search_top_down(enc, requirements, bound)
    nodes = lattice(enc.heights)
    ups = _up_maps(enc)
    base = enc.base
    needed = _needed(bound)
    sat, cache, prev_cache = {}, {}, {}
    height = 0
    rows = []
    n_eval = n_tag = 0
    for L in nodes:
        if sum(L) != height:            # next height: keep only the frequency sets one level below
            height, prev_cache, cache = sum(L), cache, {}
        tagged, child = False, None
        for j in range(len(L)):
            if L[j] > 0:
                C = L[:j] + (L[j] - 1,) + L[j + 1:]
                if sat.get(C, False):
                    tagged = True
                    break
                fs_c = prev_cache.get(C)
                if fs_c is not None and (child is None or len(fs_c.sizes) < len(child[1].sizes)):
                    child = (j, fs_c)
        if tagged:
            sat[L] = True
            n_tag += 1
            continue
        widths = [enc.widths[i][x] for i, x in enumerate(L)]
        if child is None:               # the bottom node
            fs = _merge(base, np.column_stack([enc.lookups[i][x][enc.rows[:, i]] for i, x in enumerate(L)]), widths,
                        needed)
        else:                           # Incognito's rollup from the smallest direct specialization
            j, fs_c = child
            codes = fs_c.codes.copy()
            codes[:, j] = ups[j][L[j] - 1][codes[:, j]]
            fs = _merge(fs_c, codes, widths, needed)
        res = _judge(enc, L, fs, bound)
        n_eval += 1
        sat[L] = res["satisfied"]
        if res["satisfied"]:
            rows.append(res)
        else:
            cache[L] = fs
    return _result(enc, requirements, rows, len(nodes), n_eval, n_tag)


def _as_requirements(requirements) -> tuple:
    if callable(getattr(requirements, "holds", None)) or isinstance(requirements, (str, Mapping)) \
            or not hasattr(requirements, "__iter__"):
        raise TypeError(f"requirements: expected a list of privacy requirements (e.g. [KAnonymity(5)]), "
                        f"got {type(requirements).__name__} {requirements!r}")
    requirements = tuple(requirements)
    for r in requirements:
        if not callable(getattr(r, "holds", None)):
            raise TypeError(f"requirements: expected privacy requirements with a holds(sizes, counts, q) method "
                            f"(privlib.requirements: KAnonymity, LDiversity, TCloseness), got {type(r).__name__} {r!r}")
    return requirements


def _bind(enc, requirements, allow_empty=False) -> tuple:
    """Check ``requirements`` against ``enc``; return ``(requirement, sa or None, q or None)`` triples."""
    if not requirements and not allow_empty:
        raise ValueError("requirements: expected at least one privacy requirement, got none")
    bound = []
    for r in requirements:
        if getattr(r, "needs", None) == "sizes" or not hasattr(r, "sa"):   # k-anonymity: sizes only
            bound.append((r, None, None))
            continue
        sa = r.sa
        if sa is None:
            if len(enc.sa_counts) != 1:
                raise ValueError(f"sa: the requirement {r!r} names no sensitive attribute and {len(enc.sa_counts)} "
                                 f"are encoded {list(enc.sa_counts)}; expected exactly one, or pass sa=...")
            (sa,) = enc.sa_counts
        if sa not in enc.sa_counts:
            raise ValueError(f"sa: {sa!r} was not encoded as a sensitive attribute "
                             f"(list it in encode_lattice(df, qi, hierarchies, sensitive=[...]))")
        q = None
        if isinstance(r, TCloseness):
            if r.distance == "ordered" and not enc.sa_ordered.get(sa, False):
                raise ValueError(f"sa_domains: the ordered distance on {sa!r} needs an explicit order of its values "
                                 f"(encode_lattice(..., sa_domains={{{sa!r}: [...]}}) or an ordered categorical); "
                                 f"its values are not numeric and sorting them as text is not an order "
                                 f"(got {list(enc.sa_domain[sa][:5])})")
            if r.distance == "hierarchical" and tuple(enc.sa_domain[sa]) != tuple(r.hierarchy.leaves):
                raise ValueError(f"sa_domains: the hierarchical distance on {sa!r} needs its domain encoded as the "
                                 f"hierarchy's leaves, in order "
                                 f"(encode_lattice(..., sa_domains={{{sa!r}: hierarchy.leaves}}))")
        if getattr(r, "needs", None) == "reference":   # t-closeness, beta-likeness: the table's distribution
            M = enc.base.counts[sa]
            q = M.sum(axis=0) / M.sum()          # the whole table's distribution (exact integer sums)
        bound.append((r, sa, q))
    return tuple(bound)


def _result(enc, requirements, rows, n_nodes, n_eval, n_tag):
    minimal = pd.DataFrame(rows, columns=["levels", "satisfied", "n_classes", "dm", "avg_size"]).drop(
        columns="satisfied")
    minimal = minimal.sort_values("levels", kind="stable", key=lambda s: s.map(lambda L: (sum(L), L))).reset_index(drop=True)
    if len(minimal):
        i = int(np.argmin(minimal["dm"].to_numpy()))
        best, dm, mavg = tuple(minimal["levels"].iloc[i]), float(minimal["dm"].iloc[i]), float(minimal["avg_size"].min())
    else:
        best, dm, mavg = None, float("nan"), float("nan")
    return SearchResult(qi=enc.qi, requirements=requirements, minimal=minimal, best=best,
                        dm=dm, min_avg_size=mavg, n_nodes=n_nodes, n_evaluated=n_eval, n_tagged=n_tag)


def _search_top_down(enc: Encoded, requirements: tuple, bound: tuple) -> SearchResult:
    nodes = lattice(enc.heights)[::-1]
    H = enc.heights
    needed = _needed(bound)
    sat, info = {}, {}
    n_eval = n_tag = 0
    for L in nodes:
        parents = [L[:j] + (L[j] + 1,) + L[j + 1:] for j in range(len(L)) if L[j] < H[j]]
        if any(not sat[P] for P in parents):
            sat[L] = False
            n_tag += 1
            continue
        res = _judge(enc, L, _freqset(enc, L, needed), bound)
        n_eval += 1
        sat[L] = res["satisfied"]
        if res["satisfied"]:
            info[L] = res
    rows = []
    for L, res in info.items():
        children = [L[:j] + (L[j] - 1,) + L[j + 1:] for j in range(len(L)) if L[j] > 0]
        if not any(sat[C] for C in children):
            rows.append(res)
    return _result(enc, requirements, rows, len(nodes), n_eval, n_tag)


