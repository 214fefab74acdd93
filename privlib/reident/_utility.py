"""Utility of the release (private): the level-l success of predicting the categories of
a user's next observation (Section VI, Figure 4) and the category density (Figure 5)."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import as_generator, check_int
from ._attacks import _check_levels, _count_within, _ranks
from ._codes import _itype, _pair_ids, _pair_keys
from ._folds import _fold_tests, _folds, _protected_folds
from ._records import LEVELS_CV_DOC, OBS_MODEL_DOC, RAISES_AS_ENCODE_DOC, Model, Records, _records


@shared_doc(obs_model=OBS_MODEL_DOC, levels_cv=LEVELS_CV_DOC)
def category_prediction(obs: pd.DataFrame | Records, *, model: Model | None = None,
                        levels: int | Sequence[int] | np.ndarray, rng: int | np.random.Generator, folds: int = 10,
                        user: Hashable = "user", characteristics: Sequence[Hashable] | None = None,
                        n_obs: int | None = None, require_equal: bool = True,
                        protect: Callable[[pd.DataFrame], pd.DataFrame] | None = None) -> pd.DataFrame:
    """Utility: level-l success of predicting the categories of a user's next observation.

    Section VI: "we measure utility as the probability to predict the categories of the
    films watched by the users", with the same cross-validated estimations as the attacks
    but the other term of Bayes' law.  For each held-out observation of user ``u_i`` the
    possible categories (the single characteristic for the first-order model, the
    combination of characteristics for the exhaustive one; grades are marginalised out)
    are ranked by the user's training-fold histogram, ties at random; a level-l success
    is the true category among the first ``l``.  ``protect`` as in
    :func:`perceived_information` (train on protected rows, test on original ones).
    ``rng`` (required, keyword-only; int seed or Generator) draws the folds and the tie breaks.

    Parameters
    ----------
    {{obs_model}}
    {{levels_cv}}
    user, characteristics, n_obs, require_equal, protect : as in :func:`perceived_information`.

    Returns
    -------
    DataFrame
        Columns ``level``, ``success`` and ``random`` (``l / number of categories``).

    Raises
    ------
    ValueError
        As :func:`perceived_information`; levels below 1.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from privlib.reident import category_prediction, first_order
    >>> obs = pd.DataFrame({"user": np.repeat([1, 2], 8), "A": [1, 0] * 8, "B": [0, 1] * 4 + [1, 1] * 4})
    >>> category_prediction(obs, model=first_order(), levels=[1, 2], rng=0, folds=2, n_obs=8).round(3)
       level  success  random
    0      1    0.188     0.5
    1      2    1.000     1.0
    """
    gen = as_generator(rng)
    lv = _check_levels(levels, "levels", None)
    if protect is None:
        rec = _records(obs, model, user, characteristics, n_obs, equal=require_equal)
        k = check_int(folds, "folds", minimum=2)
        fold = _folds(rec, k, gen)
        cpairs = _category_pairs(rec)
        plan = ((rec, cpairs, test) for test in _fold_tests(fold, k))
    else:
        plan = ((r, _category_pairs(r), np.flatnonzero(te)) for r, _, te in
                _protected_folds(obs, protect, model, user, characteristics, n_obs, folds, gen))
    hits = np.zeros(len(lv), dtype=np.int64)
    total = 0
    for rec, (cid, cu, n_cp_all), test in plan:   # loop over the K folds only
        n_u, C = rec.n_users, rec.n_categories
        # training histogram of the (user, category) pairs: all records minus the fold's
        tcid = cid[test]
        ct = np.bincount(tcid, minlength=len(cu))
        cnt = n_cp_all - ct
        seen = cnt > 0
        nnz = np.bincount(cu[seen], minlength=n_u)
        # every test record of a pair has the same training count v: rank each distinct
        # test pair once (keys user * width + count, guarded against int64 overflow)
        q = np.flatnonzero(ct > 0)
        qu, v = cu[q], cnt[q]
        width = int(cnt.max(initial=0)) + 1
        if n_u * width <= 4 * len(cu) + (1 << 22):
            # small key space: the training pairs counted per key, so that the number of keys <= a
            # query's is a cumulative count (what the binary searches below find, without them)
            per_key = np.bincount(cu[seen] * width + cnt[seen], minlength=n_u * width)
            qkey = qu * width + v
            right = np.cumsum(per_key)[qkey]
            left = right - per_key[qkey]
        else:
            keys, qkey = _pair_keys(width, (cu[seen], cnt[seen]), (qu, v))
            keys = np.sort(keys)
            right = np.searchsorted(keys, qkey, side="right")
            left = np.searchsorted(keys, qkey, side="left")
        end = np.cumsum(nnz)
        greater = np.zeros(len(cu), dtype=np.int64)
        equal = np.zeros(len(cu), dtype=np.int64)
        greater[q] = np.where(v > 0, end[qu] - right, nnz[qu])
        equal[q] = np.where(v > 0, right - left, C - nnz[qu])
        ranks = _ranks(greater[tcid], equal[tcid] - 1, gen)   # one tie-break per test record
        hits += _count_within(ranks, lv)
        total += len(ranks)
    return pd.DataFrame({"level": lv, "success": hits / total, "random": np.minimum(lv / C, 1.0)})


def _category_pairs(rec: Records) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (user, category) pairs of the records: per-record pair id, per-pair user and
    number of records (the utility model's histogram, Section VI)."""
    cid, cu, _, count = _pair_ids(rec.user, rec.category, rec.n_categories, _itype(len(rec.user)))
    return cid, cu, count.astype(np.int64)


@shared_doc(obs_model=OBS_MODEL_DOC, raises_as_encode=RAISES_AS_ENCODE_DOC)
def category_density(obs: pd.DataFrame | Records, *, model: Model | None = None, user: Hashable = "user",
                     characteristics: Sequence[Hashable] | None = None, n_obs: int | None = None) -> np.ndarray:
    """Share of observations in each category, sorted in decreasing order (Figure 5).

    For the exhaustive model a category is a combination of characteristics, for the
    first-order model a single characteristic (of the split observations).

    Parameters
    ----------
    {{obs_model}}
    user, characteristics, n_obs : as in :func:`encode_records` (tables only).

    Returns
    -------
    numpy.ndarray
        The shares, in decreasing order (they sum to 1).

    {{raises_as_encode}}

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.reident import category_density, exhaustive
    >>> obs = pd.DataFrame({"user": [1, 1, 2, 2], "A": [1, 0, 1, 1], "B": [1, 1, 0, 1]})
    >>> category_density(obs, model=exhaustive()).tolist()
    [0.5, 0.25, 0.25]
    """
    rec = _records(obs, model, user, characteristics, n_obs, equal=False)
    d = np.bincount(rec.category, minlength=rec.n_categories).astype(float)
    return np.sort(d / d.sum())[::-1]


