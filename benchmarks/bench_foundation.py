"""Foundation benchmarks: data loaders (with md5 checks) and the DP primitives.

    python benchmarks/bench_foundation.py
"""
import time
import tracemalloc

import numpy as np

from privlib import data, mechanisms


def timed(label, fn, repeat=3):
    best = float("inf")
    for _ in range(repeat):  # time without tracemalloc (it slows allocation-heavy code)
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"{label:<55s} {best * 1000:9.1f} ms   peak {peak / 2**20:7.1f} MiB")


def cold_adult():
    data.clear_cache()
    data.load_adult()


def cold_hierarchies():
    data.clear_cache()
    data.adult_hierarchies()


if __name__ == "__main__":
    timed("load_adult(split='all') cold (md5 + parse, 48,842 rows)", cold_adult)
    timed("load_adult(split='all') cached", data.load_adult)
    timed("load_census() (md5 + parse, 100,000 rows)", data.load_census)
    timed("load_movielens() (md5 + unpickle, 100,004 rows)", data.load_movielens)
    timed("adult_hierarchies() cold (15 files, 29,127 leaves)", cold_hierarchies)
    u = np.random.default_rng(0).normal(size=1_000_000) * 1e3
    timed("exponential mechanism, 10^6 candidates", lambda: mechanisms.exponential(u, eps=1.0, rng=1))
    # the cost of exact noise: 10^6 draws of each sampler against numpy's float Laplace
    zeros, izeros = np.zeros(1_000_000), np.zeros(1_000_000, dtype=np.int64)
    timed("numpy Generator.laplace, 10^6 draws (float, not DP)",
          lambda: np.random.default_rng(1).laplace(0.0, 1.0, size=1_000_000))
    timed("textbook_laplace, 10^6 draws (float, not DP)",
          lambda: mechanisms.textbook_laplace(zeros, eps=1.0, rng=1))
    for eps in (0.1, 1.0):
        timed(f"discrete_laplace, 10^6 draws, eps={eps}",
              lambda eps=eps: mechanisms.discrete_laplace(izeros, eps=eps, rng=1))
    timed("Laplace mechanism (grid + exact noise), 10^6 values",
          lambda: mechanisms.laplace(zeros, eps=1.0, rng=1))
    timed("snapping mechanism, 10^6 values, bound 2**20",
          lambda: mechanisms.snapping(zeros, eps=1.0, bound=2.0 ** 20, rng=1))
    timed("geometric mechanism, 10^6 values", lambda: mechanisms.geometric(izeros, eps=1.0, rng=1))
    age = data.load_hierarchy("age")
    values = data.load_adult()["age"]
    timed("Hierarchy.generalize, 45,222 ages", lambda: age.generalize(values, 2))
