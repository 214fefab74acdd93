"""Two editions of the book from one source: the instructor's (the default) and the student's.

The student edition is the book without the exercises' solutions: a build with the environment
variable ``PRIVLIB_EDITION=student`` drops, from every page's document tree before it is written,

* every drop-down whose title starts with "Solution" (the written solutions), and
* every code cell tagged ``solution`` (the solutions' code and output; myst-nb gives a cell
  the class ``tag_<tag>`` for each of its tags).

The student edition also copies no page sources (``_sources/``, the download button), which hold
the solutions.  The answer-key pages (book/answers/) are not in the student edition's table of contents
(``scripts/build_edition.py student`` builds with a copy of ``_toc.yml`` without them).
Any other build (``PRIVLIB_EDITION`` unset or ``instructor``) keeps everything.
"""
from __future__ import annotations

import os

from docutils import nodes

EDITIONS = ("instructor", "student")
SOLUTION_CLASSES = {"tag_solution", "solution"}


def is_solution(node: nodes.Node) -> bool:
    """Whether ``node`` is a solution: a cell tagged ``solution`` or a "Solution ..." drop-down."""
    if not isinstance(node, nodes.Element):
        return False
    if SOLUTION_CLASSES & set(node.get("classes", [])):
        return True
    # sphinx-design's {dropdown}: until the HTML post-transform, a container marked
    # design_component="dropdown" whose first child (a rubric) is the title
    if node.get("design_component") == "dropdown" and node.get("has_title") and node.children:
        return node.children[0].astext().strip().lower().startswith("solution")
    return False


def strip_solutions(doctree: nodes.Node) -> int:
    """Remove every solution from ``doctree`` in place; return how many were removed."""
    found = [n for n in doctree.findall(is_solution)]
    outer = [n for n in found if not any(a in found for a in _ancestors(n))]
    for n in outer:
        n.parent.remove(n)
    return len(outer)


def _ancestors(node: nodes.Node):
    while node.parent is not None:
        node = node.parent
        yield node


def edition(value: str | None = None) -> str:
    """The edition named by ``value`` (default: ``$PRIVLIB_EDITION``, else "instructor")."""
    value = (value if value is not None else os.environ.get("PRIVLIB_EDITION", "")) or "instructor"
    if value not in EDITIONS:
        raise ValueError(f"PRIVLIB_EDITION={value!r}: expected one of {EDITIONS}")
    return value


def _on_doctree_read(app, doctree) -> None:
    if app.config.privlib_edition == "student":
        strip_solutions(doctree)


def _on_config_inited(app, config) -> None:
    # the page sources (and the theme's .ipynb/.md download button) hold the solutions
    if config.privlib_edition == "student":
        config.html_copy_source = False
        config.html_show_sourcelink = False
        config.html_theme_options = {**(config.html_theme_options or {}), "use_download_button": False}


def setup(app):
    app.add_config_value("privlib_edition", edition(), "env")
    app.connect("config-inited", _on_config_inited)
    app.connect("doctree-read", _on_doctree_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
