"""Tests of privlib.diffgen (Mohammed et al. 2011, DiffGen; Fung et al. 2005, TDS)."""
import math

import numpy as np
import pandas as pd
import pytest

from privlib import diffgen as dg
from privlib import PrivacyLeakWarning
from privlib.accounting import Ledger, total_epsilon
from privlib.experiments import diffgen as xdg
from privlib.experiments import spawn
from privlib.hierarchy import Hierarchy, HierarchyError
from privlib.mechanisms import exponential_probabilities
from privlib.sources import diffgen as src

# ---------------------------------------------------------------- Table 1 of the source
JOB = src.job_taxonomy()
TAX = src.taxonomies()
PRED = ["job", "age"]
CLS = src.CLASSES  # the public class domain of the toy tables


@pytest.fixture
def table1():
    return src.table1a()


def test_table1b_is_4_anonymous(table1):
    b = dg.apply_cut(table1, PRED, TAX, cuts={"job": ["Professional", "Artist"]})
    assert b["job"].tolist() == ["Professional"] * 4 + ["Artist"] * 4 == src.TABLE1B_JOB
    assert set(b["age"]) == {"[18-65)"} == set(src.TABLE1B_AGE)
    assert b.groupby(PRED).size().min() == 4


def test_table1c_contingency(table1):
    c = dg.contingency_table(table1, PRED, TAX, cuts=src.TABLE1C_CUTS)
    assert c["count"].tolist() == [2, 0, 1, 1, 2, 0, 2, 0] == src.TABLE1C_COUNTS  # Table 1.c, row by row
    assert c["age"].tolist()[:2] == ["[18-40)", "[40-65)"]


def test_table1d_generalized_contingency(table1):
    d = dg.contingency_table(table1, PRED, TAX, cuts=src.TABLE1D_CUTS)
    assert d["job"].tolist() == ["Professional", "Professional", "Artist", "Artist"]
    assert d["count"].tolist() == [3, 1, 4, 0] == src.TABLE1D_COUNTS  # Table 1.d


def test_example3_partition_tree(table1):
    t = dg.partition_tree(table1, PRED, "class", TAX, steps=src.EXAMPLE3_STEPS)
    assert t["count"].tolist() == [8, 4, 4, 3, 1, 4, 0] == src.EXAMPLE3_COUNTS
    assert t["parent"].tolist() == [-1, 0, 0, 1, 1, 2, 2] == src.EXAMPLE3_PARENTS
    leaves = t[t["leaf"]]
    assert leaves["count"].sum() == 8 and len(leaves) == 4  # the empty partition is kept
    assert leaves["count"].tolist() == src.EXAMPLE3_LEAF_COUNTS
    assert t.loc[3, ["class=Y", "class=N"]].tolist() == [2, 1]


def test_cut_errors(table1):
    with pytest.raises(ValueError, match="not a cut"):
        dg.apply_cut(table1, PRED, TAX, cuts={"job": ["Professional", "Engineer"]})
    with pytest.raises(HierarchyError, match="not a node"):
        dg.apply_cut(table1, PRED, TAX, cuts={"job": ["Plumber"]})
    with pytest.raises(ValueError, match="split points must lie inside"):
        dg.apply_cut(table1, PRED, TAX, cuts={"age": [70]})
    with pytest.raises(ValueError, match="leaf"):
        dg.partition_tree(table1, PRED, "class", TAX, steps=[("job", "Dancer")])


# ---------------------------------------------------------------- utility functions (Eq. 3, 4)
def test_scores_hand_worked(table1):
    # Any_Job -> {Professional: 2Y 2N, Artist: 2Y 2N}
    cc = np.array([[2, 2], [2, 2]])
    assert dg.max_score(cc) == 4
    assert dg.infogain_score(cc) == pytest.approx(0.0)
    # age split at 40: [18-40) 4Y 3N, [40-65) 0Y 1N
    cc = np.array([[4, 3], [0, 1]])
    assert dg.max_score(cc) == 5
    h47 = -(4 / 7 * math.log2(4 / 7) + 3 / 7 * math.log2(3 / 7))
    assert dg.infogain_score(cc) == pytest.approx(1 - 7 / 8 * h47)
    assert dg.infogain_score(np.zeros((2, 2))) == 0.0


def test_split_table_matches_brute_force(table1):
    tab = dg.split_scores(table1, "age", "class", (18, 65))
    bounds = np.append(tab["low"].to_numpy(), tab["high"].iloc[-1])
    lengths = tab["length"].to_numpy()
    assert bounds[0] == 18 and bounds[-1] == 65 and lengths.sum() == pytest.approx(47)
    u = tab["score"].to_numpy()
    ages = table1["age"].to_numpy()
    y = (table1["class"] == "Y").to_numpy()
    for j in range(len(bounds) - 1):
        s = 0.5 * (bounds[j] + bounds[j + 1])  # any point of the interval
        lm = ages < s
        brute = max(y[lm].sum(), (~y[lm]).sum()) + max(y[~lm].sum(), (~y[~lm]).sum())
        assert u[j] == brute


# ---------------------------------------------------------------- Algorithm 1
def _small_data(n=400, seed=0):
    g = np.random.default_rng(seed)
    df = pd.DataFrame({
        "job": g.choice(["Engineer", "Lawyer", "Dancer", "Writer"], n),
        "age": g.integers(18, 65, n),
        "hours": g.integers(1, 100, n),
    })
    logit = (df["age"] > 40).astype(int) + df["job"].isin(["Engineer", "Lawyer"]).astype(int)
    df["class"] = np.where(g.random(n) < 0.2 + 0.3 * logit, "Y", "N")
    return df


SMALL_TAX = {"job": JOB, "age": (18, 65), "hours": (1, 100)}
SMALL_PRED = ["job", "age", "hours"]


def _line(entry):
    """"line 9" from the detail "Algorithm 1, line 9: ..."."""
    assert entry.detail.startswith("Algorithm 1, line ")
    return entry.detail.split(", ")[1].split(":")[0]


