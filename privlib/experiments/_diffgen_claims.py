"""Chapter 3's further claims of DiffGen (Mohammed et al. 2011): Figure 5's scalability, the
sensitivity of the scores (Section 4.2), the noisy contingency table DiffGen is said to beat
(Sections 1.1, 5 and 6) and Section 5's "2/3 of the records" read as a random split.  Re-exported
by :mod:`privlib.experiments.diffgen`.
"""
from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._progress import check_progress, progress_bar
from .._validation import as_generator, check_columns, check_epsilon, check_in, check_int, check_nonempty, check_probability
from ..accounting import Ledger, LedgerEntry
from ..diffgen import diffgen, lower_bound_accuracy, raw_data_accuracy
from ..diffgen._accuracy import _encode_test, _features, _tree
from ..diffgen._diffgen import _check_diffgen_args, _check_h
from ..diffgen._encoding import _check_classes, _check_list, _check_unique_used, _derive_classes, _prepare, _validate
from ..diffgen._evaluate import _evaluate_many
from ..diffgen._release import _code_under_cut, _group_keys
from ..diffgen._scores import _SCORES
from ..mechanisms import discrete_laplace
from ._runner import check_n_jobs, run, spawn

__all__ = ["blow_up", "scalability", "score_sensitivity", "contingency_accuracy", "random_split", "split_accuracy"]


def _seeds(rng, n: int) -> list:
    """``spawn(rng, n)``, with ``rng`` checked first so that a bad one is named ``rng``."""
    if not isinstance(rng, (np.random.Generator, np.random.SeedSequence)):
        as_generator(rng)
    return spawn(rng, n)


