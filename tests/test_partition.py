"""Tests of privlib.partition: Mondrian (k, l, t) and the DP kd-tree (Cormode et al. 2013, Sec. II)."""
import numpy as np
import pandas as pd
import pytest

from privlib.closeness import emd_equal, emd_ordered
from privlib.partition import Decomposition, dp_kdtree, encode_ordinal, mondrian, qi_codes


def toy(n=400, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 20, n)
    y = rng.integers(0, 10, n)
    # the SA depends on x so that splits on x change the histograms
    s = np.where(x < 10, rng.choice(["a", "b", "c"], n, p=[0.6, 0.3, 0.1]),
                 rng.choice(["a", "b", "c", "d"], n, p=[0.1, 0.2, 0.3, 0.4]))
    return pd.DataFrame({"x": x, "y": y, "s": s})


#: public domains and SA values of toy(): x in 0..19, y in 0..9 (how the data is drawn)
TOY = dict(domain={"x": (0, 19), "y": (0, 9)}, sa_values=("a", "b", "c", "d"))


def leaf_hist_from_data(dec, df):
    leaf = dec.assign(df)
    s = pd.Index(dec.sa_values).get_indexer(df[dec.sa])
    h = np.zeros(dec.histograms.shape)
    np.add.at(h, (leaf, s), 1)
    return h, leaf


def check_partition(dec):
    """Leaves are disjoint and tile the root box exactly (integer volumes add up)."""
    vol = np.prod((dec.upper - dec.lower + 1).astype(float), axis=1).sum()
    assert vol == np.prod((dec.domain_upper - dec.domain_lower + 1).astype(float))
    # every cell of a small domain is in exactly one leaf
    grids = np.meshgrid(*[np.arange(lo, hi + 1) for lo, hi in zip(dec.domain_lower, dec.domain_upper)],
                        indexing="ij")
    cells = np.column_stack([g.ravel() for g in grids])
    inside = ((cells[:, None, :] >= dec.lower[None]) & (cells[:, None, :] <= dec.upper[None])).all(axis=2)
    assert np.all(inside.sum(axis=1) == 1)
    assert np.array_equal(np.argmax(inside, axis=1), dec.assign_codes(cells))


# ---------------------------------------------------------------- hand-worked cases
def test_mondrian_hand_worked_one_dimension():
    # 8 records on one QI 0..7, k = 2: median splits give leaves {0,1},{2,3},{4,5},{6,7}
    df = pd.DataFrame({"x": np.arange(8), "s": list("aabbabab")})
    dec = mondrian(df, ["x"], "s", k=2)
    assert dec.n_leaves == 4
    assert sorted(dec.lower[:, 0].tolist()) == [0, 2, 4, 6]
    assert sorted(dec.upper[:, 0].tolist()) == [1, 3, 5, 7]
    assert np.array_equal(dec.counts, [2, 2, 2, 2])
    # with k = 3 the root splits once (4 | 4) and no further (2 < 3)
    dec3 = mondrian(df, ["x"], "s", k=3)
    assert dec3.n_leaves == 2 and dec3.height == 1


def test_mondrian_ties_choose_balanced_cut():
    # values 0,0,0,0,0,1,2 : median 0; "<= 0" leaves 2 on the right, "< 0" is empty -> cut at 0
    df = pd.DataFrame({"x": [0, 0, 0, 0, 0, 1, 2], "s": list("abababa")})
    dec = mondrian(df, ["x"], "s", k=2)
    assert sorted(dec.counts.tolist()) == [2, 5]


def test_mondrian_picks_widest_normalised_dimension():
    df = pd.DataFrame({"x": [0, 0, 0, 0, 1, 1, 1, 1], "y": [0, 10, 20, 30, 40, 50, 60, 70], "s": list("abababab")})
    dec = mondrian(df, ["x", "y"], "s", k=4, domain={"x": (0, 1), "y": (0, 70)})
    # x spans its whole domain too (1/1); tie -> the first listed, x
    assert dec.tree_dim[0] == 0
    dec = mondrian(df, ["x", "y"], "s", k=4, domain={"x": (0, 9), "y": (0, 70)})
    assert dec.tree_dim[0] == 1                       # x now spans 1/9 of its domain


