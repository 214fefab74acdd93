"""Tests of privlib.generalization: encoding, node evaluation against privlib.models on the
generalized table, the lattice search against brute force, monotonicity, and bad input."""

import numpy as np
import pytest

from privlib.data import adult_hierarchies, load_adult, load_hierarchy
from privlib.generalization import (class_ids, discernibility, encode_lattice, evaluate_node, generalize_table,
                                    generalize_to_cut, lattice, search)
from privlib.hierarchy import Hierarchy, HierarchyError
from privlib.models import k_anonymity, l_diversity, t_closeness
from privlib.requirements import KAnonymity, LDiversity, TCloseness

QI = ["age", "workclass", "education", "sex"]
INCOME = ["<=50K", ">50K"]          # the order of the salary classes (the ordered distance needs one)


@pytest.fixture(scope="module")
def adult():
    return load_adult(split="train").iloc[:3000].reset_index(drop=True)


@pytest.fixture(scope="module")
def hier():
    return adult_hierarchies(QI)


@pytest.fixture(scope="module")
def occ():
    return load_hierarchy("occupation")


@pytest.fixture(scope="module")
def enc(adult, hier, occ):
    return encode_lattice(adult, QI, hier, sensitive=["occupation", "income"], sa_domains={"occupation": occ.leaves, "income": INCOME})


def _requirements(occ):
    return [
        [KAnonymity(5)],
        [LDiversity(3, kind="distinct", sa="occupation")],
        [LDiversity(3, kind="entropy", sa="occupation")],
        [LDiversity(3, kind="recursive", c=3, sa="occupation")],
        [KAnonymity(5), TCloseness(0.3, distance="hierarchical", hierarchy=occ, sa="occupation"),
         TCloseness(0.3, distance="ordered", sa="income")],
    ]


def test_encoding_collapses_rows(enc, adult):
    assert enc.n == len(adult)
    assert enc.weight.sum() == len(adult)
    assert len(enc.rows) == len(adult.drop_duplicates(QI))
    assert enc.heights == (4, 2, 3, 1)


def test_lattice_order():
    nodes = lattice([1, 2])
    assert len(nodes) == 6 and nodes[0] == (0, 0) and nodes[-1] == (1, 2)
    assert [sum(L) for L in nodes] == sorted(sum(L) for L in nodes)


def test_evaluate_agrees_with_models_on_the_generalized_table(enc, adult, hier, occ):
    rng = np.random.default_rng(0)
    nodes = lattice(enc.heights)
    for idx in rng.choice(len(nodes), size=6, replace=False):
        L = nodes[idx]
        g = generalize_table(adult, hier, dict(zip(QI, L)))
        k = k_anonymity(g, QI)
        res = evaluate_node(enc, L)
        assert res["n_classes"] == k.n_classes
        assert res["dm"] == pytest.approx(discernibility(k.sizes))
        assert evaluate_node(enc, L, requirements=[KAnonymity(5)])["satisfied"] == k.holds(5)
        for kind, c in (("distinct", None), ("entropy", None), ("recursive", 3)):
            ld = l_diversity(g, QI, "occupation", kind=kind, c=c)
            assert evaluate_node(enc, L, requirements=[LDiversity(3, kind=kind, c=c, sa="occupation")])["satisfied"] == ld.holds(3)
        to = t_closeness(g, QI, "occupation", distance="hierarchical", hierarchy=occ)
        ti = t_closeness(g, QI, "income", distance="ordered", sa_values=INCOME)
        for t in (0.2, 0.3):
            got = evaluate_node(enc, L, requirements=[TCloseness(t, distance="hierarchical", hierarchy=occ, sa="occupation"),
                                    TCloseness(t, distance="ordered", sa="income")])["satisfied"]
            assert got == (to.holds(t) and ti.holds(t))


@pytest.mark.parametrize("i", range(5))
def test_search_equals_brute_force(enc, occ, i):
    reqs = _requirements(occ)[i]
    nodes = lattice(enc.heights)
    full = {L: evaluate_node(enc, L, requirements=reqs) for L in nodes}
    sat = {L for L, r in full.items() if r["satisfied"]}
    minimal = {L for L in sat if not any(
        L[:j] + (L[j] - 1,) + L[j + 1:] in sat for j in range(len(L)) if L[j] > 0)}
    res = search(enc, reqs)
    assert set(res.minimal["levels"]) == minimal
    assert res.n_evaluated + res.n_tagged == res.n_nodes == len(nodes)
    assert res.dm == pytest.approx(min(full[L]["dm"] for L in sat))
    assert res.min_avg_size == pytest.approx(min(full[L]["avg_size"] for L in sat))


