"""Tests of privlib.models on the source's Tables 2, 4 and 5, against brute force, at scale,
and every bad-input error."""
import time

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

from privlib.closeness import emd, emd_equal, emd_ordered
from privlib.hierarchy import Hierarchy
from privlib.models import (class_counts, k_anonymity, l_diversity, l_diversity_counts, sensitive_posterior,
                            t_closeness, t_closeness_counts)
from source_examples import FIGURE1_BODY

QI = ["zip", "age"]
DISEASE = FIGURE1_BODY      # the source's Figure 1, below its root


@pytest.fixture(scope="module")
def disease():
    return Hierarchy.from_dict(DISEASE, name="disease")


@pytest.fixture
def table2():
    return pd.DataFrame({
        "zip": ["476**"] * 3 + ["4790*"] * 3 + ["476**"] * 3,
        "age": ["2*"] * 3 + [">=40"] * 3 + ["3*"] * 3,
        "disease": ["heart disease"] * 3 + ["flu", "heart disease", "cancer"] + ["heart disease", "cancer", "cancer"]})


@pytest.fixture
def table4():
    return pd.DataFrame({
        "zip": ["476**"] * 3 + ["4790*"] * 3 + ["476**"] * 3,
        "age": ["2*"] * 3 + [">=40"] * 3 + ["3*"] * 3,
        "salary": [3, 4, 5, 6, 11, 8, 7, 9, 10],
        "disease": ["gastric ulcer", "gastritis", "stomach cancer", "gastritis", "flu", "bronchitis",
                    "bronchitis", "pneumonia", "stomach cancer"]})


@pytest.fixture
def table5(table4):
    t = table4.copy()
    t["zip"] = ["4767*", "4760*", "4767*", "4790*", "4790*", "4790*", "4760*", "4767*", "4760*"]
    t["age"] = ["<=40"] * 3 + [">=40"] * 3 + ["<=40"] * 3
    return t


def test_table2_is_3_anonymous_but_not_diverse(table2):
    k = k_anonymity(table2, QI)
    assert k.k == 3 and k.n_classes == 3 and k.holds(3) and not k.holds(4)
    d = l_diversity(table2, QI, "disease")
    assert d.l == 1 and d.per_class.loc[("476**", "2*")] == 1 and d.per_class.loc[("4790*", ">=40")] == 3


def test_table4_is_3_diverse(table4):
    assert l_diversity(table4, QI, "disease").l == 3
    e = l_diversity(table4, QI, "disease", kind="entropy")
    # class (476**, 3*) has bronchitis, pneumonia, stomach cancer: three distinct -> exp(H) = 3
    assert e.l == pytest.approx(3.0) and e.holds(3)
    r = l_diversity(table4, QI, "disease", kind="recursive", c=2)
    assert r.l == 3


def test_table5_closeness_salary_and_disease(table5, disease):
    ts = t_closeness(table5, QI, "salary", distance="ordered")
    assert ts.t == pytest.approx(1 / 6)                                   # slides: 0.167
    assert sorted(ts.per_class.to_numpy()) == pytest.approx([1 / 12, 1 / 6, 1 / 6])
    td = t_closeness(table5, QI, "disease", distance="hierarchical", hierarchy=disease)
    assert td.t == pytest.approx(8 / 27)                                  # slides say 0.278 (see chapter)
    assert sorted(td.per_class.to_numpy()) == pytest.approx([5 / 27, 7 / 27, 8 / 27])
    U = {v: 1 / 6 for v in table5["disease"].unique()}
    tu = t_closeness(table5, QI, "disease", distance="hierarchical", hierarchy=disease, q=U)
    assert tu.per_class.to_numpy() == pytest.approx([5 / 18] * 3)       # the slides' 0.278
    assert td.holds(0.3) and not td.holds(0.28)


def test_t_closeness_matches_linear_program_per_class(table5, disease):
    td = t_closeness(table5, QI, "disease", distance="hierarchical", hierarchy=disease)
    G = disease.distance_matrix()
    _, counts, dom = class_counts(table5, QI, "disease", sa_values=disease.leaves)
    C = counts.toarray()
    for i, row in enumerate(C):
        assert td.per_class.iloc[i] == pytest.approx(emd(row / row.sum(), td.q.to_numpy(), G), abs=1e-9)


