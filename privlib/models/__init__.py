"""Privacy models checked on a published (generalized) table: k-anonymity, l-diversity, t-closeness.

Li, Li & Venkatasubramanian, *t-Closeness: Privacy beyond k-anonymity and l-diversity*
(ICDE 2007), slides "k-anonymity", "l-diversity" and "t-closeness definition":

* an *equivalence class* is the set of records sharing the same quasi-identifier (QI)
  values;
* **k-anonymity** (Sweeney 2002): every class has at least ``k`` records;
* **l-diversity** (Machanavajjhala et al. 2007): every class has at least ``l``
  "well represented" sensitive values -- *distinct* (``l`` distinct values), *entropy*
  (entropy of the class's sensitive distribution ``>= log l``), *recursive (c, l)*
  (``r_1 < c (r_l + r_{l+1} + ... + r_m)`` with ``r_1 >= r_2 >= ...`` the value counts) or
  *frequency* (no value has more than a ``1/l`` share of its class);
* **t-closeness**: the Earth Mover's Distance between the sensitive distribution ``P`` of
  every class and the distribution ``Q`` of the whole table is at most ``t``.

The privacy models themselves (the requirement objects :class:`~privlib.requirements.KAnonymity`,
:class:`~privlib.requirements.LDiversity`, :class:`~privlib.requirements.TCloseness`) live in
:mod:`privlib.requirements`; the functions here measure a table against them.  Every check
returns a small frozen report holding the table's value (smallest ``k``,
smallest ``l``, largest distance) and the per-class values.  The work is vectorised: the
table is grouped once (``groupby(...).ngroup()``), the sensitive values are counted into a
sparse *classes x values* matrix, and the distances are computed by the batch closed forms
of :mod:`privlib.closeness` on blocks of rows -- never a Python loop over classes.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import (check_columns, check_distribution, check_has_order, check_no_nan,
                          check_probability, check_unique_columns)
from ..hierarchy import Hierarchy
from ..requirements import LDiversity, TCloseness, check_l
from ._check import CheckReport, check, check_counts
from ._classes import _as_counts, _check_count, _qi_list, class_counts

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "check",
    "check_counts",
    "CheckReport",
    "KAnonymityReport",
    "LDiversityReport",
    "TClosenessReport",
    "class_counts",
    "k_anonymity",
    "l_diversity",
    "l_diversity_counts",
    "t_closeness",
    "t_closeness_counts",
    "sensitive_posterior",
]

#: The table, its quasi-identifiers and sensitive attribute (the checks of a table).
TABLE_ARGS_DOC = """
Parameters
----------
df : DataFrame
qi : list of str
sa : str
    The sensitive attribute.
"""
#: The result of the per-class checks on a count matrix.
PER_CLASS_DOC = """
Returns
-------
ndarray of float, shape (n_classes,)
    One value per class (row of ``counts``).
