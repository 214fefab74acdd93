"""Wrong answers a user found with bad input and keyword options: each is now a clear error or a correct result.

One test per case; every one failed before its fix (the old behaviour is in the comment).
"""
from __future__ import annotations

import gzip
import time
import warnings

import numpy as np
import pandas as pd
import pytest

from privlib import Ledger, LedgerEntry
from privlib.closeness import EMD_MEMORY_LIMIT, emd, emd_flow, emd_ordered
from privlib.data import load_adult, load_ipums
from privlib.experiments import run
from privlib.generalization import encode_lattice, evaluate_node
from privlib.hierarchy import Hierarchy, HierarchyError
from privlib.partition import dp_kdtree, mondrian, qi_codes
from privlib.release import anonymized_table
from privlib.requirements import KAnonymity
from privlib.synth import min_alpha_for_dp, synthesize_table


def _noise(task, *, rng):
    return float(rng.normal())


# ----------------------------------------------------------------------------- the runner
@pytest.mark.parametrize("gen", [np.random.default_rng(0), np.random.RandomState(0), np.random.PCG64(0)],
                         ids=["Generator", "RandomState", "BitGenerator"])
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_run_refuses_a_shared_generator(gen, n_jobs):
    # was: every worker drew from a copy (the same noise in every task) and results depended on n_jobs
    with pytest.raises(TypeError, match=r"shared\['rng'\]: a .* cannot be shared .*spawn"):
        run(_noise, range(4), n_jobs=n_jobs, shared={"rng": gen})


def test_run_refuses_a_shared_that_is_not_a_dict():
    with pytest.raises(TypeError, match="shared: expected a dict"):
        run(abs, [1], shared=[("a", 1)])


# ----------------------------------------------------------------------------- the anonymized table
def test_anonymized_table_refuses_a_dp_release():
    # was: the exact min..max of every class and every record's sensitive value, outside the budget, silently
    df = pd.DataFrame({"x": np.arange(40) % 20, "s": list("ab") * 20})
    dec = dp_kdtree(df, ["x"], "s", eps=1.0, height=2, rng=0, domain={"x": (0, 19)}, sa_values=["a", "b"])
    with pytest.raises(ValueError, match=r"decomposition: a differentially private release \(its ledger spends "
                                         r"eps = 1\).*leaves_frame"):
        anonymized_table(df, dec)
    assert anonymized_table(df, mondrian(df, ["x"], "s", k=4))["x"].notna().all()   # syntactic: as before


# ----------------------------------------------------------------------------- integer codes
def test_qi_codes_refuses_uint64_codes_that_would_wrap():
    # was: 2**63 + 5 became -9223372036854775803, and later errors quoted the wrapped value
    df = pd.DataFrame({"x": np.array([2 ** 63 + 5, 1], dtype=np.uint64), "s": ["a", "b"]})
    with pytest.raises(ValueError, match=r"qi: quasi-identifier 'x' has values up to 9223372036854775813"):
        qi_codes(df, ["x"])
    with pytest.raises(ValueError, match="9223372036854775813"):
        mondrian(df, ["x"], "s", k=1)
    ok = pd.DataFrame({"x": np.array([3, 1], dtype=np.uint64)})
    assert qi_codes(ok, ["x"]).tolist() == [[3], [1]]


def test_synthesize_table_guards_its_row_sums():
    # was: 2**62 + 2**62 overflowed int64 and the error blamed the internal argument `m`
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"^counts: .*row sums"):
            synthesize_table([[2 ** 62, 2 ** 62]], eps=1.0, rng=0)
    with pytest.raises(ValueError, match=r"^counts: expected counts below 2\*\*53"):
        synthesize_table([[2 ** 62, 2 ** 62]], eps=1.0, rng=0, totals=[4])


@pytest.mark.parametrize("eps", [1e-310, 1e-300, 1000.0])
def test_synthesize_table_at_extreme_eps(eps):
    # was: eps=1e-310 failed inside numpy ("pvals contains NaNs"); eps=1000 raised OverflowError
    syn = synthesize_table(np.array([[3, 1, 0], [0, 0, 5]]), eps=eps, rng=0, totals=[4, 5])
    assert syn.counts.sum(axis=1).tolist() == [4, 5]
    assert syn.ledger.total() == pytest.approx(eps)
    if eps > 1:
        assert syn.alpha.tolist() == [0.0, 0.0]
        assert syn.counts.to_numpy()[1].tolist() == [0, 0, 5]   # no prior: the group's only value