@pytest.mark.parametrize("utility", ["max", "infogain"])
def test_budget_ledger_adds_up(utility):
    df = _small_data()
    rel = dg.diffgen(df, SMALL_PRED, "class", SMALL_TAX, eps=1.0, h=5, utility=utility, classes=CLS, rng=3)
    eps_p = 1.0 / (2 * (2 + 2 * 5))
    assert rel.eps_prime == pytest.approx(eps_p)
    assert isinstance(rel.ledger, Ledger)
    steps = [_line(e) for e in rel.ledger]
    assert steps.count("line 4") == 2 and steps.count("line 7") == 5 and steps.count("line 12") == 1
    n_num = sum(s.split is not None for s in rel.history)
    assert steps.count("line 9") == 2 * n_num
    assert all(e.eps == pytest.approx(eps_p) for e in rel.ledger if _line(e) != "line 12")
    assert rel.eps_spent <= 1.0 + 1e-12
    assert rel.eps_spent + rel.eps_unspent == pytest.approx(1.0)
    assert rel.eps_spent == pytest.approx(eps_p * (2 + 5 + n_num) + 0.5)


def test_budget_all_numerical_spends_exactly_eps():
    df = _small_data()
    rel = dg.diffgen(df, ["age", "hours"], "class", SMALL_TAX, eps=0.7, h=6, classes=CLS, rng=1)
    assert rel.eps_unspent == 0.0
    assert total_epsilon(rel.ledger) == pytest.approx(0.7) == rel.eps_spent
    groups = {e.group for e in rel.ledger if e.composition == "parallel"}
    assert len(groups) == 6 + 1  # Line 9 of every iteration, and Line 12


def test_huge_eps_releases_exact_counts():
    df = _small_data()
    rel = dg.diffgen(df, SMALL_PRED, "class", SMALL_TAX, eps=1e9, h=6, classes=CLS, rng=5)
    truth = rel.generalize(df).groupby(SMALL_PRED + ["class"]).size()
    got = rel.table.set_index(SMALL_PRED + ["class"])["count"]
    pd.testing.assert_series_equal(got.sort_index(), truth.sort_index(), check_names=False)


def test_fast_engine_matches_literal_partition_tree():
    df = _small_data(300, seed=4)
    rel = dg.diffgen(df, SMALL_PRED, "class", SMALL_TAX, eps=1e9, h=5, classes=CLS, rng=11)
    steps = [(s.attribute, s.value) if s.split is None else (s.attribute, s.value, s.split) for s in rel.history]
    tree = dg.partition_tree(df, SMALL_PRED, "class", SMALL_TAX, steps=steps)
    leaves = tree[tree["leaf"]]
    n_groups = np.prod([len(rel.cuts[a]) for a in SMALL_PRED])
    assert len(leaves) == n_groups  # one leaf partition per combination of cut values
    assert rel.domain_cells == 2 * n_groups
    for cls in ["N", "Y"]:
        lt = leaves.set_index(SMALL_PRED)[f"class={cls}"]
        lt = lt[lt > 0].sort_index()
        rt = rel.table[rel.table["class"] == cls].set_index(SMALL_PRED)["count"].sort_index()
        assert lt.to_dict() == rt.to_dict()
    # the scores recorded by the fast engine equal those counted on the literal partitions
    first = rel.history[0]
    root_children = tree[tree["parent"] == 0]
    cc = root_children[["class=N", "class=Y"]].to_numpy()
    assert first.score == pytest.approx(float(dg.max_score(cc)))


def test_candidate_selection_follows_exponential_mechanism():
    # two categorical predictors, h = 1: eps' = eps / 4, Max scores known exactly
    g = np.random.default_rng(0)
    n = 200
    df = pd.DataFrame({"job": g.choice(["Engineer", "Lawyer", "Dancer", "Writer"], n),
                       "sex": g.choice(["F", "M"], n)})
    df["class"] = np.where(df["job"].isin(["Engineer", "Lawyer"]), "Y", "N")
    sex = Hierarchy.from_dict({"*": ["F", "M"]}, name="sex")
    tax = {"job": JOB, "sex": sex}
    top = {"job": ["Professional", "Artist"], "sex": ["F", "M"]}
    u = np.array([dg.max_score(pd.crosstab(dg.apply_cut(df, [a], {a: tax[a]}, cuts={a: top[a]})[a],
                                           df["class"]).to_numpy()) for a in ("job", "sex")])
    eps = 0.1
    p_job = exponential_probabilities(u, eps=eps / 4, sensitivity=1.0)[0]
    runs = 1500
    first = [dg.diffgen(df, ["job", "sex"], "class", tax, eps=eps, h=1, classes=CLS,
                        rng=np.random.default_rng(s)).history[0].attribute for s in range(runs)]
    freq = np.mean(np.array(first) == "job")
    assert abs(freq - p_job) < 4 * math.sqrt(p_job * (1 - p_job) / runs)


def test_split_point_follows_equation_7():
    # one numerical predictor, h = 1: the release's only split is the Line-4 split point
    df = pd.DataFrame({"x": [1, 2, 3, 7, 8, 9] * 3, "class": ["N", "N", "N", "Y", "Y", "Y"] * 3})
    tax = {"x": (0.0, 10.0)}
    eps = 2.0
    eps_p = eps / (2 * (1 + 2))
    # brute force of Eq. 7 over the public split points (the integers 1..9 of the integer
    # domain [0, 10)): P(s < 5)
    grid = np.arange(1, 10, dtype=float)
    xs = df["x"].to_numpy()
    ys = (df["class"] == "Y").to_numpy()
    lm = xs[None, :] < grid[:, None]
    score = (np.maximum((lm & ys).sum(1), (lm & ~ys).sum(1)) + np.maximum((~lm & ys).sum(1), (~lm & ~ys).sum(1)))
    w = np.exp(eps_p * score / 2)
    p_below = w[grid < 5].sum() / w.sum()
    runs = 2000
    s = np.array([dg.diffgen(df, ["x"], "class", tax, eps=eps, h=1, classes=CLS, rng=np.random.default_rng(r)).splits["x"][0]
                  for r in range(runs)])
    assert np.all((s > 0) & (s < 10)) and np.all(s == np.round(s))      # public integer split points
    assert abs(np.mean(s < 5) - p_below) < 4 * math.sqrt(p_below * (1 - p_below) / runs)


