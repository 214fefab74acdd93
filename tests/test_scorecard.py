import numpy as np
import pandas as pd
import pytest

from privlib.scorecard import (CLAIM_KINDS, Scorecard, Seeds, half_unit, headline, load_scorecards,
                               status)


@pytest.mark.parametrize("source, ours, tol, compare, expected", [
    (0.375, 0.375, 0.0005, "abs", "agrees"),
    (0.5, 0.444, 0.0005, "abs", "differs"),
    (85.3, 84.0, 0.02, "rel", "agrees"),
    (85.3, 80.0, 0.02, "rel", "differs"),
    (180, 200, 0, "at_least", "agrees"),
    (180, 150, 10, "at_least", "differs"),
    (6, 5, 0, "at_most", "agrees"),
    ((3.57, 4.8), 4.0, 0, "range", "agrees"),
    ((3.57, 4.8), 5.5, 0.5, "range", "differs"),
    (("3.57", "4.8"), 4.85, 0.05, "range", "agrees"),
    ("holds", True, 0, "holds", "agrees"),
    ("holds", np.False_, 0, "holds", "differs"),
    ("85.3", 85.34, 0.05, "abs", "agrees"),
    (1.0, None, 0, "abs", "not computed"),
    (1.0, float("nan"), 0, "abs", "not computed"),
])
def test_status(source, ours, tol, compare, expected):
    assert status(source, ours, tolerance=tol, compare=compare) == expected


def test_status_bad_input():
    with pytest.raises(ValueError, match="compare"):
        status(1, 1, tolerance=0, compare="approximately")
    with pytest.raises(TypeError, match="boolean"):
        status("holds", 1.0, tolerance=0, compare="holds")
    with pytest.raises(ValueError, match="tolerance"):
        status(1, 1, tolerance=-1, compare="abs")


@pytest.mark.parametrize("printed, half", [("0.278", 5e-4), ("85.3", 0.05), ("180", 0.5), ("1,005", 0.5),
                                           ("5.493061", 5e-7), ("2.5e-3", 5e-5), ("-3.03", 5e-3),
                                           ("13.4%", 0.05), (".5", 0.05)])
def test_half_a_unit_of_the_last_printed_digit(printed, half):
    assert half_unit(printed) == pytest.approx(half)


@pytest.mark.parametrize("bad, exc", [(0.278, TypeError), ("", ValueError), ("about 5", ValueError),
                                      ("1.2.3", ValueError), (".", ValueError)])
def test_half_unit_refuses_what_is_not_a_printed_number(bad, exc):
    with pytest.raises(exc, match="printed"):
        half_unit(bad)


def test_printed_tolerance_is_half_a_unit():
    card = Scorecard("demo")
    assert card.add("BA", "85.3", 85.349, "printed", kind="reproduction", where="T1").status == "agrees"
    assert card.add("BA", "85.3", 85.351, "printed", kind="reproduction", where="T1").status == "differs"
    with pytest.raises(TypeError, match="source"):
        card.add("BA", 85.3, 85.3, "printed", kind="reproduction", where="T1")
    with pytest.raises(ValueError, match="tolerance"):
        card.add("BA", "85.3", 85.3, "half", kind="reproduction", where="T1")


def test_every_new_row_needs_a_known_kind():
    card = Scorecard("demo")
    with pytest.raises(ValueError, match="kind"):
        card.add("x", 1.0, 1.0, kind="agreement", where="T1")
    assert set(CLAIM_KINDS) >= {"reproduction", "source arithmetic", "self-check", "hypothesis"}


def test_a_missing_value_must_be_declared_not_reproduced_with_a_reason():
    card = Scorecard("demo")
    with pytest.raises(ValueError, match="not_reproduced"):
        card.add("x", 1.0, float("nan"), kind="reproduction", where="T1")
    with pytest.raises(ValueError, match="reason"):
        card.not_reproduced("x", "Table 1", reason="  ")
    row = card.not_reproduced("Census figure", "Figure 6", reason="confidential data")
    assert row.status == "not reproduced"
    frame = card.to_frame()
    assert frame.loc[0, "reason"] == "confidential data" and frame.loc[0, "our value"] == "-"


@pytest.mark.parametrize("values, expected, note", [
    ([0.30, 0.31, 0.29], "agrees", "agrees in 3 of 3 seeds"),
    ([0.50, 0.60, 0.70], "differs", "agrees in 0 of 3 seeds"),
    ([0.30, 0.60, 0.29, 0.31], "fragile", "agrees in 3 of 4 seeds"),
    ([True, True, False], "fragile", "agrees in 2 of 3 seeds"),
])
def test_a_value_over_seeds_is_fragile_when_its_status_flips(values, expected, note):
    card = Scorecard("demo")
    compare = "holds" if isinstance(values[0], bool) else "abs"
    row = card.add("x", 0.3, Seeds(values), 0.05, compare, kind="reproduction", where="T1")
    assert row.status == expected
    assert card.to_frame().loc[0, "note"].startswith(note)