@pytest.mark.parametrize("i", range(5))
def test_requirements_are_monotone_under_generalization(enc, occ, i):
    # the generalization property (slide "Properties of t-closeness") that the search relies on
    reqs = _requirements(occ)[i]
    ok = {L: evaluate_node(enc, L, requirements=reqs)["satisfied"] for L in lattice(enc.heights)}
    for L, s in ok.items():
        if s:
            for j in range(len(L)):
                if L[j] < enc.heights[j]:
                    assert ok[L[:j] + (L[j] + 1,) + L[j + 1:]]


def test_unsatisfiable_requirement(enc):
    res = search(enc, [KAnonymity(10_000)])
    assert res.best is None and np.isnan(res.dm) and len(res.minimal) == 0


def test_generalize_to_cut_builds_table2():
    zips = Hierarchy.from_rows([[z, z[:4] + "*", z[:3] + "**", "*"] for z in
                                ["47677", "47602", "47678", "47905", "47909", "47906", "47605", "47673", "47607"]],
                               name="zip")
    col = ["47677", "47602", "47678", "47905", "47909", "47906", "47605", "47673", "47607"]
    got = generalize_to_cut(col, zips, ["476**", "4790*"])
    assert list(got) == ["476**"] * 3 + ["4790*"] * 3 + ["476**"] * 3
    with pytest.raises(ValueError, match="cut: value '47677' .* has 0 ancestors"):
        generalize_to_cut(col, zips, ["4790*"])
    with pytest.raises(ValueError, match="has 2 ancestors"):
        generalize_to_cut(col, zips, ["476**", "4767*", "4790*"])
    with pytest.raises(HierarchyError, match="'12345' of attribute 'zip'"):
        generalize_to_cut(["12345"], zips, ["476**", "4790*"])
    with pytest.raises(HierarchyError, match="'999\\*\\*' of attribute 'zip' is not in its hierarchy"):
        generalize_to_cut(col, zips, ["999**"])
    assert list(generalize_to_cut(col[:3], zips, ["4767*", "4760*"])) == ["4767*", "4760*", "4767*"]


# ---------------------------------------------------------------- bad input
def test_bad_requirements():
    with pytest.raises(ValueError, match="k: expected an integer >= 1, got 0"):
        KAnonymity(0)
    with pytest.raises(ValueError, match="l: expected a number >= 1, got 0"):
        LDiversity(0, sa="occupation")
    with pytest.raises(ValueError, match="c: expected a number > 0, got 0"):
        LDiversity(3, kind="recursive", c=0, sa="occupation")
    with pytest.raises(ValueError, match="c: recursive"):
        LDiversity(3, kind="recursive", sa="occupation")
    with pytest.raises(ValueError, match=r"t: expected a probability in \[0, 1\], got -0.1"):
        TCloseness(-0.1, sa="income")
    with pytest.raises(ValueError, match="hierarchy: distance='hierarchical'"):
        TCloseness(0.2, distance="hierarchical", sa="occupation")


def test_bad_encoding_inputs(adult, hier):
    with pytest.raises(ValueError, match=r"hierarchies: no hierarchy for the QI column\(s\) \['race'\]"):
        encode_lattice(adult, QI + ["race"], hier)
    bad = adult.copy()
    bad.loc[0, "education"] = "Kindergarten"
    with pytest.raises(HierarchyError, match="'Kindergarten' of attribute 'education'"):
        encode_lattice(bad, QI, hier)
    with pytest.raises(ValueError, match="df: expected at least one row"):
        encode_lattice(adult.iloc[:0], QI, hier)


def test_bad_search_inputs(enc):
    with pytest.raises(ValueError, match="requirements: expected at least one"):
        search(enc, [])
    with pytest.raises(ValueError, match="sa: 'race' was not encoded"):
        search(enc, [LDiversity(2, sa="race")])
    with pytest.raises(ValueError, match="levels: expected one level per QI"):
        evaluate_node(enc, (0, 0))
    with pytest.raises(ValueError, match=r"levels: level of 'sex' must be in \[0, 1\], got 2"):
        evaluate_node(enc, (0, 0, 0, 2))


@pytest.mark.parametrize("i", range(5))
def test_top_down_and_bottom_up_agree(enc, occ, i):
    reqs = _requirements(occ)[i]
    up, down = search(enc, reqs), search(enc, reqs, direction="top-down")
    assert list(up.minimal["levels"]) == list(down.minimal["levels"])
    assert up.best == down.best and up.dm == down.dm and up.min_avg_size == down.min_avg_size
    assert down.n_evaluated + down.n_tagged == down.n_nodes


def test_bad_direction(enc):
    with pytest.raises(ValueError, match="direction: expected one of"):
        search(enc, [KAnonymity(2)], direction="sideways")