# ---------------------------------------------------------------- properties
@pytest.mark.parametrize("k", [1, 5, 37])
def test_mondrian_k_anonymity_and_exact_histograms(k):
    df = toy()
    dec = mondrian(df, ["x", "y"], "s", k=k)
    h, _ = leaf_hist_from_data(dec, df)
    assert np.array_equal(h, dec.histograms)             # exact counts, assign() consistent
    assert dec.counts.min() >= k
    assert dec.counts.sum() == len(df)
    check_partition(dec)


def test_mondrian_l_diversity_distinct_and_frequency():
    df = toy()
    dec = mondrian(df, ["x", "y"], "s", k=1, l=3)
    assert ((dec.histograms > 0).sum(axis=1) >= 3).all()
    decf = mondrian(df, ["x", "y"], "s", k=1, l=2, l_kind="frequency")
    assert (decf.histograms.max(axis=1) * 2 <= decf.counts).all()
    # l = number of values present at the root only is the root when no child can keep all 4
    assert dec.n_leaves > 1


def test_mondrian_t_closeness_equal_and_ordered():
    df = toy()
    root = df["s"].value_counts(normalize=True).sort_index().to_numpy()
    for t in (0.05, 0.15):
        dec = mondrian(df, ["x", "y"], "s", k=2, t=t)
        p = dec.histograms / dec.counts[:, None]
        assert (emd_equal(p, root) <= t + 1e-9).all()
    dfo = df.assign(s=df["s"].map({"a": 0, "b": 1, "c": 2, "d": 3}))
    dec = mondrian(dfo, ["x", "y"], "s", k=2, t=0.05)
    assert dec.params["distance"] == "ordered"
    p = dec.histograms / dec.counts[:, None]
    assert (emd_ordered(p, root) <= 0.05 + 1e-9).all()
    # smaller t, coarser partition
    assert mondrian(df, ["x", "y"], "s", k=2, t=0.02).n_leaves <= mondrian(df, ["x", "y"], "s", k=2, t=0.2).n_leaves


def _node_emds(dec, emd):
    """EMD to the root of every internal node (histogram = sum of its leaves') and of every leaf."""
    root = dec.histograms.sum(axis=0)
    q = root / root.sum()
    members = {}
    for leaf, path in enumerate(dec.leaf_paths()):
        for node in path[:-1]:
            members.setdefault(node, []).append(leaf)
    internal = np.array([emd(dec.histograms[v].sum(axis=0) / dec.histograms[v].sum(), q)
                         for v in members.values()])
    leaves = emd(dec.histograms / dec.counts[:, None], q)
    return internal, leaves


def test_mondrian_t_rule_hand_worked():
    """Source rule vs strict rule on 8 records (Section III: "nodes having EMD (compared to root)
    larger than the threshold t will not be split further").

    x = 0..7, s = a a a b | a b b b, root (1/2, 1/2), k = 2, t = 0.3, equal distance.
    Level 1: x <= 3 gives aaab and abbb, EMD 0.25 each: both rules split.
    Level 2 of aaab: the median cut x <= 1 gives aa (EMD 0.5 > t) and ab (EMD 0); x < 1 leaves one record.
    Strict: no child may exceed t, so aaab and abbb are leaves (2 leaves).
    Source: aaab is within t of the root, so it is split: aa | ab and ab | bb (4 leaves, two above t).
    """
    df = pd.DataFrame({"x": np.arange(8), "s": list("aaababbb")})
    strict = mondrian(df, ["x"], "s", k=2, t=0.3, t_rule="strict")
    source = mondrian(df, ["x"], "s", k=2, t=0.3, t_rule="source")
    assert strict.n_leaves == 2 and strict.params["t_rule"] == "strict"
    assert strict.lower[:, 0].tolist() == [0, 4] and strict.upper[:, 0].tolist() == [3, 7]
    assert source.n_leaves == 4 and source.params["t_rule"] == "source"
    order = np.argsort(source.lower[:, 0], kind="stable")
    assert source.lower[order, 0].tolist() == [0, 2, 4, 6] and source.upper[order, 0].tolist() == [1, 3, 5, 7]
    np.testing.assert_allclose(emd_equal(source.histograms[order] / source.counts[order, None], [0.5, 0.5]),
                               [0.5, 0.0, 0.0, 0.5])
    # the default is the strict rule (every published leaf t-close)
    assert mondrian(df, ["x"], "s", k=2, t=0.3).n_leaves == 2
    # a node above t stops: t = 0.2 < 0.25, the source rule splits the root only
    assert mondrian(df, ["x"], "s", k=2, t=0.2, t_rule="source").n_leaves == 2
    assert mondrian(df, ["x"], "s", k=2, t=0.2, t_rule="strict").n_leaves == 1
    # without t the rule is irrelevant
    assert mondrian(df, ["x"], "s", k=2, t_rule="source").n_leaves == mondrian(df, ["x"], "s", k=2).n_leaves