def test_sparse_noise_has_the_dense_law():
    # same law of the number of released empty cells and of their counts
    key = np.zeros(50, dtype=np.int64)
    y = np.zeros(50, dtype=np.int64)
    n_groups, K, eps_half = 5000, 2, 0.5
    alpha = math.exp(-eps_half)
    p = alpha / (1 + alpha)          # P(discrete Laplace noise >= 1)

    def stats(dense_cells=dg.DENSE_CELLS):
        m, tot = [], []
        for s in range(40):
            cells, counts = dg.noisy_counts(key, y, n_groups=n_groups, n_classes=K, eps=eps_half,
                                            rng=np.random.default_rng(s), dense_cells=dense_cells)
            empty = cells != 0
            m.append(empty.sum())
            tot.append(counts[empty].mean())
        return np.mean(m), np.mean(tot)

    dense = stats()
    sparse = stats(dense_cells=10)
    expected = (n_groups * K - 1) * p
    sd = math.sqrt(expected * (1 - p) / 40)
    assert abs(dense[0] - expected) < 5 * sd and abs(sparse[0] - expected) < 5 * sd
    assert sparse[1] == pytest.approx(dense[1], rel=0.03)
    cells, counts = dg.noisy_counts(key, y, n_groups=n_groups, n_classes=K, eps=eps_half, rng=0, dense_cells=10)
    assert len(np.unique(cells)) == len(cells) and (counts >= 1).all()


def test_same_seed_same_release_and_generalize():
    df = _small_data()
    a = dg.diffgen(df, SMALL_PRED, "class", SMALL_TAX, eps=1.0, h=4, classes=CLS, rng=7)
    b = dg.diffgen(df, SMALL_PRED, "class", SMALL_TAX, eps=1.0, h=4, classes=CLS, rng=np.random.default_rng(7))
    assert a.history == b.history and np.array_equal(a.counts, b.counts)
    gen = a.generalize(df)
    for col in SMALL_PRED:
        assert set(gen[col]) <= set(a.cuts[col])
    assert (a.counts > 0).all() and a.n_records == a.counts.sum()


def test_h_zero_and_leaf_level_contingency_table(table1):
    rel = dg.diffgen(table1, ["job"], "class", {"job": JOB}, eps=1e9, h=0, classes=CLS, rng=0)
    assert rel.cuts["job"] == ("Any_Job",) and _line(rel.ledger[-1]) == "line 12" and len(rel.ledger) == 1
    rel = dg.diffgen(table1, ["job"], "class", {"job": JOB}, eps=1e9, h=3, classes=CLS, rng=0)
    assert set(rel.cuts["job"]) == {"Engineer", "Lawyer", "Dancer", "Writer"}  # the contingency table


# ---------------------------------------------------------------- bad input
def test_bad_inputs(table1):
    with pytest.raises(ValueError, match="eps"):
        dg.diffgen(table1, PRED, "class", TAX, eps=0, h=1, rng=0, classes=CLS)
    with pytest.raises(ValueError, match="eps"):
        dg.diffgen(table1, PRED, "class", TAX, eps=-1, h=1, rng=0, classes=CLS)
    with pytest.raises(ValueError, match="h: expected an integer >= 0"):
        dg.diffgen(table1, PRED, "class", TAX, eps=1, h=-1, rng=0, classes=CLS)
    with pytest.raises(ValueError, match="h: expected at most 3 specializations"):
        dg.diffgen(table1, ["job"], "class", {"job": JOB}, eps=1, h=4, rng=0, classes=CLS)
    with pytest.raises(ValueError, match="predictor 'age' has no taxonomy"):
        dg.diffgen(table1, PRED, "class", {"job": JOB}, eps=1, h=1, rng=0, classes=CLS)
    bad = table1.assign(job=table1["job"].replace("Dancer", "Plumber"))
    with pytest.raises(HierarchyError, match="Plumber"):
        dg.diffgen(bad, PRED, "class", TAX, eps=1, h=1, rng=0, classes=CLS)
    with pytest.raises(HierarchyError, match="outside its public domain.*taxonomies"):
        dg.diffgen(table1.assign(age=table1["age"] + 20), PRED, "class", TAX, eps=1, h=1, rng=0, classes=CLS)
    with pytest.raises(TypeError, match="must be categorical"):
        dg.diffgen(table1.assign(cls=np.linspace(0, 1, 8)), PRED, "cls", TAX, eps=1, h=1, rng=0, classes=CLS)
    with pytest.raises(ValueError, match="empty table"):
        dg.diffgen(table1.iloc[:0], PRED, "class", TAX, eps=1, h=1, rng=0, classes=CLS)
    with pytest.raises(ValueError, match="utility"):
        dg.diffgen(table1, PRED, "class", TAX, eps=1, h=1, utility="gini", rng=0, classes=CLS)
    with pytest.raises(ValueError, match="unknown column"):
        dg.diffgen(table1, ["job", "salary"], "class", TAX, eps=1, h=1, rng=0, classes=CLS)
    with pytest.raises(TypeError, match="Hierarchy or a pair"):
        dg.diffgen(table1, PRED, "class", {"job": JOB, "age": "numeric"}, eps=1, h=1, rng=0, classes=CLS)
    with pytest.raises(ValueError, match="low < high"):
        dg.diffgen(table1, PRED, "class", {"job": JOB, "age": (65, 18)}, eps=1, h=1, rng=0, classes=CLS)
    with pytest.raises(ValueError, match="missing values"):
        dg.diffgen(table1.assign(job=table1["job"].where(table1.index > 0)), PRED, "class", TAX, eps=1, h=1, rng=0, classes=CLS)
    with pytest.raises(ValueError, match="k: expected an integer >= 1"):
        dg.tds(table1, PRED, "class", TAX, k=0)
    with pytest.raises(TypeError, match="rng"):
        dg.diffgen(table1, PRED, "class", TAX, eps=1, h=1, classes=CLS, rng="seed")


def test_generalize_rejects_unknown_test_values(table1):
    rel = dg.diffgen(table1, PRED, "class", TAX, eps=1, h=2, classes=CLS, rng=0)
    with pytest.raises(HierarchyError, match="Plumber"):
        rel.generalize(table1.assign(job="Plumber"))
    with pytest.raises(ValueError, match="unknown column"):
        rel.generalize(table1.drop(columns="age"))


# ---------------------------------------------------------------- TDS
def test_tds_table1_hand_worked(table1):
    # Any_Job has InfoGain 0 (2Y2N under both children): not beneficial; the InfoGain-best
    # age split (between 34 and 37) leaves 3 records on one side: not valid for k = 4.
    rel = dg.tds(table1, PRED, "class", TAX, k=4)
    assert rel.history == () and rel.cuts == {"job": ("Any_Job",), "age": ("[18-65)",)}
    rel = dg.tds(table1, PRED, "class", TAX, k=3)
    assert rel.history[0].attribute == "age" and rel.history[0].split == pytest.approx(35.5)


