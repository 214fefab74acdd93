"""Benchmark of one DiffGen release of Figure 3 and its CA: CPU milliseconds per release over
the chapter's grid (eps 0.1, 0.25, 0.5, 1; h 4 to 16; Max and InfoGain), on one process.

Run from the repository root (``PYTHONPATH`` chooses the privlib measured, e.g. a checkout of
an older commit for the "before" row):

    python benchmarks/bench_diffgen_release.py --label after            # 2 runs per point, about 10 s
    python benchmarks/bench_diffgen_release.py --label after --runs 5

One :func:`privlib.experiments.diffgen.sweep` of the whole grid with ``runs`` runs per point
(``n_jobs=1``, one seed) after a warm-up; CPU time by ``time.process_time`` (other processes'
load does not count, though a loaded machine still slows the caches).  Appends to
``benchmarks/results/bench_diffgen_release.csv``: the label, the releases, CPU ms per release
(total; the release alone, the sweep's ``seconds``; the rest: the CA's tree, encoding the test
records, bookkeeping), Figure 3's estimated CPU seconds (10,400 releases: 10 runs x 10 seeds of
every point), the load average, and the SHA-256 of the sweep's rows without the timings (equal
hashes: the same output).
"""
from __future__ import annotations

import argparse
import hashlib
import os
import time

from privlib.data import load_adult
from privlib.experiments import diffgen as xdg

SEED = 2011
TARGET = "income"
TREE = {"min_weight_fraction_leaf": 0.003}   # the chapter's cross-validated leaf weight
EPS = [0.1, 0.25, 0.5, 1.0]
H = list(range(4, 17))
FIGURE3_RELEASES = len(EPS) * len(H) * 2 * 10 * 10
HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="run")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    train, test = load_adult(split="train"), load_adult(split="test")
    pred = xdg.ADULT_PREDICTORS
    tax = xdg.adult_taxonomies(pred, domains=xdg.ADULT_DOMAINS)
    kw = dict(classes=xdg.ADULT_CLASSES, tree_params=TREE, n_jobs=1)
    xdg.sweep(train, test, pred, TARGET, tax, eps_values=[1.0], h_values=[4], runs=1, rng=0, **kw)   # warm-up
    load = os.getloadavg()[0]
    t0 = time.process_time()
    out = xdg.sweep(train, test, pred, TARGET, tax, eps_values=EPS, h_values=H, utilities=("max", "infogain"),
                    runs=args.runs, rng=SEED, **kw)
    total = time.process_time() - t0
    n = len(out)
    release = float(out["seconds"].sum())
    digest = hashlib.sha256(out.drop(columns="seconds").to_csv(index=False).encode()).hexdigest()[:16]
    per = 1000 * total / n
    row = (f"{args.label},{n},{per:.2f},{1000 * release / n:.2f},{1000 * (total - release) / n:.2f},"
           f"{per * FIGURE3_RELEASES / 1000:.0f},{load:.1f},{digest}")
    path = os.path.join(HERE, "results", "bench_diffgen_release.csv")
    new = not os.path.exists(path)
    with open(path, "a") as f:
        if new:
            f.write("label,releases,cpu_ms_per_release,release_ms,ca_and_rest_ms,figure3_cpu_s_estimate,"
                    "load_average,output_sha256\n")
        f.write(row + "\n")
    print(f"{args.label}: {n} releases, {per:.2f} CPU ms per release (release {1000 * release / n:.2f}, "
          f"CA and rest {1000 * (total - release) / n:.2f}); Figure 3 about {per * FIGURE3_RELEASES / 1000:.0f} "
          f"CPU s; load {load:.1f}; output {digest}")


if __name__ == "__main__":
    main()
