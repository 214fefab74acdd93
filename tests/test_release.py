"""privlib.release: conversions to the common release type, the anonymized table, information loss.

Three kinds of checks: a hand-worked 8-record release (beliefs, breach, query answers, NCP, DM,
C_avg computed by hand below); each conversion against the native path (Mondrian and the DP
kd-tree as boxes, microdata against its exact histogram, a generalization against
privlib.generalization's own class counts and discernibility); properties of the metrics; and
every error path (the message names the argument).
"""
import io

import numpy as np
import pandas as pd
import pytest

from privlib import metrics
from privlib.accounting import Ledger, LedgerEntry
from privlib.attacks import leaf_majority, naive_bayes
from privlib.generalization import encode_lattice, evaluate_node
from privlib.hierarchy import Hierarchy
from privlib.partition import dp_kdtree, mondrian
from privlib.release import (InformationLoss, anonymized_table, from_boxes, from_generalization, from_histogram,
                             from_microdata, information_loss)

# ----------------------------------------------------------------------------- the hand-worked release
# Domain x in 0..3, y in 0..1; SA in {a, b}.  Three boxes:
#   B0 = x [0, 1] x y [0, 1]  counts a 3, b 1   records (0,0,a) (0,1,a) (0,0,b) (1,1,a)
#   B1 = x [2, 3] x y [0, 0]  counts a 0, b 2   records (2,0,b) (3,0,b)
#   B2 = x [2, 3] x y [1, 1]  counts a 1, b 1   records (2,1,a) (2,1,b)
HAND = pd.DataFrame({"x": [0, 0, 0, 1, 2, 3, 2, 2], "y": [0, 1, 0, 1, 0, 0, 1, 1],
                     "s": ["a", "a", "b", "a", "b", "b", "a", "b"]})
LO = np.array([[0, 0], [2, 0], [2, 1]])
HI = np.array([[1, 1], [3, 0], [3, 1]])
COUNTS = np.array([[3.0, 1.0], [0.0, 2.0], [1.0, 1.0]])
BOX_ARGS = dict(qi=["x", "y"], sa="s", sa_values=["a", "b"], domain_lower=[0, 0], domain_upper=[3, 1])


def hand_release():
    return from_boxes(LO, HI, COUNTS, **BOX_ARGS)


def test_hand_worked_attack():
    # prior a = b = 4/8.  Kernels along x: a = [1.5, 1.5, .5, .5], b = [.5, .5, 1.5, 1.5], so
    # Pr[x | a] = [3, 3, 1, 1] / 8 and Pr[x | b] = [1, 1, 3, 3] / 8; along y: a = [1.5, 2.5],
    # b = [2.5, 1.5], Pr[y | a] = [3, 5] / 8, Pr[y | b] = [5, 3] / 8.
    # (0,0): a 3*3 : b 1*5 -> 9/14;  (0,1), (1,1): 3*5 : 1*3 -> 5/6;  (2,0), (3,0): 1*3 : 3*5 -> 1/6;
    # (2,1): 1*5 : 3*3 -> 5/14.
    pred = naive_bayes(hand_release(), HAND)
    expect = np.array([9 / 14, 5 / 6, 9 / 14, 5 / 6, 1 / 6, 1 / 6, 5 / 14, 5 / 14])
    np.testing.assert_allclose(pred.beliefs[:, 0], expect, rtol=1e-12)
    assert pred.predicted.tolist() == list("aaaabbbb")
    # right on 6 of 8, rho = 4/8 (a and b equally frequent): beta = 0.75 / 0.5 - 1 = 0.5
    breach = metrics.privacy_breach(pred)
    assert (breach.accuracy, breach.rho, breach.beta) == (0.75, 0.5, 0.5)
    # the leaf majority: B0 -> a, B1 -> b, B2 -> tie -> a (first SA value): wrong on (0,0,b), (2,1,b)
    assert leaf_majority(hand_release(), HAND).predicted.tolist() == list("aaaabbaa")


