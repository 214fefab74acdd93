"""The tutorial page "Using privlib on your own data" (book/tutorial/own_data.ipynb).

nbval re-executes it and compares its outputs; these checks cover what nbval does not: the
page is committed executed, top to bottom, without errors; every exercise has a hidden
worked solution; every figure has a caption and a name; no privacy-leak warning escapes
outside the one cell that demonstrates it.
"""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PATH = ROOT / "book" / "tutorial" / "own_data.ipynb"


@pytest.fixture(scope="module")
def cells():
    return json.loads(PATH.read_text())["cells"]


def _src(cell) -> str:
    return "".join(cell["source"])


def _code(cells):
    return [c for c in cells if c["cell_type"] == "code" and _src(c).strip()]


def test_title(cells):
    assert _src(cells[0]).splitlines()[0] == "# Using privlib on your own data"


def test_executed_once_in_order_without_errors(cells):
    code = _code(cells)
    assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1))
    # a cell whose input is removed (display settings, glue) may print nothing
    shown = [c for c in code if "remove-input" not in c.get("metadata", {}).get("tags", [])]
    assert all(c["outputs"] for c in shown), "a code cell has no stored output"
    assert not [o for c in code for o in c["outputs"] if o["output_type"] == "error"]


def test_each_exercise_has_a_hidden_solution(cells):
    # every exercise but the project is followed by its solution: a hidden code cell whose toggle
    # says which exercise it solves (the label the reader clicks is the one the text promises)
    exercises = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown"
                 and re.search(r":::\{admonition\} Exercise \d+ \((★+) [a-z]+\)", _src(c))]
    numbers = [int(re.search(r"Exercise (\d+)", _src(cells[i])).group(1)) for i in exercises]
    assert numbers[:3] == [1, 2, 3]
    for i, n in zip(exercises, numbers):
        if "project" in _src(cells[i]).split("\n", 1)[0]:
            continue
        nxt = cells[i + 1]
        # the course's rule (tests/test_course.py): the solution's code and output stay hidden
        assert nxt["cell_type"] == "code" and "hide-cell" in nxt["metadata"].get("tags", [])
        assert nxt["metadata"]["mystnb"]["code_prompt_show"].endswith(f"solution to exercise {n}")
    assert not [c for c in cells if c["cell_type"] == "markdown" and "click to show" in _src(c)]


def test_figures_have_caption_and_name(cells):
    figures = [c for c in _code(cells) if any("image/png" in o.get("data", {}) for o in c["outputs"])]
    assert figures
    for c in figures:
        fig = c["metadata"]["mystnb"]["figure"]
        assert fig["caption"].strip() and fig["name"].startswith("fig-tutorial-")
        assert "set_xlabel" in _src(c) and "set_ylabel" in _src(c)


def test_no_stderr_and_one_demonstrated_leak_warning(cells):
    code = _code(cells)
    assert not [o for c in code for o in c["outputs"] if o.get("name") == "stderr"]
    shown = [c for c in code if any("PrivacyLeakWarning" in "".join(o.get("text", "")) for o in c["outputs"])]
    assert len(shown) == 1 and "catch_warnings" in _src(shown[0])


def test_every_random_call_is_seeded(cells):
    src = "\n".join(_src(c) for c in _code(cells))
    for fn in ("dp_kdtree(", "diffgen(", "range_workload("):
        for m in re.finditer(re.escape(fn), src):
            call = src[m.start():src.find("\n", m.start())]
            if "show_error" in src[max(0, m.start() - 40):m.start()] and "rng" not in call:
                continue   # the cell that shows the error of a forgotten rng
            assert "rng=" in call, call
