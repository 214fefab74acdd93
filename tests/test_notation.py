"""One meaning per symbol and page: every formula's symbols against the notation page's table.

``book/notation.md`` ends with a table *Which meaning on which page*: symbol (TeX, in
backticks), meaning, pages.  For every page of ``_toc.yml`` (the API reference and the notation
page aside) the symbols of its markdown math must each be registered for that page, and no page
may be listed under two meanings of one symbol.  An answer key (``book/answers/X``) uses the
meanings of its chapter ``X``; the glossary may use any registered meaning (its terms come from
every page).

A symbol is a Greek letter or a single Latin letter (a word such as HI or QI is a name); its
subscript, and a following ``(`` or ``[``, make more specific readings (``N_o``, ``c(``,
``D[``) that the table may register separately; ``\\text{}``, ``\\mathrm{}`` and inline code
are not math symbols.
"""
import json
import re

import pytest
import yaml

from conftest import ROOT

NOTATION = ROOT / "book" / "notation.md"
GREEK = ("alpha beta gamma delta Delta epsilon varepsilon zeta eta theta Theta iota kappa lambda Lambda mu nu xi "
         "pi Pi rho varrho sigma Sigma tau phi varphi Phi chi psi Psi omega Omega ell").split()
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$([^$\n]+?)\$", re.S)
_CODE = re.compile(r"^(`{3,}|~{3,})(?:\s*$|\s*[a-z]|\{code).*?^\1\s*$|`[^`\n]*`", re.S | re.M)
_DROP_ARG = re.compile(r"\\(?:text|mathrm|mathit|operatorname|textrm|textit|textbf|mathbb|mbox|label|tag|ref|eqref)\s*\{[^{}]*\}")

def math_spans(markdown):
    text = _CODE.sub(" ", markdown)
    return [a or b for a, b in _MATH.findall(text)]

def _group(s, i):
    """(content, end) of the argument starting at s[i] (a {group}, a command or one character)."""
    if i >= len(s):
        return "", i
    if s[i] == "{":
        depth, j = 0, i
        while j < len(s):
            depth += {"{": 1, "}": -1}.get(s[j], 0)
            j += 1
            if depth == 0:
                break
        return s[i + 1:j - 1], j
    if s[i] == "\\":
        m = re.match(r"\\[A-Za-z]+|\\.", s[i:])
        return m.group(0), i + len(m.group(0))
    return s[i], i + 1

def tokens(math):
    """Each symbol of one formula as the candidates to look up, most specific first."""
    s = _DROP_ARG.sub(" ", math)
    s = re.sub(r"\\mathcal\s*\{([A-Za-z])\}", r"\\mathcal\1", s)
    s = re.sub(r"\\(?:mathbf|boldsymbol|bm|hat|bar|tilde|widehat|overline|vec)\s*\{([^{}]*)\}", r"\1", s)
    out, i = [], 0
    while i < len(s):
        m = re.match(r"\\(mathcal[A-Z]|[A-Za-z]+)", s[i:])
        if m:
            name = m.group(1)
            i += len(m.group(0))
            if name in GREEK or name.startswith("mathcal"):
                base = "\\" + name
            else:
                continue
        elif s[i].isalpha() and not (i > 0 and s[i - 1].isalpha()) and not (i + 1 < len(s) and s[i + 1].isalpha()):
            base, i = s[i], i + 1
        elif s[i].isalpha():                      # a word (HI, QI, max): a name, not a symbol
            while i < len(s) and s[i].isalpha():
                i += 1
            continue
        else:
            i += 1
            continue
        sub = ""
        while i < len(s) and s[i] == "'":
            i += 1
        if i < len(s) and s[i] == "_":
            sub, i = _group(s, i + 1)
            sub = sub.strip()
        j = i
        while j < len(s) and s[j] == " ":
            j += 1
        bracket = s[j] if j < len(s) and s[j] in "([" else ""
        cands = []
        if sub:
            cands += [f"{base}_{sub}{bracket}"] if bracket else []
            cands += [f"{base}_{sub}"]
        if bracket:
            cands += [f"{base}{bracket}"]
        cands.append(base)
        out.append(cands)
    return out


