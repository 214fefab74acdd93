"""The registry of readings: every scorecard row registered before it is scored, one rule for every status.

Two halves: the registry API (its rules and error paths), and the book's own registries, saved
scorecards and reading history checked against each other.
"""
import json
import re

import pandas as pd
import pytest

from conftest import ROOT, TOC_NOTEBOOKS
from privlib.scorecard import (CAUSES, HISTORY_COLUMNS, MIN_SEEDS, READING_COLUMNS, Scorecard, Seeds,
                               cause_counts, load_history, load_readings, load_scorecards,
                               validate_readings, write_readings)

READINGS = ROOT / "book" / "scorecards" / "readings"
CARDS = ROOT / "book" / "scorecards"


def _row(**kw):
    base = dict(id="a", where="Table 1", quote="D = 0.375", claim="D[P1, Q] = 0.375", kind="reproduction",
                reading="ordered EMD, printed tolerance", compare="abs", source="0.375", tolerance="printed")
    base.update(kw)
    return base


@pytest.fixture
def registry(tmp_path):
    rows = [_row(),
            _row(id="b", claim="eps = 10 gives the most breach", compare="holds", source="true", tolerance="",
                 seeds="20", cause="noise", can_fail="the claim fails in a seed where eps = 10 breaches less"),
            _row(id="c", claim="Census experiment", compare="none", source="", tolerance="", reason="not public"),
            _row(id="d", claim="Table 2 cells", compare="table", source="0.5;0.278"),
            _row(id="e", kind="hypothesis", claim="Q uniform", compare="range", source="0.1;0.3", explains="a")]
    write_readings("demo", rows, directory=tmp_path)
    return tmp_path


# ---------------------------------------------------------------------- the API
def test_a_registered_card_records_values_in_the_registry_order(registry):
    card = Scorecard.from_readings("demo", directory=registry)
    card.record("e", 0.25)
    card.record_table("d", [0.5, 0.2781])
    card.record("b", Seeds([True, True, False] + [True] * 17))
    card.record("a", 0.3751, note="closed form")
    card.check_complete()
    frame = card.to_frame()
    assert frame["id"].tolist() == ["a", "b", "c", "d", "e"]
    assert frame["status"].tolist() == ["agrees", "fragile", "not reproduced", "agrees", "agrees"]
    assert frame.loc[1, "cause"] == "noise" and frame.loc[1, "our value"] == "holds in 19 of 20 seeds"
    assert frame.loc[2, "reason"] == "not public"
    assert card.counts()["reproduction"] == {"claims": 4, "agrees": 2, "differs": 0, "fragile": 1,
                                             "choice-dependent": 0, "not reproduced": 1}
    assert list(frame.columns)[:7] == ["id", "where", "quote", "claim", "kind", "variant", "reading"]


def test_a_cause_shows_only_on_a_row_that_differs_or_is_fragile(registry):
    card = Scorecard.from_readings("demo", directory=registry)
    card.record("b", Seeds([True] * 20))
    assert card.to_frame().set_index("id").loc["b", "cause"] == ""


def test_record_refuses_what_the_registry_does_not_allow(registry):
    card = Scorecard.from_readings("demo", directory=registry)
    with pytest.raises(KeyError, match="'zz' is not a registered claim"):
        card.record("zz", 1.0)
    with pytest.raises(ValueError, match="judged over 20 seeds"):
        card.record("b", True)
    with pytest.raises(ValueError, match="expected Seeds of 20 values, got Seeds of 3"):
        card.record("b", Seeds([True, True, True]))
    with pytest.raises(ValueError, match="no seeds in the registry"):
        card.record("a", Seeds([0.1] * 5))
    with pytest.raises(ValueError, match="not reproduced"):
        card.record("c", 1.0)
    with pytest.raises(ValueError, match="use record_table"):
        card.record("d", 0.5)
    with pytest.raises(ValueError, match="not 'table'"):
        card.record_table("a", [0.375])
    with pytest.raises(TypeError, match="computed number or boolean"):
        card.record("a", "0.375")
    with pytest.raises(ValueError, match="no computed value"):
        card.record("a", float("nan"))
    card.record("a", 0.375)
    with pytest.raises(ValueError, match="already has a value"):
        card.record("a", 0.375)


