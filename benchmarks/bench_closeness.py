"""Benchmarks of the t-closeness chapter (issue 3).

1. Closed-form EMD versus the general-ground EMD (``privlib.closeness.emd``, POT's network
   simplex), as a time ratio, for domains of 10, 100 and 1,000 values (ordered, equal and
   hierarchical ground distances).
2. t-closeness of a table with 100,000 equivalence classes over a 1,000-value domain
   (``privlib.models.t_closeness``), time and peak memory.
3. The Adult lattice search of Figure 3 with both traversals (Incognito's bottom-up and
   the top-down one used in the chapter): time and nodes evaluated, QI size 3..7, k = l = 5.
4. The general-ground EMD (``privlib.closeness.emd``): POT's exact network simplex (the
   default, ``method="network_simplex"``) against the former HiGHS linear program
   (``method="highs"``), m = 50, 200, 1,000: time and |difference| (random metric ground
   distance, and the ordered ground where the closed form gives the exact value).

Run from the repository root:  python benchmarks/bench_closeness.py  [--quick] [1 2 3 4]  (parts)
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
from privlib.generalization import encode_lattice, search
from privlib.hierarchy import Hierarchy
from privlib.models import t_closeness
from privlib.requirements import KAnonymity, LDiversity, TCloseness


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
            reps = 50 if m <= 100 else 5
            t_cf, d_cf = best_of(closed, reps)
            t_lp, d_lp = best_of(lambda: emd(p, q, G), 3 if m <= 100 else 1)
            rows.append({"m": m, "ground": name, "closed form (s)": t_cf, "general EMD (s)": t_lp,
                         "general / closed": t_lp / t_cf, "|difference|": abs(d_cf - d_lp)})
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
            res = t_closeness(df, ["c"], "leaf", distance=distance, hierarchy=h)
        else:
            res = t_closeness(df, ["c"], "s", distance=distance)
        sec = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append({"records": n, "classes": len(res.per_class), "values": m, "distance": distance,
                     "seconds": sec, "peak MB (tracemalloc)": peak / 2**20, "t": res.t})
    return pd.DataFrame(rows)


def bench_adult_search(qi_sizes=range(3, 8)):
    adult = load_adult(split="train")
    qi7 = ["age", "workclass", "education", "native_country", "marital_status", "race", "sex"]
    occ = load_hierarchy("occupation")
    hs = adult_hierarchies(qi7)
    reqs = {
        "k-anonymity": [KAnonymity(5)],
        "distinct l-diversity": [LDiversity(5, kind="distinct", sa="occupation")],
        "entropy l-diversity": [LDiversity(5, kind="entropy", sa="occupation")],
        "recursive (4,l)-diversity": [LDiversity(5, kind="recursive", c=4, sa="occupation")],
        "k-anonymity + t-closeness": [KAnonymity(5),
                                      TCloseness(0.15, distance="hierarchical", hierarchy=occ, sa="occupation"),
                                      TCloseness(0.15, distance="ordered", sa="income")],
    }
    rows = []
    for d in qi_sizes:
        enc = encode_lattice(adult, qi7[:d], hs, sensitive=["occupation", "income"],
                             sa_domains={"occupation": occ.leaves, "income": ["<=50K", ">50K"]})
        for name, r in reqs.items():
            for direction in ("bottom-up", "top-down"):
                sec, res = best_of(lambda: search(enc, r, direction=direction), 1)
                rows.append({"QI size": d, "requirement": name, "direction": direction, "seconds": sec,
                             "evaluated": res.n_evaluated, "nodes": res.n_nodes, "best": res.best})
    return pd.DataFrame(rows)


def bench_pot_vs_highs(sizes=(50, 200, 1000)):
    """POT's network simplex against the HiGHS LP on the same instances (issue 13, item 9)."""
    rng = np.random.default_rng(13)
    rows = []
    for m in sizes:
        p, q = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(m))
        X = rng.normal(size=(m, 2))
        idx = np.arange(m)
        grounds = {"random metric": np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)),
                   "ordered": np.abs(np.subtract.outer(idx, idx)) / (m - 1)}
        for name, G in grounds.items():
            t_pot, d_pot = best_of(lambda: emd(p, q, G), 5 if m <= 200 else 3)
            t_lp, d_lp = best_of(lambda: emd(p, q, G, method="highs"), 3 if m <= 200 else 1)
            row = {"m": m, "ground": name, "POT (s)": t_pot, "HiGHS (s)": t_lp, "HiGHS / POT": t_lp / t_pot,
                   "|POT - HiGHS|": abs(d_pot - d_lp)}
            if name == "ordered":
                exact = emd_ordered(p, q)
                row["|POT - closed form|"] = abs(d_pot - exact)
                row["|HiGHS - closed form|"] = abs(d_lp - exact)
            rows.append(row)
    return pd.DataFrame(rows)


def main(quick=False, parts=(1, 2, 3, 4)):
    pd.set_option("display.width", 160)
    pd.set_option("display.max_columns", 20)
    if 1 in parts:
        print("1. Closed-form EMD vs the general-ground EMD (POT network simplex; best-of timings)")
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
    if 4 in parts:
        print("\n4. General-ground EMD: POT network simplex vs HiGHS linear program (best-of timings)")
        print(bench_pot_vs_highs((50, 200) if quick else (50, 200, 1000)).to_string(
            index=False, float_format=lambda x: f"{x:.3g}"))
    import resource
    print(f"\nprocess peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    # python benchmarks/bench_closeness.py [--quick] [--part N ...]
    args = sys.argv[1:]
    parts = tuple(int(a) for a in args if a.isdigit()) or (1, 2, 3, 4)
    main(quick="--quick" in args, parts=parts)
