"""Choice sets, calibrations, rows that can fail and prediction intervals (privlib.scorecard._multiverse)."""
import re

import pandas as pd
import pytest

from privlib.scorecard import (RULES_PENDING, Scorecard, Seeds, cause_counts, claim_rows, load_choices,
                               prediction_interval, validate_readings, verdict, write_readings)

CHOICES = ("chapter,choice,option,why\n"
           "demo,outliers,floor,an outlier counts with the smallest probability a user gives\n"
           "demo,outliers,drop,outliers are left out of the average as the cited work may do\n"
           "demo,far,low,a tenth of the default weight\n"
           "demo,far,default,the simulator's default weight\n")


def _row(**kw):
    base = dict(id="a", where="Table 1", quote="q", claim="PI rises with N_o", kind="reproduction",
                reading="strictly rising", compare="holds", source="true", tolerance="",
                can_fail="PI could fall at the largest N_o")
    base.update(kw)
    return base


def _options(**kw):
    return [_row(id="pi-floor", choice="outliers", option="floor", of="pi", **kw),
            _row(id="pi-drop", choice="outliers", option="drop", of="pi", **kw)]


@pytest.fixture
def d(tmp_path):
    (tmp_path / "choices.csv").write_text(CHOICES)
    return tmp_path


def _card(d, rows):
    write_readings("demo", rows, directory=d)
    return Scorecard.from_readings("demo", directory=d)


@pytest.mark.parametrize("values, expected", [
    ((True, True), ("robust", "agrees")),
    ((True, False), ("choice-dependent", "choice-dependent")),
    ((False, False), ("no option", "differs")),
])
def test_one_row_per_claim_with_its_verdict_and_counted_once(d, values, expected):
    card = _card(d, [*_options(cause="unstated choice"), _row(id="b")])
    card.record("pi-floor", values[0])
    card.record("pi-drop", values[1])
    card.record("b", True)
    card.check_complete()
    frame = card.to_frame()
    assert frame["id"].tolist() == ["pi", "pi-floor", "pi-drop", "b"]
    row = frame.iloc[0]
    assert (row["verdict"], row["status"]) == expected
    assert frame["option of"].tolist() == ["", "pi", "pi", ""]
    assert row["our value"].startswith("floor: ")
    counts = card.counts()["reproduction"]
    assert counts["claims"] == 2  # the claim once, not its two options
    assert counts[expected[1]] == 1 + (expected[1] == "agrees")
    if expected[0] == "choice-dependent":
        assert row["cause"] == "unstated choice" and "agrees under floor; not under drop" in row["note"]
    framed = frame.assign(chapter="demo")
    assert cause_counts(framed).loc["demo"].sum() == (expected[1] != "agrees")
    assert len(claim_rows(framed)) == 2


def test_a_claim_reproduced_by_no_option_needs_a_cause(d):
    card = _card(d, _options())
    card.record("pi-floor", False)
    card.record("pi-drop", False)
    with pytest.raises(ValueError, match=r"need a cause.*\['pi'\]"):
        card.check_complete()


def test_verdict_refuses_what_an_option_cannot_be():
    assert verdict(["fragile", "differs"]) == ("no option", "fragile")
    with pytest.raises(ValueError, match="at least two options"):
        verdict(["agrees"])
    with pytest.raises(ValueError, match="agrees, differs or is fragile"):
        verdict(["agrees", "not reproduced"])


def test_calibration_is_never_an_agreement(d):
    rows = [_row(id="elim-low", kind="calibration", compare="range", source="3;7", tolerance="printed",
                 choice="far", option="low", of="elim", justification="none: set so that the share lands in 3-7",
                 can_fail=""),
            _row(id="elim-default", kind="calibration", compare="range", source="3;7", tolerance="printed",
                 choice="far", option="default", of="elim", justification="none: set so that the share lands in 3-7",
                 can_fail="", cause="unstated choice")]
    card = _card(d, rows)
    card.record("elim-low", 5.0)
    card.record("elim-default", 28.9)
    card.check_complete()
    counts = card.counts()
    assert "reproduction" not in counts and counts["calibration"]["claims"] == 1
    frame = card.to_frame()
    assert frame.loc[0, "verdict"] == "choice-dependent"
    assert frame.loc[1, "justification"].startswith("none")