# ----------------------------------------------------------------------------- the table
def _normal(symbol: str) -> str:
    return re.sub(r"\\mathcal\s*\{([A-Z])\}", r"\\mathcal\1", symbol.strip())


def registry() -> dict:
    """{symbol: [(meaning, pages), ...]} from the table; pages is a set of page names or {'*'}."""
    text = NOTATION.read_text(encoding="utf-8")
    section = text.split("(notation-by-page)=", 1)[1]
    out: dict = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        pages = {"*"} if cells[2] == "all pages" else {p.strip() for p in cells[2].split(",")}
        for sym in re.findall(r"`([^`]+)`", cells[0]):
            out.setdefault(_normal(sym), []).append((cells[1], pages))
    return out


def _toc_files() -> list:
    files: list = []

    def walk(x):
        if isinstance(x, dict):
            if "file" in x:
                files.append(x["file"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8")))
    return [f for f in files if not f.startswith("book/api/") and f != "book/notation"]


def page_name(file: str) -> str:
    """The name the table uses: the file's stem (an answer key: its chapter's)."""
    return file.rsplit("/", 1)[-1]


def _markdown(file: str) -> str:
    nb = ROOT / f"{file}.ipynb"
    if nb.exists():
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    md = ROOT / f"{file}.md"
    return md.read_text(encoding="utf-8") if md.exists() else ""


def unregistered(markdown: str, page: str, table: dict) -> list:
    """The symbols of ``markdown``'s formulas that the table does not register for ``page``."""
    bad = []
    for math in math_spans(markdown):
        for cands in tokens(math):
            entries = [e for c in cands for e in table.get(c, [])]
            if not any(page == "glossary" or "*" in pages or page in pages for _, pages in entries):
                bad.append(f"{cands[0]} in ${math.strip()[:60]}$")
    return bad


# ----------------------------------------------------------------------------- the tests
def test_the_tokenizer():
    assert [c[0] for c in tokens(r"D[P_1, Q] \le t")] == ["D[", "P_1", "Q", "t"]
    assert [c[-1] for c in tokens(r"\Pr[\mathcal{A}(D) \in S] \le e^{\varepsilon}")] == \
        ["\\mathcalA", "D", "S", "e", "\\varepsilon"]
    assert tokens(r"\text{HI} + \mathrm{round}(x) + QI") == [["x"]]
    assert [c[0] for c in tokens(r"N_o = 1{,}800, \alpha_{\min}(m)")] == ["N_o", "\\alpha_\\min(", "m"]
    assert math_spans("a $k$ b `$x$` c $$\nD\n$$ costs \\$5") == ["k", "\nD\n"]


def test_the_table_is_well_formed():
    table = registry()
    assert {"\\varepsilon", "\\gamma", "\\delta", "k", "\\ell", "t", "\\beta", "\\lambda", "h", "n", "N_o", "\\Delta",
            "\\alpha"} <= set(table)
    known = {page_name(f) for f in _toc_files()}
    for sym, meanings in table.items():
        for meaning, pages in meanings:
            assert pages == {"*"} or pages <= known, f"{sym} ({meaning}): unknown pages {pages - known}"
        listed = [p for _, pages in meanings for p in pages if p != "*"]
        twice = {p for p in listed if listed.count(p) > 1}
        assert not twice, f"{sym} has two meanings on {sorted(twice)}: one meaning per page"


@pytest.mark.parametrize("file", _toc_files())
def test_every_symbol_has_its_meaning_on_the_page(file):
    page = page_name(file)
    bad = unregistered(_markdown(file), page, registry())
    assert not bad, (f"{file}: symbols without a meaning for page '{page}' in book/notation.md "
                     f"(#notation-by-page): " + "; ".join(sorted(set(bad))[:15]))
