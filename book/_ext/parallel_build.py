"""Read (and so execute) the book's documents in parallel processes, longest first.

Jupyter Book 1.x's command line has no ``-j``: this extension sets Sphinx's number of reading
processes to the machine's cores (at most 4, for memory), so the notebooks of the table of
contents execute two or more at a time.  Sphinx would cut the alphabetically sorted documents
into a few large batches (every chapter in one); here each document is its own batch and the
longest run first (longest-processing-time-first scheduling), by the times in
``benchmarks/results/book_times.csv`` (``python benchmarks/bench_book.py --out ...``), then
the other notebooks by size, then the text pages in one batch per process (a batch returns the
whole environment to the main process, which unpickles it: one batch per page cost 59 merges).

Sphinx reads in parallel only when every extension declares itself parallel-read safe; the
three that say nothing are marked safe here after review: ``sphinx_multitoc_numbering``
(numbers sections after reading, in the main process), ``sphinx-mathjax-offline`` (copies
static files) and ``sphinx_jupyterbook_latex`` (LaTeX builder only).  No output depends on
the order: a chapter writes only its own scorecard files, atomically.
"""
from __future__ import annotations

import csv
import os
from pathlib import Path

import sphinx.builders

_REVIEWED = ("sphinx_multitoc_numbering", "sphinx-mathjax-offline", "sphinx_jupyterbook_latex")
_TIMES = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "book_times.csv"
_sphinx_make_chunks = sphinx.builders.make_chunks


def _measured_seconds() -> dict[str, float]:
    try:
        with open(_TIMES, newline="") as f:
            return {row["notebook"].rsplit(".", 1)[0]: float(row["wall_s"]) for row in csv.DictReader(f)}
    except (OSError, KeyError, ValueError):
        return {}


def _one_per_batch(app):
    seconds = _measured_seconds()

    def cost(docname: str) -> tuple:
        path = Path(app.env.doc2path(docname))
        notebook = path.suffix == ".ipynb"
        return (-seconds.get(docname, -1.0), not notebook, -(path.stat().st_size if notebook else 0), docname)

    def make_chunks(arguments, nproc, maxbatch=10):
        if nproc <= 1:
            return _sphinx_make_chunks(arguments, nproc, maxbatch)
        ordered = sorted(arguments, key=cost)
        notebooks = [d for d in ordered if not cost(d)[1]]
        pages = [d for d in ordered if cost(d)[1]]
        # the text pages read in a few seconds: `nproc` batches, not one each (every batch sends
        # the whole environment back to the main process, which unpickles and merges it)
        return [[d] for d in notebooks] + [pages[i::nproc] for i in range(nproc) if pages[i::nproc]]

    return make_chunks


def _prepare(app):
    for name in _REVIEWED:
        ext = app.extensions.get(name)
        if ext is not None and ext.parallel_read_safe is None:
            ext.parallel_read_safe = True
    sphinx.builders.make_chunks = _one_per_batch(app)


def setup(app):
    if app.parallel <= 1:
        app.parallel = max(1, min(os.cpu_count() or 1, 4))
    app.connect("builder-inited", _prepare)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
