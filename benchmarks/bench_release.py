"""Benchmark of privlib.release on Adult (the chapter-2 setup): the conversions to the common
release type, the anonymized table and the information loss; and the Adult figures they give
(NCP on box and on tight ranges, DM, C_avg of Mondrian k = 10).

Run:  python benchmarks/bench_release.py [--repeat 3]
Prints one row per step: wall time (best of `--repeat`), the peak memory traced by tracemalloc
during one extra run, and what the step produced.
"""
from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np
import pandas as pd

from privlib import data, metrics
from privlib.attacks import naive_bayes
from privlib.experiments import empirical_privacy as ep
from privlib.mechanisms import laplace
from privlib.partition import dp_kdtree, mondrian
from privlib.release import (anonymized_table, from_boxes, from_generalization, from_histogram, from_microdata,
                             information_loss)

CATEGORICAL = ("workclass", "education", "sex", "income")


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


def bench(s, repeat):
    qi, sa, sav = list(s.qi), s.sa, s.sa_values
    dlo = [s.domain[c][0] for c in qi]
    dhi = [s.domain[c][1] for c in qi]
    pub = dict(qi=qi, sa=sa, sa_values=sav, domain_lower=dlo, domain_upper=dhi)
    dec = mondrian(s.df, qi, sa, k=10, domain=s.domain, sa_values=sav)
    dp = dp_kdtree(s.df, qi, sa, eps=1.0, height=10, rng=0, domain=s.domain, sa_values=sav)
    wl = metrics.range_workload(s.df, qi, n=2000, rng=0, domain=s.domain)
    rows = []

    def add(step, fn, describe):
        out, t, m = measure(fn, repeat)
        rows.append((step, t, m, describe(out)))
        return out

    add("from_boxes (Mondrian k = 10)", lambda: from_boxes(dec.lower, dec.upper, dec.histograms, **pub),
        lambda r: f"{r.n_leaves:,} leaves, height {r.height} (native {dec.height})")
    add("from_boxes (DP kd-tree eps = 1, h = 10)", lambda: from_boxes(dp.lower, dp.upper, dp.histograms, **pub),
        lambda r: f"{r.n_leaves:,} leaves, height {r.height} (native {dp.height})")
    micro = add("from_microdata (the original records)", lambda: from_microdata(s.df, **pub),
                lambda r: f"{int((r.counts > 0).sum()):,} cells + {int((r.counts == 0).sum()):,} empty boxes")
    axes = [np.arange(a, b + 1) for a, b in zip(dlo, dhi)]
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, len(qi))
    noisy = laplace(np.zeros((len(grid), len(sav))), eps=1.0, rng=0)
    add("from_histogram (noisy, every cell)", lambda: from_histogram(grid, noisy, **pub),
        lambda r: f"{r.n_leaves:,} unit boxes")
    hs = {a: data.load_hierarchy(a) for a in qi}
    gen = add("from_generalization (levels 1,1,0,2,0)",
              lambda: from_generalization(s.df, (1, 1, 0, 2, 0), qi=qi, sa=sa, sa_values=sav, hierarchies=hs,
                                          orders=s.orders),
              lambda r: f"{r.params['n_classes']:,} classes + {r.n_leaves - r.params['n_classes']:,} empty boxes")
    add("anonymized_table (Mondrian, tight)", lambda: anonymized_table(s.df, dec),
        lambda t: f"{t['eq_class'].nunique():,} classes, {len(t):,} rows")
    add("anonymized_table (Mondrian, box)", lambda: anonymized_table(s.df, dec, ranges="box"),
        lambda t: f"{t['eq_class'].nunique():,} classes")
    add("information_loss (Mondrian k = 10)", lambda: information_loss(s.df, dec),
        lambda L: f"NCP box {L.ncp_box:.2%}, tight {L.ncp_tight:.2%}, DM {L.dm:,.0f}, C_avg {L.c_avg:.2f}")
    add("information_loss (categorical count form)", lambda: information_loss(s.df, dec, categorical=CATEGORICAL),
        lambda L: f"NCP box {L.ncp_box:.2%}, tight {L.ncp_tight:.2%}")
    add("information_loss (generalization, k = 10)",
        lambda: information_loss(s.df, gen, k=10, categorical=CATEGORICAL, ranges="box"),
        lambda L: f"NCP box {L.ncp_box:.2%}, tight {L.ncp_tight:.2%}, DM {L.dm:,.0f}, C_avg {L.c_avg:.2f}")
    for name, rel in (("microdata", micro), ("generalization", gen)):
        add(f"attack + workload ({name})",
            lambda rel=rel: (metrics.privacy_breach(naive_bayes(rel, s.df)).beta,
                             metrics.median_relative_error(rel, wl)),
            lambda r: f"beta {r[0]:.3f}, alpha {r[1]:.3f}")
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    frame = pd.DataFrame(bench(ep.adult_setup(), args.repeat), columns=["step", "seconds", "peak MiB", "result"])
    pd.set_option("display.width", 200)
    pd.set_option("display.max_colwidth", 100)
    print(frame.to_string(index=False, formatters={"seconds": "{:.3f}".format, "peak MiB": "{:.1f}".format}))


if __name__ == "__main__":
    main()
