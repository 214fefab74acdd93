"""The DiffGen chapter's experiments (Mohammed et al. 2011, Section 5): Figures 3, 4 and 5.

Above :mod:`privlib.diffgen`: the Adult set-up (:func:`adult_taxonomies`, :data:`ADULT_DOMAINS`,
:data:`ADULT_CLASSES`, TDS's :data:`TDS_TOPN_QIDS`), the learner's tuning
(:func:`select_min_leaf`), Figure 3 (:func:`sweep`, :func:`held_out_best`), Figure 4
(:func:`cross_validate` on the folds of :func:`cv_folds`), Figure 5 (:func:`blow_up`,
:func:`scalability`), the sensitivity of the scores (:func:`score_sensitivity`), the noisy
contingency table the source compares DiffGen with (:func:`contingency_accuracy`) and the random
2/3 split of the pooled records (:func:`random_split`, :func:`split_accuracy`).  Sweeps go through
:func:`privlib.experiments.run` (joblib, ``n_jobs`` processes) and draw by :func:`privlib.experiments.spawn`, one child seed per task: the results do
not depend on ``n_jobs`` (tested; only the ``seconds`` timings vary).
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._progress import check_progress
from .._validation import (as_generator, check_columns, check_epsilon, check_finite, check_in, check_int,
                           check_no_nan, check_nonempty, warn_privacy_leak)
from ..diffgen import MAX_H
from ..diffgen._accuracy import _encode_test, _features, _tree
from ..diffgen._diffgen import _check_h
from ..diffgen._encoding import _check_classes, _check_list, _derive_classes, _prepare, _validate
from ..diffgen._evaluate import _evaluate_fold, _evaluate_many
from ..diffgen._scores import _SCORES
from ..diffgen._tds import _check_qid
from ._diffgen_claims import (_seeds, blow_up, contingency_accuracy, random_split, scalability, score_sensitivity,
                              split_accuracy)
from ._runner import check_n_jobs, run, spawn

__all__ = [
    "ADULT_PREDICTORS",
    "ADULT_DOMAINS",
    "ADULT_CLASSES",
    "TDS_TOPN_QIDS",
    "MIN_LEAF_GRID",
    "adult_taxonomies",
    "select_min_leaf",
    "sweep",
    "held_out_best",
    "cv_folds",
    "cross_validate",
    "blow_up",
    "scalability",
    "score_sensitivity",
    "contingency_accuracy",
    "random_split",
    "split_accuracy",
]

#: The 14 predictors of Adult (every attribute but the class ``income``).
ADULT_PREDICTORS = [
    "age", "workclass", "fnlwgt", "education", "education_num", "marital_status", "occupation",
    "relationship", "race", "sex", "capital_gain", "capital_loss", "hours_per_week", "native_country",
]

#: The quasi-identifiers ("TopN": the N attributes most important for classification) of the
#: Adult experiments of Fung, Wang & Yu's TDS, as listed in their published experiment
#: configuration (github.com/McGill-DMaS/Privacy-TDS, ``exp/erTopN/adultRU0.hchy``; that file
#: also lists one QID of all 14 attributes with k = 5).  Attributes outside the QID are
#: released unchanged by TDS.
TDS_TOPN_QIDS = {
    5: ("age", "education_num", "marital_status", "relationship", "capital_gain"),
    7: ("age", "education_num", "marital_status", "relationship", "sex", "capital_gain", "hours_per_week"),
    9: ("age", "education", "education_num", "marital_status", "occupation", "relationship", "sex",
        "capital_gain", "hours_per_week"),
}

#: The ``min_weight_fraction_leaf`` values tried by :func:`select_min_leaf` (how
#: :data:`privlib.diffgen.TREE_PARAMS` was chosen).
MIN_LEAF_GRID = (0.0, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2)

#: Public domains ``[low, high)`` of the numerical Adult predictors, from the experimental
#: set-up of Fung, Wang & Yu, "Anonymizing classification data for privacy preservation",
#: IEEE TKDE 19(5), 2007 (the taxonomy files used by DiffGen's experiments): age 15-95,
#: fnlwgt 0-1,500,000, education-num 1-20, capital-gain 0-100,000, capital-loss 0-5,000,
#: hours-per-week 1-100.  They are not derived from the data.
ADULT_DOMAINS = {
    "age": (15.0, 95.0),
    "fnlwgt": (0.0, 1_500_000.0),
    "education_num": (1.0, 20.0),
    "capital_gain": (0.0, 100_000.0),
    "capital_loss": (0.0, 5_000.0),
    "hours_per_week": (1.0, 100.0),
}
#: The public class domain of Adult (``data/adult/adult.names``: ">50K, <=50K").
ADULT_CLASSES = ("<=50K", ">50K")


def select_min_leaf(train: pd.DataFrame, predictors: Sequence[str], target: str, taxonomies: Mapping, *,
                    grid: Sequence[float] = MIN_LEAF_GRID, folds: int = 5,
                    rng: int | np.random.Generator) -> pd.DataFrame:
    """Cross-validated accuracy of the raw-data tree for each ``min_weight_fraction_leaf``.

    How :data:`privlib.diffgen.TREE_PARAMS` was chosen: C4.5 prunes its trees, scikit-learn's
    trees do not, and an unpruned tree over-fits Adult (about 81% instead of 85%).

    Parameters
    ----------
    train : pandas.DataFrame
        The raw training table.
    predictors, target, taxonomies
        As in :func:`privlib.diffgen.diffgen`.
    grid, folds : sequence of float, int (default 5)
        The ``min_weight_fraction_leaf`` values tried; the number of stratified folds.
    rng : int or numpy.random.Generator
        Required, keyword-only; shuffles the folds: an int below 2**32 is passed to
        scikit-learn's ``StratifiedKFold`` as its ``random_state`` (the chapter uses 0), a
        Generator draws that seed.

    Returns
    -------
    pandas.DataFrame
        ``min_weight_fraction_leaf, cv_accuracy``, one row per grid value.

    Raises
    ------
    TypeError, ValueError
        A bad argument (the message names it).

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.hierarchy import Hierarchy
    >>> df = pd.DataFrame({"age": [20, 30, 40, 50, 60, 70] * 3, "c": ["N", "N", "N", "Y", "Y", "Y"] * 3})
    >>> select_min_leaf(df, ["age"], "c", {"age": (0, 100)}, grid=(0.0, 0.1), folds=3, rng=0)
       min_weight_fraction_leaf  cv_accuracy
    0                       0.0          1.0
    1                       0.1          1.0
    """
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    folds = check_int(folds, "folds", minimum=2)
    gen = as_generator(rng)
    seed = int(rng) if isinstance(rng, (int, np.integer)) and int(rng) < 2 ** 32 else int(gen.integers(2 ** 32))
    prep = _prepare(train, predictors, target, taxonomies)
    X = _features(prep.raw)
    cv = StratifiedKFold(folds, shuffle=True, random_state=seed)
    rows = [{"min_weight_fraction_leaf": m,
             "cv_accuracy": float(cross_val_score(_tree({"min_weight_fraction_leaf": m}), X, prep.y, cv=cv).mean())}
            for m in grid]
    return pd.DataFrame(rows)


# ============================================================================ the runs
def _sweep_task(jobs, *, prep, test, tree_params) -> list:
    """A chunk of the sweep's jobs on one prepared training table."""
    return _evaluate_many(prep, test, jobs, tree_params)


