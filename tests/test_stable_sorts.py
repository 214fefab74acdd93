"""No output may depend on how a sort orders ties.

numpy's default quicksort (introsort with SIMD kernels) orders equal keys differently on
different CPUs; a notebook that picked "the middle row" of ``sort_values`` passed on one
machine and failed on another.  Every ``sort_values``, ``sort_index`` and ``argsort`` in
privlib, the benchmarks and the notebooks' code cells therefore passes ``kind="stable"``, or
carries the comment ``# sort: unique keys`` on its line when its keys cannot tie.

``np.sort`` / ``ndarray.sort`` of plain values are exempt (equal values are indistinguishable),
as are Python's ``sorted`` and ``list.sort`` (always stable).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SORT = re.compile(r"\b(sort_values|sort_index|argsort)\(")
MARKER = "# sort: unique keys"


def _call_text(src: str, start: int) -> str:
    """The text of the call whose '(' is at ``start``, up to its matching ')'."""
    depth = 0
    for i in range(start, len(src)):
        if src[i] == "(":
            depth += 1
        elif src[i] == ")":
            depth -= 1
            if depth == 0:
                return src[start:i + 1]
    return src[start:]


def unstable_sorts(src: str) -> list[str]:
    """Lines of ``src`` holding a sort that neither is stable nor is marked as unique keys."""
    bad = []
    lines = src.splitlines()
    for m in SORT.finditer(src):
        call = _call_text(src, m.end() - 1)
        line_no = src.count("\n", 0, m.start())
        line = lines[line_no] if line_no < len(lines) else ""
        if re.search(r"kind\s*=\s*['\"](stable|mergesort)['\"]", call) or MARKER in line:
            continue
        bad.append(f"line {line_no + 1}: {line.strip()}")
    return bad


def _python_files():
    for folder in ("privlib", "benchmarks", "scripts"):
        yield from sorted((ROOT / folder).rglob("*.py"))


def _notebooks():
    return sorted(p for p in (ROOT / "book").rglob("*.ipynb") if "_build" not in p.parts
                  and ".ipynb_checkpoints" not in p.parts)


@pytest.mark.parametrize("path", list(_python_files()), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_sorts_are_stable(path):
    assert unstable_sorts(path.read_text()) == []


@pytest.mark.parametrize("path", _notebooks(), ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_sorts_are_stable(path):
    cells = json.loads(path.read_text())["cells"]
    bad = []
    for i, c in enumerate(cells):
        if c["cell_type"] == "code":
            bad += [f"cell {i} {b}" for b in unstable_sorts("".join(c["source"]))]
    assert bad == []


@pytest.mark.parametrize("src, n_bad", [
    ('df.sort_values("B").iloc[3]', 1),
    ('df.sort_values("B", kind="stable")', 0),
    ("np.argsort(x)", 1),
    ("np.argsort(x, kind='stable')", 0),
    ("np.argsort(\n    x,\n    kind='stable')", 0),
    ("s.sort_index()  # sort: unique keys", 0),
    ("np.sort(x)", 0),
    ("x.argsort(axis=1)[:, :3]", 1),
])
def test_the_scan_finds_unstable_sorts(src, n_bad):
    assert len(unstable_sorts(src)) == n_bad
