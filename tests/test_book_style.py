"""One math style and a clean rendered book.

1. TeX-like fragments (``^{``, ``N_o``, ``D_KL``, ``e^eps``) never stand outside math: formulas in
   prose and captions are MathJax, axis labels and legends matplotlib mathtext.
2. The built HTML (``_build/html``, written by the README's build command, which CI runs before
   the tests) has no unresolved reference, no TeX fragment outside math, no image without a real
   alt text, and no table of contents entry missing.
"""
import json
import re
from html.parser import HTMLParser

import pytest

from conftest import ROOT, TOC_NOTEBOOKS, toc_files

PAGES = sorted(p for p in toc_files() if p.suffix in (".ipynb", ".md") and "api" not in p.parts)
HTML = ROOT / "_build" / "html"

# a TeX-like fragment: a sub- or superscript written as TeX but not inside math
_TEX = re.compile(r"\^\{|_\{|\\(frac|varepsilon|epsilon|alpha|beta|delta|sum|log|le|ge|cdot)\b"
                  r"|(?<![\w.-])[A-Za-z]{1,2}_(?:[A-Za-z]{1,3}|\d)(?:\^\d)?\b(?![\w(./-])"
                  r"|(?<![\w/.-])[A-Za-z0-9)]\^(?:\d+|[a-z]{1,3})\b(?![\w(.-])")


def strip_math_and_code(text: str) -> str:
    """Markdown with math, code, roles, links' targets, labels and HTML comments removed."""
    text = re.sub(r"```.*?```|~~~.*?~~~", " ", text, flags=re.S)                 # code / directive blocks
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)                          # display math
    text = re.sub(r"(?<!\\)\$(?!\$)(?:[^$\n]|\n(?!\s*\n))+?(?<!\\)\$", " ", text)      # inline math
    text = re.sub(r"\{[\w:-]+\}`[^`]*`", " ", text)                               # roles {glue:text}`x`
    text = re.sub(r"`[^`\n]*`", " ", text)                                        # code spans
    text = re.sub(r"\]\([^)]*\)", "]", text)                                      # link targets
    text = re.sub(r"^\([\w-]+\)=\s*$", " ", text, flags=re.M)                     # labels
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"^:[\w-]+:.*$", " ", text, flags=re.M)                         # directive options
    return text


def tex_fragments(text: str) -> list:
    return [m.group(0) for m in _TEX.finditer(strip_math_and_code(text))]


def test_tex_fragment_scan_catches_the_known_cases():
    assert tex_fragments("the bound ½·e^{−ε/4} holds") == ["^{"]
    assert tex_fragments("Fig. 5.1 plots PI against N_o and 1/n_u^2") == ["N_o", "n_u^2"]
    assert tex_fragments("the divergence D_KL is small") == ["D_KL"]
    assert tex_fragments("prior m/(e^eps - 1)") == ["e^eps"]
    assert tex_fragments("in math $N_o$ and $$D_{KL}$$, code `alpha_i`, {glue:text}`ch1_st_x`, "
                         "[a link](ch1_tcloseness/tcloseness.ipynb), the file data_README and 10^6") == []


def _markdown_texts(path):
    if path.suffix == ".md":
        yield "text", path.read_text(encoding="utf-8")
        return
    for i, c in enumerate(json.loads(path.read_text())["cells"]):
        if c["cell_type"] == "markdown":
            yield f"cell {i}", "".join(c["source"])
        fig = c.get("metadata", {}).get("mystnb", {}).get("figure", {})
        if fig.get("caption"):
            yield f"cell {i} caption", fig["caption"]


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_no_tex_fragment_outside_math(path):
    bad = [(where, frag) for where, text in _markdown_texts(path) for frag in tex_fragments(text)]
    assert not bad, f"{path.name}: TeX-like fragments outside math (use $...$): {bad[:8]}"


_LABEL_CALL = re.compile(r"\.(?:set_xlabel|set_ylabel|set_title|xlabel|ylabel|title|suptitle|set_label)\(\s*"
                         r"(r?f?)([\"'])(.*?)\2", re.S)


