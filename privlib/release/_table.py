"""What a user of an anonymizer gets back: the anonymized table and its information loss."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import check_in, check_int, check_nonempty, check_unique_columns
from ..partition import Decomposition, qi_codes

RANGES = ("tight", "box")

#: The arguments of the information-loss measures: the original records and the release.
RECORDS_RELEASE_DOC = """
Parameters
----------
df : pandas.DataFrame
    The original records (QIs as integer codes inside the release's domain).
decomposition : privlib.partition.Decomposition
    The release.
"""


def _check_qi(decomposition, qi, name="qi") -> tuple:
    if not isinstance(decomposition, Decomposition):
        raise TypeError(f"decomposition: expected a privlib Decomposition, got {type(decomposition).__name__}")
    if qi is None:
        return tuple(decomposition.qi)
    if isinstance(qi, (str, bytes)) or not isinstance(qi, Sequence):
        raise TypeError(f"{name}: expected a sequence of quasi-identifiers, got {type(qi).__name__} {qi!r}")
    qi = tuple(qi)
    unknown = [c for c in qi if c not in decomposition.qi]
    if unknown or not qi or len(set(qi)) != len(qi):
        raise ValueError(f"{name}: expected distinct quasi-identifiers of the release {list(decomposition.qi)}, "
                         f"got {list(qi)}")
    return qi


def _classes(df, decomposition, qi):
    """Each record's class (leaf), and per record and QI of ``qi`` the tight and the box range.

    Returns ``(leaf, cls, idx, tight_lo, tight_hi, box_lo, box_hi, cols)``: ``cls`` the leaves holding
    records (ascending), ``idx`` each record's position in ``cls``, the ranges per class
    (``len(cls) x len(qi)``).  One stable sort of the leaf ids; minima and maxima by
    ``np.minimum.reduceat`` over the sorted records.
    """
    check_unique_columns(df, "df")                 # a DataFrame, distinct column names
    check_nonempty(df, "df")
    X = qi_codes(df, list(decomposition.qi), name="df")
    leaf = decomposition.assign_codes(X)
    cols = [decomposition.qi.index(c) for c in qi]
    order = np.argsort(leaf, kind="stable")
    sl = leaf[order]
    starts = np.flatnonzero(np.r_[True, sl[1:] != sl[:-1]])
    cls = sl[starts]
    Xs = X[order][:, cols]
    tight_lo = np.minimum.reduceat(Xs, starts, axis=0)
    tight_hi = np.maximum.reduceat(Xs, starts, axis=0)
    idx = np.empty(leaf.size, np.int64)
    idx[order] = np.repeat(np.arange(cls.size), np.diff(np.r_[starts, leaf.size]))
    box_lo = decomposition.lower[cls][:, cols]
    box_hi = decomposition.upper[cls][:, cols]
    return leaf, cls, idx, tight_lo, tight_hi, box_lo, box_hi, cols


def _labels(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``"[lo-hi]"``, or ``"lo"`` when ``lo == hi`` (one label per class, vectorised)."""
    slo = pd.Series(lo).astype(str)
    shi = pd.Series(hi).astype(str)
    return np.where(lo == hi, slo, "[" + slo + "-" + shi + "]").astype(object)


def anonymized_table(df: pd.DataFrame, decomposition: Decomposition, *, qi: Sequence[str] | None = None,
                     ranges: str = "tight", class_column: str = "eq_class") -> pd.DataFrame:
    """The anonymized table: every record with its QIs replaced by its equivalence class's range.

    The records of a class are those that fall in one box of the release (as Mondrian
    publishes them; LeFevre, DeWitt & Ramakrishnan 2006).  ``ranges="tight"`` prints the
    smallest and largest code the class's records actually have (ARX's tight ranges: the
    generalization an anonymizer would publish from the data); ``ranges="box"`` prints the
    release's box, which may be wider (its bounds are medians of the parent's records, or the
    domain's).  A range is written ``"[lo-hi]"``, a single code ``"lo"``.  The other columns
    are kept as they are, and ``class_column`` holds the class id (the box's leaf index).

    Parameters
    ----------
    df : pandas.DataFrame
        The original records (QIs as ordered integer codes, inside the release's domain).
    decomposition : privlib.partition.Decomposition
        The release.
    qi : sequence of str, optional
        The QIs to replace (default: all of the release's); others keep their codes.
    ranges : {"tight", "box"}, default "tight"
    class_column : str, default "eq_class"
        Name of the added column of class ids (must not be a column of ``df``).

    Returns
    -------
    pandas.DataFrame
        One row per record, in the order and with the index of ``df``; QI columns as strings
        (``to_csv`` writes it as is).

    Raises
    ------
    TypeError
        For a non-DataFrame or non-Decomposition.
    ValueError
        For an empty ``df``, ``qi`` that are not the release's, a bad ``ranges``, a
        ``class_column`` already in ``df``, records outside the release's domain, or a
        differentially private release (a non-empty ledger, as :func:`privlib.partition.dp_kdtree`'s):
        its table of records would publish exact data outside the budget.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> df = pd.DataFrame({"age": [21, 23, 35, 38], "s": ["a", "b", "a", "b"]})
    >>> dec = mondrian(df, ["age"], "s", k=2, domain={"age": (20, 39)})
    >>> anonymized_table(df, dec)["age"].tolist(), anonymized_table(df, dec, ranges="box")["age"].tolist()
    (['[21-23]', '[21-23]', '[35-38]', '[35-38]'], ['[20-23]', '[20-23]', '[24-39]', '[24-39]'])
    """
    qi = _check_qi(decomposition, qi)
    check_in(ranges, "ranges", RANGES)
    if len(decomposition.ledger):
        raise ValueError(
            f"decomposition: a differentially private release (its ledger spends eps = "
            f"{decomposition.ledger.total():.6g}) publishes boxes with noisy counts, not records; its anonymized "
            "table would publish every class's exact range and every record's true values outside the budget. "
            "Publish the release itself (decomposition.leaves_frame()); anonymized_table is for syntactic releases "
            "(Mondrian, generalizations) whose ledger is empty")
    if not isinstance(class_column, str):
        raise TypeError(f"class_column: expected a column name (str), got {type(class_column).__name__}")
    if isinstance(df, pd.DataFrame) and class_column in df.columns:
        raise ValueError(f"class_column: {class_column!r} is already a column of df; choose another name")
    leaf, cls, idx, tlo, thi, blo, bhi, _ = _classes(df, decomposition, qi)
    lo, hi = (tlo, thi) if ranges == "tight" else (blo, bhi)
    out = df.copy()
    for j, c in enumerate(qi):
        out[c] = _labels(lo[:, j], hi[:, j])[idx]
    out[class_column] = cls[idx]
    return out


@dataclass(frozen=True)
class InformationLoss:
    """Information loss of a release as ARX reports it (:func:`information_loss`).

    Attributes
    ----------
    ncp : float
        Normalized certainty penalty (GCP) on the ranges asked for, in [0, 1].
    ncp_tight, ncp_box : float
        The NCP on tight ranges and on the published boxes (``ncp_tight <= ncp_box``).
    ncp_by_qi : dict
        ``{qi: NCP of that attribute}`` on the ranges asked for (``ncp`` is their mean).
    dm : float
        Discernibility metric ``sum |E|^2`` over the equivalence classes.
    c_avg : float
        Normalized average equivalence class size ``(n / classes) / k`` (NaN without ``k``).
    n_records, n_classes : int
        Records, and classes holding at least one record.
    k : int or None
        The ``k`` used for ``c_avg``.
    ranges : str
        ``"tight"`` or ``"box"``: which NCP is ``ncp``.
    qi : tuple of str
        The attributes averaged over.

    Examples
    --------
    >>> loss = InformationLoss(0.25, 0.25, 0.5, {"x": 0.25}, 8.0, 1.0, 4, 2, 2, "tight", ("x",))
    >>> loss.ncp_box - loss.ncp_tight
    0.25
    """

    ncp: float
    ncp_tight: float
    ncp_box: float
    ncp_by_qi: dict = field(hash=False)
    dm: float
    c_avg: float
    n_records: int
    n_classes: int
    k: int | None
    ranges: str
    qi: tuple


def _ncp(lo, hi, dlo, dhi, categorical):
    """Per class and attribute: ``(hi - lo) / (dhi - dlo)`` (numeric) or ``(hi - lo + 1) / (dhi - dlo + 1)``
    when ``hi > lo``, else 0 (categorical: the share of the domain's values the range covers)."""
    span = (hi - lo).astype(float)
    num = np.where(dhi > dlo, span / np.where(dhi > dlo, dhi - dlo, 1), 0.0)
    cat = np.where(span > 0, (span + 1) / (dhi - dlo + 1), 0.0)
    return np.where(categorical, cat, num)


def _check_options(decomposition, qi, ranges, categorical, k):
    """The options of :func:`information_loss` (and of Dask's): ``(qi, categorical, k)``."""
    qi = _check_qi(decomposition, qi)
    check_in(ranges, "ranges", RANGES)
    if isinstance(categorical, (str, bytes)):
        categorical = [categorical]
    bad = [c for c in categorical if c not in qi]
    if bad:
        raise ValueError(f"categorical: expected quasi-identifiers among {list(qi)}, got {bad}")
    if k is None:
        k = decomposition.params.get("k")
        k = None if k is None else check_int(k, "k", minimum=1)
    else:
        k = check_int(k, "k", minimum=1)
    return qi, categorical, k


@shared_doc(records_release=RECORDS_RELEASE_DOC)
def information_loss(df: pd.DataFrame, decomposition: Decomposition, *, qi: Sequence[str] | None = None,
                     k: int | None = None, ranges: str = "tight", categorical: Sequence[str] = ()) -> InformationLoss:
    """NCP (GCP), discernibility and normalized average class size of a release, as ARX reports them.

    The equivalence classes are the records of ``df`` sharing a box of the release (boxes with
    no record are not classes).  With ``n`` records, classes ``E`` and attributes ``A`` of ``qi``:

    * **NCP** (normalized certainty penalty; Xu, Wang, Pei, Wang, Shi & Fu, *Utility-based
      anonymization using local recoding*, KDD 2006, Section 3): a class whose range on a
      numeric attribute ``A`` is ``[y, z]`` costs ``NCP_A(E) = (z - y) / (max_A - min_A)``; on a
      categorical attribute generalized to a node ``u`` it costs ``|u| / |A|`` (the share of
      ``A``'s values under ``u``), 0 when ``u`` is a single value.  The table's NCP (ARX's
      "global certainty penalty", Ghinita et al. 2007) averages over records and attributes:
      ``sum_E |E| sum_A NCP_A(E) / (n |A|)``, in [0, 1].  ``max_A - min_A`` is the release's
      domain (public), not the data's.  QIs in ``categorical`` use the count form on the codes
      of the range, ``(z - y + 1) / (max_A - min_A + 1)`` when ``z > y``: exactly ``|u| / |A|``
      for the box of a hierarchy node when the codes are the positions ``0 .. |A| - 1`` of the
      leaves in depth-first order (:func:`from_generalization` with ``orders``); the others the
      numeric form.  It is computed on the *tight* ranges (each class's min..max actual codes,
      as ARX computes it) and on the published *boxes*.
    * **DM**, the discernibility metric (Bayardo & Agrawal, *Data privacy through optimal
      k-anonymization*, ICDE 2005, Section 2): ``sum_E |E|^2`` (no record is suppressed in a
      decomposition; a suppressed record would cost ``n``).
    * **C_avg**, the normalized average equivalence class size (LeFevre, DeWitt &
      Ramakrishnan, *Mondrian multidimensional k-anonymity*, ICDE 2006, Section 5):
      ``(n / |classes|) / k`` (1 is best).

    {{records_release}}
    qi : sequence of str, optional
        The attributes of the NCP (default: all of the release's QIs).
    k : int, optional
        The k of C_avg (default ``decomposition.params["k"]`` when the release has one; else
        ``c_avg`` is NaN).
    ranges : {"tight", "box"}, default "tight"
        Which NCP is reported as ``ncp`` (both are computed).
    categorical : sequence of str, default ()
        QIs of ``qi`` whose NCP is the categorical ``|u| / |A|``.

    Returns
    -------
    InformationLoss

    Raises
    ------
    TypeError
        For a non-DataFrame, non-Decomposition or non-integer ``k``.
    ValueError
        For an empty ``df``, ``qi`` or ``categorical`` that are not QIs of the release, ``k < 1``,
        a bad ``ranges``, or records outside the release's domain.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.partition import mondrian
    >>> df = pd.DataFrame({"age": [21, 23, 35, 38], "s": ["a", "b", "a", "b"]})
    >>> loss = information_loss(df, mondrian(df, ["age"], "s", k=2, domain={"age": (20, 39)}))
    >>> round(loss.ncp_tight, 4), round(loss.ncp_box, 4), loss.dm, loss.c_avg
    (0.1316, 0.4737, 8.0, 1.0)
    """
    qi, categorical, k = _check_options(decomposition, qi, ranges, categorical, k)
    leaf, cls, idx, tlo, thi, blo, bhi, cols = _classes(df, decomposition, qi)
    n = leaf.size
    sizes = np.bincount(idx, minlength=cls.size).astype(float)
    dlo = decomposition.domain_lower[cols]
    dhi = decomposition.domain_upper[cols]
    is_cat = np.array([c in categorical for c in qi])
    per_qi = {}
    for name, lo, hi in (("tight", tlo, thi), ("box", blo, bhi)):
        per_qi[name] = sizes @ _ncp(lo, hi, dlo, dhi, is_cat) / n
    return InformationLoss(
        ncp=float(per_qi[ranges].mean()), ncp_tight=float(per_qi["tight"].mean()),
        ncp_box=float(per_qi["box"].mean()), ncp_by_qi=dict(zip(qi, per_qi[ranges].tolist())),
        dm=float((sizes ** 2).sum()), c_avg=(n / cls.size) / k if k is not None else math.nan,
        n_records=int(n), n_classes=int(cls.size), k=k, ranges=ranges, qi=qi)
