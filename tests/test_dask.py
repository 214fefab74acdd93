"""privlib.scale and the runner on a dask.distributed cluster (a LocalCluster of 2 worker
processes): results equal the in-memory ones on the same records."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe (dask with pyarrow) is optional: "
                                                  "pip install privlib[dask]; the README's set-up installs it")
distributed = pytest.importorskip("dask.distributed", reason="dask.distributed is optional "
                                                             "(pip install privlib[dask])")

from privlib import diffgen, models, scale                            # noqa: E402
from privlib.experiments import empirical_privacy as ep              # noqa: E402
from privlib.experiments import run                                  # noqa: E402
from privlib.hierarchy import Hierarchy                              # noqa: E402
from privlib.partition import dp_kdtree, mondrian                    # noqa: E402

FIELDS = ("lower", "upper", "histograms", "tree_dim", "tree_threshold", "tree_left", "tree_right", "tree_depth")


@pytest.fixture(scope="module")
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                 # the cluster's own start-up notices
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=50)
        cl = distributed.Client(cluster)
    yield cl
    cl.close()
    cluster.close()


@pytest.fixture(scope="module")
def setup():
    return ep.adult_setup()


@pytest.fixture(scope="module")
def data(setup):
    """A 60,000-record Adult-like table (every column from Adult's marginal), as pandas and as 6
    Dask partitions."""
    gen = np.random.default_rng(5)
    cols = {}
    for c in list(setup.qi) + [setup.sa]:
        vals, counts = np.unique(setup.df[c].to_numpy(), return_counts=True)
        cols[c] = vals[gen.choice(vals.size, size=60_000, p=counts / counts.sum())]
    df = pd.DataFrame(cols)
    return df, dd.from_pandas(df, npartitions=6)


def same(a, b):
    for f in FIELDS:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    assert a.params == b.params
    assert list(a.ledger) == list(b.ledger)


def test_the_workers_are_processes(client):
    assert len(client.scheduler_info()["workers"]) == 2


def test_cell_counts(client, data, setup):
    df, ddf = data
    cols = ["workclass", "sex", setup.sa]
    got = scale.cell_counts(ddf, cols)
    want = df.groupby(cols, sort=True).size().rename("count").reset_index()
    assert got["count"].sum() == len(df)
    assert got[cols].astype(str).equals(want[cols].astype(str))
    assert np.array_equal(got["count"].to_numpy(), want["count"].to_numpy())


@pytest.mark.parametrize("kw", [dict(k=10), dict(k=5, l=3), dict(k=5, t=0.2), dict(k=5, t=0.15, t_rule="source")],
                         ids=lambda kw: ", ".join(f"{a}={b}" for a, b in kw.items()))
def test_mondrian_equals_in_memory(client, data, setup, kw):
    df, ddf = data
    qi, sa = list(setup.qi), setup.sa
    dec = scale.dask_mondrian(ddf, qi, sa, domain=setup.domain, **kw)
    same(dec, mondrian(df, qi, sa, domain=setup.domain, **kw))
    # the guarantee, checked on the records themselves: every leaf holds at least k of them
    leaf = dec.assign(df)
    sizes = np.bincount(leaf, minlength=dec.n_leaves)
    assert sizes[sizes > 0].min() >= kw["k"]
    assert np.array_equal(sizes, dec.counts.astype(np.int64))


def test_mondrian_k_is_checked_against_the_records(client, data, setup):
    df, ddf = data
    with pytest.raises(ValueError, match="k: expected an integer <= the number of records"):
        scale.dask_mondrian(ddf, list(setup.qi), setup.sa, k=len(df) + 1)
    assert scale.dask_mondrian(ddf, list(setup.qi), setup.sa, k=len(df)).n_leaves == 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kdtree_equals_in_memory(client, data, setup, seed):
    df, ddf = data
    qi, sa = list(setup.qi), setup.sa
    kw = dict(eps=1.0, height=8, domain=setup.domain, sa_values=setup.sa_values)
    same(scale.dask_kdtree(ddf, qi, sa, rng=seed, **kw), dp_kdtree(df, qi, sa, rng=seed, **kw))


def test_kdtree_warns_as_in_memory(client, data, setup):
    from privlib import PrivacyLeakWarning
    df, ddf = data
    with pytest.warns(PrivacyLeakWarning, match="domain"):
        scale.dask_kdtree(ddf, list(setup.qi), setup.sa, eps=1.0, height=3, rng=0, sa_values=setup.sa_values)


def test_contingency_table_equals_in_memory(client):
    job = Hierarchy.from_dict({"Any": {"Pro": ["Eng", "Law"], "Art": ["Dan", "Wri"]}})
    gen = np.random.default_rng(3)
    n = 5000
    df = pd.DataFrame({"job": gen.choice(["Eng", "Law", "Dan", "Wri"], n), "age": gen.integers(18, 65, n),
                       "y": gen.choice(["no", "yes", "maybe"], n, p=[0.6, 0.399, 0.001])})
    ddf = dd.from_pandas(df, npartitions=8)      # some partitions lack the rare class
    tax = {"job": job, "age": (18, 65)}
    for cuts, target in [({"job": ["Pro", "Art"], "age": [40]}, "y"), ({"job": ["Eng", "Law", "Art"], "age": [30, 50]},
                                                                        None)]:
        got = scale.dask_contingency_table(ddf, ["job", "age"], tax, cuts=cuts, target=target)
        want = diffgen.contingency_table(df, ["job", "age"], tax, cuts=cuts, target=target)
        pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True), check_dtype=False)
        assert got["count"].sum() == n


def test_published_table_checks_equal_in_memory(client, data, setup):
    df, _ = data
    pub = df.assign(hours_per_week=(df["hours_per_week"] // 20) * 20)      # a generalized table
    dpub = dd.from_pandas(pub, npartitions=5)
    qi, sa = ["workclass", "education", "sex", "hours_per_week"], setup.sa
    got, want = scale.dask_k_anonymity(dpub, qi), models.k_anonymity(pub, qi)
    assert got.k == want.k
    pd.testing.assert_series_equal(got.sizes, want.sizes, check_index_type=False)
    for kind in ("distinct", "entropy", "frequency"):
        got, want = scale.dask_l_diversity(dpub, qi, sa, kind=kind), models.l_diversity(pub, qi, sa, kind=kind)
        assert got.l == want.l
        np.testing.assert_array_equal(got.per_class.to_numpy(), want.per_class.to_numpy())
    got, want = scale.dask_t_closeness(dpub, qi, sa), models.t_closeness(pub, qi, sa)
    assert got.t == want.t
    np.testing.assert_array_equal(got.per_class.to_numpy(), want.per_class.to_numpy())
    np.testing.assert_array_equal(got.q.to_numpy(), want.q.to_numpy())


@pytest.mark.parametrize("kw", [dict(), dict(ranges="box", k=7), dict(qi=["education", "hours_per_week"],
                                                                 categorical=["education"])],
                         ids=["default", "box k=7", "two QIs, one categorical"])
def test_information_loss_equals_in_memory(client, data, setup, kw):
    from privlib.release import information_loss
    df, ddf = data
    dec = mondrian(df, list(setup.qi), setup.sa, k=10, domain=setup.domain)
    assert scale.dask_information_loss(ddf, dec, **kw) == information_loss(df, dec, **kw)


def test_bad_inputs_name_the_argument(client, data, setup):
    _, ddf = data
    with pytest.raises(ValueError, match=r"qi and sa: column\(s\) \['nope'\]"):
        scale.dask_mondrian(ddf, ["nope"], setup.sa, k=2)
    with pytest.raises(TypeError, match="data: expected a pandas or Dask DataFrame"):
        scale.cell_counts([1, 2], ["a"])
    with pytest.raises(ValueError, match="name: expected a name"):
        scale.cell_counts(ddf, ["sex"], name="sex")


def test_a_chapter_sweep_on_the_cluster_gives_the_rows_of_one_process(client, setup):
    """Chapter 2's sweep through privlib.experiments.run on the LocalCluster (joblib's Dask
    backend) and in this process: the same rows."""
    import joblib
    from privlib import metrics

    small = setup.sample(0.1, rng=0)
    wl = metrics.range_workload(small.df, list(small.qi), n=200, rng=1, domain=small.domain)
    tasks = [("a", "k", k, s, {}) for k in (5, 20) for s in (0, 1)] + [("a", "eps", 1.0, s, {"height": 6})
                                                                      for s in (0, 1, 2)]
    one = ep.sweep({"a": small}, {"a": wl}, tasks, n_jobs=1)
    with joblib.parallel_config(backend="dask"):
        many = ep.sweep({"a": small}, {"a": wl}, tasks, n_jobs=2, backend=None)
    assert len(one) == len(tasks)
    pd.testing.assert_frame_equal(one, many)


def test_run_uses_the_cluster(client):
    """run(backend=None) under joblib's Dask backend executes the tasks on the cluster's workers."""
    import joblib
    with joblib.parallel_config(backend="dask"):
        pids = run(_pid, range(8), n_jobs=2, backend=None)
    import os
    assert os.getpid() not in pids
    assert set(pids) <= set(client.run(os.getpid).values())


def _pid(_):
    import os
    return os.getpid()


def n_cells(df, cols):
    return len(df[cols].drop_duplicates())


def spy_cell_counts(monkeypatch):
    """Record every call of scale.cell_counts (the public step that brings the cells into memory)."""
    calls = []
    fn = scale.cell_counts
    monkeypatch.setattr(scale, "cell_counts", lambda *a, **k: calls.append(len(a[1])) or fn(*a, **k))
    return calls


@pytest.mark.parametrize("kw", [dict(k=5, l=3, t=0.3), dict(k=4, t=0.2, t_rule="source", max_height=9)],
                         ids=lambda kw: ", ".join(f"{a}={b}" for a, b in kw.items()))
def test_mondrian_top_levels_on_the_cluster_equal_in_memory(client, data, setup, kw, monkeypatch):
    """More distinct cells than max_cells: the top levels are grown on the cluster (from per-node
    counts; the cells never come into memory in one piece), each node's subtree in memory; the
    same tree, node for node."""
    df, ddf = data
    qi, sa = list(setup.qi), setup.sa
    c = n_cells(df, qi + [sa])
    calls = spy_cell_counts(monkeypatch)
    dec = scale.dask_mondrian(ddf, qi, sa, domain=setup.domain, max_cells=c // 3, **kw)
    assert calls == []
    want = mondrian(df, qi, sa, domain=setup.domain, **kw)
    same(dec, want)
    assert np.array_equal(dec.tree_leaf, want.tree_leaf)


def test_mondrian_top_levels_with_a_wide_quasi_identifier(client):
    """Almost every record its own cell (a QI of 40,000 codes), unsigned and signed codes, a
    numeric SA, a cell limit forcing several levels on the cluster."""
    from privlib.requirements import BetaLikeness
    gen = np.random.default_rng(11)
    n = 20_000
    df = pd.DataFrame({"w": gen.integers(-5, 40_000, n), "a": gen.integers(0, 90, n).astype(np.uint8),
                       "b": gen.integers(0, 3, n), "s": gen.integers(0, 5, n)})
    ddf = dd.from_pandas(df, npartitions=4)
    kw = dict(k=3, l=2, requirements=[BetaLikeness(3.0)])
    same(scale.dask_mondrian(ddf, ["a", "w", "b"], "s", max_cells=6_000, **kw), mondrian(df, ["a", "w", "b"], "s", **kw))


def test_mondrian_counts_the_cells_before_building(client, data, setup, monkeypatch):
    """The distinct cells are counted first: they come into memory (cell_counts) only when they
    fit; with one cell fewer allowed, the top levels are grown on the cluster (no error: the
    count decides the path, not the result)."""
    df, ddf = data
    qi, sa = list(setup.qi), setup.sa
    c = n_cells(df, qi + [sa])
    calls = spy_cell_counts(monkeypatch)
    want = mondrian(df, qi, sa, k=5)
    same(scale.dask_mondrian(ddf, qi, sa, k=5, max_cells=c), want)
    assert calls == [len(qi) + 1]
    calls.clear()
    same(scale.dask_mondrian(ddf, qi, sa, k=5, max_cells=c - 1), want)
    assert calls == []


def test_mondrian_top_levels_errors(client, data, setup):
    df, ddf = data
    qi, sa = list(setup.qi), setup.sa
    with pytest.raises(ValueError, match="max_cells"):
        scale.dask_mondrian(ddf, qi, sa, k=5, max_cells=0)
    with pytest.raises(TypeError, match="max_cells"):
        scale.dask_mondrian(ddf, qi, sa, k=5, max_cells=2.5)
    # the in-memory checks, on the cluster's counts: the same messages
    for kw in (dict(k=len(df) + 1), dict(k=5, l=99), dict(k=5, t=1.5), dict(k=5, t_rule="loose", t=0.2),
               dict(k=5, max_height=-1), dict(k=5, domain={**setup.domain, "hours_per_week": (30, 40)}),
               dict(k=5, sa_values=["nobody"])):
        with pytest.raises(ValueError) as want:
            mondrian(df, qi, sa, **kw)
        with pytest.raises(ValueError) as got:
            scale.dask_mondrian(ddf, qi, sa, max_cells=100, **kw)
        assert str(got.value) == str(want.value), kw
    # a QI that is not plain integer codes cannot be sent down the tree on the cluster
    text = ddf.assign(sex=ddf["sex"].astype(str))
    with pytest.raises(TypeError, match="qi: column 'sex' has dtype .*plain integer codes"):
        scale.dask_mondrian(text, qi, sa, k=5, max_cells=100)


def test_mondrian_requirements_equal_in_memory(client, data, setup):
    from privlib.requirements import BetaLikeness
    df, ddf = data
    qi, sa = list(setup.qi), setup.sa
    req = [BetaLikeness(2.0)]
    same(scale.dask_mondrian(ddf, qi, sa, k=5, requirements=req), mondrian(df, qi, sa, k=5, requirements=req))