@pytest.mark.parametrize("t", [0.05, 0.1, 0.2, 0.3])
@pytest.mark.parametrize("ordered", [False, True])
def test_mondrian_t_rules_guarantees(t, ordered):
    """Strict: every leaf within t.  Source: every internal node within t; a leaf may exceed t."""
    df = toy(600, 3)
    emd = emd_equal
    if ordered:
        df = df.assign(s=df["s"].map({"a": 0, "b": 1, "c": 2, "d": 3}))
        emd = emd_ordered
    strict = mondrian(df, ["x", "y"], "s", k=4, t=t, t_rule="strict")
    source = mondrian(df, ["x", "y"], "s", k=4, t=t, t_rule="source")
    internal, leaves = _node_emds(strict, emd)
    assert (leaves <= t + 1e-9).all() and (internal <= t + 1e-9).all()
    internal, leaves = _node_emds(source, emd)
    assert (internal <= t + 1e-9).all()
    check_partition(source)


def test_mondrian_source_rule_leaves_can_exceed_t():
    df = toy(600, 3)
    dec = mondrian(df, ["x", "y"], "s", k=4, t=0.1, t_rule="source")
    _, leaves = _node_emds(dec, emd_equal)
    assert (leaves > 0.1 + 1e-9).any()


def test_mondrian_ordered_distance_on_text_sa_needs_an_order():
    """A text SA is never sorted as text for the ordered distance ('11K' < '3K')."""
    df = pd.DataFrame({"x": np.arange(8), "s": ["3K", "11K", "3K", "20K", "11K", "3K", "20K", "11K"]})
    with pytest.raises(ValueError, match="sa_values"):
        mondrian(df, ["x"], "s", k=2, t=0.3, distance="ordered")
    with pytest.raises(ValueError, match="sa_values"):
        mondrian(df.assign(s=df["s"].astype("category")), ["x"], "s", k=2, t=0.3, distance="ordered")
    order = ["3K", "11K", "20K"]
    a = mondrian(df, ["x"], "s", k=2, t=0.3, distance="ordered", sa_values=order)
    b = mondrian(df.assign(s=pd.Categorical(df["s"], categories=order, ordered=True)), ["x"], "s", k=2, t=0.3,
                 distance="ordered")
    assert a.sa_values == tuple(order) == b.sa_values
    np.testing.assert_array_equal(a.histograms, b.histograms)
    # the equal distance needs no order
    assert mondrian(df, ["x"], "s", k=2, t=0.3).params["distance"] == "equal"


def test_mondrian_max_height_and_monotone_in_k():
    df = toy()
    assert mondrian(df, ["x", "y"], "s", k=1, max_height=3).height <= 3
    assert mondrian(df, ["x", "y"], "s", k=1, max_height=0).n_leaves == 1
    leaves = [mondrian(df, ["x", "y"], "s", k=k).n_leaves for k in (1, 4, 16, 64)]
    assert leaves == sorted(leaves, reverse=True)


def test_assign_independent_of_tree_descent():
    """assign() (tree descent) agrees with a brute-force box lookup."""
    df = toy(300, 3)
    dec = mondrian(df, ["x", "y"], "s", k=3)
    X = qi_codes(df, ["x", "y"])
    inside = ((X[:, None, :] >= dec.lower[None]) & (X[:, None, :] <= dec.upper[None])).all(axis=2)
    assert np.array_equal(inside.argmax(axis=1), dec.assign(df))