@pytest.mark.parametrize("rows, message", [
    ([_row(id="x", choice="outliers", option="floor")], "names its choice, option and of"),
    ([_row(id="x", choice="outliers", option="floor", of="x")], "of must be a new slug"),
    ([_row(id="x", choice="outliers", option="floor", of="pi")], "at least two options"),
    (_options()[:1] + [_row(id="pi-x", choice="outliers", option="floor", of="pi")], "an option has two rows"),
    ([_row(id="pi-floor", choice="outliers", option="floor", of="pi"),
      _row(id="pi-low", choice="far", option="low", of="pi")], "share one choice and one kind"),
    ([_row(id="pi-floor", choice="outliers", option="floor", of="pi"),
      _row(id="pi-mid", choice="outliers", option="mid", of="pi")], "every option of 'outliers' runs"),
    ([_row(id="q-1", choice="nothing", option="a", of="q"), _row(id="q-2", choice="nothing", option="b", of="q")],
     "is not in choices.csv"),
    ([_row(id="c", kind="calibration", compare="abs", source="1", tolerance="printed")],
     "independent justification"),
    ([_row(id="c", kind="calibration", compare="abs", source="1", tolerance="printed", justification="j")],
     "a calibration is a choice set"),
    ([_row(can_fail="")], "says in can_fail"),
    ([_row(seeds="19")], "at least 20 seeds"),
    ([_row(seeds="9", seed_seconds="6")], "at least 10 seeds"),
    ([_row(seeds="12", seed_seconds="4")], "at least 20 seeds"),
    ([_row(seed_seconds="fast")], "seed_seconds must be a positive number"),
    ([_row(seed_seconds="-1")], "seed_seconds must be a positive number"),
    ([_row(id="pi-floor", choice="outliers", option="floor", of="pi", compare="none", source="", reason="r"),
      _row(id="pi-drop", choice="outliers", option="drop", of="pi")], "an option is computed"),
    ([_row(id="pi-floor", choice="outliers", option="floor", of="pi", kind="self-check"),
      _row(id="pi-drop", choice="outliers", option="drop", of="pi", kind="self-check")],
     "options are reproduction, calibration or hypothesis rows"),
])
def test_validate_readings_names_the_multiverse_rule_broken(d, rows, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        validate_readings(pd.DataFrame(rows), chapter="demo", choices=load_choices(directory=d))


def test_a_costly_seed_allows_ten_and_pending_rules_are_said(d):
    assert validate_readings(pd.DataFrame([_row(seeds="10", seed_seconds="6")]))["seeds"].tolist() == ["10"]
    frame = validate_readings(pd.DataFrame([_row(seeds="8", can_fail="")]), pending=("seeds", "can_fail"))
    assert frame["seeds"].tolist() == ["8"]
    assert set(RULES_PENDING) <= {"empirical-privacy", "diffgen", "t-closeness", "one-scale", "qwi-onthemap",
                                  "qwi-onthemap-noise", "reident"}


def test_load_choices_errors(tmp_path):
    assert load_choices(directory=tmp_path).empty
    (tmp_path / "choices.csv").write_text("chapter,choice,option\ndemo,a,b\n")
    with pytest.raises(ValueError, match="expected the columns"):
        load_choices(directory=tmp_path)
    (tmp_path / "choices.csv").write_text("chapter,choice,option,why\ndemo,a,b,\n")
    with pytest.raises(ValueError, match="needs a chapter, choice, option and why"):
        load_choices(directory=tmp_path)
    (tmp_path / "choices.csv").write_text("chapter,choice,option,why\ndemo,a,b,w\ndemo,a,b,w2\n")
    with pytest.raises(ValueError, match="named twice"):
        load_choices(directory=tmp_path)


def test_prediction_interval_percentile_and_inside():
    values = [float(x) for x in range(1, 21)]
    pi = prediction_interval(values, 10.5)
    assert pi["percentile"] == 50.0 and pi["inside"]
    assert not prediction_interval(values, 40.0)["inside"]
    assert prediction_interval(values, 40.0)["percentile"] == 100.0
    assert prediction_interval(values, 3.0)["percentile"] == pytest.approx(12.5)  # ties count half
    rng_pi = prediction_interval(values, (20.0, 60.0))
    assert rng_pi["inside"] and rng_pi["percentile"] == (97.5, 100.0)
    assert not prediction_interval(values, (25.0, 60.0))["inside"]
    with pytest.raises(ValueError, match="at least 2 finite values"):
        prediction_interval([1.0], 1.0)
    with pytest.raises(ValueError, match="at least 2 finite values"):
        prediction_interval([1.0, float("nan")], 1.0)
    with pytest.raises(ValueError, match="coverage"):
        prediction_interval([1.0, 2.0], 1.0, level=1.5)


def test_a_noise_difference_outside_the_interval_is_shown_unexplained(d):
    rows = [_row(id="n", compare="abs", source="10.0", tolerance="0.1", seeds="20", cause="noise", can_fail="")]
    card = _card(d, rows)
    card.record("n", Seeds([1.0 + 0.01 * i for i in range(20)]))
    frame = card.to_frame()
    assert frame.loc[0, "status"] == "differs" and frame.loc[0, "cause"] == "unexplained"
    assert "outside our 95% prediction interval" in frame.loc[0, "note"]
    card2 = _card(d, rows)
    card2.record("n", Seeds([9.0 + 0.1 * i for i in range(20)]))
    frame2 = card2.to_frame()
    assert frame2.loc[0, "status"] == "fragile" and frame2.loc[0, "cause"] == "noise"
    assert re.search(r"percentile \d+ of our 20 seeds, inside", frame2.loc[0, "note"])


def test_pending_rules_are_said_under_the_row(d):
    rows = [_row(id="p", compare="abs", source="1.0", tolerance="0.5", seeds="8", can_fail="")]
    frame = validate_readings(pd.DataFrame(rows), pending=("seeds",))
    assert frame["seeds"].tolist() == ["8"]


# ---------------------------------------------------------------------- the book
def test_no_page_claims_readings_preceded_values_without_git_support():
    # the first registries entered git with their results: no page may say they were written first
    import json
    from conftest import ROOT
    pattern = re.compile(r"before (its|their|the) (value|values|result|results) (is|are|was|were) "
                         r"(computed|known|seen)|written (down )?before (the|its|any) (value|result)", re.I)
    bad = []
    for path in [*ROOT.joinpath("book").rglob("*.ipynb"), *ROOT.joinpath("book").rglob("*.md")]:
        if "_build" in path.parts or ".ipynb_checkpoints" in path.parts:
            continue
        if path.suffix == ".md":
            text = path.read_text(encoding="utf-8")
        else:
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        if pattern.search(text):
            bad.append(path.name)
    assert not bad, f"pages saying readings preceded their values: {bad}"


def test_the_book_choice_sets_are_used_and_complete():
    from conftest import ROOT
    from privlib.scorecard import load_readings
    d = ROOT / "book" / "scorecards" / "readings"
    choices = load_choices(directory=d)
    for chapter, g in choices.groupby("chapter"):
        reg = load_readings(chapter, directory=d)
        for choice in set(g["choice"]):
            assert (reg["choice"] == choice).any(), f"{chapter}: choice {choice!r} registered but no claim uses it"
