"""The book as a course: every exercise has a written solution, nothing of a solution shows
before the reader asks for it, and the student edition holds no solution at all."""
import importlib.util
import json
import re
import sys

import pytest
import yaml
from docutils import nodes

from conftest import ROOT, TOC_NOTEBOOKS

NOTEBOOKS = sorted(TOC_NOTEBOOKS)
IDS = [str(p.relative_to(ROOT)) for p in NOTEBOOKS]
HIDDEN = {"hide-cell", "hide-output", "remove-output", "remove-cell"}
EXERCISE = re.compile(r"\{admonition\} Exercise (\d+) \(")
SOLUTION = re.compile(r"\{dropdown\} Solution to exercise (\d+)\n")


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


editions = _load("editions", ROOT / "book" / "_ext" / "editions.py")
build_edition = _load("build_edition", ROOT / "scripts" / "build_edition.py")


def _cells(path):
    return json.loads(path.read_text())["cells"]


def visible_solution_outputs(cells):
    """Indices of code cells that show a solution's output by default.

    A solution cell is a code cell whose toggle names a solution, or any code cell of an
    "Exercises" section that follows a question (up to the first markdown cell that holds
    neither a question nor a solution, or the next section)."""
    shown, in_exercises = [], False
    for i, c in enumerate(cells):
        src = "".join(c["source"])
        if c["cell_type"] == "markdown":
            heading = re.search(r"^## (.+)$", src, re.M)
            if heading:
                in_exercises = heading.group(1).strip().lower().startswith("exercises")
            elif not re.search(r"\{admonition\} Exercise|\{dropdown\} Solution", src):
                in_exercises = False
            continue
        prompt = str(c.get("metadata", {}).get("mystnb", {}).get("code_prompt_show", "")).lower()
        tags = set(c.get("metadata", {}).get("tags", []))
        if ("solution" in prompt or in_exercises) and c.get("outputs") and not tags & HIDDEN:
            shown.append(i)
    return shown


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_no_solution_output_is_visible_by_default(path):
    shown = visible_solution_outputs(_cells(path))
    assert not shown, (f"{path.name}: code cells {shown} print a solution's output under the question; "
                       f"tag them hide-cell (python scripts/course_solutions.py)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_every_exercise_has_a_written_hidden_solution(path):
    md = "".join("".join(c["source"]) for c in _cells(path) if c["cell_type"] == "markdown")
    exercises = [int(n) for n in EXERCISE.findall(md)]
    written = {int(n) for n in SOLUTION.findall(md)}
    assert len(exercises) == len(set(exercises)), f"{path.name}: an exercise number is used twice"
    missing = sorted(set(exercises) - written)
    assert not missing, f"{path.name}: exercises {missing} have no written solution in a drop-down"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_solution_code_cells_are_tagged_for_the_student_edition(path):
    untagged = [i for i, c in enumerate(_cells(path)) if c["cell_type"] == "code"
                and "solution" in str(c.get("metadata", {}).get("mystnb", {}).get("code_prompt_show", "")).lower()
                and "solution" not in c.get("metadata", {}).get("tags", [])]
    assert not untagged, f"{path.name}: solution cells {untagged} lack the tag 'solution'"


def test_the_book_has_51_or_more_exercises():
    n = sum(len(EXERCISE.findall("".join("".join(c["source"]) for c in _cells(p)))) for p in NOTEBOOKS)
    assert n >= 51


def test_visible_solution_check_catches_a_shown_output():
    q = {"cell_type": "markdown", "source": ["## Exercises\n", ":::{admonition} Exercise 1 (★ basic)\nQ\n:::"]}
    shown = {"cell_type": "code", "source": ["1"], "metadata": {"tags": ["hide-input"]},
             "outputs": [{"output_type": "stream", "text": "1"}]}
    named = {"cell_type": "code", "source": ["1"], "outputs": [{"output_type": "stream", "text": "1"}],
             "metadata": {"mystnb": {"code_prompt_show": "Show the solution"}}}
    hidden = {**shown, "metadata": {"tags": ["hide-cell"]}}
    assert visible_solution_outputs([q, shown, hidden]) == [1]
    assert visible_solution_outputs([named]) == [0]
    assert visible_solution_outputs([{"cell_type": "markdown", "source": ["## Results"]}, shown]) == []
    after = {"cell_type": "markdown", "source": ["The folder is removed:"]}
    assert visible_solution_outputs([q, after, shown]) == []


# -- the student edition: the filter of book/_ext/editions.py ------------------------------------

def _dropdown(title, body):
    # what sphinx-design's DropdownDirective returns (sphinx_design.shared.create_component)
    from sphinx_design.shared import create_component
    box = create_component("dropdown", opened=False, type="dropdown", has_title=True)
    box += nodes.rubric(title, title)
    box += nodes.paragraph(text=body)
    return box


def _doctree():
    doc = nodes.section()
    doc += nodes.paragraph(text="Exercise 1: compute the sensitivity.")
    doc += _dropdown("Solution to exercise 1", "SECRET reasoning")
    doc += _dropdown("Details of the proof", "kept")
    cell = nodes.container(classes=["cell", "tag_hide-cell", "tag_solution"])
    cell += nodes.literal_block(text="print('SECRET code')")
    inner = nodes.container(classes=["tag_solution"])       # nested: removed with its parent
    cell += inner
    doc += cell
    plain = nodes.container(classes=["cell", "tag_hide-input"])
    plain += nodes.literal_block(text="visible code")
    doc += plain
    return doc


def test_student_edition_drops_every_solution_and_nothing_else():
    doc = _doctree()
    assert editions.strip_solutions(doc) == 2
    text = doc.astext()
    assert "SECRET" not in text and "Solution to exercise" not in text
    assert "Exercise 1: compute" in text and "kept" in text and "visible code" in text


def test_instructor_edition_keeps_the_solutions():
    class App:
        class config:
            privlib_edition = "instructor"
    doc = _doctree()
    editions._on_doctree_read(App, doc)
    assert "SECRET reasoning" in doc.astext() and "SECRET code" in doc.astext()
    App.config.privlib_edition = "student"
    editions._on_doctree_read(App, doc)
    assert "SECRET" not in doc.astext()


def test_student_edition_copies_no_page_sources():
    class Config:
        privlib_edition = "student"
        html_copy_source = True
        html_show_sourcelink = True
        html_theme_options = {"use_download_button": True, "home_page_in_navbar": True}
    editions._on_config_inited(None, Config)
    assert not Config.html_copy_source and not Config.html_show_sourcelink
    assert Config.html_theme_options == {"use_download_button": False, "home_page_in_navbar": True}
    Config.privlib_edition, Config.html_copy_source = "instructor", True
    editions._on_config_inited(None, Config)
    assert Config.html_copy_source


def test_edition_names_are_checked(monkeypatch):
    monkeypatch.delenv("PRIVLIB_EDITION", raising=False)
    assert editions.edition() == "instructor"
    monkeypatch.setenv("PRIVLIB_EDITION", "student")
    assert editions.edition() == "student"
    with pytest.raises(ValueError, match="PRIVLIB_EDITION='teacher'"):
        editions.edition("teacher")
    with pytest.raises(ValueError, match="edition='teacher'"):
        build_edition.build("teacher")


def test_every_written_solution_is_one_the_filter_recognises():
    # the filter drops drop-downs titled "Solution ..." and cells tagged "solution": a solution
    # written any other way (an admonition, a plain paragraph) would reach the student edition
    for path in NOTEBOOKS:
        md = "".join("".join(c["source"]) for c in _cells(path) if c["cell_type"] == "markdown")
        other = re.findall(r"\{(?!dropdown)[\w-]+\}[^\n]*\bsolution", md, re.I)
        assert not other, f"{path.name}: a solution outside a 'Solution' drop-down: {other}"


def test_the_student_table_of_contents_has_no_answer_keys():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    assert any(p.get("caption") == build_edition.ANSWER_CAPTION for p in toc["parts"])
    student = build_edition.student_toc(toc)
    assert "book/answers" not in json.dumps(student)
    assert len(student["parts"]) == len(toc["parts"]) - 1


def test_answer_keys_are_up_to_date_and_complete():
    pages = build_edition.answer_key_pages()
    assert pages, "no answer keys"
    for path, text in pages.items():
        assert path.exists() and path.read_text() == text, \
            f"{path.relative_to(ROOT)} is out of date: python scripts/build_edition.py answer-keys"
    n = sum(t.count("\n## Exercise ") for t in pages.values())
    assert n == sum(len(EXERCISE.findall("".join("".join(c["source"]) for c in _cells(p))))
                    for p in NOTEBOOKS)
    assert all("No written solution" not in t for t in pages.values())


# -- the glossary: every chapter links its terms, every link has an entry -------------------------

def _glossary_terms():
    text = (ROOT / "book" / "glossary.md").read_text()
    body = text[text.index("```{glossary}"):]
    return {line.strip().lower() for line in body.splitlines()[1:] if line and not line[0].isspace()
            and not line.startswith("```")}


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.parent.name.startswith(("ch", "tutorial"))],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_chapter_links_its_terms_to_the_glossary(path):
    md = "".join("".join(c["source"]) for c in _cells(path) if c["cell_type"] == "markdown")
    terms = re.findall(r"\{term\}`(?:[^`<]*<)?([^`>]+)>?`", md)
    assert len(set(terms)) >= 5, f"{path.name}: {len(set(terms))} glossary terms linked (python scripts/glossary_links.py)"