def _fold_task(task, *, full, tree_params) -> list:
    """Every job of one fold (the fold's count tables built once)."""
    return _evaluate_fold(full, *task, tree_params)


def _chunks(n_items: int, n_jobs: int, block: int = 1) -> list[list[int]]:
    """The positions ``0 .. n_items - 1`` in chunks: one per chunk in this process; with
    workers, about 24 chunks per worker (each chunk ships the shared table once, about 6 MB
    for Adult), made of blocks of ``block`` consecutive positions dealt round-robin (chunk ``c``
    holds blocks ``c, c + C, c + 2C, ...``), so that every chunk mixes cheap and costly tasks
    (small and large h) and the workers finish together, while the runs of one point (one
    block) stay together and share the cached split distributions of ``_diffgen``."""
    if n_jobs == 1:
        return [[i] for i in range(n_items)]
    workers = (os.cpu_count() or 1) if n_jobs == -1 else n_jobs
    starts = list(range(0, n_items, block))
    n_chunks = max(1, min(len(starts), 24 * workers))
    return [[i for b in starts[c::n_chunks] for i in range(b, min(b + block, n_items))] for c in range(n_chunks)]


def sweep(train: pd.DataFrame, test: pd.DataFrame, predictors: Sequence[str], target: str, taxonomies: Mapping, *,
          eps_values: Sequence[float], h_values: Sequence[int], utilities: Sequence[str] = ("max",),
          runs: int = 10, seeds: int = 1, first_seed: int = 0, rng: int | np.random.Generator,
          classes: Sequence | None = None, n_jobs: int = 1, progress: bool | str = False,
          tree_params: dict | None = None) -> pd.DataFrame:
    """Figure 3: CA of DiffGen for every (utility, eps, h), ``runs`` runs each (the table is
    encoded once; each run is a :func:`~privlib.diffgen.diffgen` release scored on ``test``),
    optionally for several independent seeds of the whole protocol (sharing the encoded table).

    Parameters
    ----------
    train, test : pandas.DataFrame
        Raw training and test records.
    predictors, target, taxonomies
        As in :func:`privlib.diffgen.diffgen`.
    eps_values, h_values, utilities : list
        The budgets, numbers of specializations and utility functions ("max", "infogain").
    runs : int, default 10
        Runs per (utility, eps, h).
    seeds : int, default 1
        Independent replicates of the whole protocol (``runs`` runs of every point each), for
        judging a noise-dependent statistic per seed.  With ``seeds > 1`` the rows of seed ``s``
        are exactly those of ``sweep(..., seeds=1, rng=privlib.experiments.spawn(rng, seeds)[s])``.
    first_seed : int, default 0
        Run only seeds ``first_seed .. seeds - 1`` (their rows exactly those of the full
        ``sweep(..., seeds=seeds)``): more seeds for a claim that needs them, at its own points
        only, added to seeds already run.
    rng : int or numpy.random.Generator
        Required, keyword-only.  With one seed, run ``i`` of the task list (utility, eps, h, run
        in this nesting order) draws from ``privlib.experiments.spawn(rng, n_tasks)[i]``.
    classes : sequence, optional
        The public class domain (see :func:`~privlib.diffgen.diffgen`; omitted: read from
        ``train``, with a :class:`~privlib.PrivacyLeakWarning`).  Test records whose class is
        outside it are an error.
    n_jobs : int, default 1
        Worker processes (:func:`privlib.experiments.run`; -1: every core).  The results do
        not depend on it.
    progress : bool or "text"
        ``True`` shows tqdm's live bar, ``"text"`` a reproducible text bar on stderr (for
        notebooks checked by nbval), ``False`` none.
    tree_params : dict, optional
        Overrides of :data:`privlib.diffgen.TREE_PARAMS`.

    Returns
    -------
    pandas.DataFrame
        ``seed, utility, eps, h, run, ca, rows, cells, seconds`` (``rows``: released rows with a
        positive count; ``cells``: size of the generalized domain; ``seconds``: CPU time of the
        anonymization alone -- the only column that varies between executions).

    Raises
    ------
    TypeError, ValueError
        A bad argument (the message names it).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [20, 30, 40, 50, 60, 70] * 5, "c": ["N", "N", "N", "Y", "Y", "Y"] * 5})
    >>> out = sweep(df, df, ["age"], "c", {"age": (0, 100)}, eps_values=[1.0], h_values=[2], runs=2,
    ...             classes=["N", "Y"], rng=0)
    >>> out[["utility", "eps", "h", "run"]].values.tolist()
    [['max', 1.0, 2, 0], ['max', 1.0, 2, 1]]
    >>> two = sweep(df, df, ["age"], "c", {"age": (0, 100)}, eps_values=[1.0], h_values=[2], runs=2, seeds=2,
    ...             classes=["N", "Y"], rng=0)
    >>> two.groupby("seed").size().tolist()
    [2, 2]
    >>> more = sweep(df, df, ["age"], "c", {"age": (0, 100)}, eps_values=[1.0], h_values=[2], runs=2, seeds=2,
    ...              first_seed=1, classes=["N", "Y"], rng=0)
    >>> more["seed"].tolist(), more["ca"].tolist() == two.loc[two["seed"] == 1, "ca"].tolist()
    ([1, 1], True)
    """
    check_progress(progress)
    n_jobs = check_n_jobs(n_jobs)
    runs = check_int(runs, "runs", minimum=1)
    seeds = check_int(seeds, "seeds", minimum=1)
    first_seed = check_int(first_seed, "first_seed", minimum=0, maximum=seeds - 1)
    utilities = _check_list(utilities, "utilities")
    for u in utilities:
        check_in(u, "utilities", tuple(_SCORES))
    eps_values = [check_epsilon(e, "eps_values") for e in _check_list(eps_values, "eps_values")]
    h_values = [check_int(h, "h_values", minimum=0, maximum=MAX_H) for h in _check_list(h_values, "h_values")]
    if not isinstance(rng, (np.random.Generator, np.random.SeedSequence)):
        as_generator(rng)
    _validate(train, predictors, target, taxonomies)
    if classes is None:
        classes = _derive_classes(train, target, "sweep")
    prep = _prepare(train, predictors, target, taxonomies, classes=classes)
    for h in h_values:
        _check_h(prep, h)
    test_enc = _encode_test(prep, test)
    grid = [(u, e, h, r) for u in utilities for e in eps_values for h in h_values for r in range(runs)]
    roots = [rng] if seeds == 1 else _seeds(rng, seeds)[first_seed:]
    jobs, rows = [], []
    for s, root in enumerate(roots, start=first_seed):
        task_seeds = _seeds(root, len(grid))
        jobs += [("diffgen", e, h, u, task_seeds[i], None) for i, (u, e, h, r) in enumerate(grid)]
        rows += [(s, *g) for g in grid]
    chunks = _chunks(len(jobs), n_jobs, block=runs)
    out = run(_sweep_task, [[jobs[i] for i in c] for c in chunks], n_jobs=n_jobs, progress=progress,
              desc="DiffGen sweep", shared={"prep": prep, "test": test_enc, "tree_params": tree_params})
    res: list = [None] * len(jobs)
    for c, results in zip(chunks, out):
        for i, r in zip(c, results):
            res[i] = r
    return pd.DataFrame([{"seed": s, "utility": u, "eps": e, "h": h, "run": r, "ca": res[i][0],
                          "rows": res[i][1], "cells": res[i][2], "seconds": res[i][3]}
                         for i, (s, u, e, h, r) in enumerate(rows)])


