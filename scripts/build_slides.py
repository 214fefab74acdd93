"""Lecture slides (reveal.js) from the book's notebooks, built to work offline.

    python scripts/build_slides.py                 # every Foundations page and chapter
    python scripts/build_slides.py book/foundations/dp.ipynb ...

Output: ``_build/slides/<notebook>.slides.html``, opened from the disk in any browser, with
everything it loads beside it: reveal.js (dist/ and the notes plugin), require.js and jQuery from
their npm packages (``npm pack``, fetched once into ``_build/slides/_vendor``), and MathJax 3 from the
``sphinx-mathjax-offline`` package the book already installs. No CDN is referenced.

The slides use the notebooks' stored outputs (no execution). Each ``##`` section starts a slide,
every other markdown cell a sub-slide (down arrow) with the code cells that follow it; the
exercises' solutions (drop-downs and cells tagged ``solution``) are left out, bookkeeping inputs
(tagged ``hide-input``/``remove-input``) show their output only, and MyST roles are reduced to
their text.
"""
from __future__ import annotations

import copy
import re
import shutil
import subprocess
import sys
import tarfile
import warnings
from importlib import metadata
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "_build" / "slides"
REVEAL = "reveal.js@5.2.1"
REQUIREJS = "requirejs@2.3.7"
JQUERY = "jquery@3.7.1"
DEFAULT = sorted((ROOT / "book" / "foundations").glob("*.ipynb")) + sorted((ROOT / "book").glob("ch*/*.ipynb"))

SOLUTION_DROPDOWN = re.compile(r":::\{dropdown\} Solution[^\n]*\n.*?\n:::\n?", re.S)
ROLE_WITH_TARGET = re.compile(r"\{(?:term|ref|doc)\}`([^`<]*?)\s*<[^`>]*>`")
ROLE = re.compile(r"\{(term|ref|doc|numref|cite|cite:p|cite:t|glue:text|glue|eq)\}`([^`]*)`")
MATHJAX_BLOCK = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)
# a resource the page would load from the network (links a reader may follow are fine)
REMOTE = re.compile(r"""<(?:script|img|iframe|source|link)\b[^>]*\b(?:src|href)\s*=\s*["'](?:https?:)?//"""
                    r"""|\bimport\b[^;'"]*\bfrom\s*["'](?:https?:)?//""", re.I)
# nbconvert's template imports mermaid from a CDN on every page; no notebook here draws a diagram
MERMAID = re.compile(r"<script type=\"module\">\s*import mermaid.*?</script>\s*", re.S)


