"""Benchmark of privlib.reident: HI and PI of both models as users and N_o grow.

Up to the source's full scale: 13,141 simulated users x 1,000 rated movies, first-order
model at N_o = 1,800 simplified observations, exhaustive model at N_o = 900 rows
(Massart & Standaert, Section IV and Table I).  The issue's target: first-order HI and
PI at full scale within a minute.

Run from the repository root:  python benchmarks/bench_reident.py [--quick]

Hot calls of the chapter (issue 16: the notebook within 90 s on 2 cores), timed alternately
against a baseline copy of the library before the package split (the machine is shared:
alternate runs see the same load)::

    git show <commit>:privlib/reident.py | sed 's/^from \._validation/from privlib._validation/' > /tmp/reident_old.py
    python benchmarks/bench_reident.py --hot [--baseline /tmp/reident_old.py] [--repeat 2]

``--hot`` times, at the source's scale (13,141 users x 1,000 movies): the encoding of the
5-star table for both models (notebook cell 5), the Figure 2 curves (cell 7), the
simulation's Table I columns (cell 16), the swapping experiment (cell 31), and checks that
the baseline gives the same numbers.

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
    rec = R.encode_records(obs, model=model, n_obs=n_obs)
    t1 = time.perf_counter()
    hi = R.hypothetical_information(rec)
    t2 = time.perf_counter()
    pi = R.perceived_information(rec, folds=folds, rng=rng, outliers=("drop", "floor"))
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
                                            lambda: R.rating_observations(pop.ratings, granularity=g,
                                                                          categories=NETFLIX_CATEGORIES))
        enc[g] = timed(f"encode {g} (both models, once)",
                       lambda: R.encode_models(o, models={"exhaustive": R.exhaustive(), "first-order": R.first_order()},
                                               n_obs={"exhaustive": 900, "first-order": 1_800}))
    tab = timed("Table I (3 granularities, both rules)",
                lambda: R.information_table(enc, n_obs=(900, 1_800), folds=10, rng=2019, outliers=("drop", "floor")))
    for rule, tt in tab.items():
        print(f"outliers: {rule}\n{tt.round(3).to_string()}\n")
    rec5 = enc["5-star"]
    grid = {"first-order": [50, 100, 200, 450, 900, 1_800], "exhaustive": [50, 100, 200, 450, 900]}
    for m, rec in rec5.items():
        timed(f"Figure 2 curve, {m}", lambda: R.information_curve(rec, n_obs_grid=grid[m], folds=10, rng=2019,
                                                                  outliers=("drop", "floor")))
    levels = np.arange(1, rec5["exhaustive"].n_users + 1)
    for m, rec in rec5.items():
        sr = timed(f"success rate, {m}, M_o = 1, {len(levels):,} levels",
                   lambda: R.success_rate(rec, leakages=1, levels=levels, rng=2019))
        print("   level 1, 10, 100, 1000:", sr.set_index("level")["success"].loc[[1, 10, 100, 1000]].round(4).tolist())
        timed(f"category prediction, {m}, 100 levels",
              lambda: R.category_prediction(rec, levels=np.arange(1, 101), rng=2019))


# ---------------------------------------------------------------------------- hot calls (issue 16)
def _load_baseline(path):
    import importlib.util
    import sys
    spec = importlib.util.spec_from_file_location("reident_baseline", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod            # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def _hot_calls(mod, new, obs, swap_db):
    """The chapter's hot calls written for the current API (``new``) or the old positional one."""
    import numpy as np
    seed, folds, rules = 2019, 10, ("drop", "floor")
    if new:
        encode2 = lambda o: mod.encode_models(o, models={"exhaustive": mod.exhaustive(),  # noqa: E731
                                                         "first-order": mod.first_order()},
                                              n_obs={"exhaustive": 900, "first-order": 1_800})
        curve = lambda rec, grid: mod.information_curve(rec, n_obs_grid=grid, folds=folds, rng=seed,  # noqa: E731
                                                        outliers=rules)
        table = lambda enc: mod.information_table(enc, n_obs=(900, 1_800), folds=folds, rng=seed,  # noqa: E731
                                                  outliers=rules)
        pi = lambda m, f: mod.perceived_information(swap_db, model=m, folds=folds, rng=seed, protect=f,  # noqa: E731
                                                    outliers=rules, require_equal=False)
        cp = lambda m, f: mod.category_prediction(swap_db, model=m, levels=[1, 5], rng=seed,  # noqa: E731
                                                  folds=folds, protect=f)
    else:
        encode2 = lambda o: {"exhaustive": mod.encode(o, mod.exhaustive(), n_obs=900),  # noqa: E731
                             "first-order": mod.encode(o, mod.first_order(), n_obs=1_800)}
        curve = lambda rec, grid: mod.information_curve(rec, None, grid, folds, rng=seed, outliers=rules)  # noqa: E731
        table = lambda enc: mod.information_table(enc, (900, 1_800), folds, rng=seed, outliers=rules)  # noqa: E731
        pi = lambda m, f: mod.perceived_information(swap_db, m, folds, rng=seed, protect=f,  # noqa: E731
                                                    outliers=rules, require_equal=False)
        cp = lambda m, f: mod.category_prediction(swap_db, m, [1, 5], rng=seed, folds=folds, protect=f)  # noqa: E731
    cats = [c for c in swap_db.columns if c != "user"]
    out, times = {}, {}

    def timed(label, fn):
        t = time.perf_counter()
        out[label] = fn()
        times[label] = time.perf_counter() - t

    timed("encode 3 granularities x 2 models (cell 5)", lambda: {g: encode2(o) for g, o in obs.items()})
    enc = out["encode 3 granularities x 2 models (cell 5)"]
    grid = {"first-order": [50, 200, 900, 1_800], "exhaustive": [50, 200, 900]}
    timed("Figure 2 curves (cell 7)", lambda: {m: curve(enc["5-star"][m], grid[m]) for m in grid})
    timed("Table I, 2 granularities (cell 16)",
          lambda: table({g: enc[g] for g in ("no-grade", "like-dislike")}))

    def swapping():
        swap_rng, releases = np.random.default_rng(seed), {}

        def swapped(train):
            key = train.index.to_numpy().tobytes()
            if key not in releases:
                releases[key] = mod.swap(train, cats, rng=swap_rng)
            return releases[key]
        res = []
        for f in (lambda d: d, swapped):
            for m in (mod.first_order(), mod.exhaustive()):
                p = pi(m, f)
                res.append((p["drop"].bits, p["floor"].bits, p["drop"].outlier_fraction,
                            tuple(cp(m, f)["success"])))
        return res
    timed("swapping, 4 PI + 4 category predictions (cell 31)", swapping)
    values = {"curves": {m: {r: c.to_numpy().tolist() for r, c in cs.items()}
                         for m, cs in out["Figure 2 curves (cell 7)"].items()},
              "table": {r: t.to_numpy().tolist() for r, t in out["Table I, 2 granularities (cell 16)"].items()},
              "swapping": out["swapping, 4 PI + 4 category predictions (cell 31)"]}
    return times, values


