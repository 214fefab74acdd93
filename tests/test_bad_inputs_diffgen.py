"""Bad and extreme inputs for every public function of privlib.diffgen.

Each case asserts either the correct result (checked by hand or by an independent count) or a
``ValueError`` / ``TypeError`` whose message names the argument.
"""
import numpy as np
import pandas as pd
import pytest

from privlib import PrivacyLeakWarning
from privlib import diffgen as dg
from privlib.experiments import diffgen as xdg
from privlib.sources import diffgen as src

JOB = src.job_taxonomy()
TAX = src.taxonomies()
PRED = ["job", "age"]
CLS = src.CLASSES
T1 = src.table1a()


def _dup_col(df, col):
    out = pd.concat([df, df[[col]]], axis=1)
    return out


def _diffgen(df=T1, predictors=PRED, target="class", taxonomies=TAX, eps=1.0, h=2, **kw):
    kw.setdefault("classes", CLS)
    kw.setdefault("rng", 0)
    return dg.diffgen(df, predictors, target, taxonomies, eps=eps, h=h, **kw)


# (id, call, exception, match)
DIFFGEN_BAD = [
    ("eps-zero", lambda: _diffgen(eps=0), ValueError, "eps"),
    ("eps-nan", lambda: _diffgen(eps=float("nan")), ValueError, "eps"),
    ("eps-inf", lambda: _diffgen(eps=np.inf), ValueError, "eps"),
    ("eps-str", lambda: _diffgen(eps="1"), TypeError, "eps"),
    ("eps-bool", lambda: _diffgen(eps=True), TypeError, "eps"),
    ("h-negative", lambda: _diffgen(h=-1), ValueError, "h"),
    ("h-float", lambda: _diffgen(h=1.5), TypeError, "h"),
    ("h-str", lambda: _diffgen(h="3"), TypeError, "h"),
    ("h-huge", lambda: _diffgen(h=2 ** 40), ValueError, "h"),
    ("h-int64-max", lambda: _diffgen(h=np.iinfo(np.int64).max), ValueError, "h"),
    ("utility-unknown", lambda: _diffgen(utility="gini"), ValueError, "utility"),
    ("utility-list", lambda: _diffgen(utility=["max"]), TypeError, "utility"),
    ("predictors-empty", lambda: _diffgen(predictors=[]), ValueError, "predictors"),
    ("predictors-duplicated", lambda: _diffgen(predictors=["job", "job", "age"]), ValueError, "predictors"),
    ("predictors-missing", lambda: _diffgen(predictors=["job", "salary"]), ValueError, "predictors"),
    ("predictors-int", lambda: _diffgen(predictors=3), TypeError, "predictors"),
    ("target-missing", lambda: _diffgen(target="income"), ValueError, "target"),
    ("target-is-predictor", lambda: _diffgen(target="job", predictors=["job", "age"]), ValueError, "target"),
    ("target-list", lambda: _diffgen(target=["class"]), TypeError, "target"),
    ("target-float", lambda: _diffgen(T1.assign(c=np.linspace(0, 1, 8)), target="c"), TypeError, "target"),
    ("target-nan", lambda: _diffgen(T1.assign(**{"class": T1["class"].where(T1.index > 0)})), ValueError, "class"),
    ("taxonomies-list", lambda: _diffgen(taxonomies=[JOB]), TypeError, "taxonomies"),
    ("taxonomies-missing", lambda: _diffgen(taxonomies={"job": JOB}), ValueError, "taxonomies"),
    ("taxonomies-inf", lambda: _diffgen(taxonomies={"job": JOB, "age": (0, np.inf)}), ValueError, "taxonomies"),
    ("taxonomies-reversed", lambda: _diffgen(taxonomies={"job": JOB, "age": (65, 18)}), ValueError, "taxonomies"),
    ("taxonomies-str-column", lambda: _diffgen(T1.assign(age=T1["age"].astype(str))), TypeError, "taxonomies"),
    ("value-outside-domain", lambda: _diffgen(T1.assign(age=T1["age"] + 40)), ValueError, "taxonomies"),
    ("value-inf", lambda: _diffgen(T1.assign(age=T1["age"].astype(float).replace(50.0, np.inf))), ValueError,
     "taxonomies"),
    ("value-nan", lambda: _diffgen(T1.assign(age=T1["age"].astype(float).replace(50.0, np.nan))), ValueError,
     "missing values"),
    ("value-not-in-taxonomy", lambda: _diffgen(T1.assign(job=T1["job"].replace("Dancer", "Plumber"))), ValueError,
     "Plumber"),
    ("df-empty", lambda: _diffgen(T1.iloc[:0]), ValueError, "df"),
    ("df-not-frame", lambda: _diffgen(T1.to_numpy()), TypeError, "df"),
    ("df-duplicated-column", lambda: _diffgen(_dup_col(T1, "age")), ValueError, "df: duplicated"),
    ("classes-missing-label", lambda: _diffgen(classes=["N"]), ValueError, "classes"),
    ("classes-str", lambda: _diffgen(classes="NY"), TypeError, "classes"),
    ("classes-duplicated", lambda: _diffgen(classes=["N", "Y", "Y"]), ValueError, "classes"),
    ("classes-empty", lambda: _diffgen(classes=[]), ValueError, "classes"),
    ("infogain-one-class", lambda: _diffgen(T1.assign(**{"class": "Y"}), utility="infogain", classes=["Y"]),
     ValueError, "utility"),
    ("rng-negative", lambda: _diffgen(rng=-1), ValueError, "rng"),
]


