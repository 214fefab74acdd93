import numpy as np
import pandas as pd
import pytest

from privlib.scorecard import Scorecard, load_scorecards, status


@pytest.mark.parametrize("source, ours, tol, kind, expected", [
    (0.375, 0.375, 0.0005, "abs", "agrees"),
    (0.5, 0.444, 0.0005, "abs", "differs"),
    (85.3, 84.0, 0.02, "rel", "agrees"),
    (85.3, 80.0, 0.02, "rel", "differs"),
    (180, 200, 0, "at_least", "agrees"),
    (180, 150, 10, "at_least", "differs"),
    (6, 5, 0, "at_most", "agrees"),
    ((3.57, 4.8), 4.0, 0, "range", "agrees"),
    ((3.57, 4.8), 5.5, 0.5, "range", "differs"),
    ("holds", True, 0, "holds", "agrees"),
    ("holds", np.False_, 0, "holds", "differs"),
    (1.0, None, 0, "abs", "not computed"),
    (1.0, float("nan"), 0, "abs", "not computed"),
])
def test_status(source, ours, tol, kind, expected):
    assert status(source, ours, tol, kind) == expected


def test_status_bad_input():
    with pytest.raises(ValueError, match="kind"):
        status(1, 1, 0, "approximately")
    with pytest.raises(TypeError, match="boolean"):
        status("holds", 1.0, 0, "holds")
    with pytest.raises(ValueError, match="tolerance"):
        status(1, 1, -1, "abs")


def test_scorecard_frame_save_and_load(tmp_path):
    card = Scorecard("demo")
    card.add("D[P1,Q]", 0.375, 0.375, 5e-4)
    card.add("D[P1,Q] hierarchical", 0.5, 0.4444, 5e-4, note="see text")
    card.add("HI >= PI", "holds", True, kind="holds")
    frame = card.to_frame()
    assert frame["status"].tolist() == ["agrees", "differs", "agrees"]
    assert frame.loc[2, "our value"] == "holds"
    assert "2 agree, 1 differ" in card.summary()
    path = card.save(tmp_path)
    assert path.name == "demo.csv"
    loaded = load_scorecards(tmp_path)
    assert loaded["chapter"].tolist() == ["demo"] * 3
    assert loaded["status"].tolist() == frame["status"].tolist()
    assert load_scorecards(tmp_path / "none").empty


def test_add_validates_immediately():
    card = Scorecard("demo")
    with pytest.raises(TypeError):
        card.add("claim", "holds", 0.3, kind="holds")
    assert card.claims == []