def test_min_alpha_for_dp_limits():
    assert min_alpha_for_dp(5, eps=1000.0) == 0.0
    assert min_alpha_for_dp(5, eps=1e-310) == np.inf
    assert min_alpha_for_dp(5, eps=np.log(2)) == pytest.approx(5.0)


# ----------------------------------------------------------------------------- hierarchies
@pytest.mark.parametrize("group", [[], {}])
def test_from_dict_refuses_an_empty_group(group):
    # was: the empty group 'A' became a leaf
    with pytest.raises(HierarchyError, match=r"the group 'A' is empty"):
        Hierarchy.from_dict({"*": {"A": group, "B": ["b"]}})


def test_from_rows_refuses_an_empty_cell():
    # was: '' became a node that merged a and b
    with pytest.raises(HierarchyError, match=r"row 2 .* empty cell in column 2"):
        Hierarchy.from_rows([["a", "A", "*"], ["b", "", "*"]], name="x")


def test_from_rows_reports_a_cycle_as_a_cycle():
    # was: "leaf 'b' is listed twice"
    with pytest.raises(HierarchyError, match=r"hierarchy 'x': the labels form a cycle 'a' -> 'b' -> 'a'"):
        Hierarchy.from_rows([["a", "b", "*"], ["b", "a", "*"]], name="x")


def test_from_rows_reports_two_parents():
    # was: "leaf 'G' is listed twice"
    with pytest.raises(HierarchyError, match=r"'G' has two parents, '\*' \(row 1\) and 'H' \(row 2\)"):
        Hierarchy.from_rows([["a", "G", "*"], ["G", "H", "*"]], name="x")


def test_from_rows_a_label_both_leaf_and_group():
    with pytest.raises(HierarchyError, match=r"'G' is a leaf \(row 2\) and a generalization of other values \(row 1\)"):
        Hierarchy.from_rows([["a", "G", "*"], ["G", "*"]], name="x")


def test_from_rows_without_a_name_does_not_say_none():
    # was: "hierarchy None: leaf 'a' is listed twice"
    with pytest.raises(HierarchyError, match=r"^the hierarchy: leaf 'a' is listed twice \(rows 1 and 2\)"):
        Hierarchy.from_rows([["a", "*"], ["a", "*"]])


def test_the_constructor_names_a_cycle():
    with pytest.raises(HierarchyError, match=r"node 'a' lies on the cycle 'a' -> 'b' -> 'a'"):
        Hierarchy({"a": "b", "b": "a", "c": "*"}, "*")


def test_from_csv_names_the_file_of_latin1_text(tmp_path):
    # was: a bare UnicodeDecodeError without the file's name
    f = tmp_path / "city.csv"
    f.write_bytes("Zürich;CH;*\nBern;CH;*\n".encode("latin-1"))
    with pytest.raises(HierarchyError, match=r"encoding: .*city\.csv is not UTF-8 text .*encoding="):
        Hierarchy.from_csv(f)
    assert Hierarchy.from_csv(f, encoding="latin-1").leaves == ("Zürich", "Bern")
    with pytest.raises(ValueError, match="encoding: unknown text encoding"):
        Hierarchy.from_csv(f, encoding="no-such-codec")


def _old_distance_matrix(h):
    m = len(h.leaves)
    d = np.zeros((m, m))
    for i in range(m):
        for j in range(i + 1, m):
            d[i, j] = d[j, i] = h.distance(h.leaves[i], h.leaves[j])
    return d


def test_distance_matrix_equals_the_pairwise_lca_distance():
    rng = np.random.default_rng(3)
    for _ in range(20):   # random unbalanced trees, in depth-first and in shuffled leaf order
        parent, nodes = {}, ["*"]
        for i in range(30):
            parent[f"n{i}"] = nodes[rng.integers(len(nodes))]
            nodes.append(f"n{i}")
        h = Hierarchy(parent, "*")
        order = list(h.leaves)
        rng.shuffle(order)
        for tree in (h, Hierarchy(parent, "*", leaf_order=order)):
            np.testing.assert_array_equal(tree.distance_matrix(), _old_distance_matrix(tree))
    assert Hierarchy.from_dict({"*": ["a"]}).distance_matrix().tolist() == [[0.0]]