def held_out_best(results: pd.DataFrame, *, by: str = "h", value: str = "ca", run: str = "run") -> pd.DataFrame:
    """The value of a curve at its best point, estimated without selection bias.

    The source reads "the highest point" of a curve of means over ``runs`` runs (Figure 3,
    eps = 0.1).  The maximum over h of noisy means is biased upwards: it picks the h whose
    runs happened to be lucky.  This function estimates it leave-one-run-out: for each run
    ``r``, ``h*_r`` is the ``by`` value with the highest mean ``value`` over the *other* runs,
    and ``value`` of run ``r`` at ``h*_r`` is recorded.  The mean of the recorded values is
    an unbiased estimate of the expected accuracy of a data-chosen best h (which is at most
    the true highest point, so the estimate errs, if at all, downwards).

    Parameters
    ----------
    results : pandas.DataFrame
        Columns ``by``, ``run`` and ``value`` (one curve, e.g. one utility and eps of
        :func:`sweep`), at least 2 runs, every run at every ``by`` value.
    by, value, run : str
        The column names.

    Returns
    -------
    pandas.DataFrame
        ``run, <by> (chosen without this run), value``: one row per run.

    Raises
    ------
    TypeError, ValueError
        ``results`` not a DataFrame, missing columns or values, fewer than 2 runs.

    Examples
    --------
    >>> import pandas as pd
    >>> res = pd.DataFrame({"h": [4, 6, 8] * 3, "run": [0] * 3 + [1] * 3 + [2] * 3,
    ...                     "ca": [0.70, 0.72, 0.90, 0.71, 0.75, 0.70, 0.69, 0.77, 0.71]})
    >>> held_out_best(res)
       run  h    ca
    0    0  6  0.72
    1    1  8  0.70
    2    2  8  0.71
    """
    if not isinstance(results, pd.DataFrame):
        raise TypeError(f"results: expected a pandas DataFrame, got {type(results).__name__}")
    check_columns(results, [by, value, run], "results")
    check_no_nan(results, "results", [by, value, run])
    table = results.pivot_table(index=run, columns=by, values=value, aggfunc="mean")
    if len(table) < 2:
        raise ValueError(f"results: expected at least 2 runs to hold one out, got {len(table)}")
    if table.isna().any().any():
        raise ValueError(f"results: every run needs a {value!r} at every {by!r}")
    x = table.to_numpy(dtype=float)
    others = (x.sum(axis=0)[None, :] - x) / (len(x) - 1)   # mean of the other runs, per run
    j = others.argmax(axis=1)
    return pd.DataFrame({run: table.index.to_numpy(), by: table.columns.to_numpy()[j],
                         value: x[np.arange(len(x)), j]})