def _npm_pack(spec: str, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    name, version = spec.rsplit("@", 1)
    tgz = dest / f"{name}-{version}.tgz"
    if not tgz.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError(f"npm is needed once to fetch {spec} from the npm registry (apt-get install npm)")
        subprocess.run([npm, "pack", spec, "--silent", "--pack-destination", str(dest)], check=True,
                       stdout=subprocess.DEVNULL)
    return tgz


def _extract(tgz: Path, members: tuple[str, ...], target: Path) -> None:
    with tarfile.open(tgz) as tar:
        for m in tar.getmembers():
            rel = m.name.removeprefix("package/")
            if m.isfile() and rel.startswith(members):
                m = copy.copy(m)
                m.name = rel
                tar.extract(m, target, filter="data")


def vendor(out: Path = OUT) -> None:
    """Put reveal.js, require.js and MathJax beside the slides (once)."""
    cache = OUT / "_vendor"                  # the npm tarballs, fetched once
    if not (out / "reveal.js" / "dist" / "reveal.js").exists():
        _extract(_npm_pack(REVEAL, cache), ("dist/", "plugin/notes/"), out / "reveal.js")
    if not (out / "require.js").exists():
        _extract(_npm_pack(REQUIREJS, cache), ("require.js",), out)
    if not (out / "jquery.min.js").exists():
        _extract(_npm_pack(JQUERY, cache), ("dist/jquery.min.js",), cache / "jquery")
        shutil.copy2(cache / "jquery" / "dist" / "jquery.min.js", out / "jquery.min.js")
    if not (out / "mathjax" / "tex-chtml-full.js").exists():
        src = Path(metadata.distribution("sphinx-mathjax-offline").locate_file(
            "sphinx-mathjax-offline/static/mathjax"))
        (out / "mathjax").mkdir(parents=True, exist_ok=True)
        shutil.copy2(src / "tex-chtml-full.js", out / "mathjax" / "tex-chtml-full.js")
        shutil.copytree(src / "output" / "chtml" / "fonts", out / "mathjax" / "output" / "chtml" / "fonts",
                        dirs_exist_ok=True)


def _plain_myst(src: str) -> str:
    """MyST that nbconvert's markdown does not know, reduced to readable text."""
    src = SOLUTION_DROPDOWN.sub("", src)
    src = re.sub(r"\]\((?:[^)\s]*/)?([\w-]+)\.ipynb(?:#[^)]*)?\)", r"](\1.slides.html)", src)   # slides side by side
    src = ROLE_WITH_TARGET.sub(r"\1", src)
    src = ROLE.sub(lambda m: f"[{m.group(2)}]" if m.group(1).startswith("cite") else
                   ("…" if m.group(1).startswith("glue") else m.group(2)), src)
    src = re.sub(r"^\([\w:-]+\)=\s*$\n?", "", src, flags=re.M)                  # labels
    src = re.sub(r"^:::\{admonition\}\s*(.*)$", r"**\1**", src, flags=re.M)
    src = re.sub(r"^:::\{(\w+)\}\s*(.*)$", r"**\2**", src, flags=re.M)
    src = re.sub(r"^:::\s*$\n?", "", src, flags=re.M)
    src = re.sub(r"^```\{glue:figure\}.*?^```\s*$\n?", "", src, flags=re.M | re.S)
    return src


def slide_notebook(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook arranged as slides, without solutions."""
    nb = copy.deepcopy(nb)
    cells = []
    for c in nb.cells:
        tags = set(c.get("metadata", {}).get("tags", []))
        if tags & {"solution", "remove-cell", "hide-cell"}:
            continue
        if c.cell_type == "markdown":
            c.source = _plain_myst(c.source)
            if not c.source.strip():
                continue
            kind = "slide" if re.match(r"\s*#{1,2} ", c.source) else "subslide"
        else:
            kind = "-"
            if tags & {"hide-input", "remove-input"}:
                c.metadata.setdefault("tags", []).append("slides-remove-input")
            if "remove-output" in tags:
                c.outputs = []
        c.metadata["slideshow"] = {"slide_type": kind}
        cells.append(c)
    nb.cells = cells
    return nb


def build(path: Path, out: Path = OUT) -> Path:
    """Write the slides of one notebook; return the HTML file."""
    from nbconvert import SlidesExporter
    from nbconvert.preprocessors import TagRemovePreprocessor
    from traitlets.config import Config

    vendor(out)
    cfg = Config()
    cfg.SlidesExporter.reveal_url_prefix = "reveal.js"
    cfg.SlidesExporter.reveal_scroll = True
    cfg.SlidesExporter.require_js_url = "require.js"
    cfg.SlidesExporter.jquery_url = "jquery.min.js"
    cfg.SlidesExporter.exclude_input_prompt = True
    cfg.SlidesExporter.exclude_output_prompt = True
    cfg.TagRemovePreprocessor.remove_input_tags = {"slides-remove-input"}
    cfg.TagRemovePreprocessor.enabled = True
    exporter = SlidesExporter(config=cfg)
    exporter.register_preprocessor(TagRemovePreprocessor(config=cfg), enabled=True)
    nb = slide_notebook(nbformat.read(path, as_version=4))
    warnings.filterwarnings("ignore", message=".*papermill.record.*")    # glue records: not for display
    html, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": path.stem}})
    html = MATHJAX_BLOCK.sub(
        "<script>window.MathJax = {tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']], tags: 'ams'}};</script>\n"
        '<script src="mathjax/tex-chtml-full.js"></script>', html)
    html = MERMAID.sub("", html)
    remote = REMOTE.findall(html)
    if remote:
        raise RuntimeError(f"{path.name}: the slides would load {len(remote)} file(s) from the network")
    target = out / f"{path.stem}.slides.html"
    target.write_text(html)
    return target


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or DEFAULT
    for p in paths:
        print(build(p).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
