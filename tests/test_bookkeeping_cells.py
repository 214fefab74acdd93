"""Bookkeeping out of sight: cells that only glue, record or publish carry a quiet tag."""
import importlib.util
import json
import sys

import pytest

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("tag_bookkeeping", ROOT / "scripts" / "tag_bookkeeping.py")
tag_bookkeeping = importlib.util.module_from_spec(_spec)
sys.modules["tag_bookkeeping"] = tag_bookkeeping
_spec.loader.exec_module(tag_bookkeeping)


@pytest.mark.parametrize("source, tag", [
    ('glue_num("a", 1)\nglue_num("b", x)', "remove-input"),
    ('publish_scorecard(card, prefix="ch1")', "remove-input"),
    ('pd.set_option("display.precision", 4)', "remove-input"),
    ('card.save()', "remove-input"),
    ('card = Scorecard.from_readings("demo")\ncard.record("a", 1)', "hide-input"),
    ('for k in KS:\n    v = r[k]\n    card.record(k, v)', "hide-input"),
    ('x = f(1)\ncard.record("a", x)\ncard.record("b", x)', "hide-input"),   # two thirds bookkeeping
    ('x = f(1)\nglue_num("x", x)', None),                                 # a computation shown
    ('x = f(1)\ny = g(x)\ncard.record("a", y)', None),
    ('fig, ax = plt.subplots()\nax.plot(x)', None),
    ('%matplotlib inline\nglue_num("a", 1)', "remove-input"),
    ('def f(:', None),
])
def test_the_classifier(source, tag):
    assert tag_bookkeeping.bookkeeping(source) == tag


@pytest.mark.parametrize("path", tag_bookkeeping.toc_notebooks(), ids=lambda p: str(p.relative_to(ROOT)))
def test_bookkeeping_cells_are_out_of_sight(path):
    missing = tag_bookkeeping.untagged(json.loads(path.read_text(encoding="utf-8")))
    assert not missing, (f"{path.relative_to(ROOT)}: bookkeeping cells shown to the reader "
                         f"(python scripts/tag_bookkeeping.py): {missing}")