def test_encode_and_ordered_categorical():
    df = pd.DataFrame({"edu": ["hs", "phd", "ba", "hs"], "s": list("abab")})
    coded = encode_ordinal(df, {"edu": ["hs", "ba", "phd"]})
    assert coded["edu"].tolist() == [0, 2, 1, 0]
    cat = df.assign(edu=pd.Categorical(df["edu"], categories=["hs", "ba", "phd"], ordered=True))
    assert np.array_equal(qi_codes(cat, ["edu"])[:, 0], [0, 2, 1, 0])


# ---------------------------------------------------------------- DP kd-tree
@pytest.mark.parametrize("height", [0, 1, 4, 7])
def test_dp_ledger_sums_to_eps_on_every_path(height):
    df = toy()
    dec = dp_kdtree(df, ["x", "y"], "s", eps=0.7, height=height, rng=1, **TOY)
    spend = dec.path_spend()
    assert spend.shape == (dec.n_leaves,)
    assert np.allclose(spend, 0.7, atol=1e-12)
    assert all(e.eps > 0 for e in dec.ledger)
    assert {e.composition for e in dec.ledger} == {"path"}
    assert dec.ledger.total() == pytest.approx(0.7, abs=1e-12)
    n_median = sum(e.mechanism == "exponential" for e in dec.ledger)
    assert n_median == int((dec.tree_leaf < 0).sum())      # one median per inner node
    check_partition(dec)


def test_dp_single_cells_stop_early_and_still_spend_eps():
    df = pd.DataFrame({"x": np.repeat([0, 1], 50), "s": ["a", "b"] * 50})
    dec = dp_kdtree(df, ["x"], "s", eps=1.0, height=5, rng=0, domain={"x": (0, 1)}, sa_values=["a", "b"])
    assert dec.n_leaves == 2 and dec.height == 1
    assert np.allclose(dec.path_spend(), 1.0)
    leaf_eps = [e.eps for e in dec.ledger if e.mechanism == "laplace"]
    assert np.allclose(leaf_eps, 1.0 - 0.3 * 1.0 / 5)


def test_dp_noise_scale_and_determinism():
    df = toy(2000, 5)
    a = dp_kdtree(df, ["x", "y"], "s", eps=2.0, height=3, rng=7, **TOY)
    b = dp_kdtree(df, ["x", "y"], "s", eps=2.0, height=3, rng=np.random.default_rng(7), **TOY)
    assert np.array_equal(a.histograms, b.histograms) and np.array_equal(a.lower, b.lower)
    # discrete Laplace noise on each cell: integer, with E|Z| = 2 alpha / (1 - alpha**2),
    # alpha = exp(-eps_count) (large-sample check)
    errs = []
    for seed in range(40):
        dec = dp_kdtree(df, ["x", "y"], "s", eps=2.0, height=3, rng=seed, **TOY)
        h, _ = leaf_hist_from_data(dec, df)
        errs.append((dec.histograms - h).ravel())
    errs = np.concatenate(errs)
    assert np.array_equal(errs, np.round(errs))
    eps_count = 2.0 * (1 - 0.3)
    alpha = np.exp(-eps_count)
    assert abs(np.mean(np.abs(errs)) - 2 * alpha / (1 - alpha ** 2)) < 0.1 / eps_count


def test_dp_private_median_near_true_median_for_large_eps():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.integers(0, 100, 5000), "s": rng.choice(["a", "b"], 5000)})
    cuts = [dp_kdtree(df, ["x"], "s", eps=50.0, height=1, rng=s, median_fraction=0.5, domain={"x": (0, 99)},
                      sa_values=["a", "b"]).tree_threshold[0] for s in range(20)]
    true_median = np.median(df["x"])
    assert np.all(np.abs(np.array(cuts) - true_median) <= 2)


