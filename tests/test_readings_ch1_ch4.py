"""The registries of chapters 1 (t-closeness) and 4 (QWI, OnTheMap) meet the book's verdict rules."""
import pandas as pd
import pytest

from privlib.scorecard import COSTLY_SECONDS, MIN_COSTLY_SEEDS, MIN_NOISE_SEEDS, RULES_PENDING, load_choices, load_readings

CH1_CHOICES = {"ldiv-meaning": {"distinct", "entropy", "recursive"},
               "quality-metric": {"both", "dm", "group-size"},
               "slightly-reading": {"below-entropy-dm", "below-entropy-group-size", "dm-within-10-percent"},
               "low-risk-weight": {"0", "0.1", "0.5"},
               "extra-child-reading": {"children", "leaves"}}


def test_t_closeness_choice_sets_are_registered_and_run_under_every_option():
    choices = load_choices()
    mine = choices[choices["chapter"] == "t-closeness"]
    assert {c: set(g["option"]) for c, g in mine.groupby("choice")} == CH1_CHOICES
    frame = load_readings("t-closeness")
    options = frame[frame["of"] != ""]
    for of, g in options.groupby("of"):
        assert set(g["option"]) == CH1_CHOICES[g["choice"].iloc[0]], of
    # every claim that is a choice set: the three experiment claims, Carl, and the three hierarchical values
    assert set(options["of"]) == {"ldiv-runs-fastest", "entropy-worst-quality", "kanon-slightly-better",
                                  "carl-low-risk", "hier-p1-emd", "hier-p2-emd", "table5-disease-emd"}


@pytest.mark.parametrize("chapter", ["t-closeness", "qwi-onthemap", "qwi-onthemap-noise"])
def test_every_reproduction_says_how_it_could_fail(chapter):
    frame = load_readings(chapter)
    rep = frame[(frame["kind"] == "reproduction") & (frame["compare"] == "holds")]
    assert (rep["can_fail"] != "").all(), rep.loc[rep["can_fail"] == "", "id"].tolist()


@pytest.mark.parametrize("chapter", ["qwi-onthemap", "qwi-onthemap-noise"])
def test_chapter_4_noise_rows_are_judged_over_enough_seeds(chapter):
    assert chapter not in RULES_PENDING
    frame = load_readings(chapter)
    noisy = frame[frame["seeds"] != ""]
    assert len(noisy) > 0
    need = [MIN_COSTLY_SEEDS if s and float(s) > COSTLY_SECONDS else MIN_NOISE_SEEDS for s in noisy["seed_seconds"]]
    assert (pd.to_numeric(noisy["seeds"]).to_numpy() >= need).all()
    # the far-weight calibration: every option over seeds, not one construction
    far = frame[frame["choice"] == "far-weight"]
    assert len(far) == (3 if chapter == "qwi-onthemap" else 0) and (far["seeds"] == "20").all()
