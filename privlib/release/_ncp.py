"""The normalized certainty penalty of Xu et al. (KDD 2006): least common ancestors on categorical QIs."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._docs import shared_doc
from ..hierarchy import Hierarchy
from ..partition import Decomposition
from ._table import RECORDS_RELEASE_DOC, _check_qi, _classes


def _lca_sizes(h: Hierarchy, pos_lo: np.ndarray, pos_hi: np.ndarray) -> np.ndarray:
    """Leaves under the least common ancestor of the leaves at depth-first positions ``pos_lo..pos_hi``.

    Every node covers a run of consecutive depth-first leaf positions; the least common ancestor
    of a set of leaves is the smallest node whose run holds the set's first and last position.
    """
    first, last, size = [], [], []
    for node in h.nodes:
        leaves = h.leaves_under(node)
        pos = [h.leaf_index(v) for v in leaves]
        first.append(min(pos))
        last.append(max(pos))
        size.append(len(leaves))
    first, last, size = (np.asarray(v, dtype=np.int64) for v in (first, last, size))
    inside = (first[None, :] <= pos_lo[:, None]) & (pos_hi[:, None] <= last[None, :])
    return np.where(inside, size[None, :], np.iinfo(np.int64).max).min(axis=1)


@shared_doc(records_release=RECORDS_RELEASE_DOC)
def ncp_xu(df: pd.DataFrame, decomposition: Decomposition, *, hierarchies: Mapping[str, Hierarchy],
           orders: Mapping[str, Sequence], qi: Sequence[str] | None = None) -> tuple[float, dict]:
    """Normalized certainty penalty as Xu et al. define it, per record and attribute (tight ranges).

    Xu, Wang, Pei, Wang, Shi & Fu, *Utility-based anonymization using local recoding*, KDD 2006,
    Section 3: an equivalence class ``E`` (the records of ``df`` sharing a box of the release)
    costs, on a numerical attribute ``A`` whose values in ``E`` span ``[y, z]``,
    ``NCP_A(E) = (z - y) / (max_A - min_A)`` (the release's public domain); on a categorical
    attribute, the values of ``E`` generalize to their **least common ancestor** ``u`` in the
    hierarchy and ``NCP_A(E) = |u| / |A|`` (leaves under ``u`` over the leaves of the
    hierarchy), 0 when ``u`` is a single value.  The table's value is the mean over records and
    attributes, ``sum_E |E| sum_A NCP_A(E) / (n |A|)`` (equal weights), in [0, 1].

    :func:`information_loss` reports the *GCP variant* (Ghinita et al. 2007, ARX's "global
    certainty penalty"), which charges a categorical attribute the share of the codes between
    the class's smallest and largest code; the least common ancestor covers at least those
    codes, so this NCP is at least the GCP variant on tight ranges.

    {{records_release}}
    hierarchies : mapping
        ``{qi: Hierarchy}`` for the categorical QIs (the others are numerical).
    orders : mapping
        ``{qi: values in code order}`` for the categorical QIs: code ``c`` is the value
        ``orders[qi][c]`` (a leaf of ``hierarchies[qi]``).
    qi : sequence of str, optional
        The attributes averaged over (default every QI of the release).

    Returns
    -------
    (float, dict)
        The table's NCP and ``{qi: NCP of that attribute}``.

    Raises
    ------
    TypeError, ValueError
        A bad argument (named in the message): a categorical QI without its order, a value of
        an order that is not a leaf of its hierarchy, records outside the release's domain.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> h = Hierarchy.from_dict({"*": {"lo": ["a", "b"], "hi": ["c", "d"]}})
    >>> df = pd.DataFrame({"x": [0, 1, 2, 3], "s": ["p", "q", "p", "q"]})
    >>> dec = mondrian(df, ["x"], "s", k=2, domain={"x": (0, 3)})
    >>> ncp_xu(df, dec, hierarchies={"x": h}, orders={"x": ["a", "b", "c", "d"]})[0]   # {a, b}, {c, d}: 2 / 4
    0.5
    """
    qi = _check_qi(decomposition, qi)
    if not isinstance(hierarchies, Mapping) or not isinstance(orders, Mapping):
        raise TypeError(f"hierarchies, orders: expected mappings, got {type(hierarchies).__name__}, "
                        f"{type(orders).__name__}")
    leaf, cls, idx, tlo, thi, _, _, cols = _classes(df, decomposition, qi)
    n = leaf.size
    sizes = np.bincount(idx, minlength=cls.size).astype(float)
    dlo = decomposition.domain_lower[cols]
    dhi = decomposition.domain_upper[cols]
    per_qi = {}
    for j, a in enumerate(qi):
        if a in hierarchies:
            h = hierarchies[a]
            if not isinstance(h, Hierarchy):
                raise TypeError(f"hierarchies[{a!r}]: expected a privlib Hierarchy, got {type(h).__name__}")
            if a not in orders:
                raise ValueError(f"orders: the categorical QI {a!r} has no order (code -> value)")
            order = list(orders[a])
            h.check_values(order)
            pos = np.array([h.leaf_index(v) for v in order], dtype=np.int64)
            lo_c, hi_c = tlo[:, j] - dlo[j], thi[:, j] - dlo[j]
            if lo_c.min() < 0 or hi_c.max() >= len(order):
                raise ValueError(f"orders[{a!r}]: {len(order)} values, but the records hold codes up to "
                                 f"{int(thi[:, j].max())}")
            # the class's values span codes lo..hi; their leaf positions span min..max over that run
            run_lo = np.array([pos[lo:hi + 1].min() for lo, hi in zip(lo_c, hi_c)], dtype=np.int64)
            run_hi = np.array([pos[lo:hi + 1].max() for lo, hi in zip(lo_c, hi_c)], dtype=np.int64)
            u = _lca_sizes(h, run_lo, run_hi)
            cost = np.where(u > 1, u / len(h.leaves_under(h.root)), 0.0)
        else:
            width = float(dhi[j] - dlo[j])
            cost = (thi[:, j] - tlo[:, j]) / width if width > 0 else np.zeros(cls.size)
        per_qi[a] = float(sizes @ cost / n)
    return float(np.mean(list(per_qi.values()))), per_qi