def test_hand_worked_queries():
    # q1 x[0,0] y[0,1]: B0 covers 1/2 * 1 -> 2, true 3        rel 1/3
    # q2 x[1,3] y[1,1]: B0 1/2 * 1/2 -> 1, B2 all -> 2 = 3, true 3   rel 0
    # q3 x[2,3] y[0,0]: B1 all -> 2, true 2                   rel 0
    # q4 x[1,1] y[0,1]: B0 1/2 -> 2, true 1                   rel 1
    L = np.array([[0, 0], [1, 1], [2, 0], [1, 0]])
    U = np.array([[0, 1], [3, 1], [3, 0], [1, 1]])
    answers = metrics.true_answers(HAND[["x", "y"]].to_numpy(), L, U, domain_lower=[0, 0], domain_upper=[3, 1])
    assert answers.tolist() == [3, 3, 2, 1]
    wl = metrics.Workload(("x", "y"), L, U, answers, len(HAND))
    dec = hand_release()
    np.testing.assert_allclose(metrics.estimate_answers(dec, wl), [2, 3, 2, 2])
    np.testing.assert_allclose(metrics.relative_errors(dec, wl), [1 / 3, 0, 0, 1])
    assert metrics.median_relative_error(dec, wl) == pytest.approx(1 / 6)


def test_hand_worked_information_loss():
    # tight ranges: B0 x [0,1] y [0,1] -> (1/3 + 1) / 2 = 2/3; B1 x [2,3] y 0 -> (1/3 + 0) / 2 = 1/6;
    #               B2 x 2 y 1 -> 0.   NCP = (4 * 2/3 + 2 * 1/6 + 2 * 0) / 8 = 3/8
    # boxes:        B2 is x [2,3] -> 1/6.  NCP = (4 * 2/3 + 2 * 1/6 + 2 * 1/6) / 8 = 5/12
    # per attribute (tight): x (4/3 + 2/3) / 8 = 1/4, y 4 / 8 = 1/2
    # DM = 4^2 + 2^2 + 2^2 = 24; C_avg = (8 / 3) / k = 4/3 for k = 2
    loss = information_loss(HAND, hand_release(), k=2)
    assert isinstance(loss, InformationLoss)
    assert loss.ncp_tight == pytest.approx(3 / 8) and loss.ncp == loss.ncp_tight
    assert loss.ncp_box == pytest.approx(5 / 12)
    assert loss.ncp_by_qi == pytest.approx({"x": 0.25, "y": 0.5})
    assert (loss.dm, loss.n_records, loss.n_classes, loss.k) == (24.0, 8, 3, 2)
    assert loss.c_avg == pytest.approx(4 / 3)
    box = information_loss(HAND, hand_release(), ranges="box")
    assert box.ncp == pytest.approx(5 / 12) and np.isnan(box.c_avg) and box.k is None
    # categorical form on x: B0 2 of 4 codes -> 1/2, B1 1/2, B2 single code -> 0:
    # x = (4 * 1/2 + 2 * 1/2) / 8 = 3/8, y unchanged 1/2 -> NCP = 7/16
    cat = information_loss(HAND, hand_release(), categorical=["x"])
    assert cat.ncp_by_qi["x"] == pytest.approx(3 / 8) and cat.ncp == pytest.approx(7 / 16)
    # one attribute only
    assert information_loss(HAND, hand_release(), qi=["y"]).ncp == pytest.approx(0.5)


def test_hand_worked_anonymized_table():
    df = HAND.set_index(pd.Index(list("pqrstuvw")))
    out = anonymized_table(df, hand_release())
    assert out.index.tolist() == list("pqrstuvw") and out.columns.tolist() == ["x", "y", "s", "eq_class"]
    assert out["x"].tolist() == ["[0-1]"] * 4 + ["[2-3]"] * 2 + ["2"] * 2
    assert out["y"].tolist() == ["[0-1]"] * 4 + ["0"] * 2 + ["1"] * 2
    assert out["eq_class"].tolist() == [0, 0, 0, 0, 1, 1, 2, 2]
    assert out["s"].tolist() == HAND["s"].tolist()
    box = anonymized_table(df, hand_release(), ranges="box", qi=["x"], class_column="class")
    assert box["x"].tolist()[-2:] == ["[2-3]", "[2-3]"] and box["y"].tolist() == HAND["y"].tolist()
    back = pd.read_csv(io.StringIO(out.to_csv()), index_col=0, dtype=str)
    assert back["x"].tolist() == out["x"].tolist()


# ----------------------------------------------------------------------------- against the native path
_g = np.random.default_rng(0)
DF = pd.DataFrame({"x": _g.integers(0, 30, 1500), "y": _g.integers(0, 8, 1500), "z": _g.integers(0, 3, 1500),
                   "s": _g.choice(list("abcd"), 1500)})
