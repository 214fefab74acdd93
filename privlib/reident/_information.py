"""Hypothetical and perceived information (private): ``HI~`` and the K-fold ``PI^``
(Section III-B) and the number of leakages they imply (Section V-A)."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Literal, overload

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import (
    _fmt,
    as_generator,
    check_finite,
    check_in,
    check_int,
    check_positive,
    check_probability,
)
from ._folds import _fold_tests, _folds, _protected_folds
from ._records import OBS_MODEL_DOC, Model, Records, _records

#: The outlier rules of :func:`perceived_information` (Section III-B).
OUTLIER_RULES = ("drop", "floor")
#: An outlier rule of :func:`perceived_information` (Section III-B).
OutlierRule = Literal["drop", "floor"]


@dataclass(frozen=True)
class Information:
    """A hypothetical or perceived information estimate, in bits.

    ``bits`` is the average over users (and folds, for PI); ``per_user`` the
    contribution ``H[U] + sum_o f(o|u_i) log2 Pr[u_i|o]`` of each user (its mean over the
    folds for PI), whose spread is the "surface" of Figure 2; ``outlier_fraction`` is
    ``f_o`` (zero for HI).

    Attributes
    ----------
    metric : {"HI", "PI"}
        Which estimate.
    model : str
        Name of the model.
    bits : float
        The estimate, averaged over users (and folds).
    per_user : Series
        Each user's contribution, in bits.
    entropy : float
        ``H[U] = log2 n_u``.
    n_users, n_obs : int
        Users and observations per user (``-1`` when unequal).
    folds : int or None
        Number of cross-validation folds (PI only).
    per_fold : tuple of float
        The estimate of each fold (PI only).
    outlier_fraction : float
        ``f_o``, the fraction of test observations outside the training model's support.
    outlier_rule : str
        How outliers were scored (PI only).

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.reident import exhaustive, hypothetical_information
    >>> obs = pd.DataFrame({"user": [1, 1, 2, 2], "x": ["a", "b", "a", "a"]})
    >>> info = hypothetical_information(obs, model=exhaustive())
    >>> info.metric, round(info.bits, 3), info.per_user.round(3).tolist()
    ('HI', 0.311, [0.208, 0.415])
    """

    metric: str
    model: str
    bits: float
    per_user: pd.Series
    entropy: float
    n_users: int
    n_obs: int
    folds: int | None = None
    per_fold: tuple = ()
    outlier_fraction: float = 0.0
    outlier_rule: str = ""


def _pairs(rec: Records) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Factorize the (user, symbol) pairs: per-record pair id and per-pair user/symbol/count
    (computed once per :class:`Records`)."""
    return rec._user_symbol_pairs()


@shared_doc(obs_model=OBS_MODEL_DOC)
def hypothetical_information(obs: pd.DataFrame | Records, *, model: Model | None = None, user: Hashable = "user",
                             characteristics: Sequence[Hashable] | None = None, n_obs: int | None = None,
                             require_equal: bool = True) -> Information:
    """Hypothetical information ``HI~(U; O)`` in bits (Section III-B, first equation).

    ``HI = log2 n_u + (1/n_u) sum_i sum_{o in D_i} f~(o|u_i) log2 Pr~[u_i|o]`` with the
    model estimated directly from all of ``D_i`` (Section II-B) and
    ``Pr~[u_i|o] = g~(o|u_i) / sum_j g~(o|u_j)`` (Section II-C).  Every observation of
    ``D_i`` has ``g~(o|u_i) > 0``, so there are no outliers.

    Parameters
    ----------
    {{obs_model}}
    user, characteristics : as in :func:`encode_records` (tables only).
    n_obs : int, optional
        Cut every user to ``N_o = n_obs`` observations (see :func:`encode_records`).
    require_equal : bool, default True
        The source assumes ``N_o^i = N_o`` (Section III-A) and so, by default, do we:
        unequal numbers raise.  With ``False`` each user's ``f~(o|u_i)`` is normalised by
        its own ``N_o^i`` (the formula as written; the prior stays uniform).

    Returns
    -------
    Information
        ``metric="HI"``, the bits and the per-user contributions.

    Raises
    ------
    ValueError, TypeError
        As :func:`encode_records`; unequal ``N_o^i`` unless ``require_equal=False``.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.reident import first_order, hypothetical_information
    >>> obs = pd.DataFrame({"user": [1, 1, 2, 2], "A": [1, 2, 1, 1], "B": [1, 1, 2, 2]})
    >>> round(hypothetical_information(obs, model=first_order()).bits, 3)
    0.656
    """
    rec = _records(obs, model, user, characteristics, n_obs, equal=require_equal)
    return _hi(rec, _pairs(rec), user)


