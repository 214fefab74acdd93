"""One behavioural suite run on every privacy requirement (as scikit-learn's ``check_estimator``):
the protocol, monotonicity where claimed, :func:`privlib.models.check` against the requirement and
against the named (sparse) checks, and Mondrian's leaves satisfying it."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from privlib import models
from privlib.partition import mondrian
from privlib.requirements import BetaLikeness, KAnonymity, LDiversity, Requirement, TCloseness

REQUIREMENTS = [
    KAnonymity(3),
    LDiversity(2),
    LDiversity(1.8, kind="entropy"),
    LDiversity(2, kind="recursive", c=3),
    LDiversity(2, kind="frequency"),
    TCloseness(0.3),
    TCloseness(0.25, distance="ordered"),
    BetaLikeness(1.0),
    BetaLikeness(3.0, kind="enhanced"),
]
IDS = [r.label() for r in REQUIREMENTS]


def table(n=600, seed=0):
    gen = np.random.default_rng(seed)
    return pd.DataFrame({"a": gen.integers(0, 30, n), "b": gen.integers(0, 8, n),
                         "s": gen.choice(4, size=n, p=[0.42, 0.3, 0.2, 0.08])})


def random_classes(seed, m=400, S=4):
    gen = np.random.default_rng(seed)
    M = gen.integers(0, 6, (m, S)) * (gen.random((m, S)) < 0.7)
    M[M.sum(axis=1) == 0, 0] = 1
    return M


@pytest.mark.parametrize("req", REQUIREMENTS, ids=IDS)
def test_protocol(req):
    assert isinstance(req, Requirement)
    assert req.needs in ("sizes", "counts", "reference")
    assert isinstance(req.label(), str) and req.label()
    M = random_classes(1)
    sizes = M.sum(axis=1)
    q = M.sum(axis=0) / M.sum()
    ok = req.satisfied(sizes, M, q=q)
    assert ok.dtype == bool and ok.shape == sizes.shape
    assert req.holds(sizes, M, q=q) == bool(ok.all())
    assert req.holds(sizes[ok], M[ok], q=q)
    assert req.measure(sizes, M, q=q).shape == sizes.shape
    if req.needs == "counts":
        with pytest.raises(ValueError, match="counts"):
            req.satisfied(sizes, None)


@pytest.mark.parametrize("req", [r for r in REQUIREMENTS if r.monotone], ids=[r.label() for r in REQUIREMENTS if r.monotone])
def test_monotone_under_merging(req):
    """The union of two satisfying classes satisfies a monotone requirement."""
    M = random_classes(2)
    q = M.sum(axis=0) / M.sum()
    good = M[req.satisfied(M.sum(axis=1), M, q=q)]
    assert len(good) > 10
    gen = np.random.default_rng(3)
    i, j = gen.integers(0, len(good), (2, 500))
    U = good[i] + good[j]
    assert req.satisfied(U.sum(axis=1), U, q=q).all()


@pytest.mark.parametrize("req", REQUIREMENTS, ids=IDS)
def test_check_agrees_with_requirement(req):
    df = table()
    df["cls"] = df["a"] // 5 * 10 + df["b"] // 4
    rep = models.check(df, ["cls"], "s", [req])
    M = pd.crosstab(df["cls"], df["s"]).to_numpy()
    q = M.sum(axis=0) / M.sum()
    ok = req.satisfied(M.sum(axis=1), M, q=q)
    assert rep.table["holds"].item() == bool(ok.all())
    assert rep.table["failing_classes"].item() == int((~ok).sum())
    np.testing.assert_allclose(rep.measures[req.label()], req.measure(M.sum(axis=1), M, q=q))


@pytest.mark.parametrize("req", [r for r in REQUIREMENTS if isinstance(r, (LDiversity, TCloseness))],
                         ids=[r.label() for r in REQUIREMENTS if isinstance(r, (LDiversity, TCloseness))])
def test_check_agrees_with_named_sparse_checks(req):
    df = table(seed=4)
    df["cls"] = df["a"] // 3
    ok = models.check(df, ["cls"], "s", [req]).holds
    if isinstance(req, LDiversity):
        named = models.l_diversity(df, ["cls"], "s", kind=req.kind, c=req.c).holds(req.l)
    else:
        named = models.t_closeness(df, ["cls"], "s", distance=req.distance).holds(req.t)
    assert ok == named


@pytest.mark.parametrize("req", REQUIREMENTS, ids=IDS)
def test_mondrian_leaves_satisfy(req):
    df = table(seed=5)
    dec = mondrian(df, ["a", "b"], "s", k=2, requirements=[req])
    H = dec.histograms
    q = H.sum(axis=0) / H.sum()
    assert req.holds(H.sum(axis=1), H, q=q)
    assert dec.params["requirements"] == (req.label(),)
    assert dec.n_leaves > 1


def test_mondrian_shorthands_equal_requirements():
    df = table(seed=6)
    a = mondrian(df, ["a", "b"], "s", k=4, l=2, t=0.3)
    b = mondrian(df, ["a", "b"], "s", k=4, requirements=[LDiversity(2), TCloseness(0.3, distance="ordered")])
    assert np.array_equal(a.lower, b.lower) and np.array_equal(a.histograms, b.histograms)


def test_bad_requirements():
    df = table()
    with pytest.raises(TypeError, match="requirements"):
        mondrian(df, ["a"], "s", k=2, requirements=["beta"])
    with pytest.raises(TypeError, match="requirements"):
        models.check(df, ["a"], "s", [3])
    with pytest.raises(ValueError, match="beta"):
        BetaLikeness(0)
    with pytest.raises(ValueError, match="kind"):
        BetaLikeness(1, kind="strong")


def test_beta_likeness_rare_value():
    """A rare value that doubles its share passes 0.1-closeness but not basic 0.5-likeness."""
    q = np.array([0.9, 0.1])
    M = np.array([[16, 4]])                 # the rare value: 0.1 -> 0.2 (EMD 0.1, relative gain 1)
    assert TCloseness(0.1).holds([20], M, q=q)
    assert not BetaLikeness(0.5).holds([20], M, q=q)
    assert BetaLikeness(1.0).holds([20], M, q=q)
    # enhanced: the bound of a frequent value is -ln p (ln(1/0.9) = 0.105 < beta)
    assert not BetaLikeness(1.0, kind="enhanced").holds([20], np.array([[20, 0]]), q=q)


@pytest.mark.parametrize("req", REQUIREMENTS, ids=IDS)
def test_lattice_search_equals_brute_force(req):
    """evaluate_node and search read the requirement as models.check does on every generalized table."""
    from privlib.generalization import encode_lattice, evaluate_node, generalize_table, lattice, search
    from privlib.hierarchy import Hierarchy
    df = table(n=300, seed=8)[["a", "b", "s"]]
    df["a"] = df["a"] % 8
    h = {"a": Hierarchy.from_rows([[v, f"{v // 2}x", f"{v // 4}xx", "*"] for v in range(8)], name="a"),
         "b": Hierarchy.from_rows([[v, f"{v // 4}x", "*"] for v in range(8)], name="b")}
    enc = encode_lattice(df, ["a", "b"], h, sensitive=["s"], sa_domains={"s": [0, 1, 2, 3]})
    sat = {}
    for L in lattice(enc.heights):
        pub = generalize_table(df, h, dict(zip(["a", "b"], L)))
        sat[L] = models.check(pub, ["a", "b"], "s", [req], sa_values=[0, 1, 2, 3]).holds
        assert evaluate_node(enc, L, requirements=[req])["satisfied"] == sat[L], L
    minimal = {L for L, ok in sat.items() if ok and not any(
        sat.get(L[:j] + (L[j] - 1,) + L[j + 1:], False) for j in range(2) if L[j] > 0)}
    for direction in ("bottom-up", "top-down"):
        assert set(search(enc, [req], direction=direction).minimal["levels"]) == minimal


def render_requirement_table():
    from privlib.requirements import requirement_table
    lines = ["| model | needs | monotone | measure of one class | definition |", "|---|---|---|---|---|"]
    for r in requirement_table().itertuples():
        lines.append(f"| `{r.model}` | {r.needs} | {'yes' if r.monotone else 'no'} | {r.measure} | {r.source} |")
    return "\n".join(lines)


def test_architecture_table_is_generated():
    """ARCHITECTURE.md's table of privacy models is requirement_table(), not written by hand."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "ARCHITECTURE.md").read_text()
    block = text.split("<!-- requirement_table -->\n", 1)[1].split("\n<!-- /requirement_table -->", 1)[0]
    assert block == render_requirement_table()
    assert set(REQ.__name__ for REQ in {type(r) for r in REQUIREMENTS}) == set(
        __import__("privlib.requirements", fromlist=["requirement_table"]).requirement_table()["model"])


