"""Tests of privlib.hierarchy on the source's Figure 1 (disease hierarchy) and the Adult files."""
import numpy as np
import pandas as pd
import pytest

from privlib.closeness import emd, emd_hierarchical
from privlib.data import load_hierarchy
from privlib.hierarchy import Hierarchy, HierarchyError
from source_examples import FIGURE1


@pytest.fixture(scope="module")
def fig1():
    return Hierarchy.from_dict(FIGURE1, name="disease")


def test_figure1_structure(fig1):
    assert fig1.root == "Respiratory & digestive system diseases"
    assert fig1.height == 3
    assert len(fig1.leaves) == 10
    assert fig1.leaves[:3] == ("flu", "pneumonia", "bronchitis")
    assert fig1.children("Digestive system diseases") == ("Stomach diseases", "Colon diseases")
    assert fig1.parent("gastritis") == "Stomach diseases"
    assert fig1.node_height("Stomach diseases") == 1 and fig1.node_height(fig1.root) == 3
    assert fig1.depth("colitis") == 3 and fig1.is_balanced()
    assert fig1.leaves_under("Colon diseases") == ("colitis", "colon cancer")
    assert fig1.path("flu") == ["flu", "Respiratory infection", "Respiratory system diseases", fig1.root]
    assert "flu" in fig1 and "measles" not in fig1 and len(fig1) == 10


def test_figure1_distances(fig1):
    # the slide: ulcer-gastritis 1/3, ulcer-colitis 2/3, ulcer-flu 3/3
    assert fig1.distance("gastric ulcer", "gastritis") == pytest.approx(1 / 3)
    assert fig1.distance("gastric ulcer", "colitis") == pytest.approx(2 / 3)
    assert fig1.distance("gastric ulcer", "flu") == pytest.approx(1.0)
    assert fig1.distance("flu", "flu") == 0.0
    assert fig1.lca("colitis", "gastritis") == "Digestive system diseases"


def test_distance_matrix_is_an_ultrametric(fig1):
    D = fig1.distance_matrix()
    assert D.shape == (10, 10)
    np.testing.assert_allclose(D, D.T)
    assert np.all(np.diag(D) == 0)
    # ultrametric inequality d(a, c) <= max(d(a, b), d(b, c))
    assert np.all(D[:, None, :] <= np.maximum(D[:, :, None], D[None, :, :]) + 1e-12)
    assert set(np.round(np.unique(D), 6)) == {0.0, 0.333333, 0.666667, 1.0}


def test_generalize_is_vectorised_and_correct(fig1):
    vals = np.array(["flu", "colitis", "gastritis"])
    assert list(fig1.generalize(vals, 0)) == list(vals)
    assert list(fig1.generalize(vals, 1)) == ["Respiratory infection", "Colon diseases", "Stomach diseases"]
    assert list(fig1.generalize(pd.Series(vals), 2)) == ["Respiratory system diseases",
                                                          "Digestive system diseases", "Digestive system diseases"]
    assert set(fig1.generalize(vals, 3)) == {fig1.root}
    assert fig1.ancestor("pneumonia", 1) == "Respiratory infection"


def test_missing_value_error_names_value_and_attribute(fig1):
    with pytest.raises(HierarchyError, match=r"'measles' of attribute 'disease' not in its hierarchy"):
        fig1.generalize(["flu", "measles"], 1)
    with pytest.raises(HierarchyError, match="'measles'"):
        fig1.check_values(["measles"])
    with pytest.raises(HierarchyError, match="'measles' of attribute 'disease' is not in its hierarchy"):
        fig1.distance("flu", "measles")
    assert issubclass(HierarchyError, ValueError)


def test_bad_level_is_refused(fig1):
    with pytest.raises(ValueError, match=r"level: expected an integer in \[0, 3\], got 4"):
        fig1.ancestor("flu", 4)


