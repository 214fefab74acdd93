"""Benchmark: OnTheMap-style synthesis of a simulated state with >= 100,000 workplaces.

Run:  python benchmarks/bench_synth.py [n_workplaces]

Prints one row per stage (simulate, build_domains, synthesize, analytical_validity) with the
wall time and the peak traced memory of the stage (tracemalloc, which sees numpy's
allocations), plus the process's maximum resident set size at the end.
"""
from __future__ import annotations

import resource
import sys
import time
import tracemalloc

import numpy as np
import pandas as pd

from privlib import synth
from privlib.simulate import simulate_commuting, simulate_geography


def stage(name, fn, rows):
    tracemalloc.reset_peak()
    t0 = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    rows.append({"stage": name, "seconds": round(dt, 2), "peak traced MiB": round(peak / 2**20, 1)})
    return out


def main(n_workplaces: int = 100_000) -> pd.DataFrame:
    rows = []
    tracemalloc.start()
    geo = stage("simulate geography", lambda: simulate_geography(n_spumas=200, pumas_per_spuma=4, tracts_per_puma=10,
                                                                 blocks_per_tract=20, rng=1), rows)
    data = stage("simulate commuting", lambda: simulate_commuting(geo, n_workplaces=n_workplaces, decay=10.0,
                                                                  far_weight=3e-4, rng=2), rows)
    settings = synth.OTMSettings()
    dom = stage("build_domains", lambda: synth.build_domains(data, settings=settings, rng=3), rows)
    syn = stage("synthesize", lambda: synth.synthesize(data, dom, settings=settings, rng=4), rows)
    val = stage("analytical_validity", lambda: synth.analytical_validity(syn), rows)
    tracemalloc.stop()
    table = pd.DataFrame(rows)
    print(f"workplaces {len(data.workplaces):,}; jobs {len(data.jobs):,}; blocks {len(geo.blocks):,}; "
          f"tracts {geo.n_tracts:,}; work tracts {dom.work_tracts.size:,}; domain points {dom.code.size:,} "
          f"(mean {dom.sizes.mean():.1f} per work tract)")
    print(f"synthetic residences {int(syn.synthetic.sum()):,}; mean retained points per workplace {syn.retained.mean():.1f}; "
          f"adjusted eps {syn.adjusted_eps:.3f}")
    print(table.to_string(index=False))
    print(f"total {table['seconds'].sum():.1f} s; max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    print(val.round(4).to_string())
    return table


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