def _hi(rec: Records, pairs: tuple, user: Hashable) -> Information:
    """:func:`hypothetical_information` of encoded records from their :func:`_pairs`."""
    pid, pu, ps, pc = pairs
    n_u = rec.n_users
    f = pc / rec.counts[pu]                                  # f~(o|u_i) = g~(o|u_i)
    total = np.bincount(ps, weights=f, minlength=rec.n_symbols)  # sum_j g~(o|u_j)
    contrib = f * np.log2(f / total[ps])
    h = float(np.log2(n_u))
    per_user = h + np.bincount(pu, weights=contrib, minlength=n_u)
    return Information("HI", rec.model.kind, float(per_user.mean()),
                       pd.Series(per_user, index=pd.Index(rec.users, name=user), name="HI"),
                       h, n_u, rec.n_obs)



@overload
def perceived_information(obs: pd.DataFrame | Records, *, model: Model | None = ..., folds: int,
                          rng: int | np.random.Generator, user: Hashable = ...,
                          characteristics: Sequence[Hashable] | None = ..., n_obs: int | None = ...,
                          outliers: str = ..., floor: float | None = ..., require_equal: bool = ...,
                          protect: Callable[[pd.DataFrame], pd.DataFrame] | None = ...) -> Information: ...


@overload
def perceived_information(obs: pd.DataFrame | Records, *, model: Model | None = ..., folds: int,
                          rng: int | np.random.Generator, user: Hashable = ...,
                          characteristics: Sequence[Hashable] | None = ..., n_obs: int | None = ...,
                          outliers: tuple[str, ...] | list[str], floor: float | None = ...,
                          require_equal: bool = ...,
                          protect: Callable[[pd.DataFrame], pd.DataFrame] | None = ...) -> dict[str, Information]: ...


