"""Benchmark of privlib.reident: HI and PI of both models as users and N_o grow.

Up to the source's full scale: 13,141 simulated users x 1,000 rated movies, first-order
model at N_o = 1,800 simplified observations, exhaustive model at N_o = 900 rows
(Massart & Standaert, Section IV and Table I).  The issue's target: first-order HI and
PI at full scale within a minute.

Run from the repository root:  python benchmarks/bench_reident.py [--quick]

Prints one line per (users, model, N_o): seconds for encoding, HI and PI (10 folds,
both outlier rules in one pass), peak traced memory (tracemalloc) and the values; then,
at the largest size, the computations of the chapter (book/ch5_reident) at the source's
scale: Table I (every granularity encoded once per model, then cut), the Figure 2 curves,
the level-l success rate of re-identification with the correct user ranked among all
13,141 candidates (M_o = 1, every level) and the category prediction of Figure 4, each
with its seconds (wall and CPU).
"""
from __future__ import annotations

import argparse
import resource
import time
import tracemalloc

import pandas as pd

from privlib import reident as R
from privlib.simulate.ratings import NETFLIX_CATEGORIES, simulate_ratings


def measure(obs, model, n_obs, folds=10, rng=1):
    tracemalloc.start()
    t0 = time.perf_counter()
    rec = R.encode(obs, model, n_obs=n_obs)
    t1 = time.perf_counter()
    hi = R.hypothetical_information(rec)
    t2 = time.perf_counter()
    pi = R.perceived_information(rec, None, folds, rng=rng, outliers=("drop", "floor"))
    t3 = time.perf_counter()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"users": rec.n_users, "model": model.kind, "N_o": n_obs, "records": len(rec.user),
            "bins": rec.n_symbols, "encode s": t1 - t0, "HI s": t2 - t1, "PI s": t3 - t2,
            "total s": t3 - t0, "peak MiB": peak / 2**20, "HI": hi.bits, "PI drop": pi["drop"].bits,
            "PI floor": pi["floor"].bits, "f_o": pi["drop"].outlier_fraction}


def chapter(pop, obs, n_users):
    """The chapter's full-scale computations, timed one by one."""
    import numpy as np

    def timed(label, fn):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        print(f"{label:<48} wall {time.perf_counter() - w:6.1f} s   cpu {time.process_time() - c:6.1f} s",
              flush=True)
        return out

    print(f"\nthe chapter at {n_users:,} users")
    enc = {}
    for g in R.GRANULARITIES:
        o = obs if g == "5-star" else timed(f"rating_observations {g}",
                                            lambda: R.rating_observations(pop.ratings, g,
                                                                          categories=NETFLIX_CATEGORIES))
        enc[g] = timed(f"encode {g} (both models, once)",
                       lambda: {"exhaustive": R.encode(o, R.exhaustive(), n_obs=900),
                                "first-order": R.encode(o, R.first_order(), n_obs=1_800)})
    tab = timed("Table I (3 granularities, both rules)",
                lambda: R.information_table(enc, (900, 1_800), 10, rng=2019, outliers=("drop", "floor")))
    for rule, tt in tab.items():
        print(f"outliers: {rule}\n{tt.round(3).to_string()}\n")
    rec5 = enc["5-star"]
    grid = {"first-order": [50, 100, 200, 450, 900, 1_800], "exhaustive": [50, 100, 200, 450, 900]}
    for m, rec in rec5.items():
        timed(f"Figure 2 curve, {m}", lambda: R.information_curve(rec, None, grid[m], 10, rng=2019,
                                                                  outliers=("drop", "floor")))
    levels = np.arange(1, rec5["exhaustive"].n_users + 1)
    for m, rec in rec5.items():
        sr = timed(f"success rate, {m}, M_o = 1, {len(levels):,} levels",
                   lambda: R.success_rate(rec, None, 1, levels, rng=2019))
        print("   level 1, 10, 100, 1000:", sr.set_index("level")["success"].loc[[1, 10, 100, 1000]].round(4).tolist())
        timed(f"category prediction, {m}, 100 levels",
              lambda: R.category_prediction(rec, None, np.arange(1, 101), rng=2019))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="stop at 2,000 users")
    args = ap.parse_args()
    sizes = [500, 2_000] if args.quick else [500, 2_000, 5_000, 13_141]
    pd.set_option("display.width", 200)
    rows = []
    for n_users in sizes:
        t = time.perf_counter()
        pop = simulate_ratings(n_users, 1_000, rng=2019)
        obs = R.rating_observations(pop.ratings, "5-star", categories=NETFLIX_CATEGORIES)
        prep = time.perf_counter() - t
        print(f"{n_users:,} users: simulated and reduced {len(obs):,} ratings in {prep:.1f} s", flush=True)
        for model, grid in ((R.first_order(), (900, 1_800)), (R.exhaustive(), (450, 900))):
            for n in grid:
                rows.append(measure(obs, model, n))
                print(pd.DataFrame([rows[-1]]).round(3).to_string(index=False, header=len(rows) == 1), flush=True)
        if n_users == sizes[-1]:
            chapter(pop, obs, n_users)
    print("\nsummary")
    print(pd.DataFrame(rows).round(3).to_string(index=False))
    print(f"max resident set size: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10:.0f} MiB")


if __name__ == "__main__":
    main()