@pytest.mark.parametrize("call,exc,match", [c[1:] for c in DIFFGEN_BAD], ids=[c[0] for c in DIFFGEN_BAD])
def test_diffgen_bad_inputs(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def _tds(df=T1, k=2, **kw):
    return dg.tds(df, PRED, "class", TAX, k=k, **kw)


def _rel():
    return _diffgen(eps=1e9, h=2)


RES = pd.DataFrame({"h": [4, 6] * 2, "run": [0, 0, 1, 1], "ca": [0.7, 0.8, 0.75, 0.65]})

OTHER_BAD = [
    ("tds-k-zero", lambda: _tds(k=0), ValueError, "k"),
    ("tds-k-above-n", lambda: _tds(k=9), ValueError, "k"),
    ("tds-k-float", lambda: _tds(k=2.5), TypeError, "k"),
    ("tds-qid-unknown", lambda: _tds(qid=["zip"]), ValueError, "qid"),
    ("tds-duplicated-column", lambda: _tds(_dup_col(T1, "job")), ValueError, "df: duplicated"),
    ("accuracy-not-release", lambda: dg.accuracy("release", T1), TypeError, "release"),
    ("accuracy-test-not-frame", lambda: dg.accuracy(_rel(), T1.to_numpy()), TypeError, "test"),
    ("accuracy-test-empty", lambda: dg.accuracy(_rel(), T1.iloc[:0]), ValueError, "test"),
    ("accuracy-test-unknown-class", lambda: dg.accuracy(_rel(), T1.assign(**{"class": "Q"})), ValueError, "test"),
    ("accuracy-test-nan-class", lambda: dg.accuracy(_rel(), T1.assign(**{"class": None})), ValueError, "test"),
    ("accuracy-test-duplicated", lambda: dg.accuracy(_rel(), _dup_col(T1, "age")), ValueError, "df: duplicated"),
    ("encode-missing-column", lambda: _rel().encode(T1.drop(columns="age")), ValueError, "predictors"),
    ("generalize-not-frame", lambda: _rel().generalize([1, 2]), TypeError, "df"),
    ("baseline-test-unknown-class",
     lambda: dg.raw_data_accuracy(T1, T1.assign(**{"class": "Q"}), PRED, "class", TAX), ValueError, "test"),
    ("baseline-test-not-frame", lambda: dg.raw_data_accuracy(T1, None, PRED, "class", TAX), TypeError, "test"),
    ("lower-bound-nan", lambda: dg.lower_bound_accuracy(T1.assign(**{"class": None}), T1, "class"),
     ValueError, "train"),
    ("lower-bound-missing-target", lambda: dg.lower_bound_accuracy(T1, T1, "income"), ValueError, "target"),
    ("lower-bound-empty", lambda: dg.lower_bound_accuracy(T1, T1.iloc[:0], "class"), ValueError, "test"),
    ("apply-cut-unknown-attribute", lambda: dg.apply_cut(T1, PRED, TAX, cuts={"jobs": ["Professional", "Artist"]}),
     ValueError, "cuts"),
    ("apply-cut-not-dict", lambda: dg.apply_cut(T1, PRED, TAX, cuts=[("job", ["Professional"])]), TypeError, "cuts"),
    ("apply-cut-str-splits", lambda: dg.apply_cut(T1, PRED, TAX, cuts={"age": "40"}), TypeError, "cuts"),
    ("contingency-duplicated-split", lambda: dg.contingency_table(T1, PRED, TAX, cuts={"age": [40, 40]}), ValueError,
     "cuts"),
    ("contingency-split-outside", lambda: dg.contingency_table(T1, PRED, TAX, cuts={"age": [80]}), ValueError, "cuts"),
    ("partition-tree-unknown", lambda: dg.partition_tree(T1, PRED, "class", TAX, steps=[("zip", "x")]), ValueError,
     "steps"),
    ("held-out-nan", lambda: xdg.held_out_best(RES.assign(ca=[0.7, np.nan, 0.75, 0.65])), ValueError, "results"),
    ("held-out-one-run", lambda: xdg.held_out_best(RES[RES["run"] == 0]), ValueError, "results"),
    ("blow-up-p-above-1", lambda: xdg.blow_up(T1, PRED, n_records=20, p_replace=1.5, rng=0), ValueError, "p_replace"),
    ("blow-up-p-nan", lambda: xdg.blow_up(T1, PRED, n_records=20, p_replace=float("nan"), rng=0), ValueError, "p_replace"),
    ("blow-up-n-zero", lambda: xdg.blow_up(T1, PRED, n_records=0, rng=0), ValueError, "n_records"),
    ("blow-up-unknown-column", lambda: xdg.blow_up(T1, ["zip"], n_records=20, rng=0), ValueError, "columns"),
    ("blow-up-duplicated-column", lambda: xdg.blow_up(_dup_col(T1, "job"), ["job"], n_records=20, rng=0), ValueError, "df"),
    ("blow-up-empty", lambda: xdg.blow_up(T1.iloc[:0], PRED, n_records=20, rng=0), ValueError, "df"),
    ("sweep-empty-eps", lambda: xdg.sweep(T1, T1, PRED, "class", TAX, eps_values=[], h_values=[1], rng=0, classes=CLS), ValueError,
     "eps_values"),
    ("sweep-empty-h", lambda: xdg.sweep(T1, T1, PRED, "class", TAX, eps_values=[1.0], h_values=[], rng=0, classes=CLS), ValueError,
     "h_values"),
    ("sweep-bad-h", lambda: xdg.sweep(T1, T1, PRED, "class", TAX, eps_values=[1.0], h_values=[-1], rng=0, classes=CLS), ValueError,
     "h_values"),
    ("sweep-test-unknown-class", lambda: xdg.sweep(T1, T1.assign(**{"class": "Q"}), PRED, "class", TAX, eps_values=[1.0], h_values=[1],
                                                  rng=0, classes=CLS), ValueError, "test"),
    ("cv-nothing-to-run", lambda: xdg.cross_validate(T1, PRED, "class", TAX, folds=2, rng=0), ValueError,
     "eps_values"),
    ("cv-folds-above-n", lambda: xdg.cross_validate(T1, PRED, "class", TAX, eps_values=[1.0], h=1, folds=9, rng=0, classes=CLS),
     ValueError, "folds"),
    ("cv-k-zero", lambda: xdg.cross_validate(T1, PRED, "class", TAX, k=0, folds=2, rng=0), ValueError, "k"),
    ("cv-h-huge", lambda: xdg.cross_validate(T1, PRED, "class", TAX, eps_values=[1.0], h=10 ** 7, folds=2, rng=0, classes=CLS),
     ValueError, "h"),
    ("scalability-empty-sizes", lambda: xdg.scalability(T1, PRED, "class", TAX, sizes=[], rng=0, classes=CLS),
     ValueError, "sizes"),
    ("scalability-eps-zero", lambda: xdg.scalability(T1, PRED, "class", TAX, sizes=[10], eps=0, rng=0, classes=CLS),
     ValueError, "eps"),
    ("adult-taxonomies-unknown", lambda: xdg.adult_taxonomies(["zip"], domains=xdg.ADULT_DOMAINS), ValueError,
     "predictors"),
    ("adult-taxonomies-bad-domain", lambda: xdg.adult_taxonomies(["age"], domains={"age": (1, np.nan)}),
     ValueError, "domains"),
]


@pytest.mark.parametrize("call,exc,match", [c[1:] for c in OTHER_BAD], ids=[c[0] for c in OTHER_BAD])
def test_other_functions_bad_inputs(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ---------------------------------------------------------------- extreme but valid inputs
def test_one_class_target_with_max_utility_releases_every_cell():
    rel = _diffgen(T1.assign(**{"class": "Y"}), eps=1e9, h=2, classes=["Y"])
    assert rel.n_records == 8 and set(rel.class_codes) == {0}


def test_value_near_int64_limit_in_domain():
    big = np.iinfo(np.int64).max // 2
    df = pd.DataFrame({"x": np.array([0, big // 3, big // 2, big - 1], dtype=np.int64), "class": ["a", "b"] * 2})
    # beyond 2**53 the float split points would merge distinct values: a clear error instead
    with pytest.raises(ValueError, match=r"'x' beyond 2\*\*53"):
        dg.diffgen(df, ["x"], "class", {"x": (0, big)}, eps=1e9, h=3, classes=["a", "b"], rng=0)
    ok = df.assign(x=np.array([0, 2 ** 40, 2 ** 52, 2 ** 53 - 1], dtype=np.int64))
    rel = dg.diffgen(ok, ["x"], "class", {"x": (0, 2 ** 53)}, eps=1e9, h=3, classes=["a", "b"], rng=0)
    assert rel.n_records == 4  # exact counts at huge eps


def test_bool_numeric_predictor():
    df = pd.DataFrame({"flag": [True, False] * 4, "class": ["a", "a", "b", "b"] * 2})
    rel = dg.diffgen(df, ["flag"], "class", {"flag": (0, 2)}, eps=1e9, h=1, classes=["a", "b"], rng=0)
    assert rel.n_records == 8


def test_lower_bound_accuracy_hand_worked():
    train = pd.DataFrame({"c": ["a", "a", "b"]})
    test = pd.DataFrame({"c": ["a", "b", "b", "b"]})
    assert dg.lower_bound_accuracy(train, test, "c") == 0.25


def test_integer_class_labels_and_domain():
    df = T1.assign(**{"class": (T1["class"] == "Y").astype(int)})
    rel = dg.diffgen(df, PRED, "class", TAX, eps=1e9, h=2, classes=[0, 1], rng=0)
    assert rel.classes == (0, 1) and rel.n_records == 8


def test_derived_class_domain_warns_every_call():
    for _ in range(2):
        with pytest.warns(PrivacyLeakWarning, match="classes"):
            dg.diffgen(T1, PRED, "class", TAX, eps=1.0, h=1, rng=0)


# ---------------------------------------------------------------- hierarchy set and TDS set-ups
@pytest.mark.parametrize("bad, exc", [("tkde", ValueError), ("", ValueError), (None, TypeError),
                                      (2007, TypeError)])
def test_adult_taxonomies_bad_hierarchy_set(bad, exc):
    with pytest.raises(exc, match="hierarchy_set"):
        xdg.adult_taxonomies(domains=xdg.ADULT_DOMAINS, hierarchy_set=bad)


@pytest.mark.parametrize("tds, exc, match", [
    ([("a", (5, None))], TypeError, "tds"),
    ({"diffgen": (5, None)}, ValueError, "tds"),
    ({"a": 5}, TypeError, "tds"),
    ({"a": (0, None)}, ValueError, "k"),
    ({"a": (5, ["zip"])}, ValueError, "qid"),
])
def test_cross_validate_bad_tds_setups(tds, exc, match):
    with pytest.raises(exc, match=match):
        xdg.cross_validate(T1, PRED, "class", TAX, folds=2, rng=0, classes=CLS, tds=tds)