QI = ["x", "y", "z"]
DOM = {"x": (0, 39), "y": (0, 9), "z": (0, 2)}
DLO, DHI = [0, 0, 0], [39, 9, 2]
SAV = list("abcd")
GRID = np.stack(np.meshgrid(np.arange(40), np.arange(10), np.arange(3), indexing="ij"), -1).reshape(-1, 3)
WL = metrics.range_workload(DF, QI, n=200, rng=1, domain=DOM)


def native_releases():
    return [mondrian(DF, QI, "s", k=5, domain=DOM, sa_values=SAV),
            mondrian(DF, QI, "s", k=20, l=3, domain=DOM, sa_values=SAV),
            dp_kdtree(DF, QI, "s", eps=1.0, height=8, rng=3, domain=DOM, sa_values=SAV)]


def as_boxes(dec):
    return from_boxes(dec.lower, dec.upper, dec.histograms, qi=dec.qi, sa=dec.sa, sa_values=dec.sa_values,
                      domain_lower=dec.domain_lower, domain_upper=dec.domain_upper, ledger=dec.ledger,
                      params=dec.params)


@pytest.mark.parametrize("i", range(3), ids=["mondrian-k5", "mondrian-k20-l3", "dp-kdtree"])
def test_from_boxes_equals_the_native_release(i):
    dec = native_releases()[i]
    conv = as_boxes(dec)
    assert conv.n_leaves == dec.n_leaves
    for name in ("lower", "upper", "histograms", "domain_lower", "domain_upper"):
        assert np.array_equal(getattr(conv, name), getattr(dec, name)), name
    assert np.array_equal(conv.assign_codes(GRID), dec.assign_codes(GRID))      # every code of the domain
    a, b = naive_bayes(dec, DF), naive_bayes(conv, DF)
    assert np.array_equal(a.beliefs, b.beliefs) and np.array_equal(a.predicted, b.predicted)
    assert np.array_equal(naive_bayes(dec, DF, method="records").beliefs,
                          naive_bayes(conv, DF, method="records").beliefs)
    assert np.array_equal(leaf_majority(dec, DF).beliefs, leaf_majority(conv, DF).beliefs)
    assert np.array_equal(metrics.estimate_answers(dec, WL), metrics.estimate_answers(conv, WL))
    assert metrics.median_relative_error(dec, WL, clip_negative=True) == metrics.median_relative_error(
        conv, WL, clip_negative=True)
    assert conv.ledger.total() == dec.ledger.total() and conv.params["conversion"] == "from_boxes"
    assert information_loss(DF, conv) == information_loss(DF, dec)


def test_from_microdata_equals_from_histogram_of_its_exact_counts():
    counts = pd.crosstab([DF["x"], DF["y"], DF["z"]], DF["s"]).reindex(columns=SAV, fill_value=0)
    cells = np.array(counts.index.tolist())
    hist = from_histogram(cells, counts.to_numpy(), qi=QI, sa="s", sa_values=SAV, domain_lower=DLO, domain_upper=DHI)
    micro = from_microdata(DF, qi=QI, sa="s", sa_values=SAV, domain_lower=DLO, domain_upper=DHI)
    for name in ("lower", "upper", "histograms", "tree_dim", "tree_threshold", "tree_left", "tree_right",
                 "tree_leaf", "tree_depth"):
        assert np.array_equal(getattr(micro, name), getattr(hist, name)), name
    assert np.array_equal(naive_bayes(micro, DF).beliefs, naive_bayes(hist, DF).beliefs)
    # unit boxes answer every query exactly; every record is its own cell's class
    np.testing.assert_allclose(metrics.estimate_answers(micro, WL), WL.answers)
    loss = information_loss(DF, micro)
    assert loss.ncp_tight == loss.ncp_box == 0.0 and loss.n_classes == len(cells)
    assert micro.params["conversion"] == "from_microdata"