def test_tds_is_k_anonymous():
    df = _small_data(600, seed=2)
    for k in (5, 20):
        rel = dg.tds(df, SMALL_PRED, "class", SMALL_TAX, k=k)
        sizes = rel.table.groupby(SMALL_PRED)["count"].sum()
        assert sizes.min() >= k and sizes.sum() == len(df)
        assert len(rel.history) > 0 and len(rel.ledger) == 0 and rel.eps_spent == 0


def test_tds_qid_releases_other_predictors_unchanged():
    df = _small_data(600, seed=5)
    rel = dg.tds(df, SMALL_PRED, "class", SMALL_TAX, k=20, qid=["age"])
    assert {s.attribute for s in rel.history} == {"age"} and len(rel.history) > 0
    gen = rel.generalize(df)
    assert (gen["job"] == df["job"]).all()                      # categorical non-QID: leaves
    # numerical non-QID: one interval per distinct training value, containing it
    assert gen.groupby("hours")["hours"].size().shape[0] == df["hours"].nunique()
    lo = gen["hours"].str.extract(r"\[([\d.]+)-")[0].astype(float)
    hi = gen["hours"].str.extract(r"-([\d.]+)\)")[0].astype(float)
    assert ((lo <= df["hours"]) & (df["hours"] < hi)).all()
    # k-anonymity holds on the QID groups only; counts are exact
    assert rel.table.groupby("age")["count"].sum().min() >= 20 and rel.n_records == len(df)
    exact = df.assign(age=gen["age"], hours=gen["hours"]).groupby(SMALL_PRED + ["class"]).size()
    got = rel.table.set_index(SMALL_PRED + ["class"])["count"].sort_index()
    assert got.to_dict() == exact.sort_index().to_dict()
    # the QID of all predictors is the default
    full = dg.tds(df, SMALL_PRED, "class", SMALL_TAX, k=20, qid=list(reversed(SMALL_PRED)))
    default = dg.tds(df, SMALL_PRED, "class", SMALL_TAX, k=20)
    assert full.cuts == default.cuts and np.array_equal(full.counts, default.counts)
    for bad, match in [([], "at least one"), (["salary"], "not predictors"), (["age", "age"], "distinct")]:
        with pytest.raises(ValueError, match=match):
            dg.tds(df, SMALL_PRED, "class", SMALL_TAX, k=5, qid=bad)


def test_tds_topn_qids_are_adult_predictors():
    for n, q in xdg.TDS_TOPN_QIDS.items():
        assert len(q) == n and set(q) <= set(xdg.ADULT_PREDICTORS)


def test_held_out_best_hand_worked():
    # run 0 is lucky at h = 8; the other runs peak at h = 6
    res = pd.DataFrame({"h": [4, 6, 8] * 3, "run": [0] * 3 + [1] * 3 + [2] * 3,
                        "ca": [0.70, 0.72, 0.90, 0.71, 0.75, 0.70, 0.69, 0.77, 0.71]})
    out = xdg.held_out_best(res)
    # without run 0: means (0.70, 0.76, 0.705) -> h 6, run 0 there: 0.72
    # without run 1: (0.695, 0.745, 0.805) -> h 8, run 1: 0.70; without run 2: (0.705, 0.735, 0.80) -> 8: 0.71
    assert out["h"].tolist() == [6, 8, 8]
    assert out["ca"].tolist() == pytest.approx([0.72, 0.70, 0.71])
    naive = res.groupby("h")["ca"].mean().max()
    assert out["ca"].mean() < naive                          # the max of means is biased upwards here
    with pytest.raises(ValueError, match="at least 2 runs"):
        xdg.held_out_best(res[res["run"] == 0])
    with pytest.raises(ValueError, match="every"):
        xdg.held_out_best(res.drop(index=0))
    with pytest.raises(TypeError, match="DataFrame"):
        xdg.held_out_best([1, 2])


# ---------------------------------------------------------------- accuracy, experiments
def test_accuracy_ba_la():
    df = _small_data(800, seed=9)
    train, test = df.iloc[:600], df.iloc[600:]
    la = dg.lower_bound_accuracy(train, test, "class")
    assert la == pytest.approx(np.mean(test["class"] == train["class"].mode()[0]))
    ba = dg.raw_data_accuracy(train, test, SMALL_PRED, "class", SMALL_TAX)
    rel = dg.diffgen(train, SMALL_PRED, "class", SMALL_TAX, eps=1e9, h=4, classes=CLS, rng=0)
    ca = dg.accuracy(rel, test)
    assert 0 <= la <= 1 and 0 <= ca <= 1
    assert ba > la and ca > la - 0.05
    with pytest.raises(TypeError, match="Release"):
        dg.accuracy("release", test)


def test_sweep_same_results_for_one_or_two_workers():
    df = _small_data(500, seed=1)
    train, test = df.iloc[:350], df.iloc[350:]
    kw = dict(eps_values=[0.5, 1.0], h_values=[2, 3], utilities=("max", "infogain"), runs=2, rng=4, classes=CLS)
    a = xdg.sweep(train, test, SMALL_PRED, "class", SMALL_TAX, n_jobs=1, **kw)
    b = xdg.sweep(train, test, SMALL_PRED, "class", SMALL_TAX, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(a.drop(columns="seconds"), b.drop(columns="seconds"))
    assert len(a) == 2 * 2 * 2 * 2 and a["ca"].between(0, 1).all()


# Pinned results of a small sweep and cross-validation (computed before the sweep's split
# distributions were cached and its chunks dealt round-robin): a speed-up must leave every
# release, its random stream and its CA unchanged, in this process and with workers.
PINNED_CORRECT = [105, 105, 70, 99, 96, 98, 74, 97, 80, 102, 105, 103, 95, 92, 101, 93, 104, 102, 74, 105, 89, 82,
                  80, 85, 97, 89, 89, 89, 105, 105, 104, 74, 105, 90, 103, 88]
PINNED_ROWS = [8, 7, 6, 17, 27, 20, 38, 25, 36, 8, 8, 8, 33, 24, 16, 65, 47, 59, 8, 6, 8, 30, 10, 13, 29, 58, 14, 8,
               8, 6, 26, 19, 20, 49, 35, 74]
PINNED_CELLS = [8, 8, 6, 20, 36, 24, 56, 32, 48, 8, 8, 8, 36, 24, 24, 80, 80, 96, 8, 6, 8, 36, 12, 20, 42, 96, 18, 8,
                8, 6, 32, 20, 24, 72, 48, 96]
PINNED_CV = [0.694610778443, 0.622754491018, 0.692771084337, 0.700598802395, 0.658682634731, 0.710843373494,
             0.676646706587, 0.616766467066, 0.632530120482]


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_sweep_and_cross_validation_pinned(n_jobs):
    df = _small_data(500, seed=1)
    train, test = df.iloc[:350], df.iloc[350:]
    out = xdg.sweep(train, test, SMALL_PRED, "class", SMALL_TAX, eps_values=[0.25, 1.0], h_values=[2, 5, 8],
                    utilities=("max", "infogain"), runs=3, rng=4, classes=CLS, n_jobs=n_jobs)
    assert [int(round(c * len(test))) for c in out["ca"]] == PINNED_CORRECT
    assert out["rows"].tolist() == PINNED_ROWS and out["cells"].tolist() == PINNED_CELLS
    cv = xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, eps_values=[0.5, 1.0], h=4, k=5, folds=3, rng=2,
                            classes=CLS, n_jobs=n_jobs)
    assert cv["ca"].round(12).tolist() == PINNED_CV