def test_equal_distance_and_domain(table4):
    te = t_closeness(table4, QI, "disease", distance="equal")
    assert te.per_class.loc[("476**", "2*")] == pytest.approx(4 / 9)     # all mass on 3 of 6 values
    # an explicit, larger ordered domain changes the normaliser m - 1
    to = t_closeness(table4, QI, "salary", distance="ordered", sa_values=range(3, 12))
    assert to.t == pytest.approx(3 / 8)
    to2 = t_closeness(table4, QI, "salary", distance="ordered", sa_values=range(0, 12))
    assert to2.t == pytest.approx(3 / 8 * 8 / 11)


def test_entropy_and_recursive_against_brute_force():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"g": rng.integers(0, 40, 600), "s": rng.integers(0, 6, 600)})
    ent = l_diversity(df, ["g"], "s", kind="entropy").per_class
    rec = l_diversity(df, ["g"], "s", kind="recursive", c=1.5).per_class
    for g, sub in df.groupby("g"):
        p = sub["s"].value_counts(normalize=True).to_numpy()
        assert ent.loc[g] == pytest.approx(np.exp(-(p * np.log(p)).sum()))
        r = np.sort(sub["s"].value_counts().to_numpy())[::-1]
        best = 0
        for l in range(1, len(r) + 1):
            if r[0] < 1.5 * r[l - 1:].sum():
                best = l
        assert rec.loc[g] == best


def test_recursive_can_fail_even_for_l_1():
    counts = np.array([[5.0, 0.0]])
    assert l_diversity_counts(counts, kind="recursive", c=0.5)[0] == 0
    assert l_diversity_counts(counts, kind="recursive", c=2.0)[0] == 1


def test_posteriors_of_the_attacks(table2):
    bob = sensitive_posterior(table2, QI, "disease", {"zip": "476**", "age": "2*"})
    assert bob.to_dict() == {"heart disease": 1.0}
    carl = sensitive_posterior(table2, QI, "disease", {"zip": "476**", "age": "3*"})
    assert carl["cancer"] == pytest.approx(2 / 3)
    carl_bk = sensitive_posterior(table2, QI, "disease", {"zip": "476**", "age": "3*"}, knowledge={"heart disease": 0.1})
    assert carl_bk["cancer"] == pytest.approx(2 / 2.1)


def test_merging_classes_never_increases_t_beyond_the_max():
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"a": rng.integers(0, 20, 2000), "s": rng.integers(0, 8, 2000)})
    fine = t_closeness(df, ["a"], "s", distance="ordered")
    df["b"] = df["a"] // 4                      # a generalization: merge groups of 4 classes
    coarse = t_closeness(df, ["b"], "s", distance="ordered")
    assert coarse.t <= fine.t + 1e-12


def test_vectorised_100000_classes_over_1000_values():
    rng = np.random.default_rng(3)
    n, m, nc = 150_000, 1000, 100_000
    df = pd.DataFrame({"c": np.concatenate([np.arange(nc), rng.integers(0, nc, n - nc)]),
                       "s": rng.integers(0, m, n)})
    t0 = time.perf_counter()
    res = t_closeness(df, ["c"], "s", distance="ordered")
    elapsed = time.perf_counter() - t0
    assert len(res.per_class) == nc
    assert elapsed < 20  # a loop over classes in Python would take minutes
    # spot-check a few classes against the single-distribution closed form
    q = res.q.to_numpy()
    for c in (0, 17, 99_999):
        p = np.bincount(df.loc[df["c"] == c, "s"], minlength=m) / (df["c"] == c).sum()
        assert res.per_class.loc[c] == pytest.approx(emd_ordered(p, q))


@pytest.mark.parametrize("m", [2, 3, 9, 50])
def test_sparse_closed_forms_equal_the_dense_ones(m):
    rng = np.random.default_rng(m)
    counts = rng.poisson(0.4, size=(300, m)).astype(float)
    counts[:5, -1] = 0.0
    counts[counts.sum(axis=1) == 0, rng.integers(0, m)] = 1.0
    counts[counts.sum(axis=1) == 0, 0] = 1.0
    counts[5, :] = 0.0
    counts[5, -1] = 3.0                      # all mass on the last value
    counts[6, :] = 0.0
    counts[6, 0] = 2.0                       # all mass on the first value
    q = rng.dirichlet(np.ones(m))
    q[min(1, m - 1)] = 0.0
    q /= q.sum()
    P = counts / counts.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(t_closeness_counts(sparse.csr_matrix(counts), q, distance="ordered"), emd_ordered(P, q),
                               atol=1e-12)
    np.testing.assert_allclose(t_closeness_counts(counts, q, distance="equal"), emd_equal(P, q), atol=1e-12)