def test_class_ids_match_evaluate(enc):
    from privlib.generalization import class_ids
    for L in [(0, 0, 0, 0), (2, 1, 1, 0), (4, 2, 3, 1)]:
        ids, nc = class_ids(enc, L)
        assert len(ids) == len(enc.rows) and ids.max() == nc - 1
        assert nc == evaluate_node(enc, L)["n_classes"]


# ---------------------------------------------------------------------------- regressions
def _wide_table(pairs=8, n_qi=9, leaves=256):
    """Pairs of records equal on QIs 1..8 (= the pair's number) and differing on QI 0 (0 / 1).

    The bottom node is 1-anonymous; generalizing QI 0 makes it 2-anonymous; with QI 0 kept,
    every other QI must be suppressed.  256-leaf hierarchies on 9 QIs give a mixed-radix key
    range of 256**9 = 2**72, past int64.
    """
    import pandas as pd
    qi = [f"q{j}" for j in range(n_qi)]
    cols = {qi[0]: np.tile([0, 1], pairs)}
    for j in range(1, n_qi):
        cols[qi[j]] = np.repeat(np.arange(pairs) * 30 % leaves, 2)
    df = pd.DataFrame(cols)
    h = {a: Hierarchy.from_rows([[v, "*"] for v in range(leaves)], name=a) for a in qi}
    return df, qi, h


def test_group_key_does_not_overflow_with_9_qis_of_256_leaves():
    df, qi, h = _wide_table()
    enc = encode_lattice(df, qi, h)
    assert np.prod([float(w[0]) for w in enc.widths]) >= 2.0 ** 63
    bottom = (0,) * 9
    res = evaluate_node(enc, bottom, requirements=[KAnonymity(2)])
    assert res["n_classes"] == len(df) and not res["satisfied"]       # old code: 8 classes, 2-anonymous
    ids, nc = class_ids(enc, bottom)
    assert nc == len(df) and len(set(ids.tolist())) == len(df)
    assert evaluate_node(enc, (1,) + (0,) * 8, requirements=[KAnonymity(2)])["satisfied"]
    for direction in ("bottom-up", "top-down"):
        r = search(enc, [KAnonymity(2)], direction=direction)
        assert set(r.minimal["levels"]) == {(1,) + (0,) * 8, (0,) + (1,) * 8}
        assert r.best == (1,) + (0,) * 8 and r.dm == 8 * 2 ** 2
    # agrees with privlib.models (pandas groupby) on the published table
    assert k_anonymity(df, qi).k == 1


def test_group_codes_matches_np_unique_past_the_bound():
    # through the public API: 10 QIs of 256 values each (mixed-radix key 256**10 > 2**62)
    import pandas as pd
    rng = np.random.default_rng(7)
    codes = rng.integers(0, 256, size=(500, 10))
    codes[250:, 1:] = codes[:250, 1:]                 # rows that differ only in the first column
    cols = [f"q{j}" for j in range(10)]
    flat = Hierarchy.from_dict({"*": list(range(256))})
    e = encode_lattice(pd.DataFrame(codes, columns=cols), cols, {c: flat for c in cols})
    ids, nc = class_ids(e, (0,) * 10)
    uniq, ref = np.unique(e.rows, axis=0, return_inverse=True)
    assert nc == len(uniq) == len(np.unique(codes, axis=0))
    np.testing.assert_array_equal(ids, ref.ravel())
    np.testing.assert_array_equal(e.rows, uniq)


def test_ordered_t_closeness_on_text_needs_an_explicit_order(adult, hier):
    with pytest.raises(ValueError, match=r"sa_domains: the ordered distance on 'income' needs an explicit order"):
        search(encode_lattice(adult, QI, hier, sensitive=["income"]), [TCloseness(0.3, distance="ordered", sa="income")])
    e = encode_lattice(adult, QI, hier, sensitive=["income"])
    with pytest.raises(ValueError, match="sa_domains"):
        evaluate_node(e, (0, 0, 0, 0), requirements=[TCloseness(0.3, distance="ordered", sa="income")])
    # an ordered categorical carries its order
    import pandas as pd
    cat = adult.assign(income=pd.Categorical(adult["income"], categories=INCOME, ordered=True))
    ec = encode_lattice(cat, QI, hier, sensitive=["income"])
    assert ec.sa_domain["income"] == tuple(INCOME)
    assert evaluate_node(ec, (1, 1, 1, 1), requirements=[TCloseness(0.3, distance="ordered", sa="income")])["satisfied"] == \
        evaluate_node(encode_lattice(adult, QI, hier, sensitive=["income"], sa_domains={"income": INCOME}), (1, 1, 1, 1),
                 requirements=[TCloseness(0.3, distance="ordered", sa="income")])["satisfied"]


