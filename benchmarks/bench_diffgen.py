"""Benchmark of privlib.diffgen: DiffGen time and peak memory, 45,222 to 1,000,000 records
(Figure 5 of Mohammed et al. 2011; target: 1,000,000 records, h = 15, within 10 s on one
core), TDS on Adult, and optionally the full grids of Figures 3 and 4.

Run from the repository root:

    python benchmarks/bench_diffgen.py            # scalability + TDS + one 10-fold CV (about a minute)
    python benchmarks/bench_diffgen.py --hierarchy-set book   # the book's own taxonomy trees
    python benchmarks/bench_diffgen.py --full     # + Figure 3 (13 h x 10 runs) and Figure 4
                                                  #   (10-fold CV), on 2 processes

Time is wall-clock (``time.perf_counter``) of one call from the raw DataFrame to the release,
on one core; peak memory is the ``tracemalloc`` peak of a second, separate call (numpy reports
its allocations to tracemalloc), so the timing is not slowed by tracing.
"""
from __future__ import annotations

import argparse
import os
import platform
import time
import tracemalloc

import numpy as np
import pandas as pd

from privlib import diffgen as dg
from privlib.data import load_adult
from privlib.experiments import diffgen as xdg

SEED = 2011
TARGET = "income"


def measure(fn):
    t0 = time.perf_counter()
    out = fn()
    seconds = time.perf_counter() - t0
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return out, seconds, peak / 2 ** 20


def scalability(adult, tax):
    rows = []
    for i, n in enumerate([len(adult), 200_000, 400_000, 600_000, 800_000, 1_000_000]):
        big = xdg.blow_up(adult, xdg.ADULT_PREDICTORS, n_records=n, rng=np.random.default_rng([SEED, i]))
        rel, sec, mib = measure(lambda: dg.diffgen(big, xdg.ADULT_PREDICTORS, TARGET, tax, eps=1.0, h=15,
                                                   utility="max", classes=xdg.ADULT_CLASSES,
                                                   rng=np.random.default_rng([SEED, i, 1])))
        rows.append({"algorithm": "DiffGen h=15 eps=1", "records": n, "seconds": round(sec, 2),
                     "peak MiB": round(mib, 1), "released rows": rel.n_rows, "domain cells": rel.domain_cells})
        del big
    return rows


def tds_rows(train, adult, tax):
    rows = []
    qids = [("QID all", None)] + [(f"QID Top{n}", q) for n, q in xdg.TDS_TOPN_QIDS.items()]
    for name, df in [("train", train), ("all", adult)]:
        for qname, qid in qids:
            rel, sec, mib = measure(lambda: dg.tds(df, xdg.ADULT_PREDICTORS, TARGET, tax, k=5, qid=qid))
            rows.append({"algorithm": f"TDS k=5 {qname} ({name})", "records": len(df), "seconds": round(sec, 2),
                         "peak MiB": round(mib, 1), "released rows": rel.n_rows,
                         "domain cells": f"{rel.domain_cells:.3g}"})
    return rows


def cv_row(adult, tax):
    """One repeat of Figure 4's 10-fold cross-validation (DiffGen eps = 1, h = 15, and TDS k = 5), one
    process: encoding, fold preparation, anonymization and the decision trees."""
    t0 = time.perf_counter()
    cv = xdg.cross_validate(adult, xdg.ADULT_PREDICTORS, TARGET, tax, eps_values=[1.0], h=15, k=5, folds=10,
                           repeats=1, rng=SEED, classes=xdg.ADULT_CLASSES, n_jobs=1)
    sec = time.perf_counter() - t0
    return [{"algorithm": "10-fold CV: DiffGen eps=1 h=15 + TDS k=5", "records": len(adult),
             "seconds": round(sec, 2), "peak MiB": "-", "released rows": "-",
             "domain cells": f"CA {100 * cv['ca'].mean():.2f}"}]


def full_grids(train, test, adult, tax, workers):
    t0 = time.perf_counter()
    fig3 = xdg.sweep(train, test, xdg.ADULT_PREDICTORS, TARGET, tax, eps_values=[0.1, 0.25, 0.5, 1.0],
                     h_values=list(range(4, 17)), utilities=("max", "infogain"), runs=10, rng=SEED,
                     classes=xdg.ADULT_CLASSES, n_jobs=workers, progress=True)
    print(f"\nFigure 3, full grid (10 runs, h = 4..16): {time.perf_counter() - t0:.0f} s on {workers} processes")
    mean = fig3.groupby(["utility", "eps", "h"])["ca"].mean().mul(100).unstack("h")
    sd = fig3.groupby(["utility", "eps", "h"])["ca"].std().mul(100).unstack("h")
    print("mean CA (%):")
    print(mean.round(2).to_string())
    print("standard deviation between runs (points):")
    print(sd.round(2).to_string())
    print(f"slowest anonymization: {fig3['seconds'].max():.2f} s")
    mx = fig3[fig3["utility"] == "max"]
    for e, part in mx.groupby("eps"):
        ho = xdg.held_out_best(part)
        print(f"Max, eps = {e}: highest mean {100 * part.groupby('h')['ca'].mean().max():.2f}%, "
              f"leave-one-run-out {100 * ho['ca'].mean():.2f}% (h chosen: {ho['h'].tolist()})")
    t0 = time.perf_counter()
    fig4 = xdg.cross_validate(adult, xdg.ADULT_PREDICTORS, TARGET, tax, eps_values=[0.1, 0.25, 0.5, 1.0, 2.0, 3.0],
                             h=15, k=5, folds=10, repeats=1, rng=SEED, classes=xdg.ADULT_CLASSES, n_jobs=workers,
                             progress=True)
    print(f"\nFigure 4, one run of 10-fold CV: {time.perf_counter() - t0:.0f} s on {workers} processes")
    print(fig4.groupby(["method", "eps"], dropna=False)["ca"].agg(["mean", "std"]).mul(100).round(2).to_string())
    for n, q in xdg.TDS_TOPN_QIDS.items():
        cv = xdg.cross_validate(adult, xdg.ADULT_PREDICTORS, TARGET, tax, k=5, folds=10, repeats=1, rng=SEED,
                               n_jobs=workers, qid=q)
        print(f"TDS k=5, QID Top{n}: CA {100 * cv['ca'].mean():.2f} +- {100 * cv['ca'].std():.2f} (10-fold)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="also run the full grids of Figures 3 and 4")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--hierarchy-set", default="tkde2007", choices=["tkde2007", "book"],
                    help="taxonomy trees: the source's (Fung et al. 2007, default) or the book's")
    args = ap.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}, "
          f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}")
    train, test, adult = load_adult(split="train"), load_adult(split="test"), load_adult(split="all")
    tax = xdg.adult_taxonomies(domains=xdg.ADULT_DOMAINS, hierarchy_set=args.hierarchy_set)
    print(f"taxonomy trees: {args.hierarchy_set}")
    rows = scalability(adult, tax) + tds_rows(train, adult, tax) + cv_row(adult, tax)
    print(pd.DataFrame(rows).to_string(index=False))
    if args.full:
        full_grids(train, test, adult, tax, args.workers)


if __name__ == "__main__":
    main()
