"""Bad and extreme inputs for privlib.hierarchy, closeness, models, generalization and data.

Every case either returns the correct result (checked against a hand computation or an
independent method) or raises ``ValueError`` / ``TypeError`` whose message names the argument.
"""
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from privlib import closeness as C
from privlib import data as D
from privlib import generalization as G
from privlib import models as M
from privlib import requirements as R
from privlib.hierarchy import Hierarchy

I64 = np.iinfo(np.int64)
FIG1 = Hierarchy.from_dict({"*": {"resp": ["flu", "pneumonia"], "dig": ["ulcer", "gastritis", "colitis"]}},
                           name="disease")
# unbalanced: "colitis" directly under the root, the others two levels down
UNBAL = Hierarchy.from_rows([["flu", "resp", "*"], ["pneumonia", "resp", "*"], ["ulcer", "dig", "*"],
                             ["colitis", "colitis", "*"]], name="unbal")
T = pd.DataFrame({"zip": ["a", "a", "b", "b", "b"], "age": [1, 1, 2, 2, 2],
                  "disease": ["flu", "pneumonia", "flu", "ulcer", "colitis"], "salary": [3, 4, 5, 6, 11]})
T_NAN_QI = T.assign(zip=["a", None, "b", "b", "b"])
T_NAN_SA = T.assign(disease=["flu", np.nan, "flu", "ulcer", "colitis"])
T_DUP = pd.concat([T, T[["age"]]], axis=1)
AGEH = Hierarchy.from_rows([[1, "low", "*"], [2, "low", "*"], [3, "high", "*"]], name="age")
ZIPH = Hierarchy.from_rows([["a", "*"], ["b", "*"]], name="zip")
HS = {"zip": ZIPH, "age": AGEH}
ENC = G.encode_lattice(T, ["zip", "age"], HS, sensitive=["disease", "salary"])
Q5 = np.full(5, 0.2)

_TMP = tempfile.TemporaryDirectory(prefix="privlib_bad_inputs_")
IPUMS = Path(_TMP.name) / "usa.csv"
pd.DataFrame({"AGE": [30, 40], "STATEFIP": [1, 2], "EDUC": [6, 7], "OCC": [22, 10],
              "INCWAGE": [0, 25_000]}).to_csv(IPUMS, index=False)


def _ordered_hand(p, q):
    """Ordered EMD by its definition: 1/(m-1) sum_i |sum_{j<=i} (p_j - q_j)|."""
    return float(np.abs(np.cumsum(np.subtract(p, q))[:-1]).sum() / (len(q) - 1))