def test_every_linked_term_has_a_glossary_entry():
    known = _glossary_terms()
    for path in [*NOTEBOOKS, *ROOT.glob("book/**/*.md")]:
        text = path.read_text()
        if path.suffix == ".ipynb":
            text = "".join("".join(c["source"]) for c in _cells(path) if c["cell_type"] == "markdown")
        used = {t.strip().lower() for t in re.findall(r"\{term\}`(?:[^`<]*<)?([^`>]+)>?`", text)}
        assert used <= known, f"{path.relative_to(ROOT)}: terms without a glossary entry: {used - known}"


def test_the_glossary_has_the_chapters_vocabulary():
    for term in ("TDS", "InfoGain", "Max score", "QWI", "QWIPU", "ramp distribution", "lattice", "LEHD",
                 "OnTheMap", "generalization lattice"):
        assert term.lower() in _glossary_terms(), term


# -- the course plan ---------------------------------------------------------------------------

def test_course_marks_agree_with_the_exercises():
    course = (ROOT / "book" / "course.md").read_text()
    table = course[course.index("## Every exercise"):course.index("## Assessment")]
    rows = re.findall(r"^\| \[[^\]]+\]\(([^)]+)\) \| ([^|]+) \|", table, re.M)
    assert len(rows) >= 12
    for link, marks in rows:
        md = "".join("".join(c["source"]) for c in _cells(ROOT / "book" / link) if c["cell_type"] == "markdown")
        actual = dict(re.findall(r"\{admonition\} Exercise (\d+) \((★+)", md))
        listed = dict(re.findall(r"(\d+) \((★+)\)", marks))
        assert listed == actual, f"course.md lists {listed} for {link}, the page has {actual}"


def test_every_week_of_the_twelve_week_plan_has_a_problem_set_and_hours():
    course = (ROOT / "book" / "course.md").read_text()
    plan = course[course.index("## A twelve-week course"):course.index("## Every exercise")]
    weeks = re.findall(r"^\| (\d+) \|(.*)$", plan, re.M)
    assert [int(w) for w, _ in weeks] == list(range(1, 13))
    for w, row in weeks[:11]:
        assert f"**PS {w}**" in row and re.search(r"\| [^|]*\d[^|]* \|$", row), f"week {w}: {row}"