# ---------------------------------------------------------------- bad input
def test_empty_equivalence_class_is_refused():
    counts = np.array([[1.0, 2.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match="equivalence class 1 is empty"):
        t_closeness_counts(counts, [0.5, 0.5], distance="equal")
    with pytest.raises(ValueError, match="equivalence class 1 is empty"):
        l_diversity_counts(sparse.csr_matrix(counts), kind="distinct")


def test_empty_table_is_refused(table2):
    with pytest.raises(ValueError, match="df: expected at least one row"):
        k_anonymity(table2.iloc[:0], QI)


def test_c_must_be_positive(table4):
    with pytest.raises(ValueError, match="c: expected a number > 0, got 0"):
        l_diversity(table4, QI, "disease", kind="recursive", c=0)
    with pytest.raises(ValueError, match="c: expected a number > 0, got -1"):
        l_diversity(table4, QI, "disease", kind="recursive", c=-1)
    with pytest.raises(ValueError, match="c: recursive .* needs a constant"):
        l_diversity(table4, QI, "disease", kind="recursive")


def test_l_must_be_at_least_one(table4):
    res = l_diversity(table4, QI, "disease")
    with pytest.raises(ValueError, match="l: expected a number >= 1, got 0.5"):
        res.holds(0.5)
    with pytest.raises(ValueError, match="k: expected a number >= 1, got 0"):
        k_anonymity(table4, QI).holds(0)


def test_unknown_kind_distance_and_columns(table4, disease):
    with pytest.raises(ValueError, match="kind: expected one of"):
        l_diversity(table4, QI, "disease", kind="probabilistic")
    with pytest.raises(ValueError, match="distance: expected one of"):
        t_closeness(table4, QI, "disease", distance="euclid")
    with pytest.raises(ValueError, match="qi: unknown column"):
        k_anonymity(table4, ["zipcode"])
    with pytest.raises(ValueError, match="hierarchy: distance='hierarchical' needs"):
        t_closeness(table4, QI, "disease", distance="hierarchical")


def test_value_missing_from_hierarchy_is_refused(table4, disease):
    t = table4.copy()
    t.loc[0, "disease"] = "measles"
    with pytest.raises(ValueError, match="'measles' of attribute 'disease'"):
        t_closeness(t, QI, "disease", distance="hierarchical", hierarchy=disease)


def test_bad_reference_distribution(table4):
    with pytest.raises(ValueError, match="q: expected probabilities summing to 1"):
        t_closeness(table4, QI, "disease", q={"flu": 0.5})
    with pytest.raises(ValueError, match="q: value.*measles"):
        t_closeness(table4, QI, "disease", q={"measles": 1.0})
    with pytest.raises(ValueError, match="sa: value"):
        t_closeness(table4, QI, "salary", distance="ordered", sa_values=[3, 4, 5])


def test_nan_in_qi_is_refused(table4):
    t = table4.copy()
    t.loc[0, "zip"] = np.nan
    with pytest.raises(ValueError, match="missing values"):
        k_anonymity(t, QI)


def test_posterior_bad_match(table2):
    with pytest.raises(ValueError, match="no equivalence class"):
        sensitive_posterior(table2, QI, "disease", {"zip": "999**", "age": "2*"})
    with pytest.raises(ValueError, match="match: expected a mapping with exactly the QI"):
        sensitive_posterior(table2, QI, "disease", {"zip": "476**"})


# ---------------------------------------------------------------------------- regressions
SAL_TEXT = ["3K", "4K", "5K", "6K", "11K", "8K", "7K", "9K", "10K"]     # Table 3's salaries, as text
SAL_ORDER = [f"{i}K" for i in range(3, 12)]


def _table4_text():
    return pd.DataFrame({"zip": ["476**"] * 3 + ["4790*"] * 3 + ["476**"] * 3,
                         "age": ["2*"] * 3 + [">=40"] * 3 + ["3*"] * 3,
                         "salary": SAL_TEXT[:3] + ["6K", "11K", "8K"] + ["7K", "9K", "10K"]})


def test_ordered_distance_on_text_needs_an_explicit_order():
    t4 = _table4_text()
    with pytest.raises(ValueError, match=r"sa_values: the ordered distance on the non-numeric column 'salary'"):
        t_closeness(t4, QI, "salary", distance="ordered")       # old code: sorted '10K' < '11K' < '3K' ...
    given = t_closeness(t4, QI, "salary", distance="ordered", sa_values=SAL_ORDER)
    numeric = t_closeness(t4.assign(salary=t4["salary"].str[:-1].astype(int)), QI, "salary", distance="ordered")
    np.testing.assert_allclose(given.per_class.to_numpy(), numeric.per_class.to_numpy(), atol=1e-12)
    assert given.per_class[("476**", "2*")] == pytest.approx(3 / 8)      # slide: 27/72
    assert given.per_class[("4790*", ">=40")] == pytest.approx(1 / 6)      # slide: 12/72
    cat = t4.assign(salary=pd.Categorical(t4["salary"], categories=SAL_ORDER, ordered=True))
    np.testing.assert_allclose(t_closeness(cat, QI, "salary", distance="ordered").per_class.to_numpy(),
                               numeric.per_class.to_numpy(), atol=1e-12)
    # the equal distance needs no order
    assert t_closeness(t4, QI, "salary", distance="equal").t == pytest.approx(2 / 3)


def test_domain_with_the_hierarchical_distance_is_refused(table4, disease):
    with pytest.raises(ValueError, match="sa_values: the hierarchical distance"):
        t_closeness(table4, QI, "disease", distance="hierarchical", hierarchy=disease, sa_values=disease.leaves)


def test_t_outside_unit_interval_is_refused(table4):
    res = t_closeness(table4, QI, "disease", distance="equal")
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="t: expected a probability"):
            res.holds(bad)


def test_posterior_refuses_nan_weights_and_nan_sensitive_values(table2):
    carl = {"zip": "476**", "age": "3*"}
    for w in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError, match="knowledge"):
            sensitive_posterior(table2, QI, "disease", carl, knowledge={"heart disease": w})
    t = table2.copy()
    t.loc[0, "disease"] = np.nan
    with pytest.raises(ValueError, match=r"missing values \(NaN\) in column\(s\) \['disease'\]"):
        sensitive_posterior(t, QI, "disease", carl)


