"""CPU of the library calls that dominated chapters 6, 5 and 2's kernels, before and after a change.

Each call is timed with ``time.process_time`` (CPU seconds: what a shared, loaded machine
inflates least), the best of ``--repeat`` runs, on chapter 6's Adult setup
(``privlib.experiments.empirical_privacy.adult_setup``, 2,000 queries of each workload, seed 2013)
and a reduced chapter-5 population (``--users`` simulated users, 2,600 ratings each, the
first-order model, ``N_o = 1,800`` database records and 800 fresh leakages).  Every call's
output is also hashed (its bytes), so that the before and after rows show that the results are
the same bit for bit.

Run from the repository root, once on the code to compare against and once on the current code::

    git archive <base commit> privlib | tar -x -C /tmp/base      # the library as it was
    PYTHONPATH=/tmp/base python benchmarks/bench_hotspots.py --label before --save benchmarks/results/bench_hotspots.csv
    python benchmarks/bench_hotspots.py --label after --save benchmarks/results/bench_hotspots.csv

(``/tmp/base`` needs the repository's ``data`` folder beside its ``privlib``: a symbolic link.)

``benchmarks/results/kernel_cpu_hotspots.csv`` holds each chapter's kernel CPU before and after
(user + system seconds of one process, ``/usr/bin/time``): the notebook converted to a script
(``jupyter nbconvert --to script``), ``N_JOBS = 1`` so that every sweep runs in that process,
run from the notebook's folder with ``MPLBACKEND=Agg`` on the library of each commit.

The calls:

* ``estimate_sa_answers`` (grid) -- Definition-2 answers of chapter 6 (``measure``), per release;
* ``estimate_answers`` (grid) and ``overlap_fractions`` -- the QI workload (chapters 2 and 6);
* ``kernel_conditionals`` and ``naive_bayes`` -- the attack on every record (chapters 2 and 6);
* ``Ledger.total`` (three calls on one ledger, as a release checks it twice and the sweep reads it)
  -- the DP kd-tree's ledger, one entry per node;
* ``fresh_success_rate`` -- chapter 5's attack with fresh leakages (both smoothing rules);
* ``bootstrap_difference`` -- chapter 6's frontier differences (a median per release and replicate);
* ``glue_num`` -- the first glue of a kernel (in a fresh interpreter: the import it triggers);
* ``build_domains``, ``synthesize`` and ``kept_jobs`` -- chapter 4's OnTheMap state (150
  super-PUMAs, 3,000 workplaces, seed 2011; ``far_weight`` 3e-4 as the chapter, and 3e-3, its
  calibration's far end, where the second cut-off spans most of the state).  ``--only ch4`` runs
  these alone.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import pandas as pd


def _digest(x) -> str:
    if isinstance(x, pd.DataFrame):
        x = x.to_numpy()
    if isinstance(x, (tuple, list)):
        return hashlib.sha1(b"".join(bytes.fromhex(_digest(v)) for v in x)).hexdigest()[:12]
    if hasattr(x, "beliefs"):
        x = x.beliefs
    return hashlib.sha1(np.ascontiguousarray(np.asarray(x, dtype=float)).tobytes()).hexdigest()[:12]


def _best(fn, repeat):
    best, out = np.inf, None
    for _ in range(repeat):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", default="current")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--users", type=int, default=3000)
    ap.add_argument("--save", default=None)
    ap.add_argument("--only", choices=("all", "ch4"), default="all")
    args = ap.parse_args(argv)
    rows = []

    def record(call, case, fn):
        sec, out = _best(fn, args.repeat)
        rows.append({"call": call, "case": case, "cpu_s": round(sec, 5), "digest": _digest(out)})
        print(f"{call:<22} {case:<18} cpu {sec * 1e3:9.2f} ms   {rows[-1]['digest']}", flush=True)

    _chapter4(record)
    if args.only == "all":
        _chapters_652(args, record, rows)
    load = os.getloadavg()[0]
    table = pd.DataFrame(rows).assign(label=args.label, load=round(load, 2), cores=os.cpu_count(),
                                      date=time.strftime("%Y-%m-%d"))
    if args.save:
        old = pd.read_csv(args.save) if os.path.exists(args.save) else None
        if old is not None:
            old = old[old["label"] != args.label]
            table = pd.concat([old, table], ignore_index=True)
        table.to_csv(args.save, index=False)
        print(f"saved {args.save}")


def _chapter4(record):
    import privlib
    from privlib import synth
    from privlib.noise import RampDistribution, draw_factors
    from privlib.simulate import simulate_commuting, simulate_geography

    seed = 2011
    geo = simulate_geography(n_spumas=150, rng=seed)
    with privlib.demonstration():
        for fw in (3e-4, 3e-3):
            data = simulate_commuting(geo, n_workplaces=3000, decay=10.0, far_weight=fw, rng=seed + 1)
            record("build_domains", f"far_weight {fw:g}",
                   lambda: [(d.code, d.rep_block, d.eliminated, d.prior_count, d.distance)
                            for d in [synth.build_domains(data, rng=seed + 3)]][0])
        data = simulate_commuting(geo, n_workplaces=3000, decay=10.0, far_weight=3e-4, rng=seed + 1)
        published = np.round(draw_factors(data.workplaces["workplace"], dist=RampDistribution(1.05, 1.15),
                                          rng=seed + 2).to_numpy() * data.workplaces["n"].to_numpy()).astype(int)
        dom = synth.build_domains(data, rng=seed + 3)
        final = synth.OTMSettings(eps=4.6)
        synth.synthesize(data, dom, settings=final, published=published, rng=seed + 4)   # alpha_min cache
        record("synthesize", "eps 4.6",
               lambda: [(s.likelihood, s.posterior, s.synthetic, s.n) for s in
                        [synth.synthesize(data, dom, settings=final, published=published, rng=seed + 4)]][0])
        if hasattr(synth, "kept_jobs"):
            record("kept_jobs", "far_weight 3e-4", lambda: synth.kept_jobs(data, dom))


def _chapters_652(args, record, rows):
    from privlib import Ledger, attacks, metrics
    from privlib import reident as R
    from privlib.experiments import empirical_privacy as ep
    from privlib.experiments import one_scale as osc
    from privlib.simulate.ratings import NETFLIX_CATEGORIES, simulate_ratings

    setup = ep.adult_setup()
    d2 = osc.definition2_workload(setup, n=2000, rng=2013)
    qi = metrics.range_workload(setup.df, list(setup.qi), n=2000, rng=2013, domain=setup.domain)
    releases = {f"{f} {v}": osc.release(setup, f, v, rng=1).decomposition
                for f, v in (("mondrian-k", 8), ("dp-kdtree", 1.0), ("laplace", 1.0), ("qwi", 0.5))}

    for name, dec in releases.items():
        record("estimate_sa_answers", name, lambda: osc.estimate_sa_answers(dec, d2, method="grid"))
        record("estimate_answers", name, lambda: metrics.estimate_answers(dec, qi, method="grid"))
        if dec.n_leaves < 20_000:
            record("overlap_fractions", name, lambda: metrics.overlap_fractions(dec, qi))
        record("kernel_conditionals", name, lambda: attacks.kernel_conditionals(dec))
        record("naive_bayes", name, lambda: attacks.naive_bayes(dec, setup.df))
    for h in (10, 12):
        def total(h=h):
            # a new ledger of the same entries: nothing computed yet
            led = Ledger.concat(osc.release(setup, "dp-kdtree", 1.0, rng=1, kdtree_height=h).decomposition.ledger)
            t = time.process_time()
            out = [led.total() for _ in range(3)]
            return time.process_time() - t, out
        best = min(total()[0] for _ in range(args.repeat))
        rows.append({"call": "Ledger.total x3", "case": f"dp-kdtree h={h}", "cpu_s": round(best, 5),
                     "digest": _digest(total()[1])})
        print(f"{'Ledger.total x3':<22} {'dp-kdtree h=' + str(h):<18} cpu {best * 1e3:9.2f} ms", flush=True)

    gen = np.random.default_rng(6)                 # sweep rows of the shape of chapter 6's confirmation run
    boot = pd.DataFrame([{"family": f, "value": v, "seed": i, "beta_raw": gen.random(),
                          "err": gen.lognormal(size=2000) * v}
                         for f in ("dp-kdtree", "diffgen", "mondrian-k") for v in range(1, 7)
                         for i in range(20 if f != "mondrian-k" else 1)])
    record("bootstrap_difference", "3 x 6 x 20, 200 reps",
           lambda: [osc.bootstrap_difference(boot, "dp-kdtree", ["diffgen", "mondrian-k"], errors="err",
                                             n_boot=200, rng=2013)[k] for k in ("d", "lo", "hi")])

    pop = simulate_ratings(n_users=args.users, n_ratings=2_600, rng=2019).ratings
    obs = R.rating_observations(pop, granularity="5-star", categories=NETFLIX_CATEGORIES)
    rec = R.encode_records(obs, model=R.first_order(), n_obs=2_600)
    for sm in (0.0, 0.5):
        record("fresh_success_rate", f"{args.users} users, add-{sm}",
               lambda: R.fresh_success_rate(rec, n_train=1_800, leakages=800, levels=[1, 10, 100], rng=2019,
                                            smoothing=sm))

    code = ("import time, numpy, pandas; from privlib.experiments import glue_num; t = time.process_time(); "
            "glue_num('bench', 0.5); print(time.process_time() - t)")
    # the same privlib as this process (not the one of the working directory)
    env = {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(attacks.__file__)))}
    best = min(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                    env=env, cwd=tempfile.gettempdir()).stdout.split()[-1])
               for _ in range(args.repeat))
    rows.append({"call": "glue_num (first)", "case": "fresh interpreter", "cpu_s": round(best, 5), "digest": ""})
    print(f"{'glue_num (first)':<22} {'fresh interpreter':<18} cpu {best * 1e3:9.2f} ms", flush=True)


if __name__ == "__main__":
    main()
