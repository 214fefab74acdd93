"""Build the student or the instructor edition of the book, and write the answer keys.

    python scripts/build_edition.py instructor   # the book with solutions and answer keys
    python scripts/build_edition.py student      # the book without solutions or answer keys
    python scripts/build_edition.py answer-keys  # only (re)write book/answers/*.md

Both editions are built from the same sources. The answer keys (book/answers/, one page per
page with exercises: each question, its written solution and its solution's code) are
generated from the notebooks; the instructor edition lists them in its table of contents, the
student edition is built with a copy of ``_toc.yml`` without them and with
``PRIVLIB_EDITION=student``, which makes book/_ext/editions.py drop every solution.
Output: ``_build/<edition>/_build/html/index.html``.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = ROOT / "book" / "answers"
ANSWER_CAPTION = "Answer keys (instructor edition)"

_FENCE = r":::\{%s\} %s[^\n]*\n(.*?)\n:::"
EXERCISE = re.compile(r":::\{admonition\} (Exercise (\d+) \([^)\n]*\))\n(.*?)\n:::", re.S)
SOLUTION = re.compile(r":::\{dropdown\} Solution to exercise (\d+)\n(.*?)\n:::", re.S)
LINK = re.compile(r"\]\(([^)#:\s]+\.(?:ipynb|md))(#[^)]*)?\)")
GLUE = re.compile(r"\{(glue:\w+|glue)\}`([^`]+)`")
PROMPT = re.compile(r"solution to exercise (\d+)", re.I)


def notebooks_with_exercises() -> list[Path]:
    """The notebooks of the table of contents that hold exercises, in the book's order."""
    toc = (ROOT / "_toc.yml").read_text()
    files = re.findall(r"file:\s*(\S+)", toc)
    out = []
    for f in files:
        p = ROOT / f"{f}.ipynb"
        if p.exists() and "{admonition} Exercise" in p.read_text():
            out.append(p)
    return out


def _title(cells: list[dict]) -> str:
    for c in cells:
        m = re.search(r"^# (.+)$", "".join(c["source"]), re.M)
        if c["cell_type"] == "markdown" and m:
            return m.group(1).strip()
    raise ValueError("notebook without a # title")


def _relink(text: str, nb: Path) -> str:
    """Rewrite the notebook's relative links and glue references for a page in book/answers/."""
    def link(m: re.Match) -> str:
        target = os.path.relpath((nb.parent / m.group(1)).resolve(), ANSWERS)
        return f"]({target}{m.group(2) or ''})"

    def glue(m: re.Match) -> str:
        key = m.group(2)
        if "::" in key:
            return m.group(0)
        doc = os.path.relpath(nb, ANSWERS)
        return f"{{{m.group(1)}}}`{doc}::{key}`"

    return GLUE.sub(glue, LINK.sub(link, text))


def answer_key(nb: Path) -> str:
    """The answer-key page (MyST markdown) of one notebook."""
    cells = json.loads(nb.read_text())["cells"]
    title = _title(cells)
    md = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    solutions = {int(n): body.strip() for n, body in SOLUTION.findall(md)}
    code: dict[int, list[str]] = {}
    for c in cells:
        m = PROMPT.search(str(c.get("metadata", {}).get("mystnb", {}).get("code_prompt_show", "")))
        if c["cell_type"] == "code" and m:
            code.setdefault(int(m.group(1)), []).append("".join(c["source"]).rstrip())
    rel = os.path.relpath(nb, ANSWERS)
    out = [f"# Answer key: {title}", "",
           f"The exercises of [{title}]({rel}) with their solutions: the question, the written",
           "solution and the code that checks it (its output is on the chapter's page, behind",
           "the solution's toggle). This page is part of the instructor edition only.", ""]
    for heading, n, question in EXERCISE.findall(md):
        n = int(n)
        out += [f"## {heading}", "", question.strip(), "", "**Solution.**", "",
                solutions.get(n, "No written solution: see the code below."), ""]
        for src in code.get(n, []):
            out += ["```python", src, "```", ""]
    return _relink("\n".join(out).rstrip() + "\n", nb)


def answer_key_pages() -> dict[Path, str]:
    """book/answers/<notebook stem>.md -> its text, plus the part's index page."""
    pages = {}
    for nb in notebooks_with_exercises():
        pages[ANSWERS / f"{nb.stem}.md"] = answer_key(nb)
    return pages


def write_answer_keys() -> list[Path]:
    ANSWERS.mkdir(exist_ok=True)
    pages = answer_key_pages()
    for path, text in pages.items():
        path.write_text(text)
    return list(pages)


def student_toc(toc: dict) -> dict:
    """The table of contents without the answer keys' part."""
    toc = json.loads(json.dumps(toc))
    toc["parts"] = [p for p in toc["parts"] if p.get("caption") != ANSWER_CAPTION]
    return toc


def build(edition: str) -> int:
    if edition not in ("student", "instructor"):
        raise ValueError(f"edition={edition!r}: expected 'student' or 'instructor'")
    write_answer_keys()
    out = ROOT / "_build" / edition
    out.mkdir(parents=True, exist_ok=True)
    toc_path = ROOT / "_toc.yml"
    if edition == "student":
        toc_path = out / "_toc.yml"
        toc_path.write_text(yaml.safe_dump(student_toc(yaml.safe_load((ROOT / "_toc.yml").read_text())),
                                           sort_keys=False, allow_unicode=True))
    env = dict(os.environ, PRIVLIB_EDITION=edition)
    jb = Path(sys.executable).with_name("jupyter-book")
    cmd = [str(jb), "build", str(ROOT), "--toc", str(toc_path), "--path-output", str(out),
           "-W", "-n", "--keep-going"]
    return subprocess.call(cmd, env=env, cwd=ROOT)


def main(argv: list[str]) -> int:
    if argv == ["answer-keys"]:
        for p in write_answer_keys():
            print(p.relative_to(ROOT))
        return 0
    if len(argv) != 1:
        print(__doc__)
        return 2
    return build(argv[0])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