def cv_folds(n_records: int, *, folds: int = 10, repeats: int = 1,
             rng: int | np.random.Generator | np.random.SeedSequence) -> list[list[np.ndarray]]:
    """The test folds of ``repeats`` runs of ``folds``-fold cross-validation.

    Repeat ``r`` shuffles the records with ``numpy.random.default_rng(spawn(rng, repeats)[r])``
    and cuts the permutation into ``folds`` nearly equal parts (``numpy.array_split``).
    :func:`cross_validate` uses ``cv_folds(len(df), ..., rng=spawn(rng, 2)[0])``.

    Parameters
    ----------
    n_records : int
        Number of records (>= ``folds``).
    folds, repeats : int, default 10 and 1
        Folds per repeat (>= 2), number of repeats.
    rng : int, numpy.random.Generator or numpy.random.SeedSequence
        Required, keyword-only.

    Returns
    -------
    list of list of numpy.ndarray
        ``out[r][f]``: the record positions of test fold ``f`` of repeat ``r`` (in permutation
        order); the other folds of the repeat are its training records.

    Raises
    ------
    TypeError, ValueError
        A bad argument (the message names it).

    Examples
    --------
    >>> parts = cv_folds(10, folds=3, repeats=2, rng=0)
    >>> [len(p) for p in parts[0]], sorted(np.concatenate(parts[1]).tolist()) == list(range(10))
    ([4, 3, 3], True)
    """
    folds = check_int(folds, "folds", minimum=2)
    repeats = check_int(repeats, "repeats", minimum=1)
    n_records = check_int(n_records, "n_records", minimum=1)
    if n_records < folds:
        raise ValueError(f"folds: expected at most the number of records ({n_records}), got {folds}")
    return [np.array_split(np.random.default_rng(s).permutation(n_records), folds) for s in _seeds(rng, repeats)]