def blow_up(df: pd.DataFrame, columns: Sequence[str], *, n_records: int, p_replace: float = 0.5,
            rng: int | np.random.Generator) -> pd.DataFrame:
    """Figure 5's scalability data: each record plus alpha - 1 variations of it.

    A variation copies the record and replaces each attribute of ``columns`` with probability
    ``p_replace`` by a value drawn uniformly from that attribute's domain (the distinct values
    occurring in ``df``).  The original records come first; the table is cut at ``n_records``.
    (A test-data generator, not a DP function: the replacement values are the data's own.)

    Parameters
    ----------
    df : pandas.DataFrame
        The table to blow up.
    columns : list of str
        The attributes a variation may change.
    n_records, p_replace : int, float (default 0.5)
        The size of the output; the probability that a variation replaces a value.
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    pandas.DataFrame
        ``n_records`` rows, ``df``'s first.

    Raises
    ------
    TypeError, ValueError
        A bad argument (the message names it).

    Examples
    --------
    >>> import pandas as pd
    >>> big = blow_up(pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}), ["a"], n_records=5, rng=0)
    >>> len(big), big["b"].tolist()
    (5, ['x', 'y', 'x', 'y', 'x'])
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_nonempty(df, "df")
    n_records = check_int(n_records, "n_records", minimum=1)
    columns = check_columns(df, columns, "columns")
    if len(set(columns)) != len(columns):
        raise ValueError(f"columns: expected distinct columns, got {columns}")
    _check_unique_used(df, columns, "df")
    p_replace = check_probability(p_replace, "p_replace")
    gen = as_generator(rng)
    alpha = -(-n_records // len(df))
    base = df.reset_index(drop=True)
    extra = n_records - len(base)
    if extra <= 0:
        return base.iloc[:n_records].copy()
    src = np.tile(np.arange(len(base)), alpha - 1)[:extra]
    out = base.iloc[src].reset_index(drop=True)
    for c in columns:
        dom = pd.unique(base[c])
        mask = gen.random(extra) < p_replace
        vals = out[c].to_numpy().copy()
        vals[mask] = dom[gen.integers(0, len(dom), size=int(mask.sum()))]
        out[c] = vals
    return pd.concat([base, out], ignore_index=True)


def scalability(df: pd.DataFrame, predictors: Sequence[str], target: str, taxonomies: Mapping, *,
                sizes: Sequence[int], eps: float = 1.0, h: int = 15, utility: str = "max",
                repeats: int = 1, rng: int | np.random.Generator, classes: Sequence | None = None,
                progress: bool | str = False) -> pd.DataFrame:
    """Figure 5: time DiffGen (from the raw DataFrame to the release) on blown-up tables.

    For each size ``n`` the table is :func:`blow_up` to ``n`` records (not timed), then one
    :func:`~privlib.diffgen.diffgen` run is timed as the CPU time of this process
    (``time.process_time``: one core; the machine's other work, e.g. notebooks executed beside
    this one, does not count, as it would in wall time), ``repeats`` times with the same
    generator seed; the fastest is kept (as ``timeit`` does).

    Parameters
    ----------
    df : pandas.DataFrame
        The table to blow up.
    predictors, target, taxonomies
        As in :func:`privlib.diffgen.diffgen` (a variation may change every predictor).
    sizes : list of int
        The numbers of records.
    eps, h, utility
        DiffGen's parameters (:func:`privlib.diffgen.diffgen`).
    repeats : int, default 1
        Timings per size (each the same release: same seed); the fastest is reported.
    rng : int or numpy.random.Generator
        Required, keyword-only.  Size ``i`` uses ``spawn(rng, len(sizes))[i].spawn(2)``: the
        first child for :func:`blow_up`, the second for DiffGen.
    classes : sequence, optional
        Passed to DiffGen (omitted: read from ``df``, with a :class:`~privlib.PrivacyLeakWarning`).
    progress : bool or "text"
        As in :func:`sweep`.

    Returns
    -------
    pandas.DataFrame
        ``records, seconds, rows, cells`` (``seconds``: CPU seconds, which vary from one
        execution to the next).

    Raises
    ------
    TypeError, ValueError
        A bad argument (the message names it).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [20, 30, 40, 50, 60, 70], "c": ["N", "N", "N", "Y", "Y", "Y"]})
    >>> out = scalability(df, ["age"], "c", {"age": (0, 100)}, sizes=[12, 24], h=2, classes=["N", "Y"], rng=0)
    >>> out["records"].tolist()
    [12, 24]
    """
    check_progress(progress)
    eps, h, utility = _check_diffgen_args(eps, h, utility)
    if not isinstance(rng, (np.random.Generator, np.random.SeedSequence)):
        as_generator(rng)
    sizes = [check_int(n, "sizes", minimum=1) for n in _check_list(sizes, "sizes")]
    repeats = check_int(repeats, "repeats", minimum=1)
    predictors, _ = _validate(df, predictors, target, taxonomies)
    if classes is None:
        classes = _derive_classes(df, target, "scalability")
    classes = _check_classes(classes)
    seeds = _seeds(rng, len(sizes))
    bar = progress_bar(len(sizes), "scalability", progress)
    rows = []
    for n, s in zip(sizes, seeds):
        s_blow, s_diffgen = s.spawn(2)
        big = blow_up(df, predictors, n_records=n, rng=np.random.default_rng(s_blow))
        best = math.inf
        for _ in range(repeats):
            t0 = time.process_time()
            rel = diffgen(big, predictors, target, taxonomies, eps=eps, h=h, utility=utility, classes=classes,
                          rng=np.random.default_rng(s_diffgen))
            best = min(best, time.process_time() - t0)
        rows.append({"records": len(big), "seconds": best, "rows": rel.n_rows, "cells": rel.domain_cells})
        del big
        bar.update()
    bar.close()
    return pd.DataFrame(rows)


def score_sensitivity(child_counts, *, utility: str) -> float:
    """The largest change of a utility score when one record is added or removed (Section 4.2).

    Every neighbour of the class counts of a candidate's children is tried: one record added to,
    or removed from, any (child, class) cell.  The source bounds the change by 1 for Max and by
    ``log2 |classes|`` for InfoGain; this measures it on given counts.

    Parameters
    ----------
    child_counts : array_like, shape (children, classes)
        Non-negative class counts of the records of each child of the candidate.
    utility : {"max", "infogain"}
        The score (:func:`privlib.diffgen.max_score`, :func:`privlib.diffgen.infogain_score`).

    Returns
    -------
    float
        ``max |u(D') - u(D)|`` over the neighbours ``D'``.

    Raises
    ------
    TypeError, ValueError
        A bad argument (the message names it).

    Examples
    --------
    >>> score_sensitivity([[4, 3], [0, 1]], utility="max")
    1.0
    >>> round(score_sensitivity([[2, 2], [2, 2]], utility="infogain"), 4)
    0.0202
    """
    check_in(utility, "utility", tuple(_SCORES))
    c = np.asarray(child_counts, dtype=float)
    if c.ndim != 2 or c.size == 0 or not np.all(np.isfinite(c)) or (c < 0).any():
        raise ValueError(f"child_counts: expected a non-empty 2-d array of non-negative counts, got {child_counts!r}")
    f = _SCORES[utility]
    n = c.size
    delta = np.concatenate([np.eye(n), -np.eye(n)]).reshape(2 * n, *c.shape)
    nb = c[None] + delta
    nb = nb[(nb >= 0).all(axis=(1, 2))]
    return float(np.max(np.abs(f(nb) - f(c))))


def contingency_accuracy(train: pd.DataFrame, test: pd.DataFrame, predictors: Sequence[str], target: str,
                         taxonomies: Mapping, *, eps: float, classes: Sequence, rng: int | np.random.Generator,
                         sample: int = 50_000, tree_params: dict | None = None) -> dict:
    """CA of a noisy contingency table: the release DiffGen is said to beat (Sections 1.1, 5, 6).

    The table counts every combination of the predictors' *leaf* values (every categorical
    attribute at the leaves of its taxonomy tree; a numerical attribute has no leaves and is kept
    as one interval over its public domain, the coarsest choice) and class; every cell, empty or
    not, gets exact discrete Laplace noise at the whole ``eps`` (sensitivity 1, one parallel
    composition over disjoint cells) and is clipped at 0.  Empty cells are drawn sparsely as in
    :func:`privlib.diffgen.noisy_counts`: how many are released (binomial), where (uniformly)
    and with what count (the noise given >= 1).  The learner sees every occupied cell and a
    uniform sample of at most ``sample`` of the released empty cells, whose weights are scaled
    by (released empty cells) / (sampled), so each region keeps its expected weight; it is the
    chapter's learner, tested on the test records generalized to the same cut.

    Parameters
    ----------
    train, test : pandas.DataFrame
        Raw training and test records.
    predictors, target, taxonomies
        As in :func:`privlib.diffgen.diffgen`.
    eps : float
        Privacy budget of the table, > 0.
    classes : sequence
        The public class domain.
    rng : int or numpy.random.Generator
        Required, keyword-only.
    sample : int, default 50,000
        Most released empty cells the learner sees.
    tree_params : dict, optional
        Overrides of :data:`privlib.diffgen.TREE_PARAMS`.

    Returns
    -------
    dict
        ``ca``; ``cells`` (size of the domain, classes included); ``occupied`` (cells holding a
        record); ``released_empty`` (empty cells released with a positive count); ``real_weight``
        and ``noise_weight`` (total released count of the occupied cells and, estimated from
        the sample, of the empty ones); ``ledger`` (:class:`privlib.accounting.Ledger`).

    Raises
    ------
    TypeError, ValueError
        A bad argument (the message names it).

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.hierarchy import Hierarchy
    >>> job = Hierarchy.from_dict({"Any": {"P": ["E", "L"], "A": ["D", "W"]}}, name="job")
    >>> df = pd.DataFrame({"job": ["E", "L", "D", "W"] * 10, "c": ["Y", "Y", "N", "N"] * 10})
    >>> out = contingency_accuracy(df, df, ["job"], "c", {"job": job}, eps=1.0, classes=["N", "Y"], rng=0)
    >>> out["cells"], out["occupied"], out["ca"]
    (8, 4, 1.0)
    """
    eps = check_epsilon(eps)
    sample = check_int(sample, "sample", minimum=1)
    gen = as_generator(rng)
    _validate(train, predictors, target, taxonomies)
    prep = _prepare(train, predictors, target, taxonomies, classes=_check_classes(classes))
    test_raw, y_test = _encode_test(prep, test)
    K = prep.K
    cut_nodes = [[i for i, ch in enumerate(a.children) if not ch] if a.kind == "categorical" else [a.low, a.high]
                 for a in prep.attrs]
    key, sizes, n_groups = _group_keys(prep, cut_nodes)
    n_cells = n_groups * K
    occ, true = np.unique(key * K + prep.y, return_counts=True)
    noisy = np.maximum(discrete_laplace(true, eps=eps, sensitivity=1, rng=gen), 0)
    alpha = math.exp(-eps)
    m = int(gen.binomial(n_cells - len(occ), alpha / (1.0 + alpha)))
    size = min(m, sample)
    extra = np.empty(0, dtype=np.int64)
    while len(extra) < size:
        draw = gen.integers(0, n_cells, size=int(1.2 * (size - len(extra))) + 16)
        draw = np.setdiff1d(np.unique(np.concatenate([extra, draw])), occ, assume_unique=True)
        extra = draw if len(draw) <= size else gen.choice(draw, size=size, replace=False)
    counts = np.empty(0, dtype=np.int64)
    while len(counts) < size:                        # |Z| given Z != 0: the law of Z given Z >= 1
        batch = int((size - len(counts)) * 1.2 * (1.0 + alpha) / (2.0 * alpha)) + 16
        z = discrete_laplace(np.zeros(batch, dtype=np.int64), eps=eps, sensitivity=1, rng=gen)
        counts = np.concatenate([counts, np.abs(z[z != 0])])
    counts = counts[:size]
    keep = noisy > 0
    cells = np.concatenate([occ[keep], extra])
    weight = np.concatenate([noisy[keep].astype(float), counts * (m / size if size else 0.0)])
    codes = np.array(np.unravel_index(cells // K, sizes), dtype=np.int64).reshape(len(sizes), len(cells))
    clf = _tree(tree_params).fit(_features(codes), cells % K, sample_weight=weight)
    test_codes = np.array([_code_under_cut(a, x, c) for a, x, c in zip(prep.attrs, test_raw, cut_nodes)])
    ca = float(np.mean(clf.predict(_features(test_codes)) == y_test))
    ledger = Ledger([LedgerEntry("laplace", eps, "parallel", group="contingency table",
                                 detail=f"discrete Laplace on {n_cells:,} disjoint cell counts")]).check(eps)
    return {"ca": ca, "cells": int(n_cells), "occupied": int(len(occ)), "released_empty": m,
            "real_weight": int(noisy.sum()), "noise_weight": float(weight[keep.sum():].sum()), "ledger": ledger}


def random_split(df: pd.DataFrame, *, train_share: float = 2 / 3,
                 rng: int | np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A random training / test split: Section 5's "2/3 of the records to build the classifier
    and ... the remaining 1/3", read as a split of the pooled records.

    ``round(train_share * len(df))`` records, drawn uniformly without replacement, train; the
    others test.  Both parts keep ``df``'s order and index.

    Parameters
    ----------
    df : pandas.DataFrame
        The pooled records (at least 2).
    train_share : float, default 2/3
        The training part's share, in (0, 1); both parts must hold a record.
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    (pandas.DataFrame, pandas.DataFrame)
        The training and the test records.

    Raises
    ------
    TypeError, ValueError
        A bad argument (the message names it), a part without records.

    Examples
    --------
    >>> import pandas as pd
    >>> tr, te = random_split(pd.DataFrame({"a": range(9)}), rng=0)
    >>> len(tr), len(te), sorted(tr["a"].tolist() + te["a"].tolist()) == list(range(9))
    (6, 3, True)
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_nonempty(df, "df")
    train_share = check_probability(train_share, "train_share", low_open=True, high_open=True)
    n_train = int(round(train_share * len(df)))
    if not 0 < n_train < len(df):
        raise ValueError(f"train_share: expected a share leaving records in both parts of {len(df)}, "
                         f"got {train_share!r} ({n_train} training records)")
    take = np.zeros(len(df), dtype=bool)
    take[as_generator(rng).permutation(len(df))[:n_train]] = True
    return df.iloc[np.flatnonzero(take)], df.iloc[np.flatnonzero(~take)]


def _split_task(seed, *, df, predictors, target, taxonomies, eps, h, utility, runs, train_share, classes,
                tree_params) -> tuple:
    """BA, LA and the runs' mean CA on one random split (seed: the split's, then the runs')."""
    split_seed, run_seed = spawn(seed, 2)
    train, test = random_split(df, train_share=train_share, rng=np.random.default_rng(split_seed))
    ba = raw_data_accuracy(train, test, predictors, target, taxonomies, tree_params=tree_params)
    la = lower_bound_accuracy(train, test, target)
    prep = _prepare(train, predictors, target, taxonomies, classes=classes)
    _check_h(prep, h)
    # the jobs of sweep(train, test, ..., eps_values=[eps], h_values=[h], runs=runs, rng=run_seed)
    jobs = [("diffgen", eps, h, utility, s, None) for s in spawn(run_seed, runs)]
    res = _evaluate_many(prep, _encode_test(prep, test), jobs, tree_params)
    return len(train), ba, la, float(np.mean([r[0] for r in res]))