def test_distance_matrix_scales_to_10000_leaves():
    # was: 96 s (m^2 Python LCA walks)
    big = {f"g{a}": {f"g{a}_{b}": [f"v{a}_{b}_{c}" for c in range(10)] for b in range(10)} for a in range(100)}
    h = Hierarchy.from_dict({"*": big})
    t = time.perf_counter()
    d = h.distance_matrix()
    elapsed = time.perf_counter() - t
    assert d.shape == (10_000, 10_000) and elapsed < 15
    assert d[0, :11].tolist() == [0.0] + [1 / 3] * 9 + [2 / 3] and d[0, -1] == 1.0


# ----------------------------------------------------------------------------- data
def _ipums(**cols):
    base = {"AGE": [30, 40], "STATEFIP": [1, 2], "EDUC": [6, 7], "OCC": [10, 20], "INCWAGE": [0, 5]}
    return pd.DataFrame({**base, **cols})


def test_load_ipums_refuses_an_extract_without_usable_records(tmp_path):
    # was: an empty table
    f = tmp_path / "usa.csv"
    _ipums(INCWAGE=[999999, 999998]).to_csv(f, index=False)
    with pytest.raises(ValueError, match=r"usa\.csv: no usable record: all 2 records"):
        load_ipums(f, n=None, rng=0)
    _ipums().iloc[:0].to_csv(f, index=False)
    with pytest.raises(ValueError, match=r"no usable record: the extract holds no record"):
        load_ipums(f, n=None, rng=0)


def test_load_ipums_names_a_truncated_gzip(tmp_path):
    # was: a bare EOFError without the file's name
    f = tmp_path / "usa.csv.gz"
    raw = pd.DataFrame({"AGE": range(3000), "STATEFIP": 1, "EDUC": 6, "OCC": 10, "INCWAGE": 5}).to_csv(index=False)
    f.write_bytes(gzip.compress(raw.encode())[:400])
    with pytest.raises(ValueError, match=r"usa\.csv\.gz: cannot read the IPUMS extract as CSV \(gzip\): EOFError"):
        load_ipums(f, n=None, rng=0)
    f.write_bytes(b"not gzip at all")
    with pytest.raises(ValueError, match=r"usa\.csv\.gz: cannot read"):
        load_ipums(f, n=None, rng=0)
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(ValueError, match=r"empty\.csv: cannot read"):
        load_ipums(tmp_path / "empty.csv", n=None, rng=0)


# ----------------------------------------------------------------------------- inf and NaN are bad values
@pytest.mark.parametrize("bad", [float("inf"), float("nan"), np.float64("-inf")])
def test_non_finite_integers_are_value_errors(bad, tmp_path):
    # was: TypeError ("expected an integer, got float inf")
    df = pd.DataFrame({"x": range(8), "s": list("aabbabab")})
    with pytest.raises(ValueError, match="k: expected a finite integer"):
        mondrian(df, ["x"], "s", k=bad)
    with pytest.raises(ValueError, match="height: expected a finite integer"):
        dp_kdtree(df, ["x"], "s", eps=1.0, height=bad, rng=0, domain={"x": (0, 7)})
    with pytest.raises(ValueError, match="n: expected a finite integer"):
        load_ipums(tmp_path / "none.csv", n=bad, rng=0)
    with pytest.raises(ValueError, match="level"):
        Hierarchy.from_dict({"*": ["a", "b"]}).ancestor("a", bad)
    with pytest.raises(ValueError, match="totals: expected finite numbers"):
        synthesize_table([[1, 2]], eps=1.0, rng=0, totals=[bad])


# ----------------------------------------------------------------------------- the ledger
def test_ledger_total_of_a_deep_path():
    # was: RecursionError
    deep = tuple(range(3000))
    ledger = Ledger([LedgerEntry("laplace", 0.001, "path", path=deep), LedgerEntry("laplace", 0.5, "path", path=(0, 1))])
    assert ledger.total() == pytest.approx(0.501)
    assert ledger.path_costs()[deep] == pytest.approx(0.501)    # (0, 1) is on its path
    small = Ledger([LedgerEntry("laplace", 0.25, "path", path=(0,)), LedgerEntry("laplace", 0.5, "path", path=(0, 1)),
                    LedgerEntry("laplace", 0.125, "path", path=(0, 2, 3))])
    assert small.path_costs() == {(0,): 0.25, (0, 1): 0.75, (0, 2, 3): 0.375}