# (id, thunk, exception, match)
RAISES = [
    # ---- hierarchy
    ("hier-from_dict-not-a-dict", lambda: Hierarchy.from_dict([1, 2]), TypeError, "nested"),
    ("hier-from_dict-duplicate-leaf", lambda: Hierarchy.from_dict({"*": {"a": ["x"], "b": ["x"]}}), ValueError,
     "'x' appears twice"),
    ("hier-from_rows-empty", lambda: Hierarchy.from_rows([]), ValueError, "no rows"),
    ("hier-from_rows-two-roots", lambda: Hierarchy.from_rows([["a", "*"], ["b", "ALL"]]), ValueError,
     "different roots"),
    ("hier-cycle", lambda: Hierarchy({"a": "b", "b": "a"}, "*"), ValueError, "lies on the cycle .* and does not reach the root"),
    ("hier-bad-leaf-order", lambda: Hierarchy({"a": "*", "b": "*"}, "*", leaf_order=["a"]), ValueError,
     "leaf_order"),
    ("hier-ancestor-nan-value", lambda: FIG1.ancestor(np.nan, 1), ValueError, "nan of attribute 'disease'"),
    ("hier-ancestor-level-float", lambda: FIG1.ancestor("flu", 1.5), TypeError, "level"),
    ("hier-ancestor-level-inf", lambda: FIG1.ancestor("flu", np.inf), ValueError, "level"),
    ("hier-ancestor-level-too-high", lambda: FIG1.ancestor("flu", 3), ValueError, r"level: .* \[0, 2\], got 3"),
    ("hier-generalize-missing", lambda: FIG1.generalize(["flu", "measles"], 1), ValueError, "'measles'"),
    ("hier-distance-missing", lambda: FIG1.distance("flu", "measles"), ValueError, "'measles'"),
    ("hier-check-values-none", lambda: FIG1.check_values([None]), ValueError, "None of attribute"),
    # ---- closeness
    ("emd-nan-p", lambda: C.emd_equal([np.nan, 1.0], [0.5, 0.5]), ValueError, "p: expected finite"),
    ("emd-p-not-summing-to-1", lambda: C.emd_ordered([0.5, 0.6], [0.5, 0.5]), ValueError,
     "p: expected probabilities summing to 1"),
    ("emd-negative-q", lambda: C.emd_equal([0.5, 0.5], [1.5, -0.5]), ValueError, "q: expected non-negative"),
    ("emd-empty-p", lambda: C.emd_equal([], []), ValueError, "p: expected a non-empty"),
    ("emd-length-mismatch", lambda: C.emd_ordered([1.0], [0.5, 0.5]), ValueError, "p and q"),
    ("emd-strings", lambda: C.variational_distance(["a", "b"], [0.5, 0.5]), TypeError, "p: expected"),
    ("emd-huge-values", lambda: C.emd_equal([1e300, 1e300], [0.5, 0.5]), ValueError, "p: expected"),
    ("emd-ground-nan", lambda: C.emd([1, 0], [0, 1], [[0, np.nan], [1, 0]]), ValueError, "ground"),
    ("emd-ground-negative", lambda: C.emd([1, 0], [0, 1], [[0, -1], [1, 0]]), ValueError, "ground"),
    ("emd-ground-shape", lambda: C.emd([1, 0], [0, 1], np.zeros((3, 3))), ValueError, "ground"),
    ("emd-flow-2d-p", lambda: C.emd_flow([[1, 0], [0, 1]], [0, 1], np.eye(2)), ValueError, "p: expected a 1-d"),
    ("emd-hier-not-a-hierarchy", lambda: C.emd_hierarchical({"flu": 1}, {"flu": 1}, {"*": []}), TypeError,
     "hierarchy"),
    ("emd-hier-unknown-key", lambda: C.emd_hierarchical({"measles": 1.0}, {"flu": 1.0}, FIG1), ValueError,
     "'measles'"),
    ("kl-base-one", lambda: C.kl_divergence([1, 0], [0.5, 0.5], base=1), ValueError, "base"),
    # ---- models
    ("k-nan-qi", lambda: M.k_anonymity(T_NAN_QI, ["zip", "age"]), ValueError, r"missing values .*\['zip'\]"),
    ("k-empty-frame", lambda: M.k_anonymity(T.iloc[:0], ["zip"]), ValueError, "df: expected at least one row"),
    ("k-not-a-frame", lambda: M.k_anonymity(T.to_numpy(), ["zip"]), TypeError, "df"),
    ("k-missing-column", lambda: M.k_anonymity(T, ["zip", "sex"]), ValueError, r"qi: unknown column\(s\) \['sex'\]"),
    ("k-no-qi", lambda: M.k_anonymity(T, []), ValueError, "qi: expected at least one"),
    ("k-duplicated-columns", lambda: M.k_anonymity(T_DUP, ["zip", "age"]), ValueError, "duplicated column"),
    ("k-holds-zero", lambda: M.k_anonymity(T, ["zip"]).holds(0), ValueError, "k: expected a number >= 1"),
    ("k-holds-string", lambda: M.k_anonymity(T, ["zip"]).holds("3"), TypeError, "k: expected a number"),
    ("l-nan-sa", lambda: M.l_diversity(T_NAN_SA, ["zip"], "disease"), ValueError, r"\['disease'\]"),
    ("l-bad-kind", lambda: M.l_diversity(T, ["zip"], "disease", kind="shannon"), ValueError, "kind"),
    ("l-recursive-no-c", lambda: M.l_diversity(T, ["zip"], "disease", kind="recursive"), ValueError, "c: recursive"),
    ("l-recursive-negative-c", lambda: M.l_diversity(T, ["zip"], "disease", kind="recursive", c=-1), ValueError, "c:"),
    ("l-holds-nan", lambda: M.l_diversity(T, ["zip"], "disease").holds(np.nan), ValueError, "l: expected"),
    ("t-q-not-summing", lambda: M.t_closeness(T, ["zip"], "disease", q=[0.5] * 4), ValueError,
     "q: expected probabilities summing to 1"),
    ("t-q-wrong-length", lambda: M.t_closeness(T, ["zip"], "disease", q=[0.5, 0.5]), ValueError, "q: expected"),
    ("t-q-unknown-value", lambda: M.t_closeness(T, ["zip"], "disease", q={"measles": 1.0}), ValueError,
     "q: value"),
    ("t-domain-duplicates", lambda: M.t_closeness(T, ["zip"], "salary", distance="ordered", sa_values=[3, 3, 4, 5, 6, 11]),
     ValueError, "sa_values: expected distinct"),
    ("t-domain-missing-values", lambda: M.t_closeness(T, ["zip"], "salary", distance="ordered", sa_values=[3, 4, 5]),
     ValueError, r"sa: value\(s\) \[6, 11\]"),
    ("t-ordered-text-without-order", lambda: M.t_closeness(T, ["zip"], "disease", distance="ordered"), ValueError,
     "sa_values: the ordered distance"),
    ("t-holds-above-one", lambda: M.t_closeness(T, ["zip"], "disease").holds(1.5), ValueError, "t: expected"),
    ("t-hier-value-missing", lambda: M.t_closeness(T.assign(disease="measles"), ["zip"], "disease", distance="hierarchical", hierarchy=FIG1), ValueError, "'measles'"),
    ("t-hier-no-hierarchy", lambda: M.t_closeness(T, ["zip"], "disease", distance="hierarchical"), ValueError,
     "hierarchy"),
    ("t-counts-negative", lambda: M.t_closeness_counts([[2.0, -1.0]], [0.5, 0.5]), ValueError,
     "counts: expected non-negative"),
    ("t-counts-empty-class", lambda: M.t_closeness_counts([[0.0, 0.0], [1.0, 1.0]], [0.5, 0.5]), ValueError,
     "counts: equivalence class 0 is empty"),
    ("l-counts-1d", lambda: M.l_diversity_counts([1.0, 2.0]), ValueError, "counts: expected a 2-d"),
    ("post-match-keys", lambda: M.sensitive_posterior(T, ["zip", "age"], "disease", {"zip": "a"}), ValueError,
     "match"),
    ("post-no-class", lambda: M.sensitive_posterior(T, ["zip"], "disease", {"zip": "z"}), ValueError,
     "match: no equivalence class"),
    ("post-rules-out-all", lambda: M.sensitive_posterior(T, ["zip"], "disease", {"zip": "a"},
                                                         knowledge={"flu": 0, "pneumonia": 0}), ValueError,
     "knowledge: rules out"),
    ("post-knowledge-nan", lambda: M.sensitive_posterior(T, ["zip"], "disease", {"zip": "a"},
                                                         knowledge={"flu": np.nan}), ValueError, "knowledge"),
    ("class-counts-missing-sa", lambda: M.class_counts(T, ["zip"], "income"), ValueError, "sa: unknown"),
    # ---- generalization
    ("enc-nan-qi", lambda: G.encode_lattice(T_NAN_QI, ["zip", "age"], HS), ValueError, r"missing values .*\['zip'\]"),
    ("enc-value-missing", lambda: G.encode_lattice(T.assign(age=[1, 2, 3, 4, 4]), ["age"], HS), ValueError,
     r"value\(s\) 4 of attribute 'age'"),
    ("enc-no-hierarchy", lambda: G.encode_lattice(T, ["zip", "salary"], HS), ValueError,
     r"hierarchies: no hierarchy for the QI column\(s\) \['salary'\]"),
    ("enc-hierarchy-type", lambda: G.encode_lattice(T, ["zip"], {"zip": {"*": ["a", "b"]}}), TypeError,
     r"hierarchies\['zip'\]"),
    ("enc-duplicated-columns", lambda: G.encode_lattice(T_DUP, ["zip"], HS), ValueError, "duplicated column"),
    ("enc-duplicated-qi", lambda: G.encode_lattice(T, ["zip", "zip"], HS), ValueError, "qi: expected distinct"),
    ("enc-sa-domain-duplicates", lambda: G.encode_lattice(T, ["zip"], HS, sensitive=["salary"], sa_domains={"salary": [3, 3, 4, 5, 6, 11]}),
     ValueError, r"sa_domains\['salary'\]"),
    ("enc-sa-not-in-domain", lambda: G.encode_lattice(T, ["zip"], HS, sensitive=["salary"], sa_domains={"salary": [3, 4]}), ValueError,
     "sa_domains"),
    ("enc-empty", lambda: G.encode_lattice(T.iloc[:0], ["zip"], HS), ValueError, "df: expected at least one row"),
    ("eval-levels-length", lambda: G.evaluate_node(ENC, (0,)), ValueError, "levels: expected one level per QI"),
    ("eval-level-range", lambda: G.evaluate_node(ENC, (0, 3)), ValueError, r"levels: level of 'age' must be in \[0, 2\]"),
    ("eval-levels-mapping", lambda: G.evaluate_node(ENC, {"zip": 0, "age": 0}), TypeError, "levels"),
    ("req-k-float", lambda: R.KAnonymity(1.5), TypeError, "k: expected an integer"),
    ("req-l-below-one", lambda: R.LDiversity(0.5, sa="disease"), ValueError, "l: expected a number >= 1"),
    ("req-t-nan", lambda: R.TCloseness(np.nan, sa="disease"), ValueError, "t: expected a probability"),
    ("req-distance", lambda: R.TCloseness(0.2, distance="euclid", sa="disease"), ValueError, "distance"),
    ("req-sa-not-a-name", lambda: R.TCloseness(0.2, sa=["disease"]), TypeError, "sa: expected a column name"),
    ("search-no-requirements", lambda: G.search(ENC, []), ValueError, "requirements"),
    ("search-unknown-sa", lambda: G.search(ENC, [R.LDiversity(2, sa="income")]), ValueError, "sa: 'income'"),
    ("search-direction", lambda: G.search(ENC, [R.KAnonymity(2)], direction="sideways"), ValueError,
     "direction"),
    ("dm-negative", lambda: G.discernibility([2, -1]), ValueError, "sizes"),
    ("dm-nan", lambda: G.discernibility([2, np.nan]), ValueError, "sizes"),
    ("cut-two-ancestors", lambda: G.generalize_to_cut(["flu"], FIG1, ["flu", "resp"]), ValueError, "cut"),
    ("cut-not-a-hierarchy", lambda: G.generalize_to_cut(["flu"], {"*": []}, ["*"]), TypeError, "hierarchy"),
    ("gen-table-no-hierarchy", lambda: G.generalize_table(T, HS, {"disease": 1}), ValueError,
     "hierarchies: no hierarchy for the column 'disease'"),
    ("gen-table-level-range", lambda: G.generalize_table(T, HS, {"age": 5}), ValueError, r"levels\['age'\]"),
    # ---- data
    ("data-hierarchy-unknown", lambda: D.load_hierarchy("zip"), ValueError, "attribute"),
    ("data-adult-split", lambda: D.load_adult(split="validation"), ValueError, "split"),
    ("data-ipums-n-zero", lambda: D.load_ipums(IPUMS, n=0, rng=0), ValueError, "n: expected an integer >= 1"),
    ("data-ipums-rng-negative", lambda: D.load_ipums(IPUMS, n=1, rng=-1), ValueError, "rng"),
]


