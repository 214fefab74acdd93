"""Cross-validation folds (private): the random K-fold split of every user's records
(Section II-B) and the folds of a protected release."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence

import numpy as np
import pandas as pd

from .._validation import as_generator, check_int
from ._records import Model, Records, _check_model, _encode, _patterns, _prepare, encode_records

_BLOCK_ROWS = 1 << 20  # records per block in the fold draw: bounds memory


def draw_folds(records: Records, *, folds: int, rng: int | np.random.Generator) -> np.ndarray:
    """Fold of every record: a random K-fold split of each user's records (Section II-B).

    The records of every user are permuted at random and dealt round-robin to the ``K =
    folds`` folds, so that the folds of a user differ in size by at most one.  These are
    the folds that :func:`perceived_information`, :func:`success_rate` and
    :func:`category_prediction` draw first from their ``rng``.

    Parameters
    ----------
    records : Records
        From :func:`encode_records`.
    folds : int
        ``K``, at least 2 and at most the smallest ``N_o^i``.
    rng : int or numpy.random.Generator
        Seed or generator of the permutations (required).

    Returns
    -------
    numpy.ndarray
        int32 fold label (``0..K-1``) of every record.

    Raises
    ------
    ValueError
        ``folds < 2`` or more than a user's number of records.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from privlib.reident import draw_folds, encode_records, exhaustive
    >>> obs = pd.DataFrame({"user": np.repeat([1, 2], 6), "x": np.arange(12) % 3})
    >>> fold = draw_folds(encode_records(obs, model=exhaustive()), folds=3, rng=0)
    >>> np.bincount(fold).tolist()
    [4, 4, 4]
    """
    if not isinstance(records, Records):
        raise TypeError(f"records: expected Records from encode_records(), got {type(records).__name__}")
    return _folds(records, folds, rng)


def _folds(rec: Records, folds: int, rng: int | np.random.Generator) -> np.ndarray:
    """Fold of every record: a random permutation within each user, dealt round-robin,
    so that the K folds of a user differ in size by at most one (Section II-B).

    With equal ``N_o`` the round-robin labels ``0, 1, ..., K-1, 0, ...`` of each user are
    shuffled in place (``Generator.permuted``, one Fisher-Yates pass per user: linear
    time), in blocks of users so that memory stays bounded; the draws do not depend on
    the block size."""
    gen = as_generator(rng)
    folds = check_int(folds, "folds", minimum=2)
    smallest = int(rec.counts.min())
    if folds > smallest:
        raise ValueError(
            f"folds: expected at most N_o = {smallest} (the smallest number of {rec.model.kind} observations "
            f"of a user), got {folds}")
    if np.all(rec.counts == rec.counts[0]):  # equal N_o: shuffle the labels of each user
        step = max(1, _BLOCK_ROWS // smallest)
        labels = (np.arange(smallest) % folds).astype(np.int32)
        return np.concatenate([gen.permuted(np.tile(labels, (min(step, rec.n_users - a), 1)), axis=1).ravel()
                               for a in range(0, rec.n_users, step)])
    order = _shuffle_within(rec.user, gen)
    starts = np.concatenate([[0], np.cumsum(rec.counts)[:-1]])
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order)) - starts[rec.user[order]]
    return (rank % folds).astype(np.int32)


def _fold_tests(fold: np.ndarray, k: int) -> Iterator[np.ndarray]:
    """The record indices of each fold's test set, in record order, one fold at a time
    (a pass over ``fold`` per fold: memory of one fold's indices, never a full-length
    index array; measured faster than one stable sort of the labels).

    Examples
    --------
    >>> import numpy as np
    >>> fold = np.array([2, 0, 1, 0, 2, 1, 0], dtype=np.int32)
    >>> [t.tolist() for t in _fold_tests(fold, 3)]
    [[1, 3, 6], [2, 5], [0, 4]]
    """
    return (np.flatnonzero(fold == j) for j in range(k))


def _shuffle_within(group: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """Order sorting the records by ``group`` and at random within each group: one uniform
    key per record, sorted by ``(group, key)``.  Two keys (``np.lexsort``), not the float
    ``group + key``, which rounds up into the next group for large group codes.

    Examples
    --------
    The float key ``group + U(0, 1)`` rounds up into the next group once the codes reach
    ``2**52``; the two-key sort never mixes groups:

    >>> import numpy as np
    >>> groups = np.repeat(np.array([2**52 + 1, 2**52], dtype=np.int64), 50)
    >>> order = _shuffle_within(groups, np.random.default_rng(0))
    >>> sorted(order.tolist()) == list(range(100)), bool(np.all(np.diff(groups[order]) >= 0))
    (True, True)
    >>> sorted(order[:50].tolist()) == list(range(50, 100))    # the smaller group first
    True
    >>> bool(np.array_equal(order[:50], np.arange(50, 100)))  # shuffled within the group
    False
    """
    return np.lexsort((gen.random(len(group)), group))


def _protected_folds(obs: pd.DataFrame, protect: Callable, model: Model, user: Hashable,
                     characteristics: Sequence | None, n_obs: int | None, folds: int,
                     rng: int | np.random.Generator) -> Iterator[tuple[Records, np.ndarray, np.ndarray]]:
    """Yield, for each fold, the records of (original test rows + protected training rows)
    and the (train, test) record masks.  Folds are drawn per row of ``obs``; ``protect``
    is applied to the training rows only, so the test rows stay genuinely fresh."""
    if n_obs is not None:
        raise ValueError("n_obs: cut obs before protecting it; n_obs cannot be combined with protect=")
    if not callable(protect):
        raise TypeError(f"protect: expected a function of the training rows (e.g. lambda d: swap(d, ...)), "
                        f"got {type(protect).__name__}")
    chars = _prepare(obs, user, characteristics)
    gen = as_generator(rng)
    k = check_int(folds, "folds", minimum=2)
    ucode, _ = pd.factorize(obs[user], sort=True)
    rows_per_user = np.bincount(ucode)
    if len(rows_per_user) < 2:
        raise ValueError(f"obs: expected at least two users, got {len(rows_per_user)}")
    if k > rows_per_user.min():
        raise ValueError(f"folds: expected at most {int(rows_per_user.min())} (the smallest number of rows "
                         f"of a user), got {k}")
    n = len(obs)
    order = _shuffle_within(ucode, gen)
    starts = np.concatenate([[0], np.cumsum(rows_per_user)[:-1]])
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - starts[ucode[order]]
    row_fold = rank % k
    base = obs[[user, *chars]]
    for j in range(k):
        test_rows = base[row_fold == j]
        train_rows = protect(base[row_fold != j])
        if not isinstance(train_rows, pd.DataFrame) or len(train_rows) != int((row_fold != j).sum()):
            raise ValueError("protect: expected a DataFrame with the same rows as its input")
        both = pd.concat([test_rows, train_rows[[user, *chars]]], ignore_index=True)
        rec = _encode_memo(both, model, user, chars)
        is_test = rec.row < len(test_rows)
        yield rec, ~is_test, is_test




#: Encodings of the fold tables of :func:`_protected_folds`, memoised by content: the
#: evaluations of one protected release (PI and category prediction of both models) draw
#: the same folds and so encode the same tables; each distinct table is coded once.  An
#: entry holds the table's columns, its row patterns and its records per model; a lookup
#: compares a cheap signature, then the columns exactly (``np.array_equal``), so a hit is
#: always the same content.  Bounded: :data:`_MEMO_ENTRIES` tables of at most
#: :data:`_MEMO_MAX_ROWS` rows, least recently used first out.
_MEMO: list = []
_MEMO_ENTRIES = 12
_MEMO_MAX_ROWS = 1 << 19


def _signature(arrays: list) -> tuple:
    """Shapes, dtypes and a strided sample of the values (about 512 per column)."""
    return tuple((a.dtype.str, a.shape, a[:: max(1, len(a) // 512)].tobytes()) for a in arrays)


def _encode_memo(both: pd.DataFrame, model: Model, user: Hashable, chars: list) -> Records:
    """``encode_records(both, model=model, ...)`` with the row patterns and the records
    memoised by content (:data:`_MEMO`): the same records, computed once per distinct table."""
    model = _check_model(model)
    cols = [user, *chars]
    arrays = [both[c].to_numpy() for c in cols]
    try:
        mkey = (model.kind, model.absent)
        hash(mkey)
    except TypeError:       # an unhashable ``absent``: no memo
        mkey = None
    if mkey is None or len(both) > _MEMO_MAX_ROWS or any(a.dtype.kind not in "biuf" for a in arrays):
        return encode_records(both, model=model, user=user, characteristics=chars)
    sig = (tuple(cols), _signature(arrays))
    for i, entry in enumerate(_MEMO):
        if entry["sig"] == sig and all(np.array_equal(a, b) for a, b in zip(entry["arrays"], arrays)):
            _MEMO.append(_MEMO.pop(i))       # most recently used last
            break
    else:
        entry = {"sig": sig, "arrays": arrays, "patterns": _patterns(both, user, chars), "records": {}}
        _MEMO.append(entry)
        del _MEMO[:-_MEMO_ENTRIES]
    if mkey not in entry["records"]:
        entry["records"][mkey] = _encode(entry["patterns"], both, model, None)
    return entry["records"][mkey]
