"""The notebooks of the table of contents are committed executed, in order, without errors.

nbval compares re-executed outputs with the stored ones, so a notebook committed without
outputs would pass it without checking anything: these tests close that hole.
"""
import json
import re

import pytest

from conftest import ROOT, TOC_NOTEBOOKS, toc_files

NOTEBOOKS = sorted(TOC_NOTEBOOKS)


def test_toc_lists_existing_files():
    import yaml
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    listed = json.dumps(toc).count('"file"') + 1  # + the root
    assert len(toc_files()) == listed, "an entry of _toc.yml does not exist as .md or .ipynb"


def test_toc_has_notebooks():
    assert NOTEBOOKS, "no notebook listed in _toc.yml"


def _code_cells(path):
    nb = json.loads(path.read_text())
    return [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_notebook_has_stored_outputs(path):
    cells = _code_cells(path)
    assert cells, f"{path.name}: no code cells"
    unexecuted = [i for i, c in enumerate(cells) if c.get("execution_count") is None]
    assert not unexecuted, f"{path.name}: code cells {unexecuted} were never executed (no stored outputs)"
    assert any(c.get("outputs") for c in cells), f"{path.name}: no code cell has a stored output"
    counts = [c["execution_count"] for c in cells]
    assert counts == list(range(1, len(cells) + 1)), \
        f"{path.name}: cells were not executed once, top to bottom, in a fresh kernel: {counts}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_notebook_has_no_error_outputs(path):
    errors = [i for i, c in enumerate(_code_cells(path)) for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors, f"{path.name}: error outputs in code cells {errors}"


def test_stored_outputs_check_catches_an_unexecuted_notebook(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": ["1 + 1"], "outputs": [], "execution_count": None,
                     "metadata": {}}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "x.ipynb"
    path.write_text(json.dumps(nb))
    with pytest.raises(AssertionError, match="never executed"):
        test_notebook_has_stored_outputs(path)


_BAR = re.compile(r"\d+%\|[# 0-9]{20}\| \d+/\d+")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_progress_bars_are_hidden_from_the_rendered_page(path):
    # privlib's reproducible text bars (progress="text") go to stderr; the book renders every
    # frame on its own line, so a cell that prints one must carry the tag remove-stderr.
    untagged = []
    for i, c in enumerate(_code_cells(path)):
        bars = [o for o in c.get("outputs", []) if o["output_type"] == "stream"
                and _BAR.search("".join(o["text"]))]
        if bars:
            assert all(o["name"] == "stderr" for o in bars), f"{path.name}: code cell {i}: a bar on stdout"
            if "remove-stderr" not in c.get("metadata", {}).get("tags", []):
                untagged.append(i)
    assert not untagged, f"{path.name}: code cells {untagged} print a progress bar but lack the tag remove-stderr"


def _output_text(output) -> str:
    if output.get("output_type") == "stream":
        return "".join(output.get("text", ""))
    return "".join("".join(v) if isinstance(v, list) else str(v)
                   for k, v in output.get("data", {}).items() if k.startswith("text/"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_no_notebook_falls_back_to_data_derived_values(path):
    # Every DP call of the book passes public domains and class labels: the build shows no
    # PrivacyLeakWarning (a privlib function warns every time it has to derive one from the data;
    # a warning that is not caught is printed on stderr).  A page may still catch one on purpose
    # and print it, to show what it says.
    leaks = [i for i, c in enumerate(_code_cells(path)) for o in c.get("outputs", [])
             if o.get("name") == "stderr" and "PrivacyLeakWarning" in _output_text(o)]
    assert not leaks, f"{path.name}: code cells {leaks} print a PrivacyLeakWarning"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_reader_facing_text_never_speaks_of_the_tracker(path):
    cells = json.loads(path.read_text())["cells"]
    bad = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown"
           and re.search(r"\bthe issue\b|\bissues? #?\d|\bthe tracker\b", "".join(c["source"]), re.I)]
    assert not bad, f"{path.name}: markdown cells {bad} speak of the issue tracker"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_every_figure_is_numbered_and_captioned(path):
    # a cell that draws a figure carries MyST-NB figure metadata: a caption and a name that the
    # text refers to with {numref}
    bad = [i for i, c in enumerate(_code_cells(path))
           if any("image/png" in o.get("data", {}) for o in c.get("outputs", []))
           and not (c.get("metadata", {}).get("mystnb", {}).get("figure", {}).get("caption")
                    and c["metadata"]["mystnb"]["figure"].get("name"))]
    assert not bad, f"{path.name}: code cells {bad} draw a figure without a caption and a name"


# ---------------------------------------------------------------------- same outputs on every CPU
# A float printed with more than 12 significant digits carries the last bits of the C math
# library, which differ between CPUs: the README's test command then fails on another machine.
_FLOAT = re.compile(r"(?<![\w.])[-+]?(\d+)\.(\d+)(?:[eE][-+]?\d+)?(?![\w.])")
MAX_SIGNIFICANT = 12


def _significant(match) -> int:
    return len((match.group(1) + match.group(2)).lstrip("0"))


def _compared_texts(output):
    """The texts of an output that reach a reader or nbval: streams, text/plain, glue records."""
    if output.get("output_type") == "stream":
        yield "".join(output.get("text", ""))
    for mime, value in output.get("data", {}).items():
        if mime == "text/plain" or "papermill" in mime or mime == "application/json":
            yield "".join(value) if isinstance(value, list) else json.dumps(value) \
                if not isinstance(value, str) else value


def long_floats(cells) -> list:
    """``(cell index, float)`` for every stored output float with more than 12 significant digits."""
    found = []
    for i, c in enumerate(cells):
        for o in c.get("outputs", []):
            for text in _compared_texts(o):
                found.extend((i, m.group(0)) for m in _FLOAT.finditer(text) if _significant(m) > MAX_SIGNIFICANT)
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_no_output_float_has_more_than_12_significant_digits(path):
    found = long_floats(json.loads(path.read_text())["cells"])
    assert not found, (f"{path.name}: {len(found)} output float(s) with more than {MAX_SIGNIFICANT} significant "
                       f"digits (round before print/glue), first: {found[:5]}")


def test_long_float_scan_catches_the_cpu_dependent_glue():
    # the two glued values that failed the test command on another CPU
    cells = [{"outputs": [{"output_type": "display_data", "data": {
        "application/papermill.record/text/plain": "0.10577944146825383", "text/plain": "0.0004806518554687499"}}]},
             {"outputs": [{"output_type": "stream", "name": "stdout", "text": ["beta = 0.1057794415, n = 30162\n"]}]}]
    assert [v for _, v in long_floats(cells)] == ["0.10577944146825383", "0.0004806518554687499"]


_ONLY_BARS = re.compile(r"^\s*(\d+%\|.*|[\w ,'-]*:?\s*\d+%\|.*)?\s*$")


def stderr_beyond_progress_bars(cells) -> list:
    """``(cell index, line)`` for every stderr line of a remove-stderr cell that is not a progress bar."""
    found = []
    for i, c in enumerate(cells):
        if "remove-stderr" not in c.get("metadata", {}).get("tags", []):
            continue
        for o in c.get("outputs", []):
            if o.get("name") == "stderr":
                found.extend((i, line) for line in re.split(r"[\r\n]+", "".join(o.get("text", "")))
                             if line.strip() and not re.search(r"\d+%\|", line))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_remove_stderr_hides_progress_bars_only(path):
    found = stderr_beyond_progress_bars(json.loads(path.read_text())["cells"])
    assert not found, f"{path.name}: a remove-stderr cell hides more than progress bars: {found[:3]}"


def test_remove_stderr_check_catches_a_hidden_warning():
    cells = [{"metadata": {"tags": ["remove-stderr"]}, "outputs": [
        {"output_type": "stream", "name": "stderr", "text": " 50%|#####     | 1/2\rUserWarning: pass sa_values=\n"}]}]
    assert stderr_beyond_progress_bars(cells) == [(0, "UserWarning: pass sa_values=")]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_no_earlier_version_sentences(path):
    # a reader cannot see an earlier version: a changed reading belongs to the reading history
    cells = json.loads(path.read_text())["cells"]
    bad = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown"
           and re.search(r"earlier (version|edition)", "".join(c["source"]), re.I)]
    assert not bad, f"{path.name}: markdown cells {bad} speak of an earlier version/edition"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_interactive_tables_show_every_row(path):
    # ITables downsamples a table over 64 kB unless told not to: a scorecard must show every row
    found = [i for i, c in enumerate(_code_cells(path)) for o in c.get("outputs", [])
             if "downsampled" in "".join(o.get("data", {}).get("text/html", ""))]
    assert not found, f"{path.name}: code cells {found} show a downsampled interactive table"