def test_seeds_need_two_values():
    with pytest.raises(ValueError, match="2 seeds"):
        Seeds([0.1])


def test_a_table_is_one_claim_with_its_largest_error():
    card = Scorecard("demo")
    src = [["0.5", "0.25"], ["0.125", "1.0"]]
    row = card.add_table("Table 2", src, [[0.5004, 0.25], [0.125, 1.0]], kind="reproduction", where="Table 2")
    assert row.status == "agrees" and row.cells[0] == 4 and row.cells[1] == pytest.approx(4e-4)
    row = card.add_table("Table 3", src, [[0.5, 0.25], [0.126, 1.0]], where="Table 3")
    assert row.status == "differs" and row.cells[2] == 1   # 0.126 is outside ±0.0005 of 0.125
    row = card.add_table("Table 4", [[1, 2]], [[1.2, 2.0]], 0.25, where="Table 4")
    assert row.status == "agrees"
    frame = card.to_frame()
    assert len(frame) == 3 and frame.loc[1, "note"].startswith("4 cells, 1 outside tolerance")
    with pytest.raises(ValueError, match="shape"):
        card.add_table("bad", src, [[0.5, 0.25]], where="T")
    with pytest.raises(ValueError, match="NaN"):
        card.add_table("bad", src, [[0.5, 0.25], [np.nan, 1.0]], where="T")


def test_counts_headline_save_and_load(tmp_path):
    card = Scorecard("demo")
    card.add("D[P1,Q]", "0.375", 0.375, "printed", kind="reproduction", where="Sec. 4")
    card.add("D[P1,Q] hierarchical", "0.5", 0.4444, "printed", kind="reproduction", where="T2", note="see text")
    card.add("D in [0, 1]", True, True, compare="holds", kind="self-check", where="T1")
    card.add("Q uniform over 6 diseases gives 0.5", "0.5", 0.5, "printed", kind="hypothesis", where="T1")
    card.not_reproduced("Figure 6", "Figure 6", reason="data not public")
    counts = card.counts()
    assert counts["reproduction"] == {"claims": 3, "agrees": 1, "differs": 1, "fragile": 0, "choice-dependent": 0,
                                         "not reproduced": 1}
    assert counts["self-check"]["claims"] == 1 and counts["hypothesis"]["agrees"] == 1
    assert card.summary().startswith("demo: 3 reproduction claims: 1 agree, 1 differ, 0 fragile, 1 not reproduced")
    path = card.save(directory=tmp_path)
    assert path.name == "demo.csv"
    loaded = load_scorecards(directory=tmp_path)
    assert loaded["chapter"].tolist() == ["demo"] * 5
    assert loaded["status"].tolist() == card.to_frame()["status"].tolist()
    table = headline(loaded)
    assert table.loc["demo", "claims"] == 3 and table.loc["demo", "self-check"] == 1
    assert table.loc["all chapters", "agrees"] == 1
    assert load_scorecards(directory=tmp_path / "none").empty


def test_first_generation_rows_load_as_untyped(tmp_path):
    pd.DataFrame({"chapter": ["old"], "claim": ["x"], "source value": ["1"], "our value": ["1"],
                  "tolerance": ["±0"], "status": ["agrees"], "note": [""]}).to_csv(tmp_path / "old.csv", index=False)
    loaded = load_scorecards(directory=tmp_path)
    assert loaded.loc[0, "kind"] == "untyped" and "untyped" in headline(loaded).columns


def test_add_validates_immediately():
    card = Scorecard("demo")
    with pytest.raises(TypeError):
        card.add("claim", "holds", 0.3, compare="holds", kind="reproduction", where="T1")
    assert card.claims == []


# ---------------------------------------------------------------- the book's saved scorecards
from conftest import ROOT  # noqa: E402

SAVED = sorted((ROOT / "book" / "scorecards").glob("*.csv"))


@pytest.mark.parametrize("path", SAVED, ids=[p.stem for p in SAVED])
def test_every_saved_row_has_a_kind_a_place_and_a_reason_when_not_reproduced(path):
    frame = pd.read_csv(path, keep_default_na=False)
    assert set(frame["kind"]) <= set(CLAIM_KINDS), f"untyped or unknown kinds: {set(frame['kind']) - set(CLAIM_KINDS)}"
    assert (frame["where"].str.strip() != "").all(), "a row does not say where the claim stands in the source"
    missing = frame[(frame["status"] == "not reproduced") & (frame["reason"].str.strip() == "")]
    assert missing.empty, f"not reproduced without a reason: {missing['claim'].tolist()}"
    assert (frame["status"] != "not computed").all()
    # a chapter reproduces its source, or (chapter 6) tests the sources' comparative claims on a common scale
    assert frame["kind"].isin(["reproduction", "cross-source"]).any()