def test_from_histogram_fills_the_domain_with_empty_boxes():
    cells = np.array([[3, 1, 0], [0, 0, 2], [39, 9, 1]])
    noisy = np.array([[1.5, -0.5, 0, 0], [0, 2, 0, 0], [0, 0, 0, -1]])
    dec = from_histogram(cells, noisy, qi=QI, sa="s", sa_values=SAV, domain_lower=DLO, domain_upper=DHI,
                         ledger=Ledger([LedgerEntry("laplace", 0.5)]))
    assert np.array_equal(dec.lower[:3], cells) and np.array_equal(dec.upper[:3], cells)
    assert np.array_equal(dec.histograms[:3], noisy) and not dec.histograms[3:].any()
    assert 3 < dec.n_leaves <= 3 * (2 * 3 + 1)
    assert int(dec.widths.prod(axis=1).sum()) == 40 * 10 * 3                # the boxes tile the domain ...
    as_boxes(dec)                                                           # ... without overlap
    assert dec.assign_codes(cells).tolist() == [0, 1, 2] and dec.ledger.total() == 0.5
    # a histogram over every cell needs no empty box
    full = from_histogram(GRID, np.ones((len(GRID), 4)), qi=QI, sa="s", sa_values=SAV, domain_lower=DLO,
                          domain_upper=DHI)
    assert full.n_leaves == len(GRID) and np.array_equal(full.assign_codes(GRID), np.arange(len(GRID)))


def test_from_microdata_with_codes_whose_mixed_radix_key_overflows():
    big = 2 ** 61
    df = pd.DataFrame({"a": [0, big, big, 5], "b": [big, 0, 0, 7], "c": [1, big, big, big], "s": list("abab")})
    dec = from_microdata(df, qi=["a", "b", "c"], sa="s", sa_values=["a", "b"], domain_lower=[0, 0, 0],
                         domain_upper=[big] * 3)
    assert dec.lower[:3].tolist() == [[0, big, 1], [5, 7, big], [big, 0, big]]
    assert dec.histograms[:3].tolist() == [[1, 0], [0, 1], [1, 1]]
    assert naive_bayes(dec, df).beliefs.shape == (4, 2)
    assert dec.assign(df).tolist() == [0, 2, 2, 1]


# ----------------------------------------------------------------------------- generalization
WORK = Hierarchy.from_dict({"*": {"gov": ["fed", "state"], "priv": ["inc", "self", "none"]}}, name="work")
AGE = Hierarchy.from_dict({"*": {"young": {"teen": [17, 18], "twenties": [20, 21]}, "old": [40, 50]}}, name="age")
GDF = pd.DataFrame({"work": ["fed", "inc", "self", "state", "fed", "none", "inc", "inc"],
                    "age": [17, 20, 21, 50, 18, 40, 20, 17],
                    "s": ["a", "b", "b", "a", "b", "a", "a", "b"]})
ORDER = {"work": list(WORK.preorder().leaves)}          # fed, state, inc, self, none


def coded():
    out = GDF.copy()
    out["work"] = pd.Index(ORDER["work"]).get_indexer(GDF["work"])
    return out


def test_from_generalization_boxes_and_counts():
    dec = from_generalization(coded(), {"work": 1, "age": 2}, qi=["work", "age"], sa="s", sa_values=["a", "b"],
                              hierarchies={"work": WORK, "age": AGE}, orders=ORDER)
    # work at level 1: gov = codes [0, 1], priv = [2, 4]; age at level 2: young = [17, 39] (20, 21 up to the
    # next node's first leaf 40, minus one), old = [40, 50]; four classes, all present
    assert dec.domain_lower.tolist() == [0, 17] and dec.domain_upper.tolist() == [4, 50]
    assert dec.lower[:4].tolist() == [[0, 17], [0, 40], [2, 17], [2, 40]]
    assert dec.upper[:4].tolist() == [[1, 39], [1, 50], [4, 39], [4, 50]]
    assert dec.histograms[:4].tolist() == [[1, 1], [1, 0], [1, 3], [1, 0]]
    assert dec.n_leaves == 4 and dec.params["levels"] == {"work": 1, "age": 2}
    again = from_generalization(coded(), [1, 2], qi=["work", "age"], sa="s", sa_values=["a", "b"],
                                hierarchies={"work": WORK, "age": AGE}, orders=ORDER)
    assert again.lower.tolist() == dec.lower.tolist()