def axis_label_fragments(code: str) -> list:
    """Axis labels and titles written with TeX-like fragments outside mathtext ``$...$``."""
    out = []
    for m in _LABEL_CALL.finditer(code):
        label = re.sub(r"\$[^$]*\$", " ", m.group(3))
        label = re.sub(r"\{[^}]*\}", " ", label) if "f" in m.group(1) else label
        if re.search(r"(?<![\w])[A-Za-z]{1,5}_[A-Za-z0-9]+|\^|\b(eps|alpha|beta|delta)\b", label):
            out.append(m.group(3))
    return out


def test_axis_label_scan_catches_the_known_cases():
    assert axis_label_fragments('ax.set_xlabel("alpha_i")') == ["alpha_i"]
    assert axis_label_fragments("ax.set_ylabel('delta at eps = 2')") == ["delta at eps = 2"]
    assert axis_label_fragments(r'ax.set_xlabel(r"$\alpha_i$ (median relative error)")') == []


@pytest.mark.parametrize("path", sorted(TOC_NOTEBOOKS), ids=[str(p.relative_to(ROOT)) for p in sorted(TOC_NOTEBOOKS)])
def test_axis_labels_use_mathtext(path):
    code = "\n".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code")
    bad = axis_label_fragments(code)
    assert not bad, f"{path.name}: axis labels with TeX-like fragments outside mathtext: {bad[:5]}"


# ---------------------------------------------------------------------- the built HTML
class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.images, self.text, self._skip = [], [], 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.images.append(a)
        if tag in ("script", "style", "code", "pre", "math") or "math" in (a.get("class") or "") \
                or tag == "div" and "highlight" in (a.get("class") or ""):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style", "code", "pre", "math") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def _built_pages():
    if not (HTML / "index.html").exists():
        return []
    return sorted(p for p in HTML.rglob("*.html") if "_static" not in p.parts and "_sources" not in p.parts
                  and p.name not in ("genindex.html", "search.html", "py-modindex.html"))


BUILT = _built_pages()
needs_build = pytest.mark.skipif(not BUILT, reason="the book is not built (run the README's build command first)")


@needs_build
@pytest.mark.parametrize("page", BUILT, ids=[str(p.relative_to(HTML)) for p in BUILT])
def test_built_page_is_clean(page):
    html = page.read_text(encoding="utf-8")
    problems = []
    # an unresolved reference renders as "??" or as a pending/missing xref
    if re.search(r"<span class=\"xref[^\"]*\">\?\?|class=\"[^\"]*pending_xref|>\?\?<", html):
        problems.append("an unresolved reference (??)")
    # an element id used twice: a table whose id is also a section's label is never shown
    ids = re.findall(r"\sid=\"([^\"]+)\"", html)
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        problems.append(f"ids used twice: {dup[:5]}")
    parser = _Page()
    parser.feed(html)
    for img in parser.images:
        alt = (img.get("alt") or "").strip()
        src = img.get("src", "")
        if "logo" in src or src.startswith("data:"):
            continue
        if not alt or alt == src or re.search(r"\.(png|jpe?g|svg)$", alt) or alt.startswith("_build"):
            problems.append(f"image {src} without a real alt text (alt={alt!r})")
    if "api" not in page.parts:
        text = " ".join(parser.text)
        frags = [m.group(0) for m in re.finditer(r"\^\{|_\{|(?<![\w/.-])D_KL\b|(?<![\w/.-])N_o\b|n_u\^2", text)]
        if frags:
            problems.append(f"TeX fragments outside math: {frags[:5]}")
    assert not problems, f"{page.relative_to(HTML)}: {problems}"


@needs_build
def test_every_toc_page_was_built():
    missing = []
    for p in toc_files():
        rel = p.relative_to(ROOT).with_suffix(".html")
        if not (HTML / rel).exists():
            missing.append(str(rel))
    assert not missing, f"pages of the table of contents missing from the built book: {missing}"