@shared_doc(obs_model=OBS_MODEL_DOC)
def perceived_information(obs: pd.DataFrame | Records, *, model: Model | None = None, folds: int,
                          rng: int | np.random.Generator, user: Hashable = "user",
                          characteristics: Sequence[Hashable] | None = None, n_obs: int | None = None,
                          outliers: str | tuple[str, ...] | list[str] = "drop", floor: float | None = None,
                          require_equal: bool = True, protect: Callable[[pd.DataFrame], pd.DataFrame] | None = None,
                          ) -> Information | dict[str, Information]:
    """Perceived information ``PI^(U; O)`` in bits, K-fold cross-validated (Section III-B).

    ``PI^(j) = log2 n_u + (1/n_u) sum_i (1/|D_i^(j)|) sum_{o in D_i^(j)} log2 Pr^^(j)[u_i|o]``
    with ``g^^(j)`` estimated on ``D_i \\ D_i^(j)`` (Section II-C, second equation), then
    averaged over the ``K = folds`` folds.  Each user's observations are split into K
    folds at random (``rng``).

    Outliers (test observations with ``Pr^^(j)[u_i|o] = 0``): ``outliers="drop"``
    excludes them from the user's average (a user whose fold holds only outliers is left
    out of that fold's mean over users); ``outliers="floor"`` uses ``floor`` (default
    ``1/n_u**2``) instead of 0.  ``outlier_fraction`` is their share of all test
    observations, the source's ``f_o``.  ``outliers`` may also be a tuple of rules: both
    are computed in one pass and a dict ``{rule: Information}`` is returned.

    ``rng`` (required, keyword-only): int seed or ``numpy.random.Generator`` for the fold
    draw (and nothing else).

    ``protect`` (optional): a function applied to the training rows of each fold before
    the model is estimated, e.g. ``lambda d: swap(d, cats, rng=gen)``.  The model is then
    trained on the *protected* rows of the other folds and tested on the *original* rows
    of the fold: the predictive power of a protected release against genuine fresh
    observations (external leakages).  Folds are then drawn per row of ``obs``.

    Raises
    ------
    ValueError
        ``folds < 2`` or more than a user's number of observations, fewer than two
        users, unequal ``N_o`` (unless ``require_equal=False``, see
        :func:`hypothetical_information`), missing values, an empty tuple of
        ``outliers`` rules, ``floor`` outside ``(0, 1]``.

    Parameters
    ----------
    {{obs_model}}
    folds : int
        ``K``, the number of cross-validation folds.
    rng : int or numpy.random.Generator
        Seed or generator of the fold draw (required).
    user, characteristics, n_obs, require_equal : as in :func:`hypothetical_information`.
    outliers : {"drop", "floor"} or tuple of them, default "drop"
        The outlier rule(s).
    floor : float, optional
        The probability in ``(0, 1]`` of an outlier under the floor rule (default ``1/n_u**2``).
    protect : callable, optional
        Function of the training rows of each fold (see above).

    Returns
    -------
    Information
        When ``outliers`` is one rule (a string).
    dict of str to Information
        ``{rule: Information}`` when ``outliers`` is a tuple of rules (the type checker
        sees this through the overloads).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from privlib.reident import first_order, perceived_information
    >>> g = np.random.default_rng(0)
    >>> obs = pd.DataFrame({"user": np.repeat([1, 2, 3], 12), "A": g.integers(0, 3, 36),
    ...                     "B": g.integers(0, 3, 36)})
    >>> pi = perceived_information(obs, model=first_order(), folds=3, rng=1, n_obs=12)
    >>> pi.metric, pi.folds, round(pi.bits, 3)
    ('PI', 3, -0.002)
    >>> both = perceived_information(obs, model=first_order(), folds=3, rng=1, n_obs=12,
    ...                              outliers=("drop", "floor"))
    >>> sorted(both)
    ['drop', 'floor']
    """
    rules = _check_rules(outliers)
    gen = as_generator(rng)
    if floor is not None:
        check_probability(floor, "floor", low_open=True)
    out = _perceived(obs, model, folds, gen, user=user, characteristics=characteristics, n_obs=n_obs,
                     floor=floor, require_equal=require_equal, protect=protect)
    return out[rules[0]] if isinstance(outliers, str) else {r: out[r] for r in rules}


def _check_rules(outliers: object) -> tuple:
    """The ``outliers`` argument as a non-empty tuple of rules of ``OUTLIER_RULES``."""
    if isinstance(outliers, str):
        rules = (outliers,)
    elif isinstance(outliers, (tuple, list)):
        rules = tuple(outliers)
    else:
        raise TypeError(f"outliers: expected a rule {list(OUTLIER_RULES)} or a tuple of rules, "
                        f"got {type(outliers).__name__} {_fmt(outliers)}")
    if not rules:
        raise ValueError(f"outliers: expected at least one rule of {list(OUTLIER_RULES)}, got an empty tuple")
    for r in rules:
        check_in(r, "outliers", OUTLIER_RULES)
    return rules


