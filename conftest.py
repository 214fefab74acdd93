"""pytest configuration shared by the unit tests and the notebook (nbval) tests.

`python -m pytest` runs tests/ and re-executes with nbval exactly the notebooks listed in
_toc.yml (never copies under _build/ or anything else).
"""
from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent


def toc_files(root: Path = ROOT) -> list[Path]:
    """Every file listed in _toc.yml (root, parts, chapters, sections), as absolute paths."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    found: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            for key in ("root", "file"):
                if key in node:
                    found.append(node[key])
            for value in node.values():
                if isinstance(value, (list, dict)):
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc)
    out = []
    for name in found:
        base = root / name
        matches = [base.with_name(base.name + ext) for ext in (".ipynb", ".md")] if base.suffix == "" else [base]
        out.extend(m for m in matches if m.exists())
    return out


TOC_NOTEBOOKS = {p.resolve() for p in toc_files() if p.suffix == ".ipynb"}


def pytest_ignore_collect(collection_path, config):
    if collection_path.suffix == ".ipynb":
        return collection_path.resolve() not in TOC_NOTEBOOKS
    return None


def pytest_configure(config):
    # The tests reuse int seeds on purpose (reproducible demonstrations, not private releases):
    # no SeedReuseWarning here; tests/test_safety_dp.py switches the check back on where it
    # tests it.
    import privlib

    privlib.demonstration(True)
