"""Benchmark of the empirical-privacy chapter: Mondrian, the DP kd-tree, the naive-Bayes
attack and the range workload, on Adult and on synthetic Adult-like data of 10^4 .. 10^6 records.

Synthetic records draw every column independently from Adult's marginals (the QIs' codes and
the occupation), so the trees are about as deep as on Adult but the attack has nothing to learn.

Run:  python benchmarks/bench_partition.py [--max-n 1000000]
Prints one row per (data, step): wall time (best of `--repeat`) and the peak memory traced by
tracemalloc during one extra run.
"""
from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np
import pandas as pd

from privlib import metrics
from privlib.experiments import empirical_privacy as ep
from privlib.attacks import naive_bayes
from privlib.mechanisms import exponential, exponential_rows
from privlib.partition import dp_kdtree, mondrian


def synthetic(setup, n, rng):
    gen = np.random.default_rng(rng)
    cols = {}
    for c in list(setup.qi) + [setup.sa]:
        vals, counts = np.unique(setup.df[c].to_numpy(), return_counts=True)
        cols[c] = gen.choice(vals, size=n, p=counts / counts.sum())
    return ep.Setup(f"synthetic {n:,}", pd.DataFrame(cols), setup.qi, setup.sa, setup.domain,
                         setup.orders, setup.distance, setup.sa_values)


def measure(fn, repeat):
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return out, best, peak / 2**20


def bench(setup, repeat):
    qi, sa, dom, sav = list(setup.qi), setup.sa, setup.domain, setup.sa_values
    rows = []
    dec, t, m = measure(lambda: mondrian(setup.df, qi, sa, k=8, domain=dom), repeat)
    rows.append(("Mondrian k = 8", t, m, f"{dec.n_leaves:,} leaves, height {dec.height}"))
    dp, t, m = measure(lambda: dp_kdtree(setup.df, qi, sa, eps=1.0, height=10, rng=0, domain=dom, sa_values=sav), repeat)
    rows.append(("DP kd-tree eps = 1, h = 10", t, m, f"{dp.n_leaves:,} leaves"))
    pred, t, m = measure(lambda: naive_bayes(dec, setup.df), repeat)
    rows.append(("attack every record (Mondrian)", t, m, f"accuracy {pred.accuracy:.3f}"))
    wl, t, m = measure(lambda: metrics.range_workload(setup.df, qi, n=2000, rng=0, domain=dom), repeat)
    rows.append(("draw 2,000 queries (true answers)", t, m, f"median selectivity {np.median(wl.selectivity):.3f}"))
    a, t, m = measure(lambda: metrics.median_relative_error(dec, wl), repeat)
    rows.append(("answer 2,000 queries (Mondrian)", t, m, f"alpha {a:.3f}"))
    a, t, m = measure(lambda: metrics.median_relative_error(dp, wl), repeat)
    rows.append(("answer 2,000 queries (DP)", t, m, f"alpha {a:.3f}"))
    a, t, m = measure(lambda: metrics.median_relative_error(dp, wl, clip_negative=True, match_total=True), repeat)
    rows.append(("answer 2,000 queries (DP, clipped + total)", t, m, f"alpha {a:.3f}"))
    q, t, m = measure(lambda: ep.query_readings(setup.df, qi, n=2000, rng=0, reading="half_inclusive", domain=dom),
                      repeat)
    rows.append(("draw 2,000 queries, off-by-one reading", t, m, f"median selectivity {np.median(q.selectivity):.3f}"))
    q, t, m = measure(lambda: ep.query_readings(setup.df, qi, n=2000, rng=0, domain=dom, subsets=["workclass"]),
                      repeat)
    rows.append(("draw 2,000 queries, workclass as subsets", t, m, f"median selectivity {np.median(q.selectivity):.3f}"))
    return [(setup.name, setup.n, *r) for r in rows]


def bench_exponential(repeat, rows=1000, candidates=100):
    """exponential_rows (one Gumbel-max call) against a loop of exponential (one call per row)."""
    u = -np.abs(np.random.default_rng(0).normal(size=(rows, candidates)) * 50)
    out = []
    _, t, m = measure(lambda: exponential_rows(u, eps=0.1, sensitivity=1.0, rng=0), repeat)
    out.append((f"{rows:,} x {candidates}", rows, "exponential_rows (batched)", t, m, ""))
    gen = np.random.default_rng(0)
    _, t, m = measure(lambda: [exponential(r, eps=0.1, sensitivity=1.0, rng=gen) for r in u], repeat)
    out.append((f"{rows:,} x {candidates}", rows, "exponential, one call per row", t, m, ""))
    return out


def bench_wide(repeat):
    """The DP kd-tree on a wide domain: memory grows with records and nodes, not with the width."""
    gen = np.random.default_rng(0)
    df = pd.DataFrame({"x": gen.integers(0, 10 ** 6, 100), "s": gen.choice(["a", "b"], 100)})
    dp, t, m = measure(lambda: dp_kdtree(df, ["x"], "s", eps=1.0, height=12, rng=0, domain={"x": (0, 10 ** 6 - 1)},
                                         sa_values=["a", "b"]), repeat)
    return [("100 records, domain 10^6", 100, "DP kd-tree eps = 1, h = 12", t, m, f"{dp.n_leaves:,} leaves")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-n", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    adult = ep.adult_setup()
    rows = bench_exponential(args.repeat) + bench_wide(args.repeat) + bench(adult, args.repeat)
    n = 10_000
    while n <= args.max_n:
        rows += bench(synthetic(adult, n, 1), 1 if n >= 1_000_000 else args.repeat)
        n *= 10
    frame = pd.DataFrame(rows, columns=["data", "records", "step", "seconds", "peak MiB", "result"])
    pd.set_option("display.width", 200)
    print(frame.to_string(index=False, formatters={"seconds": "{:.3f}".format, "peak MiB": "{:.1f}".format}))


if __name__ == "__main__":
    main()