def cross_validate(df: pd.DataFrame, predictors: Sequence[str], target: str, taxonomies: Mapping, *,
                   eps_values: Sequence[float] = (), h: int = 15, utility: str = "max", k: int | None = None,
                   folds: int = 10, repeats: int = 1, rng: int | np.random.Generator,
                   classes: Sequence | None = None, n_jobs: int = 1, progress: bool | str = False,
                   tree_params: dict | None = None, qid: Sequence[str] | None = None,
                   tds: Mapping | None = None) -> pd.DataFrame:
    """Figure 4: ``repeats`` runs of ``folds``-fold cross-validation of DiffGen and TDS.

    One row per eps, fold and repeat for DiffGen and, when ``k`` is given, for TDS with
    threshold ``k`` and quasi-identifier ``qid`` (see :func:`privlib.diffgen.tds`).  The table
    is encoded once; a fold's count tables are rebuilt once from its training records' codes.

    Parameters
    ----------
    df : pandas.DataFrame
        The raw table (training and test folds are cut from it).
    predictors, target, taxonomies
        As in :func:`privlib.diffgen.diffgen`.
    eps_values, h, utility
        DiffGen's budgets (empty: no DiffGen rows), specializations and utility function.
    k : int, optional
        TDS's anonymity threshold (rows ``method = "tds"``); None: no such rows.
    folds, repeats : int, default 10 and 1
        Folds per repeat, repeats of the cross-validation.
    rng : int or numpy.random.Generator
        Required, keyword-only.  ``fold_seed, task_seed = privlib.experiments.spawn(rng, 2)``:
        the folds are :func:`cv_folds` with ``rng=fold_seed``; DiffGen task ``i`` (eps, repeat,
        fold in this nesting order) draws from ``spawn(task_seed, n_tasks)[i]``.
    classes : sequence, optional
        The public class domain (omitted: read from ``df``, with a
        :class:`~privlib.PrivacyLeakWarning` when DiffGen runs).
    n_jobs, progress, tree_params
        As in :func:`sweep`.
    qid : list of str, optional
        TDS's quasi-identifier for ``k`` (None: all predictors).
    tds : dict, optional
        Further TDS set-ups on the same folds, ``name -> (k, qid)`` (e.g. Fung, Wang & Yu's
        TopN quasi-identifiers at k = 100, :data:`TDS_TOPN_QIDS`); their rows carry ``method =
        name``.

    Returns
    -------
    pandas.DataFrame
        ``method, eps, repeat, fold, ca, seconds`` (``seconds``: anonymization CPU time).

    Raises
    ------
    TypeError, ValueError
        A bad argument (the message names it), nothing to run.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [20, 30, 40, 50, 60, 70] * 5, "c": ["N", "N", "N", "Y", "Y", "Y"] * 5})
    >>> cv = cross_validate(df, ["age"], "c", {"age": (0, 100)}, eps_values=[1.0], h=2, k=3, folds=3,
    ...                     classes=["N", "Y"], rng=0)
    >>> cv.groupby("method").size().to_dict()
    {'diffgen': 3, 'tds': 3}
    """
    check_progress(progress)
    n_jobs = check_n_jobs(n_jobs)
    folds = check_int(folds, "folds", minimum=2)
    repeats = check_int(repeats, "repeats", minimum=1)
    check_in(utility, "utility", tuple(_SCORES))
    if isinstance(eps_values, (str, bytes)) or not hasattr(eps_values, "__iter__"):
        raise TypeError(f"eps_values: expected a list, got {type(eps_values).__name__} {eps_values!r}")
    eps_values = [check_epsilon(e, "eps_values") for e in eps_values]
    if tds is not None and not isinstance(tds, Mapping):
        raise TypeError(f"tds: expected a dict name -> (k, qid), got {type(tds).__name__} {tds!r}")
    tds = dict(tds or {})
    if not eps_values and k is None and not tds:
        raise ValueError("eps_values: expected at least one eps (or a k for TDS), got nothing to run")
    h = check_int(h, "h", minimum=0, maximum=MAX_H)
    if k is not None:
        k = check_int(k, "k", minimum=1)
    if not isinstance(rng, (np.random.Generator, np.random.SeedSequence)):
        as_generator(rng)
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df: expected a pandas DataFrame, got {type(df).__name__}")
    check_nonempty(df, "df")
    predictors, _ = _validate(df, predictors, target, taxonomies)
    if len(df) < folds:
        raise ValueError(f"folds: expected at most the number of records ({len(df)}), got {folds}")
    qid = _check_qid(qid, predictors)
    setups = {}
    for name, spec in tds.items():
        if not isinstance(name, str) or name in ("diffgen", "tds"):
            raise ValueError(f"tds: expected set-up names other than 'diffgen' and 'tds', got {name!r}")
        if not (isinstance(spec, (tuple, list)) and len(spec) == 2):
            raise TypeError(f"tds[{name!r}]: expected a pair (k, qid), got {spec!r}")
        setups[name] = (check_int(spec[0], f"tds[{name!r}] k", minimum=1), _check_qid(spec[1], predictors))
    if classes is not None:
        classes = _check_classes(classes)
    elif eps_values:
        classes = _derive_classes(df, target, "cross_validate")
    else:  # TDS only: no DP release, the class domain is not published under a budget
        classes = np.asarray(sorted(pd.unique(df[target]), key=str), dtype=object)
    full = _prepare(df, predictors, target, taxonomies, classes=classes)   # encoded once
    if eps_values:
        _check_h(full, h)
    fold_seed, task_seed = _seeds(rng, 2)
    parts = cv_folds(len(df), folds=folds, repeats=repeats, rng=fold_seed)
    grid = [("diffgen", e, r, f) for e in eps_values for r in range(repeats) for f in range(folds)]
    if k is not None:
        grid += [("tds", None, r, f) for r in range(repeats) for f in range(folds)]
    for name in setups:
        grid += [(name, None, r, f) for r in range(repeats) for f in range(folds)]
    seeds = spawn(task_seed, len(grid))

    def job(i, m, e):
        if m == "diffgen":
            return ("diffgen", e, h, utility, seeds[i], None)
        kk, q = (k, qid) if m == "tds" else setups[m]
        return ("tds", None, kk, None, None, q)

    by_fold: dict = {}
    for i, (m, e, r, f) in enumerate(grid):
        by_fold.setdefault((r, f), []).append(i)
    tasks, order = [], []
    for (r, f), idx in by_fold.items():
        train_idx = np.sort(np.concatenate([p for q, p in enumerate(parts[r]) if q != f]))
        tasks.append((train_idx, np.sort(parts[r][f]), [job(i, grid[i][0], grid[i][1]) for i in idx]))
        order.append(idx)
    out = run(_fold_task, tasks, n_jobs=n_jobs, progress=progress, desc="cross-validation",
              shared={"full": full, "tree_params": tree_params})
    res: list = [None] * len(grid)
    for idx, results in zip(order, out):
        for i, r in zip(idx, results):
            res[i] = r
    return pd.DataFrame([{"method": m, "eps": e, "repeat": r, "fold": f, "ca": res[i][0], "seconds": res[i][3]}
                         for i, (m, e, r, f) in enumerate(grid)])