def test_cross_validate_rows():
    df = _small_data(300, seed=3)
    cv = xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, eps_values=[1.0], h=3, k=5, folds=3, rng=0, classes=CLS)
    assert cv.groupby("method").size().to_dict() == {"diffgen": 3, "tds": 3}
    top = xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, k=5, folds=3, rng=0, qid=["job"])
    assert top["method"].tolist() == ["tds"] * 3 and top["ca"].between(0, 1).all()
    with pytest.raises(ValueError, match="not predictors"):
        xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, k=5, folds=3, rng=0, qid=["zip"])


def test_blow_up():
    df = _small_data(50, seed=0)
    big = xdg.blow_up(df, SMALL_PRED, n_records=173, rng=0)
    assert len(big) == 173
    pd.testing.assert_frame_equal(big.iloc[:50], df.reset_index(drop=True))
    for c in SMALL_PRED:
        assert set(big[c]) <= set(df[c])
    assert (big.iloc[50:]["class"].to_numpy() == np.tile(df["class"].to_numpy(), 3)[:123]).all()


def test_adult_taxonomies():
    tax = xdg.adult_taxonomies(domains=xdg.ADULT_DOMAINS)
    assert set(tax) == set(xdg.ADULT_PREDICTORS)
    assert tax["age"] == (15.0, 95.0) and tax["fnlwgt"] == (0.0, 1_500_000.0)
    with pytest.warns(PrivacyLeakWarning, match="domains"):
        data_range = xdg.adult_taxonomies()
    assert data_range["age"] == (17.0, 91.0)
    assert isinstance(tax["occupation"], Hierarchy)
    assert sum(isinstance(t, tuple) for t in tax.values()) == 6


def test_sweeps_progress_text_bar_and_bad_value(capsys):
    df = _small_data(200, seed=2)
    train, test = df.iloc[:150], df.iloc[150:]
    capsys.readouterr()
    xdg.sweep(train, test, SMALL_PRED, "class", SMALL_TAX, eps_values=[1.0], h_values=[2], runs=3, classes=CLS, rng=0, progress="text")
    assert capsys.readouterr().err.rstrip("\n").endswith("DiffGen sweep: 100%|####################| 3/3")
    for call in (lambda: xdg.sweep(train, test, SMALL_PRED, "class", SMALL_TAX, eps_values=[1.0], h_values=[2], rng=0, classes=CLS, progress="yes"),
                 lambda: xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, k=5, folds=3, rng=0, progress=2),
                 lambda: xdg.scalability(df, SMALL_PRED, "class", SMALL_TAX, sizes=[300], rng=0, classes=CLS, progress="no")):
        with pytest.raises(ValueError, match="progress: expected True, False or 'text'"):
            call()


# ---------------------------------------------------------------- reliability regressions
def test_rng_is_required_no_default_seed(table1):
    # a default seed made the noise of two neighbouring tables identical: the one changed
    # count showed through exactly; rng must now be given, keyword-only
    for call in (lambda: dg.diffgen(table1, PRED, "class", TAX, eps=1.0, h=2, classes=CLS),
                 lambda: xdg.blow_up(table1, PRED, n_records=20),
                 lambda: xdg.sweep(table1, table1, PRED, "class", TAX, eps_values=[1.0], h_values=[1], classes=CLS),
                 lambda: xdg.cross_validate(table1, PRED, "class", TAX, eps_values=[1.0], h=1, folds=2, classes=CLS),
                 lambda: xdg.scalability(table1, PRED, "class", TAX, sizes=[16], classes=CLS)):
        with pytest.raises(TypeError, match="rng"):
            call()
    with pytest.raises(TypeError):
        dg.diffgen(table1, PRED, "class", TAX, 1.0, 2, "max", CLS, 0)  # not positional


def test_class_domain_is_a_parameter_and_derived_domain_warns(table1):
    # a neighbour holding a unique class: the derived class domain tells the tables apart
    odd = pd.concat([table1, pd.DataFrame({"job": ["Dancer"], "age": [30], "class": ["Z"]})], ignore_index=True)
    with pytest.warns(PrivacyLeakWarning, match="classes"):
        a = dg.diffgen(table1, PRED, "class", TAX, eps=1.0, h=1, rng=0)
    with pytest.warns(PrivacyLeakWarning, match="classes"):
        b = dg.diffgen(odd, PRED, "class", TAX, eps=1.0, h=1, rng=0)
    assert a.classes != b.classes  # the leak the warning is about
    dom = ("N", "Y", "Z")
    a = dg.diffgen(table1, PRED, "class", TAX, eps=1.0, h=1, classes=dom, rng=0)
    b = dg.diffgen(odd, PRED, "class", TAX, eps=1.0, h=1, classes=dom, rng=0)
    assert a.classes == b.classes == dom and a.domain_cells == b.domain_cells
    with pytest.raises(ValueError, match=r"classes: class value\(s\) \['Z'\]"):
        dg.diffgen(odd, PRED, "class", TAX, eps=1.0, h=1, classes=CLS, rng=0)
    for bad, err in [("NY", TypeError), ([], ValueError), (["N", "N", "Y"], ValueError), (["N", None], ValueError)]:
        with pytest.raises(err, match="classes"):
            dg.diffgen(table1, PRED, "class", TAX, eps=1.0, h=1, classes=bad, rng=0)