@pytest.mark.parametrize("thunk, exc, match", [c[1:] for c in RAISES], ids=[c[0] for c in RAISES])
def test_bad_input_raises_a_clear_error(thunk, exc, match):
    with pytest.raises(exc, match=match):
        thunk()


# (id, thunk, expected) -- extreme inputs with a correct answer
q_big = np.array([0.5, 0.25, 0.25])
EXTREME = [
    ("hier-int64-extreme-leaves",
     lambda: Hierarchy.from_rows([[int(I64.max), "hi", "*"], [int(I64.min), "lo", "*"]]).generalize(
         [I64.max, I64.min], 1).tolist(), ["hi", "lo"]),
    ("hier-unbalanced-ancestor", lambda: [UNBAL.ancestor("colitis", 1), UNBAL.ancestor("flu", 1)],
     ["colitis", "resp"]),
    ("hier-unbalanced-emd-equals-lp",
     lambda: round(C.emd_hierarchical([1, 0, 0, 0], [0, 0, 0, 1], UNBAL)
                   - C.emd([1, 0, 0, 0], [0, 0, 0, 1], UNBAL.distance_matrix()), 9), 0.0),
    ("emd-ordered-one-value", lambda: C.emd_ordered([1.0], [1.0]), 0.0),
    ("emd-ordered-extreme", lambda: C.emd_ordered([1, 0, 0, 0], [0, 0, 0, 1]), 1.0),
    ("kl-zero-q", lambda: C.kl_divergence([0.5, 0.5], [1.0, 0.0]), np.inf),
    ("k-int64-extreme-qis",
     lambda: M.k_anonymity(pd.DataFrame({"a": [I64.max, I64.max, I64.min, I64.min, I64.min]}), ["a"]).k, 2),
    ("k-holds-k-above-n", lambda: M.k_anonymity(T, ["zip"]).holds(6), False),
    ("l-holds-l-above-values", lambda: M.l_diversity(T, ["zip"], "disease").holds(4), False),
    ("t-ordered-int64-extreme-sa",
     lambda: round(M.t_closeness(pd.DataFrame({"g": [0, 0, 1, 1], "s": [I64.min, 0, I64.max, I64.max]}), ["g"], "s", distance="ordered").t, 12),
     round(_ordered_hand([0.5, 0.5, 0.0], [0.25, 0.25, 0.5]), 12)),
    ("t-ordered-categorical-order",
     lambda: round(M.t_closeness(pd.DataFrame({"g": [0, 1, 1], "s": pd.Categorical(
         ["11K", "3K", "4K"], categories=["3K", "4K", "11K"], ordered=True)}), ["g"], "s", distance="ordered").t, 12),
     round(_ordered_hand([0, 0, 1], [1 / 3, 1 / 3, 1 / 3]), 12)),
    ("t-counts-ordered-vs-hand", lambda: round(float(M.t_closeness_counts([[2, 0, 0]], q_big, distance="ordered")[0]), 12),
     round(_ordered_hand([1, 0, 0], q_big), 12)),
    ("dm-by-hand", lambda: G.discernibility([2, 3]), 13.0),
    ("dm-empty", lambda: G.discernibility([]), 0.0),
    ("search-k-above-n", lambda: G.search(ENC, [R.KAnonymity(6)]).best, None),
    ("search-k-equals-n", lambda: G.search(ENC, [R.KAnonymity(5)]).best, (1, 1)),
    ("search-l-above-values", lambda: G.search(ENC, [R.LDiversity(5, sa="disease")]).best, None),
    ("eval-unbalanced-hierarchy",
     lambda: G.evaluate_node(G.encode_lattice(T, ["disease"], {"disease": UNBAL.__class__.from_rows(
         [["flu", "resp", "*"], ["pneumonia", "resp", "*"], ["ulcer", "dig", "*"], ["colitis", "colitis", "*"]],
         name="disease")}), (1,))["n_classes"], 3),
    ("data-ipums-n-above-rows", lambda: len(D.load_ipums(IPUMS, n=10, rng=0)), 2),
]


@pytest.mark.parametrize("thunk, expected", [c[1:] for c in EXTREME], ids=[c[0] for c in EXTREME])
def test_extreme_input_gives_the_correct_result(thunk, expected):
    got = thunk()
    if isinstance(expected, float) and np.isinf(expected):
        assert np.isinf(got)
    else:
        assert got == expected