def hot(baseline=None, repeat=1):
    import numpy as np
    pop = simulate_ratings(n_users=13_141, n_ratings=1_000, rng=2019)
    obs = {g: R.rating_observations(pop.ratings, granularity=g, categories=NETFLIX_CATEGORIES)
           for g in ("no-grade", "like-dislike", "5-star")}
    swap_db = obs["5-star"][obs["5-star"]["user"] <= 300].groupby("user").head(900).reset_index(drop=True)
    del pop
    runs = [("new", R, True)] + ([("baseline", _load_baseline(baseline), False)] if baseline else [])
    rows, values = [], {}
    for rep in range(repeat):
        for name, mod, new in (runs if rep % 2 == 0 else runs[::-1]):   # alternate the order
            t, v = _hot_calls(mod, new, obs, swap_db)
            values[name] = v
            rows.append({"run": name, "repeat": rep, **t, "sum s": sum(t.values())})
            print(pd.DataFrame([rows[-1]]).round(2).to_string(index=False), flush=True)
    print(pd.DataFrame(rows).round(2).to_string(index=False))
    if baseline:
        same = all(np.array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float), equal_nan=True)
                   for a, b in _leaves(values["new"], values["baseline"]))
        print("baseline and new give identical numbers:", same)


def _leaves(a, b):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            yield from _leaves(a[k], b[k])
    elif isinstance(a, (list, tuple)) and any(isinstance(x, (list, tuple, dict)) for x in a):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            yield from _leaves(x, y)
    else:
        yield a, b



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="stop at 2,000 users")
    ap.add_argument("--hot", action="store_true", help="time the chapter's hot calls only (issue 16)")
    ap.add_argument("--baseline", help="a copy of the old privlib/reident.py to time alternately with --hot")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each version with --hot")
    args = ap.parse_args()
    if args.hot:
        hot(args.baseline, args.repeat)
        return
    sizes = [500, 2_000] if args.quick else [500, 2_000, 5_000, 13_141]
    pd.set_option("display.width", 200)
    rows = []
    for n_users in sizes:
        t = time.perf_counter()
        pop = simulate_ratings(n_users=n_users, n_ratings=1_000, rng=2019)
        obs = R.rating_observations(pop.ratings, granularity="5-star", categories=NETFLIX_CATEGORIES)
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