@pytest.mark.parametrize("levels", [(0, 0), (1, 1), (0, 2), (2, 3), (1, 0)])
def test_from_generalization_agrees_with_the_lattice_search(levels):
    enc = encode_lattice(GDF, ["work", "age"], {"work": WORK, "age": AGE}, sensitive=["s"])
    node = evaluate_node(enc, levels)
    dec = from_generalization(coded(), levels, qi=["work", "age"], sa="s", sa_values=["a", "b"],
                              hierarchies={"work": WORK, "age": AGE}, orders=ORDER)
    loss = information_loss(coded(), dec, categorical=["work"], ranges="box")
    assert loss.n_classes == node["n_classes"] == dec.params["n_classes"] and loss.dm == node["dm"]
    assert dec.counts.sum() == len(GDF)
    # box NCP of work is Xu et al.'s |leaves under the node| / |leaves|: at level 1 the 3 gov records
    # cost 2/5 and the 5 priv records 3/5 -> (3 * 2/5 + 5 * 3/5) / 8 = 21/40
    assert loss.ncp_by_qi["work"] == pytest.approx({0: 0.0, 1: 21 / 40, 2: 1.0}[levels[0]])


def test_from_generalization_on_adult_setup_matches_the_lattice():
    from privlib import data
    from privlib.experiments.empirical_privacy import adult_setup
    s = adult_setup()
    hs = {a: data.load_hierarchy(a) for a in s.qi}
    levels = (1, 1, 0, 2, 0)
    dec = from_generalization(s.df, levels, qi=s.qi, sa=s.sa, sa_values=s.sa_values, hierarchies=hs,
                              orders=s.orders)
    raw = data.load_adult(split="train")
    node = evaluate_node(encode_lattice(raw, list(s.qi), hs, sensitive=[s.sa]), levels)
    loss = information_loss(s.df, dec)
    assert (loss.n_classes, loss.dm) == (node["n_classes"], node["dm"])
    assert [tuple(v) for v in zip(dec.domain_lower, dec.domain_upper)] == [s.domain[c] for c in s.qi]
    assert naive_bayes(dec, s.df).beliefs.shape == (s.n, len(s.sa_values))


# ----------------------------------------------------------------------------- properties of the metrics
@pytest.mark.parametrize("k", [2, 7, 40])
def test_tight_ncp_never_exceeds_box_ncp(k):
    for categorical in ((), ("x", "z")):
        loss = information_loss(DF, mondrian(DF, QI, "s", k=k, domain=DOM), categorical=categorical)
        assert 0 <= loss.ncp_tight <= loss.ncp_box <= 1
        assert loss.c_avg >= 1 and loss.dm >= len(DF) * k


def test_one_class_over_the_whole_domain_costs_one():
    one = from_boxes([DLO], [DHI], [[1, 1, 1, 1]], qi=QI, sa="s", sa_values=SAV, domain_lower=DLO,
                     domain_upper=DHI)
    assert information_loss(DF, one, ranges="box").ncp == 1.0
    assert information_loss(DF, one, ranges="box", categorical=QI).ncp == 1.0
    loss = information_loss(DF, one, k=len(DF))
    assert loss.dm == len(DF) ** 2 and loss.c_avg == 1.0 and loss.n_classes == 1
    assert anonymized_table(DF, one, ranges="box")["x"].eq("[0-39]").all()


def test_singleton_classes_cost_nothing():
    dec = mondrian(HAND, ["x", "y"], "s", k=1, domain={"x": (0, 3), "y": (0, 1)})
    loss = information_loss(HAND.iloc[[0, 1, 3, 4, 5, 6]], dec)      # one record per distinct QI combination
    assert loss.ncp_tight == 0.0 and loss.dm == 6.0


def test_anonymized_table_classes_are_the_boxes():
    dec = native_releases()[0]
    out = anonymized_table(DF, dec)
    assert np.array_equal(out["eq_class"].to_numpy(), dec.assign(DF)) and len(out) == len(DF)
    lo = out["x"].str.strip("[]").str.split("-").str[0].astype(int)
    assert (lo >= dec.lower[out["eq_class"], 0]).all() and (lo <= DF["x"]).all()


# ----------------------------------------------------------------------------- bad inputs
PINWHEEL = (np.array([[0, 0], [2, 0], [1, 2], [0, 1], [1, 1]]), np.array([[1, 0], [2, 1], [2, 2], [0, 2], [1, 1]]))
SQ = dict(qi=["x", "y"], sa="s", sa_values=["a"], domain_lower=[0, 0], domain_upper=[2, 2])
ONE = np.ones((5, 1))


def boxes(lo, hi, hist=None, **kw):
    args = {**SQ, **kw}
    return lambda: from_boxes(np.array(lo), np.array(hi), ONE[:len(lo)] if hist is None else hist, **args)