def split_accuracy(df: pd.DataFrame, predictors: Sequence[str], target: str, taxonomies: Mapping, *,
                   eps: float, h: int, utility: str = "max", runs: int = 10, seeds: int,
                   train_share: float = 2 / 3, rng: int | np.random.Generator, classes: Sequence,
                   n_jobs: int = 1, progress: bool | str = False, tree_params: dict | None = None) -> pd.DataFrame:
    """BA, LA and DiffGen's mean CA (Section 5) on a new random split in each seed.

    Seed ``s`` takes ``split_seed, run_seed = spawn(spawn(rng, seeds)[s], 2)``: its split is
    :func:`random_split` with ``rng=numpy.random.default_rng(split_seed)``, BA and LA are
    :func:`privlib.diffgen.raw_data_accuracy` and :func:`privlib.diffgen.lower_bound_accuracy`
    on it, and CA is the mean over ``runs`` runs at (``eps``, ``h``) -- the runs of
    :func:`~privlib.experiments.diffgen.sweep` with ``rng=run_seed`` on that split.  The results do not depend on ``n_jobs``.

    Parameters
    ----------
    df : pandas.DataFrame
        The pooled records.
    predictors, target, taxonomies
        As in :func:`privlib.diffgen.diffgen`.
    eps, h, utility, runs
        DiffGen's budget, specializations and utility; the runs per seed.
    seeds : int
        Independent splits (each with its own runs).
    train_share : float, default 2/3
        As in :func:`random_split`.
    rng : int or numpy.random.Generator
        Required, keyword-only.
    classes : sequence
        The public class domain (required: a split's records must not choose it).
    n_jobs, progress, tree_params
        As in :func:`~privlib.experiments.diffgen.sweep` (the seeds are the parallel tasks).

    Returns
    -------
    pandas.DataFrame
        ``seed, n_train, ba, la, ca``, one row per seed (accuracies as fractions).

    Raises
    ------
    TypeError, ValueError
        A bad argument (the message names it).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [20, 30, 40, 50, 60, 70] * 5, "c": ["N", "N", "N", "Y", "Y", "Y"] * 5})
    >>> out = split_accuracy(df, ["age"], "c", {"age": (0, 100)}, eps=1.0, h=2, runs=2, seeds=2,
    ...                      classes=["N", "Y"], rng=0)
    >>> out.columns.tolist(), out["n_train"].tolist()
    (['seed', 'n_train', 'ba', 'la', 'ca'], [20, 20])
    """
    check_progress(progress)
    n_jobs = check_n_jobs(n_jobs)
    seeds = check_int(seeds, "seeds", minimum=1)
    runs = check_int(runs, "runs", minimum=1)
    eps = check_epsilon(eps, "eps")
    h = check_int(h, "h", minimum=0)
    check_in(utility, "utility", tuple(_SCORES))
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_nonempty(df, "df")
    train_share = check_probability(train_share, "train_share", low_open=True, high_open=True)
    _validate(df, predictors, target, taxonomies)
    classes = _check_classes(classes)
    roots = _seeds(rng, seeds)
    out = run(_split_task, roots, n_jobs=n_jobs, progress=progress, desc="random splits",
              shared={"df": df, "predictors": list(predictors), "target": target, "taxonomies": taxonomies,
                      "eps": eps, "h": h, "utility": utility, "runs": runs, "train_share": train_share,
                      "classes": classes, "tree_params": tree_params})
    return pd.DataFrame([{"seed": s, "n_train": o[0], "ba": o[1], "la": o[2], "ca": o[3]} for s, o in enumerate(out)])