def test_counts_with_nan_are_refused():
    with pytest.raises(ValueError, match="counts: expected finite counts"):
        l_diversity_counts(np.array([[1.0, np.nan], [2.0, 1.0]]), kind="entropy")
    with pytest.raises(ValueError, match="counts: expected finite counts"):
        t_closeness_counts(np.array([[1.0, np.inf]]), [0.5, 0.5])


def test_duplicated_column_names_are_refused(table2):
    dup = pd.concat([table2, table2[["age"]]], axis=1)
    for f in (lambda: k_anonymity(dup, QI), lambda: l_diversity(dup, QI, "disease"),
              lambda: t_closeness(dup, QI, "disease")):
        with pytest.raises(ValueError, match=r"df: duplicated column name\(s\) \['age'\]"):
            f()


def test_reference_distribution_as_a_series_is_aligned_by_value(table4, disease):
    q_series = table4["disease"].value_counts(normalize=True)         # ordered by frequency, not by value
    q_dict = q_series.to_dict()
    for dist, h in (("equal", None), ("hierarchical", disease)):
        by_series = t_closeness(table4, QI, "disease", distance=dist, hierarchy=h, q=q_series)
        by_dict = t_closeness(table4, QI, "disease", distance=dist, hierarchy=h, q=q_dict)
        np.testing.assert_allclose(by_series.per_class.to_numpy(), by_dict.per_class.to_numpy(), atol=1e-12)
    with pytest.raises(ValueError, match="q: value"):
        t_closeness(table4, QI, "disease", q=pd.Series({"measles": 1.0}))


# ---------------------------------------------------------------------------- requirement objects
def _counts_of(table, sa, sa_values=None):
    keys, counts, dom = class_counts(table, QI, sa, sa_values=sa_values)
    M = counts.toarray()
    return M.sum(axis=1), M, dom