def test_from_rows_and_from_csv_agree_with_from_dict(tmp_path, fig1):
    rows = [list(fig1.path(v)) for v in fig1.leaves]
    h_rows = Hierarchy.from_rows(rows, name="disease")
    path = tmp_path / "disease.csv"
    path.write_text("\n".join(";".join(r) for r in rows) + "\n", encoding="utf-8")
    h_csv = Hierarchy.from_csv(path)
    for h in (h_rows, h_csv):
        assert h.leaves == fig1.leaves and h.height == 3
        np.testing.assert_allclose(h.distance_matrix(), fig1.distance_matrix())
    assert h_csv.name == "disease"


def test_from_rows_malformed_inputs_are_refused():
    with pytest.raises(HierarchyError, match="different roots"):
        Hierarchy.from_rows([["a", "x", "*"], ["b", "y", "ALL"]], name="t")
    with pytest.raises(HierarchyError, match="two parents"):
        Hierarchy.from_rows([["a", "x", "*"], ["b", "x", "*"], ["x2", "x", "*"], ["c", "a", "*"]], name="t")
    with pytest.raises(HierarchyError, match="listed twice"):
        Hierarchy.from_rows([["a", "*"], ["a", "*"]], name="t")
    with pytest.raises(HierarchyError, match="no rows"):
        Hierarchy.from_rows([], name="t")


def test_from_dict_malformed_inputs_are_refused():
    with pytest.raises(HierarchyError, match="appears twice"):
        Hierarchy.from_dict({"A": ["x", "y"], "B": ["x"]})
    with pytest.raises(TypeError, match="nested: expected a dict"):
        Hierarchy.from_dict(["x", "y"])
    with pytest.raises(HierarchyError, match="expected a dict or a list"):
        Hierarchy.from_dict({"A": "x"})


def test_from_dict_adds_a_root_above_several_keys():
    h = Hierarchy.from_dict({"A": ["x", "y"], "B": ["z"]})
    assert h.root == "*" and h.height == 2 and h.leaves == ("x", "y", "z")
    assert Hierarchy.from_dict(h.to_dict()).leaves == h.leaves


def test_adult_hierarchy_files():
    occ = load_hierarchy("occupation")
    assert len(occ.leaves) == 14 and occ.height == 3
    age = load_hierarchy("age")
    assert age.height == 4 and 17 in age and age.generalize([17, 90], 4).tolist() == ["*", "*"]
    with pytest.raises(HierarchyError, match="'Astronaut' of attribute 'occupation'"):
        occ.generalize(["Astronaut"], 1)


def test_unbalanced_hierarchy_closed_form_equals_lp():
    mar = load_hierarchy("marital_status")
    assert not mar.is_balanced()
    rng = np.random.default_rng(5)
    G = mar.distance_matrix()
    for _ in range(5):
        p, q = rng.dirichlet(np.ones(7)), rng.dirichlet(np.ones(7))
        assert emd_hierarchical(p, q, mar) == pytest.approx(emd(p, q, G), abs=1e-8)


def test_ancestor_on_unbalanced_tree_follows_arx_padding():
    # ARX pads a short path by repeating the value: at level 1 the value stays itself.
    h = Hierarchy.from_rows([
        ["Never-married", "Never-married", "Not-married", "*"],
        ["Divorced", "Previously-married", "Not-married", "*"],
        ["Widowed", "Previously-married", "Not-married", "*"],
        ["Married-civ-spouse", "Spouse-present", "Married", "*"],
    ])
    assert h.ancestor("Never-married", 0) == "Never-married"
    assert h.ancestor("Never-married", 1) == "Never-married"
    assert h.ancestor("Never-married", 2) == "Not-married"
    assert h.ancestor("Divorced", 1) == "Previously-married"
    assert h.ancestor("Never-married", 3) == "*"
    # two short-path leaves under a node of height 2 are not merged at level 1
    u = Hierarchy.from_rows([["a", "a", "X", "*"], ["b", "b", "X", "*"],
                             ["c", "Y", "X", "*"], ["d", "Y", "X", "*"]])
    assert list(u.generalize(["a", "b", "c", "d"], 1)) == ["a", "b", "Y", "Y"]
    assert list(u.generalize(["a", "b", "c", "d"], 2)) == ["X"] * 4
    # every level's partition refines the next one (generalization property)
    for lv in range(u.height):
        lo = dict(zip(u.leaves, u.generalize(u.leaves, lv)))
        hi = dict(zip(u.leaves, u.generalize(u.leaves, lv + 1)))
        for a in u.leaves:
            for b in u.leaves:
                if lo[a] == lo[b]:
                    assert hi[a] == hi[b]
    # an inner node asked for a lower level is returned as it is
    assert u.ancestor("Y", 0) == "Y"