def gen(df=None, levels=(1, 2), **kw):
    args = dict(qi=["work", "age"], sa="s", sa_values=["a", "b"], hierarchies={"work": WORK, "age": AGE},
                orders=ORDER)
    args.update(kw)
    return lambda: from_generalization(coded() if df is None else df, levels, **args)


HIST = dict(qi=QI, sa="s", sa_values=SAV, domain_lower=DLO, domain_upper=DHI)

BAD = [
    # from_boxes: partition
    ("overlap", boxes([[0, 0], [1, 1], [0, 0]], [[2, 1], [2, 2], [0, 2]]), ValueError, "boxes 0 and 1 overlap"),
    ("gap", boxes([[0, 0], [0, 1]], [[2, 0], [1, 2]]), ValueError, "lies in no box"),
    ("pinwheel", boxes(*PINWHEEL), ValueError, "guillotine"),
    ("pinwheel hole", boxes(PINWHEEL[0][:4], PINWHEEL[1][:4]), ValueError, "gaps"),
    ("lower > upper", boxes([[0, 0]], [[2, -1]], domain_lower=[0, -1]), ValueError, "upper"),
    ("outside", boxes([[0, 0]], [[2, 3]]), ValueError, "upper: box 0"),
    ("below", boxes([[-1, 0]], [[2, 2]]), ValueError, "lower: box 0"),
    ("no box", lambda: from_boxes(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 1)), **SQ), ValueError, "lower"),
    ("shapes", boxes([[0, 0]], [[2, 2, 2]]), ValueError, "lower, upper"),
    ("float codes", boxes([[0, 0.5]], [[2, 2]]), ValueError, "lower"),
    ("string codes", boxes([["0", "0"]], [[2, 2]]), TypeError, "lower"),
    ("1-d codes", lambda: from_boxes([0, 0], [2, 2], ONE[:1], **SQ), ValueError, "lower"),
    ("huge codes", boxes([[0, 0]], [[2 ** 62, 2]]), ValueError, "upper"),
    ("histogram shape", boxes([[0, 0]], [[2, 2]], hist=np.ones((1, 2))), ValueError, "histograms"),
    ("histogram nan", boxes([[0, 0]], [[2, 2]], hist=np.array([[np.nan]])), ValueError, "histograms"),
    ("domain length", boxes([[0, 0]], [[2, 2]], domain_lower=[0]), ValueError, "domain_lower"),
    ("domain reversed", boxes([[0, 0]], [[2, 2]], domain_lower=[3, 0]), ValueError, "domain_upper"),
    ("domain too wide", boxes([[0, 0]], [[2, 2]], domain_lower=[-2 ** 61 - 5, 0], domain_upper=[2 ** 61, 2]),
     ValueError, "domain"),
    ("ledger type", boxes([[0, 0]], [[2, 2]], ledger=[0.5]), TypeError, "ledger"),
    ("params type", boxes([[0, 0]], [[2, 2]], params=[1]), TypeError, "params"),
    ("qi string", boxes([[0, 0]], [[2, 2]], qi="xy"), TypeError, "qi"),
    ("qi empty", boxes([[0, 0]], [[2, 2]], qi=[]), ValueError, "qi"),
    ("qi repeated", boxes([[0, 0]], [[2, 2]], qi=["x", "x"]), ValueError, "qi"),
    ("sa list", boxes([[0, 0]], [[2, 2]], sa=["s"]), TypeError, "sa"),
    ("sa in qi", boxes([[0, 0]], [[2, 2]], sa="x"), ValueError, "sa"),
    ("sa_values string", boxes([[0, 0]], [[2, 2]], sa_values="a"), TypeError, "sa_values"),
    ("sa_values empty", boxes([[0, 0]], [[2, 2]], sa_values=[]), ValueError, "sa_values"),
    ("sa_values repeated", boxes([[0, 0]], [[2, 2]], sa_values=["a", "a"]), ValueError, "sa_values"),
    # from_histogram
    ("cells repeated", lambda: from_histogram([[1, 1, 1], [1, 1, 1]], np.ones((2, 4)), **HIST), ValueError, "cells"),
    ("cells none", lambda: from_histogram(np.zeros((0, 3)), np.ones((0, 4)), **HIST), ValueError, "cells"),
    ("cells shape", lambda: from_histogram([[1, 1]], np.ones((1, 4)), **HIST), ValueError, "cells"),
    ("cells outside", lambda: from_histogram([[1, 1, 3]], np.ones((1, 4)), **HIST), ValueError, "cells: cell 0"),
    ("counts shape", lambda: from_histogram([[1, 1, 1]], np.ones((1, 3)), **HIST), ValueError, "counts"),
    # from_microdata
    ("df type", lambda: from_microdata(DF.to_numpy(), **HIST), TypeError, "df"),
    ("df empty", lambda: from_microdata(DF.iloc[:0], **HIST), ValueError, "df"),
    ("df outside", lambda: from_microdata(DF.assign(x=DF["x"] + 20), **HIST), ValueError, "df: record"),
    ("sa value unlisted", lambda: from_microdata(DF, **{**HIST, "sa_values": ["a", "b"]}), ValueError, "sa_values"),
    ("sa unknown", lambda: from_microdata(DF, **{**HIST, "sa": "t"}), ValueError, "sa"),
    ("qi text", lambda: from_microdata(DF.assign(x=DF["x"].astype(str)), **HIST), TypeError, "qi"),
    # from_generalization
    ("levels length", gen(levels=(1,)), ValueError, "levels"),
    ("levels mapping", gen(levels={"work": 1, "agee": 2}), ValueError, "levels"),
    ("levels type", gen(levels=3), TypeError, "levels"),
    ("level too high", gen(levels=(1, 4)), ValueError, "levels[1]"),
    ("level negative", gen(levels=(-1, 0)), ValueError, "levels[0]"),
    ("hierarchy missing", gen(hierarchies={"work": WORK}), TypeError, "hierarchies['age']"),
    ("hierarchies type", gen(hierarchies=[WORK, AGE]), TypeError, "hierarchies"),
    ("orders type", gen(orders=[1]), TypeError, "orders"),
    ("order string", gen(orders={"work": "abc"}), TypeError, "orders['work']"),
    ("leaves not codes", gen(orders={}), TypeError, "hierarchies['work']"),
    ("order not the leaves", gen(orders={"work": ["fed", "state", "inc", "self"]}), ValueError, "orders['work']"),
    ("order repeated", gen(orders={"work": ["fed", "fed", "inc", "self", "none"]}), ValueError, "orders['work']"),
    ("order not depth-first", gen(orders={"work": ["fed", "inc", "state", "self", "none"]}), ValueError,
     "leaves under 'gov' are not consecutive codes ('fed' and 'state' are separated by 'inc')"),
    ("code no leaf", gen(df=coded().assign(age=[19] + [17] * 7)), ValueError, "df: code(s) [19] of 'age'"),
    # anonymized_table, information_loss
    ("table df type", lambda: anonymized_table(HAND.to_numpy(), hand_release()), TypeError, "df"),
    ("table dec type", lambda: anonymized_table(HAND, "boxes"), TypeError, "decomposition"),
    ("table ranges", lambda: anonymized_table(HAND, hand_release(), ranges="wide"), ValueError, "ranges"),
    ("table qi", lambda: anonymized_table(HAND, hand_release(), qi=["x", "s"]), ValueError, "qi"),
    ("table qi string", lambda: anonymized_table(HAND, hand_release(), qi="x"), TypeError, "qi"),
    ("table class column", lambda: anonymized_table(HAND, hand_release(), class_column="s"), ValueError,
     "class_column"),
    ("table class column type", lambda: anonymized_table(HAND, hand_release(), class_column=1), TypeError,
     "class_column"),
    ("table outside", lambda: anonymized_table(HAND.assign(x=HAND["x"] + 4), hand_release()), ValueError, "df"),
    ("table empty", lambda: anonymized_table(HAND.iloc[:0], hand_release()), ValueError, "df"),
    ("loss k", lambda: information_loss(HAND, hand_release(), k=0), ValueError, "k"),
    ("loss k type", lambda: information_loss(HAND, hand_release(), k=2.5), TypeError, "k"),
    ("loss categorical", lambda: information_loss(HAND, hand_release(), categorical=["s"]), ValueError,
     "categorical"),
    ("loss ranges", lambda: information_loss(HAND, hand_release(), ranges="tigth"), ValueError, "ranges"),
    ("loss dec type", lambda: information_loss(HAND, None), TypeError, "decomposition"),
]


@pytest.mark.parametrize("name, call, exc, text", BAD, ids=[b[0] for b in BAD])
def test_bad_inputs_raise_naming_the_argument(name, call, exc, text):
    with pytest.raises(exc) as info:
        call()
    assert text in str(info.value), str(info.value)