def test_requirements_agree_with_the_table_checks(table4, table5, disease):
    from privlib.requirements import KAnonymity, LDiversity, TCloseness
    for table in (table4, table5):
        sizes, M, _ = _counts_of(table, "disease")
        k = k_anonymity(table, QI)
        for kk in (1, 2, 3, 4):
            assert KAnonymity(kk).holds(sizes) == k.holds(kk)
            np.testing.assert_array_equal(KAnonymity(kk).satisfied(sizes), k.sizes.to_numpy() >= kk)
        for kind, c in (("distinct", None), ("entropy", None), ("recursive", 2), ("frequency", None)):
            rep = l_diversity(table, QI, "disease", kind=kind, c=c)
            for l in (1, 1.5, 2, 3, 4):
                if kind == "recursive" and l != int(l):
                    continue
                req = LDiversity(l, kind=kind, c=c)
                assert req.holds(sizes, M) == rep.holds(l), (kind, l)
                np.testing.assert_array_equal(req.satisfied(sizes, M), rep.per_class.to_numpy() >= l - 1e-12)
        sizes, M, dom = _counts_of(table, "disease", disease.leaves)
        q = M.sum(axis=0) / M.sum()
        rep = t_closeness(table, QI, "disease", distance="hierarchical", hierarchy=disease)
        req = TCloseness(0.3, distance="hierarchical", hierarchy=disease)
        np.testing.assert_allclose(req.distances(sizes, M, q=q), rep.per_class.to_numpy(), atol=1e-12)
        np.testing.assert_array_equal(req.distances(sizes, M), req.distances(sizes, M, q=q))   # default q
        for t in (0.1, 0.2, 0.3, 0.5):
            assert TCloseness(t, distance="hierarchical", hierarchy=disease).holds(sizes, M, q=q) == rep.holds(t)
        sizes, M, dom = _counts_of(table, "salary")
        rep = t_closeness(table, QI, "salary", distance="ordered")
        q = rep.q.to_numpy()
        for t in (0.1, 0.2, 0.3, 0.5):
            assert TCloseness(t, distance="ordered").holds(sizes, M, q=q) == rep.holds(t)


def test_frequency_l_diversity():
    from privlib.requirements import LDiversity
    counts = np.array([[2, 2, 1], [4, 1, 0], [1, 1, 0]])
    sizes = counts.sum(axis=1)
    np.testing.assert_array_equal(LDiversity(2, kind="frequency").satisfied(sizes, counts), [True, False, True])
    np.testing.assert_array_equal(l_diversity_counts(counts, kind="frequency"), [2.5, 1.25, 2.0])
    df = pd.DataFrame({"g": [0] * 5 + [1] * 5, "s": list("aabbc") + list("aaaab")})
    rep = l_diversity(df, ["g"], "s", kind="frequency")
    assert rep.kind == "frequency" and rep.l == pytest.approx(1.25) and not rep.holds(2) and rep.holds(1.25)
    assert LDiversity(2, kind="frequency").label() == "frequency 2-diversity"


def test_requirements_as_mondrian_calls_them():
    """Vectorised over nodes, empty nodes included: KAnonymity(k).satisfied(cnt),
    LDiversity(l, kind=...).satisfied(cnt, hist), TCloseness(t, distance=...).satisfied(cnt, hist, q=root_p)."""
    from privlib.closeness import emd_equal, emd_ordered
    from privlib.requirements import KAnonymity, LDiversity, TCloseness
    rng = np.random.default_rng(0)
    hist = rng.integers(0, 4, size=(50, 6)).astype(float)
    hist[3] = 0.0
    cnt = hist.sum(axis=1).astype(np.int64)
    root_p = rng.dirichlet(np.ones(6))
    np.testing.assert_array_equal(KAnonymity(5).satisfied(cnt), cnt >= 5)
    np.testing.assert_array_equal(LDiversity(3).satisfied(cnt, hist), (hist > 0).sum(axis=1) >= 3)
    np.testing.assert_array_equal(LDiversity(3, kind="frequency").satisfied(cnt, hist),
                                  (hist.max(axis=1) * 3 <= cnt) & (cnt > 0))
    for distance, f in (("equal", emd_equal), ("ordered", emd_ordered)):
        p = hist / np.maximum(cnt, 1)[:, None]
        p[cnt == 0] = root_p
        np.testing.assert_array_equal(TCloseness(0.2, distance=distance).satisfied(cnt, hist, q=root_p),
                                      f(p, root_p) <= 0.2 + 1e-12)