# ---------------------------------------------------------------------------- regressions
def test_from_csv_strips_a_utf8_byte_order_mark(tmp_path):
    path = tmp_path / "sex.csv"
    path.write_bytes("Male;*\nFemale;*\n".encode("utf-8-sig"))      # as Excel saves "CSV UTF-8"
    h = Hierarchy.from_csv(path)
    assert h.leaves == ("Male", "Female")
    assert "Male" in h and h.generalize(["Male"], 1).tolist() == ["*"]
    num = tmp_path / "age.csv"
    num.write_bytes("17;[15-20);*\n18;[15-20);*\n".encode("utf-8-sig"))
    assert Hierarchy.from_csv(num, converter=int).leaves == (17, 18)


def test_from_csv_bad_numeric_line_names_file_and_line(tmp_path):
    path = tmp_path / "age.csv"
    path.write_text("17;[15-20);*\n18;[15-20);*\n\n1 9;[15-20);*\n")
    with pytest.raises(HierarchyError, match=r"age\.csv, line 4: leaf '1 9' cannot be converted with int"):
        Hierarchy.from_csv(path, converter=int)
    with pytest.raises(ValueError, match="line 4"):          # HierarchyError is a ValueError
        Hierarchy.from_csv(path, converter=int)
    with pytest.raises(TypeError, match="converter"):
        Hierarchy.from_csv(path, converter="int")


@pytest.mark.parametrize("level, exc", [(1.5, TypeError), (1.0, TypeError), ("1", TypeError), (True, TypeError),
                                        (None, TypeError), (-1, ValueError), (4, ValueError)])
def test_ancestor_level_must_be_an_integer_in_range(fig1, level, exc):
    with pytest.raises(exc, match="level"):
        fig1.ancestor("flu", level)
    with pytest.raises(exc, match="level"):
        fig1.generalize(["flu"], level)
    with pytest.raises(exc, match="level"):
        fig1.generalization_map(level)


def test_ancestor_accepts_numpy_integers(fig1):
    assert fig1.ancestor("flu", np.int64(1)) == "Respiratory infection"


def test_array_views_are_cached_and_match_the_tree():
    h = Hierarchy.from_dict({"*": {"A": {"A1": ["a", "b"], "A2": ["c"]}, "B": ["d", "e"]}}, name="x")
    v = h.preorder()
    assert h.preorder() is v                                    # cached
    assert v.nodes == ("*", "A", "A1", "a", "b", "A2", "c", "B", "d", "e")
    assert v.leaves == ("a", "b", "c", "d", "e")
    for i, node in enumerate(v.nodes):                          # leaf ranges are the subtrees' leaves
        assert v.leaves[v.lo[i]:v.hi[i]] == h.leaves_under(node)
        assert tuple(v.nodes[j] for j in v.children[i]) == h.children(node)
    assert v.lo.dtype == np.int64 and v.hi.dtype == np.int64
    lc = h.level_codes()
    assert h.level_codes() is lc and len(lc) == h.height + 1
    for level, (codes, width) in enumerate(lc):
        anc = [h.ancestor(x, level) for x in h.leaves]
        assert width == len(set(anc))
        assert all((codes[i] == codes[j]) == (anc[i] == anc[j]) for i in range(5) for j in range(5))
    mats = h.emd_matrices()
    assert h.emd_matrices() is mats
    A, C, w = mats
    assert A.shape == (5, len(h.nodes)) and C.shape == (len(h.nodes), 5)
    np.testing.assert_allclose(sorted(w), [1 / 3, 1 / 3, 1 / 3, 2 / 3, 1.0])
    assert not any(k.startswith("_emd") for k in vars(h))       # nobody else writes on a Hierarchy