def test_every_class_of_the_domain_gets_a_noisy_count(table1):
    # class "Z" has no record; at a small eps some of its cells are released with noise
    dom = ("N", "Y", "Z")
    released_z = 0
    for seed in range(20):
        rel = dg.diffgen(table1, PRED, "class", TAX, eps=0.5, h=2, classes=dom, rng=seed)
        assert rel.domain_cells % 3 == 0
        released_z += int((rel.class_codes == 2).sum())
    assert released_z > 0
    # the dense noise covers every cell: group x class, class by class
    key = np.zeros(4, dtype=np.int64)
    cells, counts = dg.noisy_counts(key, np.zeros(4, dtype=np.int64), n_groups=1, n_classes=3, eps=1e-3, rng=1)
    assert set(cells.tolist()) <= {0, 1, 2} and len(cells) >= 1


def test_sweep_and_cross_validate_warn_without_classes(table1):
    df = _small_data(200, seed=2)
    with pytest.warns(PrivacyLeakWarning, match="classes"):
        xdg.sweep(df.iloc[:150], df.iloc[150:], SMALL_PRED, "class", SMALL_TAX, eps_values=[1.0], h_values=[1], runs=1, rng=0)
    with pytest.warns(PrivacyLeakWarning, match="classes"):
        xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, eps_values=[1.0], h=1, folds=2, rng=0)
    with pytest.warns(PrivacyLeakWarning, match="classes"):
        xdg.scalability(df, SMALL_PRED, "class", SMALL_TAX, sizes=[250], rng=0)
    # a test class outside the domain is an error, not a silent miss
    with pytest.raises(ValueError, match="test: class value"):
        xdg.sweep(df, df.assign(**{"class": "Q"}), SMALL_PRED, "class", SMALL_TAX, eps_values=[1.0], h_values=[1], runs=1, rng=0,
                 classes=CLS)


def test_public_numerical_domains(table1):
    tax = xdg.adult_taxonomies(["age", "sex"], domains={"age": (15, 95)})
    assert tax["age"] == (15.0, 95.0)
    with pytest.warns(PrivacyLeakWarning, match="domains"):
        xdg.adult_taxonomies(["age", "fnlwgt"], domains={"age": (15, 95)})
    for bad, err in [({"age": (95, 15)}, ValueError), ({"age": 15}, TypeError), ({"sex": (0, 1)}, ValueError),
                     ({"age": (0, np.inf)}, ValueError), ([("age", (1, 2))], TypeError)]:
        with pytest.raises(err, match="domains"):
            xdg.adult_taxonomies(["age"], domains=bad)
    # the public domain covers every Adult value; a value outside it is an error naming taxonomies
    from privlib.data import ADULT_NUMERIC, load_adult
    adult = load_adult(split="all")
    for a in ADULT_NUMERIC:
        lo, hi = xdg.ADULT_DOMAINS[a]
        assert lo <= adult[a].min() and adult[a].max() < hi
    out = adult.iloc[:50].assign(age=120)
    with pytest.raises(ValueError, match=r"outside its public domain \[15, 95\) given in taxonomies\['age'\]"):
        dg.diffgen(out, xdg.ADULT_PREDICTORS, "income", xdg.adult_taxonomies(domains=xdg.ADULT_DOMAINS), eps=1.0, h=1,
                   classes=xdg.ADULT_CLASSES, rng=0)


@pytest.mark.parametrize("eps,h", [(0.1, 0), (1.0, 0), (0.25, 4), (1.0, 10), (2.0, 16)])
def test_spent_plus_unspent_is_eps_on_full_adult(eps, h):
    from privlib.data import load_adult
    adult = load_adult(split="train")
    tax = xdg.adult_taxonomies(domains=xdg.ADULT_DOMAINS)
    rel = dg.diffgen(adult, xdg.ADULT_PREDICTORS, "income", tax, eps=eps, h=h, classes=xdg.ADULT_CLASSES, rng=h)
    assert rel.eps_spent <= eps * (1 + 1e-12)
    assert rel.eps_spent + rel.eps_unspent == pytest.approx(eps, rel=1e-12)
    n_split = sum(s.split is not None for s in rel.history)
    assert rel.eps_unspent == pytest.approx(rel.eps_prime * (h - n_split))
    rel.ledger.check(eps)


def test_h_zero_categorical_only_identity_holds(table1):
    # eps' is undefined (|A_n| + 2h = 0): Lines 3-11 spend nothing, eps/2 stays unspent
    rel = dg.diffgen(table1, ["job"], "class", {"job": JOB}, eps=0.8, h=0, classes=CLS, rng=0)
    assert rel.eps_spent == pytest.approx(0.4)
    assert rel.eps_spent + rel.eps_unspent == pytest.approx(0.8)
    from privlib.data import ADULT_NUMERIC, load_adult
    cat = [a for a in xdg.ADULT_PREDICTORS if a not in ADULT_NUMERIC]
    rel = dg.diffgen(load_adult(split="train"), cat, "income", xdg.adult_taxonomies(cat), eps=1.0, h=0,
                     classes=xdg.ADULT_CLASSES, rng=0)
    assert rel.eps_spent + rel.eps_unspent == pytest.approx(1.0)


def test_ledger_entries_name_algorithm_lines():
    df = _small_data()
    rel = dg.diffgen(df, SMALL_PRED, "class", SMALL_TAX, eps=1.0, h=4, classes=CLS, rng=2)
    frame = rel.ledger.to_frame()
    assert frame["detail"].str.startswith("Algorithm 1, line ").all()
    assert set(frame["mechanism"]) == {"exponential", "laplace"}
    line12 = [e for e in rel.ledger if _line(e) == "line 12"]
    assert len(line12) == 1 and line12[0].composition == "parallel" and line12[0].eps == 0.5