def _perceived(obs: pd.DataFrame | Records, model: Model | None, folds: int, rng: np.random.Generator, *,
               user: Hashable, characteristics: Sequence | None, n_obs: int | None, floor: float | None,
               require_equal: bool, protect: Callable | None, pairs: tuple | None = None) -> dict[str, Information]:
    """Both outlier rules of :func:`perceived_information` in one pass over the folds.

    Each fold works at the level of the (user, symbol) pairs: the test records of fold
    ``j`` are counted per pair (``ct``), the training model is ``g^^(j) = (pc - ct) /
    n_train`` and the log-probabilities of the test records are summed per pair with
    multiplicity ``ct`` -- so a fold costs its own test records plus the pairs, not the
    whole database.  ``pairs``: the :func:`_pairs` of ``obs`` when already computed."""
    k = check_int(folds, "folds", minimum=2)
    if protect is None:
        rec = _records(obs, model, user, characteristics, n_obs, equal=require_equal)
        fold = _folds(rec, k, rng)
        pairs = _pairs(rec) if pairs is None else pairs
        plan = ((rec, pairs, test) for test in _fold_tests(fold, k))
    else:
        plan = ((r, _pairs(r), np.flatnonzero(te)) for r, _, te in
                _protected_folds(obs, protect, model, user, characteristics, n_obs, folds, rng))
    per_fold = {r: [] for r in OUTLIER_RULES}
    sums = {}
    n_out = n_test_all = 0
    for rec, (pid, pu, ps, pc), test in plan:  # loop over the K folds only
        n_u = rec.n_users
        if not sums:
            sums = {r: (np.zeros(n_u), np.zeros(n_u)) for r in OUTLIER_RULES}
            h = float(np.log2(n_u))
            fl = check_positive(1.0 / n_u**2 if floor is None else floor, "floor")
        ct = np.bincount(pid[test], minlength=len(pc)).astype(np.float64)   # test records per pair
        n_test = np.bincount(pu, weights=ct, minlength=n_u)
        n_train = rec.counts - n_test
        g = (pc - ct) / np.maximum(n_train, 1)[pu]                            # g^^(j)(o|u_i)
        total = np.bincount(ps, weights=g, minlength=rec.n_symbols)          # sum_j g^^(j)(o|u_j)
        seen = np.flatnonzero(ct > 0)
        num, den, w = g[seen], total[ps[seen]], ct[seen]
        ok = num > 0
        lg = np.zeros(len(seen))
        lg[ok] = np.log2(num[ok] / den[ok])
        n_out += int(w[~ok].sum())
        n_test_all += int(w.sum())
        s_ok = np.bincount(pu[seen], weights=w * lg, minlength=n_u)
        m_ok = np.bincount(pu[seen], weights=w * ok, minlength=n_u)
        for rule in OUTLIER_RULES:
            if rule == "drop":
                s_, m_ = s_ok, m_ok
            else:
                s_, m_ = s_ok + (n_test - m_ok) * np.log2(fl), n_test
            has = m_ > 0
            user_pi = np.full(n_u, np.nan)
            user_pi[has] = h + s_[has] / m_[has]
            per_fold[rule].append(float(user_pi[has].mean()) if has.any() else float("nan"))
            sums[rule][0][has] += user_pi[has]
            sums[rule][1][has] += 1
    out = {}
    for rule in OUTLIER_RULES:
        tot, cnt = sums[rule]
        per_user = np.full(len(tot), np.nan)
        per_user[cnt > 0] = tot[cnt > 0] / cnt[cnt > 0]
        pf = np.asarray(per_fold[rule])
        bits = float(pf[~np.isnan(pf)].mean()) if np.any(~np.isnan(pf)) else float("nan")
        out[rule] = Information("PI", rec.model.kind, bits,
                                pd.Series(per_user, index=pd.Index(rec.users, name=user), name="PI"),
                                h, len(tot), rec.n_obs, len(pf), tuple(per_fold[rule]),
                                n_out / max(n_test_all, 1), rule)
    return out


def leakages_needed(bits: float, *, n_users: int, c: float = 1.0) -> float:
    """Leakages needed to re-identify a user, ``c * log2(n_u) / I`` (Section V-A).

    The source bounds the number of (external) leakages by ``c * log2(n_u) / HI`` in the
    worst case and ``c * log2(n_u) / PI`` for the model at hand, with ``c`` depending on
    the target success rate (``c = log2(n_u)`` roughly for 80%, refs. [2], [3]).  Returns
    ``inf`` when ``bits <= 0`` (a non-predictive model).

    Parameters
    ----------
    bits : float
        HI or PI, in bits.
    n_users : int
        ``n_u``, at least 2.
    c : float, default 1.0
        The constant of the target success rate (positive).

    Returns
    -------
    float
        ``c * log2(n_u) / bits``, or ``inf``.

    Raises
    ------
    ValueError
        ``bits`` NaN or infinite (e.g. the PI of a fold made only of outliers under the
        drop rule, which is NaN: no bound can be derived from it).

    Examples
    --------
    >>> from privlib.reident import leakages_needed
    >>> round(leakages_needed(0.346, n_users=13_141), 1)      # Section V-A: about 40
    39.5
    """
    n_users = check_int(n_users, "n_users", minimum=2)
    c = check_positive(c, "c")
    bits = check_finite(bits, "bits")
    return float("inf") if not bits > 0 else c * float(np.log2(n_users)) / bits


