"""Benchmark of chapter 3's hot path: the DiffGen sweep of Figure 3 and the cross-validation
of Figure 4, at a small scale, with a cProfile summary of where the time goes.

Run from the repository root:

    python benchmarks/bench_ch3.py                 # about a minute on one core
    python benchmarks/bench_ch3.py --label after   # the label of the CSV rows

Three measurements, each on one process (``n_jobs=1``) and timed in CPU seconds
(``time.process_time``, so that other processes' load does not count):

* ``task``: one release and its CA (Max, eps = 1, h = 16: the largest release of Figure 3);
* ``sweep``: Figure 3's protocol on a small grid (eps 0.1 and 1, h 4, 10 and 16, both
  utilities, 10 runs: 120 tasks);
* ``cv``: Figure 4's protocol, one repeat of 10 folds (eps 1, h = 15, and TDS with k = 5: 20
  tasks, a tenth of the chapter's repeats).

Each row of ``benchmarks/results/bench_ch3.csv`` (appended) gives the label, the measurement,
its CPU seconds (profiled, then again without the profiler), and the share of the profiled CPU time spent in the scikit-learn tree fit,
the exact discrete Laplace sampler, DiffGen's split-point choice (Lines 4 and 9) and the
rest.  The sweep's CA values are also written to ``benchmarks/results/bench_ch3_sweep_ca.csv``
(a change of the code must leave them identical).
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import time

from privlib.data import load_adult
from privlib.experiments import diffgen as xdg

SEED = 2011
TARGET = "income"
TREE = {"min_weight_fraction_leaf": 0.003}
HERE = os.path.dirname(os.path.abspath(__file__))


def profiled(fn):
    """``fn()``, its CPU seconds and the cumulative CPU time of a few functions of interest."""
    pr = cProfile.Profile(time.process_time)
    t0 = time.process_time()
    pr.enable()
    out = fn()
    pr.disable()
    seconds = time.process_time() - t0
    stats = pstats.Stats(pr).stats
    cum = {}
    for (path, _, name), (_, _, _, ct, _) in stats.items():
        for label, (mod, fun) in {"tree fit": ("sklearn/tree/_classes.py", "_fit"),
                                  "tree predict": ("sklearn/tree/_classes.py", "predict"),
                                  "discrete laplace": ("mechanisms/_exact.py", "_discrete_laplace_noise"),
                                  "split choice": ("diffgen/_diffgen.py", "choose_split"),
                                  "tds": ("diffgen/_tds.py", "_tds")}.items():
            if path.endswith(mod) and name == fun:
                cum[label] = cum.get(label, 0.0) + ct
    return out, seconds, cum


def plain(fn):
    """CPU seconds of ``fn()`` without the profiler (cProfile inflates many small calls)."""
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="run")
    parser.add_argument("--ca-out", default=os.path.join(HERE, "results", "bench_ch3_sweep_ca.csv"),
                        help="where the sweep's rows (without timings) are written")
    args = parser.parse_args()
    train, test, adult = load_adult(split="train"), load_adult(split="test"), load_adult(split="all")
    pred = xdg.ADULT_PREDICTORS
    tax = xdg.adult_taxonomies(pred, domains=xdg.ADULT_DOMAINS)
    kw = dict(classes=xdg.ADULT_CLASSES, tree_params=TREE, rng=SEED)
    # warm-up: imports (scikit-learn) outside the timings
    xdg.sweep(train, test, pred, TARGET, tax, eps_values=[1.0], h_values=[4], runs=1, **kw)
    rows = []

    def task():
        return xdg.sweep(train, test, pred, TARGET, tax, eps_values=[1.0], h_values=[16], runs=1, **kw)

    def sweep():
        return xdg.sweep(train, test, pred, TARGET, tax, eps_values=[0.1, 1.0], h_values=[4, 10, 16],
                         utilities=("max", "infogain"), runs=10, **kw)

    for name, fn in (("task", task), ("sweep", sweep)):
        out, sec, cum = profiled(fn)
        rows.append((name, len(out), sec, cum))
        rows.append((name + " unprofiled", len(out), plain(fn), {}))
        if name == "sweep":
            out.drop(columns="seconds").to_csv(args.ca_out, index=False)

    def cv():   # Figure 4: one repeat of the 10 folds (a tenth of the chapter's), eps 1 and TDS
        return xdg.cross_validate(adult, pred, TARGET, tax, eps_values=[1.0], h=15, k=5, folds=10, repeats=1,
                                  **kw)

    out, sec, cum = profiled(cv)
    rows.append(("cv", len(out), sec, cum))
    rows.append(("cv unprofiled", len(out), plain(cv), {}))
    path = os.path.join(HERE, "results", "bench_ch3.csv")
    new = not os.path.exists(path)
    with open(path, "a") as f:
        if new:
            f.write("label,measurement,tasks,cpu_seconds,tree_fit,tree_predict,discrete_laplace,split_choice,tds\n")
        for name, n, sec, cum in rows:
            parts = [f"{cum.get(k, 0.0):.2f}" for k in ("tree fit", "tree predict", "discrete laplace",
                                                         "split choice", "tds")]
            f.write(f"{args.label},{name},{n},{sec:.2f},{','.join(parts)}\n")
            print(f"{args.label:>8} {name:>6}: {n:4d} tasks, {sec:7.2f} CPU s; " +
                  ", ".join(f"{k} {cum.get(k, 0.0):.2f}" for k in ("tree fit", "tree predict", "discrete laplace",
                                                                    "split choice", "tds")))


if __name__ == "__main__":
    main()
