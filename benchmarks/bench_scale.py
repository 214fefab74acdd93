"""Census scale: Mondrian, the DP kd-tree and DiffGen on 10^5 .. 10^7 synthetic Adult-like records.

Every size and algorithm runs in a separate process (``python benchmarks/bench_scale.py --one
ALGO N``), so each peak memory is that process's own during the call (``VmHWM``, reset once the
data is built: the interpreter, the data and the algorithm's working memory).  The synthetic tables draw every column independently from Adult's marginal
(seeded): the empirical-privacy set-up's QIs and occupation for Mondrian and the kd-tree
(``privlib.experiments.empirical_privacy.adult_setup``), DiffGen's 14 predictors and income for
DiffGen (Adult ``all``, the taxonomies of ``privlib.experiments.diffgen``).  The
high-cardinality cases (``mondrian_hc``, ``kdtree_hc``: ``--algos mondrian_hc,kdtree_hc``) add
fnlwgt to eight Adult QIs, so that almost every record is its own cell (SA income);
``mondrian_codes`` runs Mondrian on the eight QIs alone stored as one-byte codes, the form in
which 10^8 records fit in memory (``--algos mondrian_codes --sizes 100000000``, about 1 GB of
input).  ``mondrian_dask_hc`` runs :func:`privlib.scale.dask_mondrian` on the high-cardinality
table held by a 2-worker ``LocalCluster`` (20 partitions, persisted on the workers before the
clock starts) with a cell limit of a quarter of the records: the top levels of the tree are grown
on the cluster, the subtrees in the client; its CPU time adds the workers' (``psutil``), its peak
is the client's (``worker_peak_gb``: the two workers' peaks summed); ``leaves`` equals
``mondrian_hc``'s at the same size (the same tree).  ``mondrian_dask_parquet`` writes the
``mondrian_codes`` table to Parquet files (:data:`PARQUET_ROWS` records each, in a temporary
directory, before the clock starts) and runs :func:`privlib.scale.dask_mondrian` (default cell
limit) on ``dd.read_parquet`` of them on a 2-worker ``LocalCluster``: the workers read the
files inside the call; ``leaves`` equals ``mondrian_codes``'s at the same size.

Run from the repository root:

    python benchmarks/bench_scale.py                 # 10^5 and 10^6 (about a minute)
    python benchmarks/bench_scale.py --census        # + 10^7 (several minutes, about 3 GB)
    python benchmarks/bench_scale.py --census --save benchmarks/results/bench_scale.csv
    python benchmarks/bench_scale.py --algos mondrian_hc,kdtree_hc --census --save benchmarks/results/bench_scale.csv
    python benchmarks/bench_scale.py --algos mondrian_codes --sizes 100000000 --save benchmarks/results/bench_scale.csv
    python benchmarks/bench_scale.py --algos mondrian_dask_hc --sizes 10000000 --save benchmarks/results/bench_scale.csv
    python benchmarks/bench_scale.py --algos mondrian_dask_parquet --sizes 100000000 --save benchmarks/results/bench_scale.csv

Prints, per algorithm and size: wall time of the call (``time.perf_counter``, from the
DataFrame to the release), its CPU time (``time.process_time``: what a shared, loaded machine
inflates least; NaN in rows measured before it was recorded), the process's peak resident memory, the input table's size
(``DataFrame.memory_usage(deep=True)``), the peak over the input, the growth of the time per
10x records, and the machine's load average when the run started (timings taken on a loaded
machine are inflated).  ``--save`` writes the same table as CSV with the machine's description,
for the book to read.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import time

import numpy as np
import pandas as pd

ALGOS = ("mondrian", "kdtree", "diffgen", "mondrian_hc", "kdtree_hc", "mondrian_codes", "mondrian_dask_hc",
         "mondrian_dask_parquet")
LABEL = {"mondrian": "Mondrian k = 10", "kdtree": "DP kd-tree eps = 1, height 10", "diffgen": "DiffGen eps = 1, h = 10",
         "mondrian_hc": "Mondrian k = 10, 9 QIs with fnlwgt",
         "kdtree_hc": "DP kd-tree eps = 1, height 10, 9 QIs with fnlwgt",
         "mondrian_codes": "Mondrian k = 10, 8 QIs as one-byte codes",
         "mondrian_dask_hc": "dask_mondrian k = 10, 9 QIs with fnlwgt, top levels on 2 workers",
         "mondrian_dask_parquet": "dask_mondrian k = 10, 8 QIs as one-byte codes, from Parquet on 2 workers"}
#: records per Parquet file of ``mondrian_dask_parquet``
PARQUET_ROWS = 5_000_000
#: the cell limit of ``mondrian_dask_hc``: a quarter of the records (10^7 records: 2.5 M of the 9.9 M
#: distinct cells fit at once), so that the top levels of the tree are grown on the cluster
DASK_MAX_CELLS = 4
#: the high-cardinality case: eight Adult QIs and fnlwgt (almost every record its own cell), SA income
HC_QI = ("age", "workclass", "education", "marital_status", "occupation", "relationship", "race", "sex", "fnlwgt")
HC_SA = "income"
SEED = 2024


def synthetic(df, columns, n, seed):
    """``n`` records, each column drawn independently from its marginal in ``df`` (seeded)."""
    gen = np.random.default_rng(seed)
    out = {}
    for c in columns:
        vals, counts = np.unique(df[c].to_numpy(), return_counts=True)   # sorted values: same on every machine
        out[c] = vals[gen.choice(vals.size, size=n, p=counts / counts.sum())]
    return pd.DataFrame(out)


def _draw(gen, p, n, chunk=10 ** 7):
    """``gen.choice(p.size, size=n, p=p)`` drawn in chunks of ``chunk`` (the same uniforms in
    the same order, the same inverse-CDF lookup: the same indices), each index in the smallest
    unsigned dtype holding ``p.size``: no n-sized float or int64 array."""
    cdf = np.asarray(p, dtype=float).cumsum()
    cdf /= cdf[-1]
    dt = next(t for t in (np.uint8, np.uint16, np.uint32, np.int64) if p.size <= np.iinfo(t).max + 1)
    out = np.empty(n, dtype=dt)
    for a in range(0, n, chunk):
        b = min(n, a + chunk)
        out[a:b] = cdf.searchsorted(gen.random(b - a), side="right")
    return out


def high_cardinality(n, seed, *, drop=(), downcast=False):
    """``n`` records over :data:`HC_QI` and :data:`HC_SA`, each column drawn from Adult's marginal
    (seeded); text columns as integer codes of their sorted values (int64, like Adult's numbers).
    Columns in ``drop`` are drawn (the next columns' draws stay the same) but not kept; with
    ``downcast`` every column is stored in the smallest unsigned dtype holding it (as
    ``pd.to_numeric(downcast="unsigned")``)."""
    from privlib.data import load_adult
    adult = load_adult(split="all")
    gen = np.random.default_rng(seed)
    out = {}
    for c in list(HC_QI) + [HC_SA]:
        vals, counts = np.unique(adult[c].to_numpy(), return_counts=True)   # sorted values: same on every machine
        idx = _draw(gen, counts / counts.sum(), n)
        if c in drop:
            continue
        if pd.api.types.is_numeric_dtype(adult[c]):
            top = vals[int(idx.max())] if n else 0
            kind = np.int64
            if downcast and vals.min() >= 0:
                kind = next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64) if top <= np.iinfo(t).max)
            out[c] = vals.astype(kind)[idx]
        else:     # the code of vals[i] among the sorted values drawn: the rank of i among the indices drawn
            present = np.bincount(idx, minlength=vals.size) > 0
            lut = np.cumsum(present) - 1
            if downcast:
                lut = lut.astype(next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64)
                                      if int(lut.max()) <= np.iinfo(t).max))
            out[c] = lut[idx]
        del idx
    return pd.DataFrame(out)


def codes(n, seed):
    """The high-cardinality table without fnlwgt (eight Adult QIs and income), every column as the
    smallest unsigned integer dtype holding it: the in-memory form of 10^8 records (built column
    by column, about 1 GB at 10^8 records)."""
    return high_cardinality(n, seed, drop=("fnlwgt",), downcast=True)


def _status_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def _reset_peak():
    """Free what the data generation left behind and restart the peak-RSS counter (Linux:
    ``/proc/self/clear_refs``), so that the peak is the call's: the data, the interpreter and the
    algorithm's working memory.  False where that is not possible (the peak then includes the
    generation)."""
    import ctypes
    import gc
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        _status_kb("VmHWM")
        return True
    except (OSError, KeyError):
        return False


def run_one(algo, n):
    """One measurement in this process: returns a dict (printed as JSON by ``--one``)."""
    if algo in ("mondrian", "kdtree"):
        from privlib.experiments import empirical_privacy as ep
        setup = ep.adult_setup()
        qi, sa = list(setup.qi), setup.sa
        df = synthetic(setup.df, qi + [sa], n, SEED)
        if algo == "mondrian":
            from privlib.partition import mondrian
            call = lambda: mondrian(df, qi, sa, k=10, domain=setup.domain)          # noqa: E731
        else:
            from privlib.partition import dp_kdtree
            call = lambda: dp_kdtree(df, qi, sa, eps=1.0, height=10, rng=SEED,     # noqa: E731
                                     domain=setup.domain, sa_values=setup.sa_values)
    elif algo == "mondrian_codes":
        df = codes(n, SEED)
        qi = [c for c in HC_QI if c != "fnlwgt"]
        from privlib.partition import mondrian
        call = lambda: mondrian(df, qi, HC_SA, k=10)                                     # noqa: E731
    elif algo in ("mondrian_hc", "kdtree_hc"):
        df = high_cardinality(n, SEED)
        qi = list(HC_QI)
        if algo == "mondrian_hc":
            from privlib.partition import mondrian
            call = lambda: mondrian(df, qi, HC_SA, k=10)                                 # noqa: E731
        else:
            from privlib.partition import dp_kdtree
            domain = {c: (int(df[c].min()), int(df[c].max())) for c in qi}   # a benchmark: no privacy claim
            call = lambda: dp_kdtree(df, qi, HC_SA, eps=1.0, height=10, rng=SEED,          # noqa: E731
                                     domain=domain, sa_values=sorted(df[HC_SA].unique()))
    elif algo == "mondrian_dask_hc":
        return _run_dask(n)
    elif algo == "mondrian_dask_parquet":
        return _run_dask(n, parquet=True)
    else:
        from privlib import diffgen as dg
        from privlib.data import load_adult
        from privlib.experiments import diffgen as xdg
        adult = load_adult(split="all")
        tax = xdg.adult_taxonomies(domains=xdg.ADULT_DOMAINS)
        df = synthetic(adult, list(xdg.ADULT_PREDICTORS) + ["income"], n, SEED)
        del adult
        call = lambda: dg.diffgen(df, xdg.ADULT_PREDICTORS, "income", tax, eps=1.0, h=10,  # noqa: E731
                                  classes=xdg.ADULT_CLASSES, rng=SEED)
    input_bytes = int(df.memory_usage(deep=True).sum())
    reset = _reset_peak()              # the call's peak, not the data generation's
    load = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), time.process_time()
    out = call()
    seconds = time.perf_counter() - t0
    cpu = time.process_time() - c0
    peak = _status_kb("VmHWM") * 1024 if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    size = getattr(out, "n_leaves", None)
    if size is None:
        size = getattr(out, "n_rows", -1)
    return dict(algo=algo, n=n, seconds=seconds, cpu_seconds=cpu, peak_gb=peak / 1e9, input_gb=input_bytes / 1e9,
                leaves=int(size), load=load)


def _worker_usage():
    """This process's CPU seconds and peak resident bytes (run on each worker)."""
    import psutil
    t = psutil.Process().cpu_times()
    return t.user + t.system, _status_kb("VmHWM") * 1024


def _run_dask(n, parquet=False):
    """``mondrian_dask_hc``: :func:`privlib.scale.dask_mondrian` on a 2-worker LocalCluster (with
    ``parquet``: ``mondrian_dask_parquet``, the one-byte codes read from Parquet files)."""
    import shutil
    import tempfile
    import warnings

    import dask.dataframe as dd
    from dask import distributed

    from privlib.scale import dask_mondrian
    tmp = None
    if parquet:
        df = codes(n, SEED)
        tmp = tempfile.mkdtemp(prefix="bench_scale_")
        for i, a in enumerate(range(0, n, PARQUET_ROWS)):
            df.iloc[a:a + PARQUET_ROWS].to_parquet(f"{tmp}/part-{i:04d}.parquet", index=False)
        qi = [c for c in HC_QI if c != "fnlwgt"]
    else:
        df = high_cardinality(n, SEED)
        qi = list(HC_QI)
    input_bytes = int(df.memory_usage(deep=True).sum())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                           silence_logs=50, memory_limit=None)
        client = distributed.Client(cluster)
        if parquet:
            ddf = dd.read_parquet(tmp)
        else:
            ddf = dd.from_pandas(df, npartitions=20).persist()
            distributed.wait(ddf)
        del df
    client.run(_reset_peak)
    reset = _reset_peak()
    w0 = client.run(_worker_usage)
    load = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), time.process_time()
    out = dask_mondrian(ddf, qi, HC_SA, k=10, max_cells=None if parquet else n // DASK_MAX_CELLS)
    seconds = time.perf_counter() - t0
    cpu = time.process_time() - c0
    w1 = client.run(_worker_usage)
    peak = _status_kb("VmHWM") * 1024 if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    worker_cpu = sum(w1[a][0] - w0[a][0] for a in w1)
    worker_peak = sum(w1[a][1] for a in w1)
    client.close()
    cluster.close()
    if tmp is not None:
        shutil.rmtree(tmp)
    return dict(algo="mondrian_dask_parquet" if parquet else "mondrian_dask_hc", n=n, seconds=seconds, cpu_seconds=cpu + worker_cpu, peak_gb=peak / 1e9,
                input_gb=input_bytes / 1e9, leaves=int(out.n_leaves), load=load, worker_peak_gb=worker_peak / 1e9)


def table(rows):
    frame = pd.DataFrame(rows)
    frame["peak / input"] = frame["peak_gb"] / frame["input_gb"]
    frame = frame.sort_values(["algo", "n"], kind="stable").reset_index(drop=True)
    frame["growth per 10x"] = growth(frame)
    frame["algorithm"] = frame["algo"].map(LABEL)
    if "worker_peak_gb" not in frame:
        frame["worker_peak_gb"] = np.nan
    return frame[["algo", "algorithm", "n", "seconds", "cpu_seconds", "growth per 10x", "peak_gb", "input_gb",
                  "peak / input", "leaves", "load", "worker_peak_gb"]]


def growth(frame):
    """Time over the same algorithm's time at a tenth of the records (NaN without one)."""
    out = []
    for _, r in frame.iterrows():
        prev = frame[(frame["algo"] == r["algo"]) & (frame["n"] == r["n"] // 10)]
        out.append(r["seconds"] / prev["seconds"].iloc[0] if len(prev) else np.nan)
    return out


def merge(old, new):
    """The saved table ``old`` with the rows of ``new`` (same algorithm and size) replaced or added;
    growth per 10x recomputed."""
    key = ["algo", "n"]
    kept = old[~old.set_index(key).index.isin(new.set_index(key).index)]
    frame = pd.concat([kept, new], ignore_index=True).sort_values(key, kind="stable").reset_index(drop=True)
    frame["growth per 10x"] = growth(frame)
    return frame


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--census", action="store_true", help="also run 10^7 records (several minutes, ~3 GB)")
    ap.add_argument("--algos", default=",".join(ALGOS), help="comma-separated subset of " + ", ".join(ALGOS))
    ap.add_argument("--sizes", default=None, help="comma-separated record counts (overrides --census)")
    ap.add_argument("--save", default=None, help="write the table as CSV here (the rows run replace the same "
                    "algorithm and size in an existing file; the others are kept)")
    ap.add_argument("--replace", action="store_true", help="with --save: overwrite the file instead")
    ap.add_argument("--one", nargs=2, metavar=("ALGO", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one[0], int(args.one[1]))))
        return
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else [10 ** 5, 10 ** 6] + ([10 ** 7] if args.census else [])
    rows = []
    for algo in args.algos.split(","):
        for n in sizes:
            res = subprocess.run([sys.executable, __file__, "--one", algo, str(n)], capture_output=True, text=True,
                                 check=True)
            rows.append(json.loads(res.stdout.strip().splitlines()[-1]))
            r = rows[-1]
            print(f"  {LABEL[algo]}, n = {n:,}: {r['seconds']:.2f} s, peak {r['peak_gb']:.2f} GB "
                  f"(load {r['load']:.2f})", file=sys.stderr, flush=True)
    frame = table(rows)
    pd.set_option("display.width", 200)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(frame.drop(columns=["algo"]).to_string(index=False, formatters={"n": "{:,}".format, "seconds": "{:.2f}".format,
                                                   "cpu_seconds": "{:.2f}".format,
                                                   "growth per 10x": "{:.1f}".format, "peak_gb": "{:.2f}".format,
                                                   "input_gb": "{:.2f}".format, "peak / input": "{:.2f}".format,
                                                   "load": "{:.2f}".format, "worker_peak_gb": "{:.2f}".format}))
    if args.save:
        frame = frame.assign(cores=os.cpu_count(), machine=platform.machine(),
                             date=datetime.date.today().isoformat())
        if os.path.exists(args.save) and not args.replace:
            frame = merge(pd.read_csv(args.save), frame)
        frame.round(4).to_csv(args.save, index=False)


if __name__ == "__main__":
    main()