# ----------------------------------------------------------------------------- Mondrian's sensitive values
def test_mondrian_with_a_sensitive_column_mixing_ints_and_strings():
    # was: TypeError "'<' not supported between instances of 'str' and 'int'" from inside the sort
    df = pd.DataFrame({"x": [1, 2, 3, 4], "s": [1, "a", 2, "b"]})
    with pytest.raises(TypeError, match=r"sa: the sensitive column 's' mixes values of types \['int', 'str'\].*sa_values"):
        mondrian(df, ["x"], "s", k=2)
    dec = mondrian(df, ["x"], "s", k=2, sa_values=[1, 2, "a", "b"])
    assert dec.sa_values == (1, 2, "a", "b") and dec.histograms.sum(axis=0).tolist() == [1, 1, 1, 1]


# ----------------------------------------------------------------------------- the general EMD's memory
def test_emd_refuses_a_domain_too_large_for_memory():
    # was: a 10,000-value domain aborted the whole process under a memory limit (a notebook kernel died)
    m = 10_000
    p = np.full(m, 1 / m)
    ground = np.broadcast_to(np.float64(0.5), (m, m))    # no closed form; nothing m x m is allocated
    for fn in (emd, emd_flow):
        with pytest.raises(ValueError, match=r"ground: the general EMD over a domain of 10,000 values .* about "
                                             r"2\.98 GiB .* above max_memory = 2\.00 GiB"):
            fn(p, p, ground)
    assert EMD_MEMORY_LIMIT == 2 * 1024 ** 3
    with pytest.raises(ValueError, match="method='highs'"):
        emd(np.full(60, 1 / 60), np.full(60, 1 / 60), np.ones((60, 60)) - np.eye(60) * 0.5, method="highs",
            max_memory=1e6)


def test_emd_routes_a_large_ordered_or_equal_ground_to_its_closed_form():
    rng = np.random.default_rng(0)
    m = 60
    p, q = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(m))
    ordered = np.abs(np.subtract.outer(np.arange(m), np.arange(m))) / (m - 1)
    equal = 1.0 - np.eye(m)
    for g in (ordered, equal):
        assert emd(p, q, g, max_memory=1e4) == pytest.approx(emd(p, q, g), abs=1e-12)
    assert emd(p, q, ordered, max_memory=1e4) == emd_ordered(p, q)
    with pytest.raises(ValueError, match="above max_memory"):
        emd_flow(p, q, ordered, max_memory=1e4)       # the flow has no closed form here
    with pytest.raises(ValueError, match="max_memory: expected a finite number"):
        emd(p, q, ordered, max_memory=float("nan"))
    assert emd(p, q, ordered, max_memory=float("inf")) == pytest.approx(emd_ordered(p, q), abs=1e-12)


# ----------------------------------------------------------------------------- options are keyword options
def test_options_can_be_passed_by_name():
    # was: load_adult(split="train") a TypeError (positional-only); encode_lattice's `sensitive` and
    # evaluate_node's `requirements` positional-only with defaults
    assert len(load_adult(split="test")) == 15_060
    with pytest.raises(TypeError):
        load_adult("test")
    h = Hierarchy.from_rows([[21, "2*", "*"], [25, "2*", "*"], [34, "3*", "*"], [38, "3*", "*"]])
    df = pd.DataFrame({"age": [21, 25, 34, 38, 25, 34], "disease": list("fuffuu")})
    enc = encode_lattice(df, ["age"], {"age": h}, sensitive=["disease"])
    assert enc.sa_domain["disease"] == ("f", "u")
    assert evaluate_node(enc, (1,), requirements=[KAnonymity(3)])["satisfied"]
    with pytest.raises(TypeError):
        encode_lattice(df, ["age"], {"age": h}, ["disease"])
    with pytest.raises(TypeError):
        evaluate_node(enc, (1,), [KAnonymity(3)])
