"""The lecture slides build offline: every file they load lies beside them, none on a CDN."""
import importlib.util
import re
import shutil
import sys

import nbformat
import pytest

from conftest import ROOT

spec = importlib.util.spec_from_file_location("build_slides", ROOT / "scripts" / "build_slides.py")
slides = importlib.util.module_from_spec(spec)
sys.modules["build_slides"] = slides
spec.loader.exec_module(slides)


def _notebook(path):
    nb = nbformat.v4.new_notebook()
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    sol = code("print('SECRET code')", metadata={"tags": ["hide-cell", "solution"]})
    book = code("glue_num('x', 1)", metadata={"tags": ["hide-input"]})
    book.outputs = [nbformat.v4.new_output("stream", text="kept output\n")]
    nb.cells = [md("(lbl)=\n# Title\n\nThe {term}`Laplace mechanism` and [the DP page](dp.ipynb), $x^2$."),
                md("## Exercises\n\n:::{admonition} Exercise 1 (★ basic)\nQuestion?\n:::\n\n"
                   ":::{dropdown} Solution to exercise 1\nSECRET reasoning\n:::"),
                sol, book]
    nbformat.write(nb, path)
    return path


def test_slide_notebook_drops_solutions_and_myst(tmp_path):
    nb = nbformat.read(_notebook(tmp_path / "tiny.ipynb"), as_version=4)
    out = slides.slide_notebook(nb)
    text = "".join(c.source for c in out.cells)
    assert "SECRET" not in text and "{term}" not in text and "(lbl)=" not in text
    assert "[the DP page](dp.slides.html)" in text and "$x^2$" in text
    assert [c.metadata["slideshow"]["slide_type"] for c in out.cells] == ["slide", "slide", "-"]
    assert "slides-remove-input" in out.cells[-1].metadata["tags"]


def test_slides_build_offline(tmp_path):
    if shutil.which("npm") is None and not (slides.OUT / "_vendor").exists():
        pytest.skip("neither npm nor a fetched copy of reveal.js")
    html_path = slides.build(_notebook(tmp_path / "tiny.ipynb"), out=tmp_path)
    html = html_path.read_text()
    assert "SECRET" not in html and "kept output" in html and "glue_num" not in html
    assert not slides.REMOTE.search(html), "a file loaded from the network"
    assert slides.REMOTE.search('<script src="https://cdn.example/x.js">') and not slides.REMOTE.search(
        '<a href="https://example.org">')
    assert slides.REMOTE.search("import mermaid from 'https://cdn.example/m.mjs';")
    local = re.findall(r"""(?:src|href)\s*=\s*["']([^"'#][^"']*)["']""", html)
    assets = [u for u in local if not u.endswith(".slides.html")]
    assert {"reveal.js/dist/reveal.css", "require.js", "jquery.min.js", "mathjax/tex-chtml-full.js"} <= set(assets)
    missing = [u for u in assets if not (tmp_path / u).exists()]
    assert not missing, missing
    assert "reveal.js/dist/reveal.js" in html and (tmp_path / "reveal.js/dist/reveal.js").exists()
    assert (tmp_path / "reveal.js/plugin/notes/notes.js").exists()
    assert html.count("<section") >= 2
