"""One meaning per symbol across the book: every formula's symbols against the notation page's table.

``book/notation.md`` ends with a table *Which meaning on which page*: symbol (TeX, in
backticks), meaning, whose notation, pages.  The rule:

* the book's own notation (the Foundations, chapter 6, the tutorials, the course, the glossary
  and the back matter) gives each symbol exactly one meaning, the row marked ``book``;
* a chapter 1-5 may keep its source's letter where the source defines it differently: that row
  is marked ``source, chapter N``, lists only pages of chapter ``N`` (and its answer key), and a
  paragraph of the chapter that says "the source writes ..." shows the symbol;
* no symbol has two ``book`` meanings, and no page uses two meanings of one symbol.

For every page of ``_toc.yml`` (the API reference and the notation page aside) the symbols of
its markdown math must each be registered for that page.  An answer key (``book/answers/X``)
uses the meanings of its chapter ``X``.

A symbol is a Greek letter or a single Latin letter (a word such as HI or QI is a name); its
subscript makes a more specific reading (``N_o``, ``n_u``) that the table may register
separately; a following ``(`` or ``[`` (``c(``, ``D[``) is only a lookup hint: for the one-meaning
rule ``D[P, Q]`` and ``D`` are the same letter; ``\\text{}``, ``\\mathrm{}`` and inline code
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


def letter(symbol: str) -> str:
    """The symbol the one-meaning rule counts: ``D[`` and ``D(`` are ``D``; ``N_o`` stays ``N_o``."""
    return symbol.rstrip("([")


def rows() -> list:
    """[(symbols, meaning, whose, pages)] of the table; whose is 'book' or a chapter number
    (the source's local notation); pages a set of page names or {'*'}."""
    text = NOTATION.read_text(encoding="utf-8")
    section = text.split("(notation-by-page)=", 1)[1]
    out = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        m = re.fullmatch(r"book|source, chapter (\d)", cells[2])
        assert m, f"notation table: whose notation must be 'book' or 'source, chapter N', not {cells[2]!r}"
        pages = {"*"} if cells[3] == "all pages" else {p.strip() for p in cells[3].split(",")}
        syms = [_normal(s) for s in re.findall(r"`([^`]+)`", cells[0])]
        out.append((syms, cells[1], m.group(1) or "book", pages))
    return out


def registry() -> dict:
    """{symbol: [(meaning, pages), ...]} from the table; pages is a set of page names or {'*'}."""
    out: dict = {}
    for syms, meaning, _, pages in rows():
        for sym in syms:
            out.setdefault(sym, []).append((meaning, pages))
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


def chapters() -> dict:
    """{chapter number: its page names} for the reproductions 1-5 (chapter 6 uses the book's notation)."""
    out: dict = {}
    for f in _toc_files():
        m = re.match(r"book/ch([1-5])_", f)
        if m:
            out.setdefault(m.group(1), set()).add(page_name(f))
    return out


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
            if not any("*" in pages or page in pages for _, pages in entries):
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


def _by_letter() -> dict:
    """{letter: [(meaning, whose, pages), ...]}: one entry per row and letter."""
    out: dict = {}
    for syms, meaning, whose, pages in rows():
        for sym in dict.fromkeys(letter(s) for s in syms):
            out.setdefault(sym, []).append((meaning, whose, pages))
    return out


def test_the_table_is_well_formed():
    table = registry()
    assert rows() and all(len(r[0]) for r in rows())
    assert {"\\varepsilon", "\\gamma", "\\delta", "k", "\\ell", "t", "\\beta", "\\lambda", "h", "n", "N_o", "\\Delta",
            "\\alpha"} <= set(table)
    known = {page_name(f) for f in _toc_files()}
    for sym, meanings in table.items():
        for meaning, pages in meanings:
            assert pages == {"*"} or pages <= known, f"{sym} ({meaning}): unknown pages {pages - known}"

    by_letter = _by_letter()
    for sym, meanings in by_letter.items():
        listed = [p for _, _, pages in meanings for p in pages if p != "*"]
        twice = {p for p in listed if listed.count(p) > 1}
        assert not twice, f"{sym} has two meanings on {sorted(twice)}: one meaning per page"
        if any("*" in pages for _, _, pages in meanings):
            assert len(meanings) == 1, f"{sym} means the same on all pages, yet has {len(meanings)} rows"


def test_one_book_meaning_per_symbol_and_source_notation_stays_in_its_chapter():
    chap = chapters()
    by_letter = _by_letter()
    for sym, meanings in by_letter.items():
        book = [m for m, whose, _ in meanings if whose == "book"]
        assert len(book) <= 1, f"{sym} has {len(book)} book-wide meanings: {book}"
        for meaning, whose, pages in meanings:
            if whose != "book":
                assert whose in chap, f"{sym} ({meaning}): no chapter {whose} keeps its source's notation"
                assert "*" not in pages and pages <= chap[whose], \
                    f"{sym} ({meaning}): the source's notation of chapter {whose} used outside it: {pages - chap[whose]}"


def _paragraphs(file: str) -> list:
    return [p for p in re.split(r"\n\s*\n", _markdown(file))]


@pytest.mark.parametrize("row", [r for r in rows() if r[2] != "book"], ids=lambda r: r[0][0])
def test_the_chapter_says_where_it_keeps_its_sources_notation(row):
    """A local meaning is announced: a paragraph of the chapter says 'the source writes' next to the symbol."""
    syms, meaning, whose, pages = row
    files = [f for f in _toc_files() if re.match(rf"book/ch{whose}_", f)]
    said = set()
    for f in files:
        for par in _paragraphs(f):
            if re.search(r"\bsource\b[^.]*?\bwrites?\b|\bslides write\b", par):
                for math in math_spans(par):
                    for cands in tokens(math):
                        said |= {letter(c) for c in cands}
    assert {letter(s) for s in syms} & said, (
        f"{syms} ({meaning}): chapter {whose} keeps its source's notation but no paragraph says "
        f"'the source writes ...' with the symbol")


@pytest.mark.parametrize("file", _toc_files())
def test_every_symbol_has_its_meaning_on_the_page(file):
    page = page_name(file)
    bad = unregistered(_markdown(file), page, registry())
    assert not bad, (f"{file}: symbols without a meaning for page '{page}' in book/notation.md "
                     f"(#notation-by-page): " + "; ".join(sorted(set(bad))[:15]))