def test_huge_h_fails_fast_naming_h():
    import time
    from privlib.data import load_adult
    adult = load_adult(split="train").iloc[:200]
    tax = xdg.adult_taxonomies(domains=xdg.ADULT_DOMAINS)
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=r"h: expected an integer <= 1000"):
        dg.diffgen(adult, xdg.ADULT_PREDICTORS, "income", tax, eps=1.0, h=10 ** 6, classes=xdg.ADULT_CLASSES, rng=0)
    with pytest.raises(ValueError, match=r"h: after \d+ specializations the generalized domain"):
        dg.diffgen(adult, xdg.ADULT_PREDICTORS, "income", tax, eps=1.0, h=1000, classes=xdg.ADULT_CLASSES, rng=0)
    assert time.perf_counter() - t0 < 5
    with pytest.raises(TypeError, match="h"):
        dg.diffgen(adult, xdg.ADULT_PREDICTORS, "income", tax, eps=1.0, h=2.5, classes=xdg.ADULT_CLASSES, rng=0)


def test_interval_too_narrow_to_split_is_not_a_candidate():
    df = pd.DataFrame({"x": [0.0] * 6, "class": ["a", "b"] * 3})
    # the integer domain [0, 2) has exactly one public split point (1); [0, 1) with step 1 none
    with pytest.raises(ValueError, match="h: no candidate left"):
        dg.diffgen(df, ["x"], "class", {"x": (0, 2)}, eps=1.0, h=3, classes=["a", "b"], rng=0)
    with pytest.raises(ValueError, match="taxonomies"):
        dg.diffgen(df, ["x"], "class", {"x": (0, 1, 1.0)}, eps=1.0, h=1, classes=["a", "b"], rng=0)
    # an explicit grid (low, high, step): [0, 1) with step 0.5 has one split point
    with pytest.raises(ValueError, match="h: no candidate left"):
        dg.diffgen(df, ["x"], "class", {"x": (0, 1, 0.5)}, eps=1.0, h=3, classes=["a", "b"], rng=0)
    with pytest.raises(ValueError, match="taxonomies"):
        dg.diffgen(df, ["x"], "class", {"x": (0, 1, 0.0)}, eps=1.0, h=1, classes=["a", "b"], rng=0)


# ---------------------------------------------------------------- phase 2: source's trees, shared folds
def test_adult_taxonomies_selects_the_hierarchy_set():
    from privlib.data import load_hierarchy
    src = xdg.adult_taxonomies(domains=xdg.ADULT_DOMAINS)              # default: the source's trees
    book = xdg.adult_taxonomies(domains=xdg.ADULT_DOMAINS, hierarchy_set="book")
    for a in ("workclass", "education", "native_country", "race"):
        assert src[a].leaves == load_hierarchy(a, hierarchy_set="tkde2007").leaves
        assert book[a].leaves == load_hierarchy(a, hierarchy_set="book").leaves
    # the sets differ (e.g. race: White / Colored in Fung et al.; flat in the book's)
    assert src["race"].children(src["race"].root) != book["race"].children(book["race"].root)
    assert src["age"] == book["age"] == (15.0, 95.0)


def test_adult_domains_are_the_shipped_public_domains():
    from privlib.data import adult_domains
    assert adult_domains(hierarchy_set="tkde2007") == xdg.ADULT_DOMAINS


def test_fold_preparation_equals_preparing_the_fold_from_scratch():
    # cross_validate encodes the table once and slices it per fold: the same TDS releases and
    # CA as running tds + accuracy on the fold's DataFrames (TDS is deterministic)
    df = _small_data(300, seed=5)
    cv = xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, k=5, folds=3, repeats=2, rng=4, classes=CLS)
    parts = xdg.cv_folds(len(df), folds=3, repeats=2, rng=spawn(4, 2)[0])
    for r in range(2):
        for f in range(3):
            tr = np.sort(np.concatenate([p for q, p in enumerate(parts[r]) if q != f]))
            te = np.sort(parts[r][f])
            rel = dg.tds(df.iloc[tr], SMALL_PRED, "class", SMALL_TAX, k=5)
            got = cv.loc[(cv["repeat"] == r) & (cv["fold"] == f), "ca"].item()
            assert got == dg.accuracy(rel, df.iloc[te])


def test_cv_folds_partition_the_records():
    parts = xdg.cv_folds(23, folds=4, repeats=3, rng=0)
    assert len(parts) == 3 and all(len(p) == 4 for p in parts)
    for p in parts:
        assert sorted(np.concatenate(p).tolist()) == list(range(23))
    assert not np.array_equal(parts[0][0], parts[1][0])
    with pytest.raises(ValueError, match="folds"):
        xdg.cv_folds(3, folds=4, rng=0)


def test_cross_validate_same_results_for_one_or_two_workers():
    df = _small_data(300, seed=6)
    kw = dict(eps_values=[0.5, 1.0], h=3, k=5, folds=3, repeats=2, rng=9, classes=CLS,
              tds={"job only": (10, ["job"])})
    a = xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, n_jobs=1, **kw)
    b = xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(a.drop(columns="seconds"), b.drop(columns="seconds"))
    assert len(a) == (2 + 1 + 1) * 3 * 2


def test_cross_validate_several_tds_setups_on_the_same_folds():
    df = _small_data(300, seed=3)
    kw = dict(folds=3, repeats=2, rng=0, classes=CLS)
    cv = xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, eps_values=[1.0], h=3, k=5,
                           tds={"job only": (10, ["job"])}, **kw)
    assert cv.groupby("method").size().to_dict() == {"diffgen": 6, "tds": 6, "job only": 6}
    alone = xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, k=10, qid=["job"], **kw)
    assert np.array_equal(cv.loc[cv["method"] == "job only", "ca"].to_numpy(), alone["ca"].to_numpy())
    # the DiffGen rows do not depend on the TDS set-ups nor on the number of workers
    dgen = xdg.cross_validate(df, SMALL_PRED, "class", SMALL_TAX, eps_values=[1.0], h=3, n_jobs=2, **kw)
    assert np.array_equal(cv.loc[cv["method"] == "diffgen", "ca"].to_numpy(), dgen["ca"].to_numpy())