def adult_taxonomies(predictors: Sequence[str] | None = None, *, domains: Mapping | None = None,
                     hierarchy_set: str = "tkde2007") -> dict:
    """Taxonomies of the Adult predictors for DiffGen and TDS.

    Categorical attributes: the trees of the named set (:func:`privlib.data.load_hierarchy`):
    ``"tkde2007"`` (default), Fung, Wang & Yu's (IEEE TKDE 19(5), 2007) that DiffGen's Section 5
    uses ("the same taxonomy trees"); ``"book"``, the trees written for this book.  Numerical
    attributes: the public domain ``[low, high)`` given in ``domains`` (pass
    :data:`ADULT_DOMAINS` = ``privlib.data.adult_domains()``); they are split dynamically.

    Parameters
    ----------
    predictors : list of str, optional
        Default: :data:`ADULT_PREDICTORS`.
    hierarchy_set : {"tkde2007", "book"}
        The set of categorical taxonomy trees.
    domains : dict attribute -> (low, high), optional
        Public numerical domains.  A numerical predictor missing from it falls back to
        ``[min, max + 1)`` of the values of its shipped hierarchy -- the range of the data
        (adult.data and adult.test for fnlwgt, capital_gain, capital_loss) -- with a
        :class:`~privlib.PrivacyLeakWarning` naming ``domains``.

    Returns
    -------
    dict
        Predictor -> :class:`~privlib.hierarchy.Hierarchy` or ``(low, high)``, the
        ``taxonomies`` argument of :func:`privlib.diffgen.diffgen`.

    Raises
    ------
    TypeError, ValueError
        An unknown predictor, hierarchy set or domain (the message names it).

    Examples
    --------
    >>> tax = adult_taxonomies(["age", "sex"], domains=ADULT_DOMAINS)
    >>> tax["age"], sorted(map(str, tax["sex"].leaves))
    ((15.0, 95.0), ['Female', 'Male'])
    """
    from ..data import ADULT_NUMERIC, HIERARCHY_SETS, load_hierarchy
    if not isinstance(hierarchy_set, str):
        raise TypeError(f"hierarchy_set: expected one of {list(HIERARCHY_SETS)}, got "
                        f"{type(hierarchy_set).__name__} {hierarchy_set!r}")
    check_in(hierarchy_set, "hierarchy_set", tuple(HIERARCHY_SETS))
    predictors = ADULT_PREDICTORS if predictors is None else _check_list(predictors, "predictors")
    unknown = [a for a in predictors if a not in ADULT_PREDICTORS]
    if unknown:
        raise ValueError(f"predictors: {unknown} are not Adult predictors; expected a subset of {ADULT_PREDICTORS}")
    if domains is None:
        domains = {}
    if not isinstance(domains, dict):
        raise TypeError(f"domains: expected a dict attribute -> (low, high), got {type(domains).__name__} {domains!r}")
    bad = [a for a in domains if a not in ADULT_NUMERIC]
    if bad:
        raise ValueError(f"domains: {bad} are not numerical Adult attributes; expected a subset of "
                         f"{list(ADULT_NUMERIC)}")
    out = {}
    fallback = []
    for a in predictors:
        if a in ADULT_NUMERIC:
            if a in domains:
                t = domains[a]
                if not (isinstance(t, (tuple, list)) and len(t) == 2):
                    raise TypeError(f"domains[{a!r}]: expected a pair (low, high), got {t!r}")
                lo, hi = check_finite(t[0], f"domains[{a!r}]"), check_finite(t[1], f"domains[{a!r}]")
                if not lo < hi:
                    raise ValueError(f"domains[{a!r}]: expected low < high, got {t!r}")
                out[a] = (lo, hi)
            else:
                leaves = np.asarray(load_hierarchy(a).leaves, dtype=float)
                out[a] = (float(leaves.min()), float(leaves.max()) + 1.0)
                fallback.append(a)
        else:
            out[a] = load_hierarchy(a, hierarchy_set=hierarchy_set)
    if fallback:
        warn_privacy_leak(f"domains: no public domain given for {fallback}; adult_taxonomies falls back to the "
                          f"data's min/max, which a DP release then publishes outside its budget. Pass "
                          f"domains=ADULT_DOMAINS (Fung, Wang & Yu 2007).")
    return out
