"""Bookkeeping out of sight: cells that only glue, record or publish carry a quiet tag, and no
visible code cell holds a bookkeeping statement (a mixed cell is split, scripts/tag_bookkeeping.py)."""
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


def _cell(source, outputs=()):
    return {"cell_type": "code", "id": "a1", "metadata": {}, "execution_count": 1,
            "source": source.splitlines(keepends=True), "outputs": list(outputs)}


def test_a_mixed_cell_is_split_with_its_outputs():
    glue_out = {"output_type": "display_data", "metadata": {"scrapbook": {"name": "x"}}, "data": {}}
    printed = {"output_type": "stream", "name": "stdout", "text": "2\n"}
    shown = {"output_type": "execute_result", "metadata": {}, "data": {"text/plain": "2"}, "execution_count": 1}
    cells = tag_bookkeeping.split_cell(_cell('x = f(1)\nglue_num("x", x)\nprint(x)\nx', [printed, glue_out, shown]))
    assert [c["id"] for c in cells] == ["a1", "a1-bk"]
    assert "".join(cells[0]["source"]) == "x = f(1)\nprint(x)\nx"
    assert cells[0]["outputs"] == [printed, shown]
    assert "".join(cells[1]["source"]) == 'glue_num("x", x)'
    assert cells[1]["outputs"] == [glue_out] and cells[1]["metadata"]["tags"] == ["remove-input"]
    # a value not shown before the split is not shown after it
    cells = tag_bookkeeping.split_cell(_cell('ax.plot(x)\ncard.record("a", 1)'))
    assert "".join(cells[0]["source"]) == "_ = ax.plot(x)" and cells[1]["metadata"]["tags"] == ["hide-input"]
    # a glue never moves past a change of what it reads
    cells = tag_bookkeeping.split_cell(_cell('t = 1\nglue_num("t", t)\nt = 2\nglue_num("u", t)'))
    assert [(c["id"], "".join(c["source"])) for c in cells] == [
        ("a1", "t = 1"), ("a1-bk", 'glue_num("t", t)'), ("a1-c2", "t = 2"), ("a1-bk2", 'glue_num("u", t)')]
    # the scorecard's table follows publish_scorecard
    table = {"output_type": "display_data", "metadata": {}, "data": {"text/html": "<table/>"}}
    cells = tag_bookkeeping.split_cell(_cell('y = g()\npublish_scorecard(card, prefix="c")', [table]))
    assert cells[0]["outputs"] == [] and cells[1]["outputs"] == [table]
    # nothing to split: only computation, only bookkeeping, or already out of sight
    assert tag_bookkeeping.split_cell(_cell("x = f(1)")) is None
    assert tag_bookkeeping.split_cell(_cell('glue_num("a", 1)')) is None
    hidden = _cell('x = f(1)\nglue_num("x", x)')
    hidden["metadata"]["tags"] = ["hide-input"]
    assert tag_bookkeeping.split_cell(hidden) is None


@pytest.mark.parametrize("path", tag_bookkeeping.toc_notebooks(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_visible_cell_holds_a_bookkeeping_statement(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    quiet = set(tag_bookkeeping.QUIET)
    # top-level bookkeeping next to computation (split it off), or inside a loop, a ``with`` or a
    # function that also computes (collect the values, glue or record them in a quiet cell)
    bad = {c.get("id"): tag_bookkeeping.mixed("".join(c["source"])) + tag_bookkeeping.buried("".join(c["source"]))
           for c in nb["cells"]
           if c["cell_type"] == "code" and not set(c.get("metadata", {}).get("tags", [])) & quiet}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, (f"{path.relative_to(ROOT)}: visible cells with bookkeeping lines "
                     f"(python scripts/tag_bookkeeping.py splits them): {bad}")


@pytest.mark.parametrize("source, lines", [
    ('for k in K:\n    x = f(k)\n    print(x)\n    glue_num(k, x)', ["glue_num(k, x)"]),
    ('for n in N:\n    print(n)\n    card.record(n, 1)', ["card.record(n, 1)"]),
    ('with catch() as w:\n    warnings.simplefilter("always")\n    f()', ['warnings.simplefilter("always")']),
    ('def g(x):\n    glue_num("x", x)\n    return x', ['glue_num("x", x)']),
    ('for k in K:\n    v = r[k]\n    card.record(k, v)', []),       # all bookkeeping: a quiet cell
    ('x = f(1)\nglue_num("x", x)', []),                                # top level: mixed() splits it
    ('for k in K:\n    print(k)', []),
])
def test_bookkeeping_buried_in_computation_is_found(source, lines):
    assert tag_bookkeeping.buried(source) == lines


def test_a_split_keeps_what_each_part_shows():
    # the table shown last stays with the computation; the claim card.record returns is not shown
    cells = tag_bookkeeping.split_cell(_cell('rows = f()\ncard.record("a", rows["x"].all())\nrows'))
    assert [(c["id"], "".join(c["source"])) for c in cells] == [
        ("a1", "rows = f()\nrows"), ("a1-bk", '_ = card.record("a", rows["x"].all())')]
    # a call made for its effect on what a glue reads keeps the glue before it
    cells = tag_bookkeeping.split_cell(_cell('x = [1]\nglue_num("n", len(x))\nx.append(2)'))
    assert [c["id"] for c in cells] == ["a1", "a1-bk", "a1-c2"]
