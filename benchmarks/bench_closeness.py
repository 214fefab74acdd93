"""Benchmarks of the t-closeness chapter (issue 3).

1. Closed-form EMD versus the linear program (HiGHS), as a time ratio, for domains of 10,
   100 and 1,000 values (ordered, equal and hierarchical ground distances; for 1,000 values
   only the ordered one: a single LP with 10^6 flow variables takes minutes and ~1 GB).
2. t-closeness of a table with 100,000 equivalence classes over a 1,000-value domain
   (``privlib.models.t_closeness``), time and peak memory.
3. The Adult lattice search of Figure 3 with both traversals (Incognito's bottom-up and
   the top-down one used in the chapter): time and nodes evaluated, QI size 3..7, k = l = 5.

Run from the repository root:  python benchmarks/bench_closeness.py  [--quick] [1 2 3]  (parts)
Prints plain tables; timings are wall-clock seconds on the machine that runs it.
"""
from __future__ import annotations

import sys
import time
import tracemalloc

import numpy as np
import pandas as pd

from privlib.closeness import emd, emd_equal, emd_hierarchical, emd_ordered
from privlib.data import adult_hierarchies, load_adult, load_hierarchy
from privlib.generalization import KAnonymityReq, LDiversityReq, TClosenessReq, encode, search
from privlib.hierarchy import Hierarchy
from privlib.models import t_closeness


def best_of(f, repeat):
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return best, out


def balanced_hierarchy(m: int, fanout: int = 10) -> Hierarchy:
    """A balanced tree over ``m`` leaves (``m`` a power of ``fanout``)."""
    leaves = [f"v{i}" for i in range(m)]
    rows, level = [[v] for v in leaves], 0
    width = m
    while width > 1:
        width //= fanout
        level += 1
        for i, r in enumerate(rows):
            r.append(f"L{level}_{i * width // m}" if width > 1 else "*")
    return Hierarchy.from_rows(rows, name=f"balanced{m}")


def bench_closed_vs_lp(sizes=(10, 100, 1000)):
    rng = np.random.default_rng(0)
    rows = []
    for m in sizes:
        p, q = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(m))
        idx = np.arange(m)
        h = balanced_hierarchy(m)
        grounds = {
            "ordered": (lambda: emd_ordered(p, q), np.abs(np.subtract.outer(idx, idx)) / (m - 1)),
            "equal": (lambda: emd_equal(p, q), 1.0 - np.eye(m)),
            "hierarchical": (lambda: emd_hierarchical(p, q, h), h.distance_matrix()),
        }
        for name, (closed, G) in grounds.items():
            if m > 100 and name != "ordered":
                continue  # one LP over 1,000 values takes minutes and ~1 GB; measured for the ordered ground only
            reps = 50 if m <= 100 else 5
            t_cf, d_cf = best_of(closed, reps)
            t_lp, d_lp = best_of(lambda: emd(p, q, G), 3 if m <= 100 else 1)
            rows.append({"m": m, "ground": name, "closed form (s)": t_cf, "LP (s)": t_lp,
                         "LP / closed": t_lp / t_cf, "|difference|": abs(d_cf - d_lp)})
    return pd.DataFrame(rows)


def bench_100k_classes(n_classes=100_000, m=1000, n=1_000_000):
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"c": np.concatenate([np.arange(n_classes), rng.integers(0, n_classes, n - n_classes)]),
                       "s": rng.integers(0, m, n)})
    h = balanced_hierarchy(m)
    df["leaf"] = np.asarray(h.leaves, dtype=object)[df["s"].to_numpy()]
    rows = []
    for distance in ("equal", "ordered", "hierarchical"):
        tracemalloc.start()
        t0 = time.perf_counter()
        if distance == "hierarchical":
            res = t_closeness(df, ["c"], "leaf", distance, h)
        else:
            res = t_closeness(df, ["c"], "s", distance)
        sec = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append({"records": n, "classes": len(res.per_class), "values": m, "distance": distance,
                     "seconds": sec, "peak MB (tracemalloc)": peak / 2**20, "t": res.t})
    return pd.DataFrame(rows)


def bench_adult_search(qi_sizes=range(3, 8)):
    adult = load_adult("train")
    qi7 = ["age", "workclass", "education", "native_country", "marital_status", "race", "sex"]
    occ = load_hierarchy("occupation")
    hs = adult_hierarchies(qi7)
    reqs = {
        "k-anonymity": [KAnonymityReq(5)],
        "distinct l-diversity": [LDiversityReq("occupation", 5, "distinct")],
        "entropy l-diversity": [LDiversityReq("occupation", 5, "entropy")],
        "recursive (4,l)-diversity": [LDiversityReq("occupation", 5, "recursive", c=4)],
        "k-anonymity + t-closeness": [KAnonymityReq(5), TClosenessReq("occupation", 0.15, "hierarchical", occ),
                                      TClosenessReq("income", 0.15, "ordered")],
    }
    rows = []
    for d in qi_sizes:
        enc = encode(adult, qi7[:d], hs, ["occupation", "income"], {"occupation": occ.leaves, "income": ["<=50K", ">50K"]})
        for name, r in reqs.items():
            for direction in ("bottom-up", "top-down"):
                sec, res = best_of(lambda: search(enc, r, direction=direction), 1)
                rows.append({"QI size": d, "requirement": name, "direction": direction, "seconds": sec,
                             "evaluated": res.n_evaluated, "nodes": res.n_nodes, "best": res.best})
    return pd.DataFrame(rows)


def main(quick=False, parts=(1, 2, 3)):
    pd.set_option("display.width", 160)
    pd.set_option("display.max_columns", 20)
    if 1 in parts:
        print("1. Closed-form EMD vs linear program (best-of timings)")
        print(bench_closed_vs_lp((10, 100) if quick else (10, 100, 1000)).to_string(
            index=False, float_format=lambda x: f"{x:.3g}"))
    if 2 in parts:
        print("\n2. t-closeness of a table with 100,000 classes over 1,000 values")
        print(bench_100k_classes().to_string(index=False, float_format=lambda x: f"{x:.3g}"))
    if 3 in parts:
        print("\n3. Adult lattice search, k = l = 5, t = 0.15 (both traversals)")
        res = bench_adult_search(range(3, 6) if quick else range(3, 8))
        print(res.pivot_table(index=["requirement"], columns=["direction", "QI size"], values="seconds").round(3)
              .to_string())
        print()
        print(res.pivot_table(index=["requirement"], columns=["direction", "QI size"], values="evaluated")
              .astype(int).to_string())
    import resource
    print(f"\nprocess peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    # python benchmarks/bench_closeness.py [--quick] [--part N ...]
    args = sys.argv[1:]
    parts = tuple(int(a) for a in args if a.isdigit()) or (1, 2, 3)
    main(quick="--quick" in args, parts=parts)