# ------------------------------------------- chapter 3's seeds, timings, scores and contingency table
def test_sweep_seeds_are_spawned_protocols():
    df = _small_data(300, seed=2)
    train, test = df.iloc[:200], df.iloc[200:]
    kw = dict(eps_values=[1.0], h_values=[2, 3], runs=2, classes=CLS)
    both = xdg.sweep(train, test, SMALL_PRED, "class", SMALL_TAX, seeds=2, rng=9, **kw)
    assert both.groupby("seed").size().tolist() == [4, 4]
    for s in (0, 1):
        one = xdg.sweep(train, test, SMALL_PRED, "class", SMALL_TAX, seeds=1, rng=spawn(9, 2)[s], **kw)
        got = both[both["seed"] == s].drop(columns=["seed", "seconds"]).reset_index(drop=True)
        pd.testing.assert_frame_equal(got, one.drop(columns=["seed", "seconds"]))
    with pytest.raises(ValueError, match="seeds"):
        xdg.sweep(train, test, SMALL_PRED, "class", SMALL_TAX, seeds=0, rng=9, **kw)
    # more seeds added to seeds already run: seed s's rows are those of the full sweep
    three = xdg.sweep(train, test, SMALL_PRED, "class", SMALL_TAX, seeds=3, rng=9, **kw)
    later = xdg.sweep(train, test, SMALL_PRED, "class", SMALL_TAX, seeds=3, first_seed=1, rng=9, **kw)
    pd.testing.assert_frame_equal(later.drop(columns="seconds"),
                                  three[three["seed"] >= 1].drop(columns="seconds").reset_index(drop=True))
    for bad in (3, -1):
        with pytest.raises(ValueError, match="first_seed"):
            xdg.sweep(train, test, SMALL_PRED, "class", SMALL_TAX, seeds=3, first_seed=bad, rng=9, **kw)


def test_random_split_and_split_accuracy():
    df = _small_data(300, seed=5)
    tr, te = xdg.random_split(df, rng=0)
    assert (len(tr), len(te)) == (200, 100) and not set(tr.index) & set(te.index)
    assert tr.index.is_monotonic_increasing and te.index.is_monotonic_increasing
    for bad in (0.0, 1.0, 0.001):
        with pytest.raises(ValueError, match="train_share"):
            xdg.random_split(df, train_share=bad, rng=0)
    with pytest.raises(TypeError, match="df"):
        xdg.random_split(df.to_numpy(), rng=0)
    with pytest.raises(TypeError, match="rng"):
        xdg.random_split(df, rng=1.5)
    kw = dict(eps=1.0, h=2, runs=2, seeds=2, classes=CLS, rng=4)
    one = xdg.split_accuracy(df, SMALL_PRED, "class", SMALL_TAX, **kw)
    two = xdg.split_accuracy(df, SMALL_PRED, "class", SMALL_TAX, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(one, two)
    assert one["n_train"].tolist() == [200, 200] and one[["ba", "la", "ca"]].stack().between(0, 1).all()
    # seed s: the split of spawn(spawn(rng, seeds)[s], 2)[0], BA on it
    split_seed = spawn(spawn(4, 2)[1], 2)[0]
    tr1, te1 = xdg.random_split(df, rng=np.random.default_rng(split_seed))
    assert one.loc[1, "ba"] == dg.raw_data_accuracy(tr1, te1, SMALL_PRED, "class", SMALL_TAX)
    assert one.loc[1, "la"] == dg.lower_bound_accuracy(tr1, te1, "class")
    runs = xdg.sweep(tr1, te1, SMALL_PRED, "class", SMALL_TAX, eps_values=[1.0], h_values=[2], runs=2, classes=CLS,
                     rng=spawn(spawn(4, 2)[1], 2)[1])
    assert one.loc[1, "ca"] == runs["ca"].mean()
    for key, value, exc in (("seeds", 0, ValueError), ("runs", 0, ValueError), ("eps", 0, ValueError),
                            ("utility", "gini", ValueError), ("train_share", 1.0, ValueError),
                            ("n_jobs", 0, ValueError), ("rng", 1.5, TypeError)):
        with pytest.raises(exc, match=key):
            xdg.split_accuracy(df, SMALL_PRED, "class", SMALL_TAX, **{**kw, key: value})
    with pytest.raises(TypeError, match="df"):
        xdg.split_accuracy(df.to_numpy(), SMALL_PRED, "class", SMALL_TAX, **kw)


def test_scalability_repeats():
    df = _small_data(60, seed=0)
    out = xdg.scalability(df, SMALL_PRED, "class", SMALL_TAX, sizes=[100], h=2, repeats=2, classes=CLS, rng=0)
    assert out["records"].tolist() == [100] and (out["seconds"] > 0).all()
    with pytest.raises(ValueError, match="repeats"):
        xdg.scalability(df, SMALL_PRED, "class", SMALL_TAX, sizes=[100], repeats=0, classes=CLS, rng=0)


def test_score_sensitivity_bounds():
    rng = np.random.default_rng(0)
    for _ in range(50):
        c = rng.integers(0, 6, size=(rng.integers(1, 4), 2))
        assert xdg.score_sensitivity(c, utility="max") <= 1.0
        assert xdg.score_sensitivity(c, utility="infogain") <= 1.0 + 1e-12   # log2 of 2 classes
    assert xdg.score_sensitivity([[4, 3], [0, 1]], utility="max") == 1.0
    with pytest.raises(ValueError, match="utility"):
        xdg.score_sensitivity([[1, 2]], utility="gini")
    with pytest.raises(ValueError, match="child_counts"):
        xdg.score_sensitivity([[1, -2]], utility="max")


def test_contingency_accuracy():
    df = _small_data(400, seed=4)
    train, test = df.iloc[:300], df.iloc[300:]
    out = xdg.contingency_accuracy(train, test, SMALL_PRED, "class", SMALL_TAX, eps=1e6, classes=CLS, rng=0)
    assert out["cells"] == 4 * 2 and out["released_empty"] == 0   # job leaves x one interval each x class
    assert out["real_weight"] == len(train) and out["ledger"].total() == pytest.approx(1e6)
    noisy = xdg.contingency_accuracy(train, test, SMALL_PRED, "class", SMALL_TAX, eps=0.01, classes=CLS, rng=1,
                                     sample=3)
    assert 0 <= noisy["ca"] <= 1 and noisy["noise_weight"] >= 0
    with pytest.raises(ValueError, match="eps"):
        xdg.contingency_accuracy(train, test, SMALL_PRED, "class", SMALL_TAX, eps=0, classes=CLS, rng=0)
    with pytest.raises(ValueError, match="sample"):
        xdg.contingency_accuracy(train, test, SMALL_PRED, "class", SMALL_TAX, eps=1.0, classes=CLS, rng=0, sample=0)