@pytest.mark.parametrize("req", REQUIREMENTS, ids=IDS)
def test_dask_check_equals_in_memory(req):
    dd = pytest.importorskip("dask.dataframe")
    from privlib import scale
    df = table(seed=9)
    df["cls"] = df["a"] // 6
    got = scale.dask_check(dd.from_pandas(df, npartitions=3), ["cls"], "s", [req])
    want = models.check(df, ["cls"], "s", [req])
    pd.testing.assert_frame_equal(got.table, want.table)


@pytest.mark.parametrize("kind, c", [("distinct", None), ("entropy", None), ("frequency", None), ("recursive", 2.0),
                                     ("recursive", 0.5)])
def test_l_diversity_one_formula_dense_and_sparse(kind, c):
    # LDiversity.values is the one place of the l-diversity formulas: the sparse check of
    # privlib.models and the dense requirement read the same numbers, to the bit
    from scipy import sparse

    rng = np.random.default_rng(3)
    counts = rng.poisson(rng.uniform(0, 4, size=(200, 9)))
    counts[counts.sum(axis=1) == 0, 0] = 1
    sizes = counts.sum(axis=1)
    req = LDiversity(2, kind=kind, c=c)
    dense = req.values(sizes, counts)
    assert np.array_equal(dense, req.values(sizes, sparse.csr_matrix(counts)))
    assert np.array_equal(dense, models.l_diversity_counts(counts, kind=kind, c=c))
    # a class satisfies l exactly when its value reaches l (entropy: up to the 1e-12 of the check)
    for l in (1.5, 2, 3):
        want = (sizes >= l) & (dense >= (np.ceil(l) if kind == "recursive" else l) * (1 - 1e-9))
        assert np.array_equal(LDiversity(l, kind=kind, c=c).satisfied(sizes, counts), want)