"""


# ---------------------------------------------------------------------------- results
@dataclass(frozen=True)
class KAnonymityReport:
    """Result of :func:`k_anonymity`.

    Attributes
    ----------
    k : int
        The size of the smallest equivalence class (the table is k-anonymous for every
        ``k' <= k``).
    sizes : pandas.Series
        Size of every class, indexed by the QI values.

    Examples
    --------
    >>> import pandas as pd
    >>> r = k_anonymity(pd.DataFrame({"zip": ["476**"] * 3 + ["4790*"] * 2}), ["zip"])
    >>> r.k, r.n_classes, r.holds(2), r.holds(3)
    (2, 2, True, False)
    """

    k: int
    sizes: pd.Series

    @property
    def n_classes(self) -> int:
        """The number of equivalence classes."""
        return int(len(self.sizes))

    def holds(self, k: int) -> bool:
        """True when the table is ``k``-anonymous (``k >= 1``)."""
        k = _check_count(k, "k")
        return self.k >= k


@dataclass(frozen=True)
class LDiversityReport:
    """Result of :func:`l_diversity`.

    Attributes
    ----------
    l : float
        The table's value: the largest ``l`` for which every class is ``l``-diverse of the
        given ``kind`` (``distinct``: smallest number of distinct values; ``entropy``:
        ``exp`` of the smallest class entropy; ``recursive``: the largest integer ``l``
        with ``r_1 < c (r_l + ... + r_m)`` in every class, 0 if even ``l = 1`` fails;
        ``frequency``: the smallest ratio ``size / (count of the most frequent value)``).
    kind : str
    c : float or None
    per_class : pandas.Series
        The same quantity for every class, indexed by the QI values.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"zip": ["a"] * 3 + ["b"] * 3, "disease": ["flu", "flu", "ulcer"] * 2})
    >>> r = l_diversity(t, ["zip"], "disease")
    >>> r.l, r.holds(2), r.holds(3)
    (2, True, False)
    """

    l: float
    kind: str
    c: float | None
    per_class: pd.Series

    def holds(self, l: float) -> bool:
        """True when every class is ``l``-diverse (``l >= 1``)."""
        l = check_l(l)
        return bool(self.l >= l - 1e-12)


@dataclass(frozen=True)
class TClosenessReport:
    """Result of :func:`t_closeness`.

    Attributes
    ----------
    t : float
        The largest EMD between a class's sensitive distribution and ``q`` (the table is
        ``t'``-close for every ``t' >= t``).
    distance : str
        Ground distance: ``equal``, ``ordered`` or ``hierarchical``.
    per_class : pandas.Series
        EMD of every class, indexed by the QI values.
    q : pandas.Series
        The reference distribution (by default the whole table's), indexed by the domain.

    Examples
    --------
    >>> import pandas as pd
    >>> r = t_closeness(pd.DataFrame({"g": [0, 0, 1, 1], "s": [3, 4, 5, 11]}), ["g"], "s", distance="ordered")
    >>> round(r.t, 3), r.holds(0.5), r.holds(0.2)
    (0.333, True, False)
    """

    t: float
    distance: str
    per_class: pd.Series
    q: pd.Series

    def holds(self, t: float) -> bool:
        """True when every class is within ``t`` of ``q`` (``t`` in [0, 1], the range of the EMD)."""
        t = check_probability(t, "t")
        return bool(self.t <= t + 1e-12)


# ---------------------------------------------------------------------------- k-anonymity
def k_anonymity(df: pd.DataFrame, qi: Sequence[str]) -> KAnonymityReport:
    """k-anonymity of a table: the size of its smallest equivalence class (slide "k-anonymity").

    Parameters
    ----------
    df : DataFrame
        The published (generalized) table.
    qi : list of str
        Quasi-identifier columns.

    Returns
    -------
    KAnonymityReport
        ``k`` (smallest class size) and the size of every class.

    Raises
    ------
    ValueError, TypeError
        For a non-DataFrame, unknown or duplicated columns, missing QI values or an empty table.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"zip": ["476**"] * 3 + ["4790*"] * 2, "age": ["2*"] * 3 + [">=40"] * 2})
    >>> k_anonymity(t, ["zip", "age"]).k
    2
    """
    qi = _qi_list(df, qi)
    sizes = df.groupby(qi, sort=True, observed=True, dropna=False).size().rename("size")
    return KAnonymityReport(k=int(sizes.min()), sizes=sizes)


# ---------------------------------------------------------------------------- l-diversity
def _l_requirement(kind: str, c) -> LDiversity:
    """Validate ``kind`` and ``c`` through the requirement object (one vocabulary, one set of checks)."""
    return LDiversity(1, kind=kind, c=c)


@shared_doc(per_class=PER_CLASS_DOC)
def l_diversity_counts(counts: ArrayLike, *, kind: str = "distinct", c: float | None = None) -> np.ndarray:
    """Per-class l-diversity value from a *classes x values* count matrix.

    Parameters
    ----------
    counts : array or sparse matrix, shape (n_classes, n_values)
        Sensitive-value counts of every class (e.g. from :func:`class_counts`).
    kind : {"distinct", "entropy", "recursive", "frequency"}
        ``distinct``: number of distinct values; ``entropy``: ``exp(H)`` with ``H`` the
        class's entropy (natural log), so that the class is entropy l-diverse iff the value
        is ``>= l``; ``recursive``: the largest integer ``l`` satisfying recursive
        (c, l)-diversity; ``frequency``: ``size / (count of the most frequent value)``, the
        largest ``l`` with no value above a ``1/l`` share.
    c : float, required for ``kind="recursive"``
        The constant of recursive (c, l)-diversity, ``c > 0``.

    {{per_class}}

    Raises
    ------
    ValueError
        For an empty class (a row of zeros), negative or non-finite counts, an unknown
        ``kind`` or a missing ``c`` with ``kind="recursive"``.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[2, 2, 1], [4, 1, 0]])
    >>> l_diversity_counts(counts).tolist()
    [3.0, 2.0]
    >>> l_diversity_counts(counts, kind="frequency").tolist()
    [2.5, 1.25]
    >>> l_diversity_counts(counts, kind="entropy").round(3).tolist()
    [2.872, 1.649]
    """
    req = _l_requirement(kind, c)
    cm, sizes = _as_counts(counts)
    return req.values(sizes, cm)


@shared_doc(table_args=TABLE_ARGS_DOC)
def l_diversity(df: pd.DataFrame, qi: Sequence[str], sa: str, *, kind: str = "distinct",
                c: float | None = None) -> LDiversityReport:
    """l-diversity of a table (slide "l-diversity"; Machanavajjhala et al. 2007).

    {{table_args}}
    kind : {"distinct", "entropy", "recursive", "frequency"}
        The reading of l-diversity (see :class:`privlib.requirements.LDiversity`).
    c : float, required for ``kind="recursive"``
        The constant of recursive (c, l)-diversity, ``c > 0``.

    Returns
    -------
    LDiversityReport
        ``l`` is the table's value: the minimum over classes of the per-class value (see
        :func:`l_diversity_counts`); an integer for ``distinct`` and ``recursive``.

    Raises
    ------
    ValueError
        For an unknown ``kind``, a missing or non-positive ``c``, unknown columns or
        missing values.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"zip": ["a"] * 4 + ["b"] * 4,
    ...                   "disease": ["flu", "flu", "ulcer", "colitis", "flu", "ulcer", "ulcer", "ulcer"]})
    >>> l_diversity(t, ["zip"], "disease").l
    2
    >>> round(l_diversity(t, ["zip"], "disease", kind="frequency").l, 3)
    1.333
    """
    _l_requirement(kind, c)                      # the options checked before the table
    keys, counts, _ = class_counts(df, qi, sa)
    return _l_report(keys, counts, kind=kind, c=c)


def _l_report(keys, counts, *, kind: str, c) -> LDiversityReport:
    """The report of :func:`l_diversity` from the classes' keys and counts (also Dask's)."""
    c = _l_requirement(kind, c).c
    c = None if c is None else float(c)
    vals = l_diversity_counts(counts, kind=kind, c=c)
    per = pd.Series(vals, index=keys, name=f"{kind} l")
    real = kind in ("entropy", "frequency")
    if not real:
        per = per.astype(int)
    lval = per.min()
    return LDiversityReport(l=(float(lval) if real else int(lval)), kind=kind,
                            c=(c if kind == "recursive" else None), per_class=per)


# ---------------------------------------------------------------------------- t-closeness
@shared_doc(per_class=PER_CLASS_DOC)
def t_closeness_counts(counts: ArrayLike, q: ArrayLike, *, distance: str = "equal", hierarchy: Hierarchy | None = None) -> np.ndarray:
    """EMD of every class (a row of ``counts``) to the distribution ``q``.

    Parameters
    ----------
    counts : array or sparse matrix, shape (n_classes, n_values)
        Sensitive-value counts of every class, aligned with ``q`` (for the hierarchical
        distance, with ``hierarchy.leaves``).
    q : array, shape (n_values,)
        The reference distribution.
    distance : {"equal", "ordered", "hierarchical"}
        The ground distance, read by :meth:`privlib.requirements.TCloseness.distances` (one
        formula for dense and sparse counts): the equal and ordered distances are computed from
        the non-zero counts only (sparse closed forms, equal to those of
        :mod:`privlib.closeness`); the hierarchical one in blocks of rows with the dispatcher
        :func:`privlib.closeness.ground_distance`.
    hierarchy : Hierarchy, required for ``distance="hierarchical"``

    {{per_class}}

    Raises
    ------
    ValueError
        For an empty class, a ``q`` that is not a distribution over the columns, an unknown
        ``distance`` or a missing ``hierarchy``.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[3, 1, 0], [1, 1, 2]])
    >>> t_closeness_counts(counts, [0.4, 0.3, 0.3], distance="ordered").round(3).tolist()
    [0.325, 0.175]
    """
    req = TCloseness(1.0, distance=distance, hierarchy=hierarchy)   # validates distance, hierarchy
    cm, sizes = _as_counts(counts)
    q = np.asarray(q, dtype=float)
    if q.ndim != 1 or q.shape[0] != cm.shape[1]:
        raise ValueError(f"q: expected a distribution over the {cm.shape[1]} values of counts, got shape {q.shape}")
    return req.distances(sizes, cm, q=check_distribution(q, "q"))


@shared_doc(table_args=TABLE_ARGS_DOC)
def t_closeness(df: pd.DataFrame, qi: Sequence[str], sa: str, *, distance: str = "equal",
                hierarchy: Hierarchy | None = None, q: Mapping | ArrayLike | None = None, sa_values: Sequence | None = None) -> TClosenessReport:
    """t-closeness of a table (slide "t-closeness definition").

    {{table_args}}
    distance : {"equal", "ordered", "hierarchical"}
        Ground distance of the EMD (slides "Equal Distance", "Numerical Distances",
        "Hierarchical Distance").  ``ordered`` uses the order of ``sa_values``: by default the
        sorted values of a numeric ``sa`` or the categories of an ordered categorical; any
        other ``sa`` (strings such as ``"3K" ... "11K"``, which sort as text, ``"11K" <
        "3K"``) needs its order given as ``sa_values`` (``ValueError`` otherwise).
        ``hierarchical`` uses the leaves of ``hierarchy`` as the domain (every value must be
        a leaf; ``sa_values`` must then be omitted).
    hierarchy : Hierarchy, required for ``distance="hierarchical"``
    q : mapping or Series value -> probability, or array over the domain, optional
        Reference distribution; default the distribution of ``sa`` in the whole table.  A
        mapping or Series is aligned by value (a Series by its index, e.g. the output of
        ``value_counts(normalize=True)``); an array by position, in the order of ``sa_values``.
    sa_values : sequence, optional
        The ordered domain (``ordered``, in increasing order) or the value set (``equal``);
        default the sorted distinct values of ``sa``.

    Returns
    -------
    TClosenessReport
        ``t`` is the largest per-class EMD.

    Raises
    ------
    ValueError
        For ``distance="ordered"`` on a non-numeric ``sa`` without ``sa_values`` (and not an
        ordered categorical), or ``sa_values`` given with ``distance="hierarchical"``.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"zip": ["a", "a", "b", "b"], "salary": ["3K", "5K", "11K", "5K"]})
    >>> r = t_closeness(t, ["zip"], "salary", distance="ordered", sa_values=["3K", "5K", "11K"])
    >>> round(r.t, 3), r.per_class.round(3).tolist()
    (0.25, [0.25, 0.25])
    """
    TCloseness(1.0, distance=distance, hierarchy=hierarchy)     # validates distance and hierarchy
    if distance == "ordered" and sa_values is None:
        check_unique_columns(df, "df")                 # a DataFrame, distinct column names
        (sa_col,) = check_columns(df, [sa], "sa")
        check_has_order(df[sa_col], "sa_values")
    if distance == "hierarchical":
        if sa_values is not None:
            raise ValueError("sa_values: the hierarchical distance uses the leaves of hierarchy as the domain; "
                             "do not pass sa_values")
        (sa_col,) = check_columns(df, [sa], "sa")
        hierarchy.check_values(df[sa_col])
        sa_values = hierarchy.leaves
    keys, counts, dom = class_counts(df, qi, sa, sa_values=sa_values)
    if q is None:
        qv = np.asarray(counts.sum(axis=0)).ravel()
        qv = qv / qv.sum()
    elif isinstance(q, (Mapping, pd.Series)):
        if isinstance(q, pd.Series):          # aligned by its index, never by position
            if q.index.has_duplicates:
                raise ValueError(f"q: expected a Series indexed by distinct values of {sa!r}, got duplicates")
            q = q.to_dict()
        unknown = [v for v in q if v not in dom]
        if unknown:
            raise ValueError(f"q: value(s) {unknown[:5]} are not in the domain of {sa!r}")
        qv = np.array([float(q.get(v, 0.0)) for v in dom])
    else:
        qv = np.asarray(q, dtype=float)
    return _t_report(keys, counts, dom, qv, distance=distance, hierarchy=hierarchy)


def _t_report(keys, counts, domain, q, *, distance: str, hierarchy=None) -> TClosenessReport:
    """The report of :func:`t_closeness` from the classes' keys and counts (also Dask's)."""
    q = check_distribution(q, "q")
    vals = t_closeness_counts(counts, q, distance=distance, hierarchy=hierarchy)
    per = pd.Series(vals, index=keys, name=f"EMD ({distance})")
    return TClosenessReport(t=float(vals.max()), distance=distance, per_class=per,
                            q=pd.Series(q, index=domain, name="q"))


# ---------------------------------------------------------------------------- the adversary
def sensitive_posterior(df: pd.DataFrame, qi: Sequence[str], sa: str, match: Mapping, *,
                        knowledge: Mapping | None = None) -> pd.Series:
    """The adversary's belief about a target's sensitive value (slides "Attacks on k-anonymity").

    The adversary knows the target's record is in the class whose QI values are ``match``
    (released values, e.g. ``{"zip": "476**", "age": "2*"}``); without other knowledge her
    posterior is the class's sensitive distribution.  ``knowledge`` maps sensitive values to
    likelihood weights (e.g. ``{"heart disease": 0.0}`` for "Carl has a low risk of heart
    disease"; values not listed keep weight 1); the posterior is re-weighted by Bayes' rule.

    Parameters
    ----------
    df : DataFrame
        The published table.
    qi : list of str
        Quasi-identifier columns.
    sa : str
        The sensitive attribute.
    match : mapping column -> released value
        The QI values of the target's class (exactly the columns ``qi``).
    knowledge : mapping sensitive value -> likelihood weight, optional
        The adversary's background knowledge (finite, non-negative weights).

    Returns
    -------
    pandas.Series
        Posterior probability of every sensitive value seen in the class, descending.

    Raises
    ------
    ValueError
        For a ``match`` that does not name exactly the QI columns or matches no class, or
        ``knowledge`` that rules out every value of the class.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"zip": ["476**"] * 3, "disease": ["heart disease", "flu", "flu"]})
    >>> sensitive_posterior(t, ["zip"], "disease", {"zip": "476**"}).round(3).to_dict()
    {'flu': 0.667, 'heart disease': 0.333}
    >>> sensitive_posterior(t, ["zip"], "disease", {"zip": "476**"}, knowledge={"heart disease": 0.0}).to_dict()
    {'flu': 1.0, 'heart disease': 0.0}
    """
    qi = _qi_list(df, qi)
    (sa,) = check_columns(df, [sa], "sa")
    check_no_nan(df, "df", [sa])
    if not isinstance(match, Mapping) or set(match) != set(qi):
        raise ValueError(f"match: expected a mapping with exactly the QI columns {qi}, got {match!r}")
    mask = np.ones(len(df), dtype=bool)
    for col, val in match.items():
        mask &= (df[col] == val).to_numpy()
    if not mask.any():
        raise ValueError(f"match: no equivalence class has the QI values {dict(match)}")
    counts = df.loc[mask, sa].value_counts()
    if knowledge:
        if not isinstance(knowledge, Mapping):
            raise TypeError(f"knowledge: expected a mapping value -> likelihood weight, got {type(knowledge).__name__}")
        for v, x in knowledge.items():
            if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)) \
                    or not np.isfinite(x) or x < 0:
                raise ValueError(f"knowledge: expected finite non-negative likelihood weights, got {x!r} for {v!r}")
        w = pd.Series({v: float(knowledge.get(v, 1.0)) for v in counts.index}, dtype=float)
        counts = counts * w
        if counts.sum() <= 0:
            raise ValueError("knowledge: rules out every sensitive value of the class")
    post = (counts / counts.sum()).sort_values(ascending=False, kind="stable")
    post.name = "posterior"
    return post