# ---------------------------------------------------------------- bad input
def test_bad_k():
    df = toy(50)
    with pytest.raises(ValueError, match=r"k: expected an integer >= 1, got 0"):
        mondrian(df, ["x"], "s", k=0)
    with pytest.raises(ValueError, match=r"k: expected an integer <= the number of records \(50\), got 51"):
        mondrian(df, ["x"], "s", k=51)
    with pytest.raises(TypeError, match="k: expected an integer"):
        mondrian(df, ["x"], "s", k=2.5)


def test_bad_l_and_t():
    df = toy(50)
    n_values = df["s"].nunique()
    with pytest.raises(ValueError, match=rf"l: expected at most the number of sensitive values \({n_values}\), got 9"):
        mondrian(df, ["x"], "s", k=1, l=9)
    for t in (-0.1, 1.5):
        with pytest.raises(ValueError, match=r"t: expected a probability in \[0, 1\]"):
            mondrian(df, ["x"], "s", k=1, t=t)
    with pytest.raises(ValueError, match="l_kind: expected one of"):
        mondrian(df, ["x"], "s", k=1, l=2, l_kind="entropy")


def test_bad_eps_and_height():
    df = toy(50)
    for eps in (0, -1.0):
        with pytest.raises(ValueError, match="eps: expected a number > 0"):
            dp_kdtree(df, ["x"], "s", eps=eps, height=3, rng=0)
    with pytest.raises(ValueError, match="height: expected an integer >= 0"):
        dp_kdtree(df, ["x"], "s", eps=1.0, height=-1, rng=0)


def test_bad_quasi_identifiers():
    df = toy(50).assign(name=lambda d: d["s"] + "x", cat=lambda d: pd.Categorical(d["s"]))
    with pytest.raises(ValueError, match=r"qi: unknown column\(s\) \['zip'\]"):
        mondrian(df, ["x", "zip"], "s", k=2)
    with pytest.raises(ValueError, match=r"qi: unknown column\(s\) \['zip'\]"):
        dp_kdtree(df, ["zip"], "s", eps=1.0, height=2, rng=0)
    with pytest.raises(TypeError, match="quasi-identifier 'name' has dtype .* not orderable"):
        mondrian(df, ["x", "name"], "s", k=2)
    with pytest.raises(TypeError, match="quasi-identifier 'cat' is an unordered categorical, not orderable"):
        dp_kdtree(df, ["cat"], "s", eps=1.0, height=2, rng=0)
    with pytest.raises(ValueError, match="sa: the sensitive attribute 's' is also listed"):
        mondrian(df, ["x", "s"], "s", k=2)
    with pytest.raises(ValueError, match=r"orders\['name'\]: value\(s\) .* are not in the given order"):
        encode_ordinal(df, {"name": ["ax"]})
    with pytest.raises(ValueError, match="domain: quasi-identifier 'x' has values outside"):
        mondrian(df, ["x"], "s", k=2, domain={"x": (0, 3)})
    with pytest.raises(ValueError, match="df: expected at least one row"):
        mondrian(df.iloc[:0], ["x"], "s", k=1)


def test_assign_outside_domain():
    df = toy(50)
    dec = mondrian(df, ["x"], "s", k=2)
    with pytest.raises(ValueError, match="outside the decomposition's domain"):
        dec.assign(pd.DataFrame({"x": [99]}))
    assert isinstance(dec, Decomposition)


def test_vectorised_exponential_matches_mechanism_probabilities():
    """The Gumbel-max draws of the private median follow exponential_probabilities."""
    from privlib.mechanisms import exponential_probabilities, exponential_rows
    u = np.array([[-3.0, -1.0, 0.0, -2.0, -5.0]])
    valid = np.array([[True, True, True, True, False]])
    gen = np.random.default_rng(0)
    draws = exponential_rows(np.where(np.repeat(valid, 40000, axis=0), np.repeat(u, 40000, axis=0), -np.inf),
                             eps=1.5, sensitivity=1.0, rng=gen)
    freq = np.bincount(draws, minlength=5) / draws.size
    p = exponential_probabilities(u[0, :4], eps=1.5, sensitivity=1.0)
    assert freq[4] == 0
    assert np.allclose(freq[:4], p, atol=0.01)