def test_requirement_validation_and_labels(disease):
    from privlib.requirements import KAnonymity, LDiversity, TCloseness, check_l
    assert KAnonymity(5).label() == "5-anonymity"
    assert LDiversity(3, kind="entropy").label() == "entropy 3-diversity"
    assert LDiversity(3, kind="recursive", c=2).label() == "recursive (2,3)-diversity"
    assert TCloseness(0.2, sa="occupation").label() == "0.2-closeness (occupation)"
    assert check_l(2) == 2.0
    with pytest.raises(ValueError, match="kind: expected one of"):
        LDiversity(2, kind="probabilistic")
    with pytest.raises(ValueError, match="c: recursive"):
        LDiversity(2, kind="recursive")
    with pytest.raises(ValueError, match="hierarchy: distance='hierarchical'"):
        TCloseness(0.2, distance="hierarchical")
    with pytest.raises(TypeError, match="sa: expected a column name"):
        LDiversity(2, sa=["a", "b"])
    with pytest.raises(ValueError, match="counts: l-diversity needs"):
        LDiversity(2).satisfied(np.array([3]))
    with pytest.raises(ValueError, match=r"counts: expected a \(2, S\) matrix"):
        TCloseness(0.2).satisfied(np.array([3, 2]), np.ones((3, 2)))
    with pytest.raises(ValueError, match="sizes: expected a 1-d"):
        KAnonymity(2).satisfied(np.ones((2, 2)))
    with pytest.raises(TypeError):
        LDiversity(3, "entropy")                 # options are keyword-only
    with pytest.raises(TypeError):
        TCloseness(0.2, "ordered")


def test_the_sources_tables_are_the_fixtures(table2, table4, table5, disease):
    from privlib.sources import tcloseness as source
    t3 = source.table3()
    assert t3["salary"].tolist() == table4["salary"].tolist()
    assert t3["disease"].tolist() == table4["disease"].tolist()
    assert source.table1()["disease"].tolist() == table2["disease"].tolist()
    assert source.disease_hierarchy().leaves == disease.leaves
    assert source.disease_hierarchy().leaves == Hierarchy.from_dict(source.FIGURE1).leaves
    t5 = source.table5().sort_index()
    assert t5["salary"].tolist() == table5["salary"].tolist() and t5["disease"].tolist() == table5["disease"].tolist()
    assert t5["zip"].tolist() == table5["zip"].tolist()


@pytest.mark.parametrize("distance", ["equal", "ordered", "hierarchical"])
def test_t_closeness_dense_and_sparse_read_one_formula(distance):
    """TCloseness.distances and t_closeness_counts read the same formula (requirements._emd_rows):
    dense and sparse counts give the same bits, and the closed forms match privlib.closeness."""
    from privlib.closeness import ground_distance
    from privlib.requirements import TCloseness
    h = Hierarchy.from_dict({"*": {"A": ["a1", "a2", "a3"], "B": {"B1": ["b1", "b2"], "B2": ["b3"]}, "C": ["c1"]}})
    hier = h if distance == "hierarchical" else None
    req = TCloseness(0.3, distance=distance, hierarchy=hier)
    for seed in range(5):
        rng = np.random.default_rng(seed)
        M = rng.integers(0, 4, size=(40, len(h.leaves))) * (rng.random((40, len(h.leaves))) < 0.4)
        M[:, 0] += M.sum(axis=1) == 0                          # no empty class for t_closeness_counts
        q = rng.random(M.shape[1])
        q /= q.sum()
        sizes = M.sum(axis=1)
        dense = req.distances(sizes, M, q=q)
        np.testing.assert_array_equal(req.distances(sizes, sparse.csr_matrix(M), q=q), dense)
        np.testing.assert_array_equal(t_closeness_counts(M, q, distance=distance, hierarchy=hier), dense)
        np.testing.assert_array_equal(t_closeness_counts(sparse.csr_matrix(M), q, distance=distance,
                                                         hierarchy=hier), dense)
        np.testing.assert_allclose(dense, ground_distance(distance, hierarchy=hier)(M / sizes[:, None], q),
                                   rtol=0, atol=1e-14)
        M[3] = 0                                                # an empty class: distance 0, dense and sparse
        sizes = M.sum(axis=1)
        for counts in (M, sparse.csr_matrix(M)):
            got = req.distances(sizes, counts, q=q)
            assert got[3] == 0.0
            np.testing.assert_array_equal(np.delete(got, 3), np.delete(dense, 3))