def test_check_complete_refuses_a_claim_without_value_and_a_difference_without_cause(tmp_path):
    write_readings("demo", [_row(), _row(id="f", source="0.5")], directory=tmp_path)
    card = Scorecard.from_readings("demo", directory=tmp_path)
    card.record("a", 0.375)
    with pytest.raises(ValueError, match=r"without a value: \['f'\]"):
        card.check_complete()
    card.record("f", 0.9)
    with pytest.raises(ValueError, match=r"need a cause in the registry .*\['f'\]"):
        card.check_complete()


def test_a_scorecard_without_registry_cannot_record():
    with pytest.raises(ValueError, match="from_readings"):
        Scorecard("demo").record("a", 1.0)


@pytest.mark.parametrize("change, message", [
    (dict(id="A b"), "id must be a slug"),
    (dict(kind="agreement"), "kind must be one of"),
    (dict(compare="close"), "compare must be one of"),
    (dict(seeds="3"), f"seeds must be a whole number >= {MIN_SEEDS}"),
    (dict(seeds="five"), "seeds must be a whole number"),
    (dict(compare="holds", source="yes", tolerance=""), "source is 'true'"),
    (dict(compare="holds", source="true", tolerance="printed"), "a holds claim has no tolerance"),
    (dict(compare="none", source="", tolerance=""), "needs its reason"),
    (dict(compare="range", source="0.1"), "source is 'lo;hi'"),
    (dict(source="about 0.4"), "numbers as printed"),
    (dict(tolerance="-1"), "tolerance must be 'printed' or a number"),
    (dict(kind="hypothesis"), "names in 'explains'"),
    (dict(kind="hypothesis", explains="a"), "explains names no other claim"),
    (dict(explains="a"), "only a hypothesis explains"),
    (dict(cause="bad luck"), "cause must be one of"),
    (dict(cause="unexplained"), "an unexplained difference needs a hypothesis"),
    (dict(reading=""), "reading is blank"),
])
def test_validate_readings_names_the_rule_broken(change, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        validate_readings(pd.DataFrame([_row(**change)]), chapter="demo")


def test_validate_readings_refuses_duplicates_and_unknown_columns():
    with pytest.raises(ValueError, match=r"duplicate ids \['a'\]"):
        validate_readings(pd.DataFrame([_row(), _row()]))
    with pytest.raises(ValueError, match="unknown \\['status'\\]"):
        validate_readings(pd.DataFrame([{**_row(), "status": "agrees"}]))
    with pytest.raises(TypeError, match="DataFrame"):
        validate_readings([_row()])


def test_an_unexplained_difference_with_its_hypothesis_is_accepted():
    rows = [_row(cause="unexplained"), _row(id="h", kind="hypothesis", explains="a")]
    assert validate_readings(pd.DataFrame(rows))["cause"].tolist() == ["unexplained", ""]


def test_load_readings_and_history_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no registry of readings for 'nothing'"):
        load_readings("nothing", directory=tmp_path)
    (tmp_path / "history.csv").write_text("chapter,id,why\nx,y,z\n")
    with pytest.raises(ValueError, match="expected the columns"):
        load_history(directory=tmp_path)
    (tmp_path / "history.csv").write_text(",".join(HISTORY_COLUMNS) + "\nx,y,old,agrees,new,\n")
    with pytest.raises(ValueError, match="without a chapter, id or why"):
        load_history(directory=tmp_path)


def test_cause_counts_counts_reproduction_differences_by_cause():
    frame = pd.DataFrame({"chapter": ["a", "a", "a", "b"], "kind": ["reproduction", "reproduction", "hypothesis",
                                                                      "reproduction"],
                          "status": ["differs", "fragile", "differs", "agrees"],
                          "cause": ["noise", "source slip", "noise", ""]})
    table = cause_counts(frame)
    assert list(table.columns) == list(CAUSES)
    assert table.loc["a", "noise"] == 1 and table.loc["a", "source slip"] == 1 and table.loc["b"].sum() == 0
    assert table.loc["all chapters"].sum() == 2


# ---------------------------------------------------------------------- the book's registries
REGISTRIES = (sorted(p.stem for p in READINGS.glob("*.csv") if p.stem not in ("history", "choices"))
              if READINGS.exists() else [])
SAVED = sorted(p.stem for p in CARDS.glob("*.csv"))


def _chapter_notebooks() -> dict:
    """registry name -> the notebook that builds its scorecard (from Scorecard.from_readings calls)."""
    out = {}
    for nb in TOC_NOTEBOOKS:
        cells = json.loads(nb.read_text())["cells"]
        src = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        for name in re.findall(r"Scorecard\.from_readings\(\s*[\"']([\w-]+)[\"']", src):
            out[name] = nb
    return out


def test_every_saved_scorecard_comes_from_a_registry():
    assert SAVED, "no saved scorecard"
    assert sorted(set(SAVED) - set(REGISTRIES)) == [], "saved scorecards without a registry of readings"
    assert sorted(set(REGISTRIES) - set(SAVED)) == [], "registries whose scorecard was never saved"
    assert sorted(set(REGISTRIES) - set(_chapter_notebooks())) == [], \
        "registries that no notebook of the table of contents builds with Scorecard.from_readings"


@pytest.mark.parametrize("chapter", REGISTRIES)
def test_saved_scorecard_matches_its_registry(chapter):
    reg = load_readings(chapter, directory=READINGS)
    card = pd.read_csv(CARDS / f"{chapter}.csv", dtype=str, keep_default_na=False)
    if "of" in reg:  # a choice set's claim row (its verdict) stands before its options
        card = card.loc[~card["id"].isin(set(reg["of"]) - {""})].reset_index(drop=True)
    assert card["id"].tolist() == reg["id"].tolist(), f"{chapter}: saved rows differ from the registry's claims"
    for col in ("claim", "kind", "where", "reading", "variant"):
        assert card[col].tolist() == reg[col].tolist(), f"{chapter}: column {col} differs from the registry"
    # one rule for every status: a noise-dependent row is judged per seed, and says in how many
    seeded = reg.loc[reg["seeds"] != "", "id"]
    per_seed = card.set_index("id").loc[list(seeded)]
    bad = [i for i, r in per_seed.iterrows() if not re.search(r"(agrees in|holds in) \d+ of \d+ seeds",
                                                              r["note"] + " " + r["our value"])]
    assert not bad, f"{chapter}: rows registered with seeds but not judged per seed: {bad}"
    options = card["option of"] != "" if "option of" in card else False
    uncaused = card.loc[card["status"].isin(["differs", "fragile"]) & (card["cause"] == "") & ~options,
                        "id"].tolist()
    assert not uncaused, f"{chapter}: rows that differ or are fragile without a cause: {uncaused}"


def test_the_reading_history_names_registered_claims():
    # an entry names a registered claim, or records a claim removed after its result was seen
    # (its new reading then says so: "removed ..." or "no scorecard row ...")
    history = load_history(directory=READINGS)
    assert set(history["chapter"]) <= set(REGISTRIES), "history entries of unknown chapters"
    known = {(c, i) for c in REGISTRIES for col in ("id", "of")
             for i in load_readings(c, directory=READINGS)[col] if i}  # a row, or a choice set's claim
    unknown = [f"{r.chapter}/{r.id}" for r in history.itertuples() if (r.chapter, r.id) not in known
               and not re.match(r"(removed|no scorecard row)\b", r.new_reading.strip(), re.I)]
    assert not unknown, f"history entries for claims that are neither registered nor said to be removed: {unknown}"


def test_no_chapter_says_fixed_before_unless_its_history_is_empty():
    history = load_history(directory=READINGS)
    changed = set(history["chapter"])
    bad = []
    for chapter, nb in _chapter_notebooks().items():
        if chapter not in changed:
            continue
        cells = json.loads(nb.read_text())["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        if re.search(r"fixed before|before (computing|seeing|any result)", text, re.I):
            bad.append(f"{nb.name} ({chapter})")
    assert not bad, f"chapters that say their readings were fixed before the results, with a reading history: {bad}"


def test_registry_columns_are_the_documented_ones():
    for chapter in REGISTRIES:
        head = (READINGS / f"{chapter}.csv").read_text(encoding="utf-8").splitlines()[0]
        # a registry without choice sets may stop after the first 14 columns
        assert head.split(",") in (READING_COLUMNS, READING_COLUMNS[:14]), f"{chapter}: header {head}"


def test_load_scorecards_reads_every_chapter():
    cards = load_scorecards(directory=CARDS)
    assert set(cards["chapter"]) >= set(REGISTRIES)