def test_ordered_requirement_uses_the_given_order_not_the_spelling():
    import pandas as pd
    sal = ["3K", "4K", "5K", "6K", "11K", "8K", "7K", "9K", "10K"]
    order = [f"{i}K" for i in range(3, 12)]
    df = pd.DataFrame({"g": [0, 0, 0, 1, 1, 1, 2, 2, 2], "salary": sal})
    h = {"g": Hierarchy.from_rows([[0, "*"], [1, "*"], [2, "*"]], name="g")}
    e = encode_lattice(df, ["g"], h, sensitive=["salary"], sa_domains={"salary": order})
    num = encode_lattice(df.assign(salary=[int(s[:-1]) for s in sal]), ["g"], h, sensitive=["salary"])
    # class {3K, 4K, 5K} is 0.375 from Q (slides); the text order would give another value
    t_ok = TCloseness(0.375, distance="ordered", sa="salary")
    t_bad = TCloseness(0.374, distance="ordered", sa="salary")
    for enc_ in (e, num):
        assert evaluate_node(enc_, (0,), requirements=[t_ok])["satisfied"] and not evaluate_node(enc_, (0,), requirements=[t_bad])["satisfied"]


def test_hierarchical_requirement_needs_the_leaves_as_domain(adult, hier, occ):
    e = encode_lattice(adult, QI, hier, sensitive=["occupation"])        # sorted domain, not the leaves' order
    with pytest.raises(ValueError, match="hierarchy's leaves"):
        search(e, [TCloseness(0.3, distance="hierarchical", hierarchy=occ, sa="occupation")])


def test_generalize_table_column_without_hierarchy_is_a_clear_error(adult, hier):
    with pytest.raises(ValueError, match=r"hierarchies: no hierarchy for the column 'race'"):
        generalize_table(adult, hier, {"age": 1, "race": 1})
    import pandas as pd
    dup = pd.concat([adult[["age"]], adult[["age"]]], axis=1)
    with pytest.raises(ValueError, match=r"df: duplicated column name\(s\) \['age'\]"):
        generalize_table(dup, hier, {"age": 1})
    with pytest.raises(ValueError, match="duplicated"):
        encode_lattice(dup, ["age"], hier)
    with pytest.raises(TypeError, match="level"):
        generalize_table(adult, hier, {"age": 1.5})


def test_fractional_levels_are_refused(enc):
    with pytest.raises(TypeError, match="levels"):
        evaluate_node(enc, (0.5, 0, 0, 0))
    with pytest.raises(TypeError, match="levels"):
        class_ids(enc, (1.5, 0, 0, 0))


def test_t_outside_unit_interval_and_bad_requirements_are_refused(enc):
    with pytest.raises(ValueError, match=r"t: expected a probability in \[0, 1\], got 1.5"):
        TCloseness(1.5, sa="income")
    with pytest.raises(TypeError, match="requirements"):
        search(enc, KAnonymity(2))
    with pytest.raises(TypeError, match="requirements"):
        search(enc, ["k=2"])
    with pytest.raises(TypeError, match="enc"):
        search("not encoded", [KAnonymity(2)])
    with pytest.raises(ValueError, match="heights"):
        lattice([10] * 7)
    with pytest.raises(ValueError, match="heights"):
        lattice([-1, 2])


def test_generalize_table_names_missing_values_as_models_do():
    import numpy as np
    import pandas as pd
    import pytest
    from privlib.generalization import generalize_table
    from privlib.hierarchy import Hierarchy
    h = Hierarchy.from_dict({"*": {"young": [1, 2], "old": [3, 4]}}, name="age")
    with pytest.raises(ValueError, match=r"missing values \(NaN\) in column\(s\) \['age'\]"):
        generalize_table(pd.DataFrame({"age": [1.0, np.nan]}), {"age": h}, {"age": 1})


def test_requirements_without_sa_and_frequency_l_diversity(adult, hier, enc):
    one = encode_lattice(adult, QI, hier, sensitive=["occupation"])
    freq = search(one, [LDiversity(2, kind="frequency")], direction="top-down")
    named = search(enc, [LDiversity(2, kind="frequency", sa="occupation")], direction="top-down")
    assert freq.best == named.best and freq.dm == named.dm
    for L in lattice(one.heights)[:40]:                 # agrees with privlib.models on the published table
        table = generalize_table(adult, hier, dict(zip(QI, L)))
        rep = l_diversity(table, QI, "occupation", kind="frequency")
        assert evaluate_node(one, L, requirements=[LDiversity(2, kind="frequency")])["satisfied"] == rep.holds(2)
    with pytest.raises(ValueError, match=r"sa: the requirement .* names no sensitive attribute and 2 are encoded"):
        search(enc, [LDiversity(2)])
