"""Read (and so execute) the book's documents in parallel processes, longest first.

Jupyter Book 1.x's command line has no ``-j``: this extension sets Sphinx's number of reading
processes to the machine's cores (at most 4, for memory), so the notebooks of the table of
contents execute two or more at a time.  Sphinx would cut the alphabetically sorted documents
into a few large batches (every chapter in one); here each document is its own batch and the
longest run first (longest-processing-time-first scheduling), by the times in
``benchmarks/results/book_times.csv`` (``python benchmarks/bench_book.py --out ...``), then
the other notebooks by size, then the text pages in one batch per process (a batch returns the
whole environment to the main process, which unpickles it: one batch per page cost 59 merges).

Two corrections to Sphinx 7.4's scheduler (``sphinx.util.parallel.ParallelTasks``):

* it starts the waiting batches newest first (``dict.popitem``), which reversed the order above
  after the first two batches; here they start in the order given;
* the reproduction report (``book/reproducibility``) reads the scorecards that the chapters
  publish while they execute, so it starts only when every other batch has finished: it
  reports this build's scorecards, not the ones committed before it.

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
import sphinx.util.parallel

_REVIEWED = ("sphinx_multitoc_numbering", "sphinx-mathjax-offline", "sphinx_jupyterbook_latex")
#: Documents read after every other document (they read what the others write while they execute).
AFTER_ALL = ("book/reproducibility",)
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
        last = [d for d in ordered if d in AFTER_ALL]
        notebooks = [d for d in ordered if not cost(d)[1] and d not in AFTER_ALL]
        pages = [d for d in ordered if cost(d)[1] and d not in AFTER_ALL]
        # the text pages read in a few seconds: `nproc` batches, not one each (every batch sends
        # the whole environment back to the main process, which unpickles and merges it)
        return ([[d] for d in notebooks] + [pages[i::nproc] for i in range(nproc) if pages[i::nproc]]
                + [[d] for d in last])

    return make_chunks


def _after_all(arg) -> bool:
    """Whether a batch (a list of document names) holds a document of :data:`AFTER_ALL`."""
    return isinstance(arg, list) and any(isinstance(d, str) and d in AFTER_ALL for d in arg)


class _Waiting(dict):
    """Sphinx's waiting tasks (task id -> pipe), handed out oldest first; a batch holding a document
    of :data:`AFTER_ALL` is handed out only when no task is running.  Sphinx asks ``while waiting
    and running < nproc: waiting.popitem()``, so "nothing to hand out yet" is an empty truth value."""

    def __init__(self, tasks):
        super().__init__()
        self._tasks = tasks

    def _next(self):
        if not dict.__len__(self):
            return None
        tid = next(iter(self))
        if self._tasks._pworking and _after_all(self._tasks._args.get(tid)):
            return None
        return tid

    def __bool__(self):
        return self._next() is not None

    def popitem(self):
        tid = self._next()
        if tid is None:
            raise KeyError("popitem(): no waiting task may start now")
        return tid, self.pop(tid)


class _Tasks(sphinx.util.parallel.ParallelTasks):
    """:class:`sphinx.util.parallel.ParallelTasks` that starts its tasks in the order they were
    added, and a batch of :data:`AFTER_ALL` after every other task."""

    def __init__(self, nproc: int):
        super().__init__(nproc)
        self._precvsWaiting = _Waiting(self)


def _prepare(app):
    for name in _REVIEWED:
        ext = app.extensions.get(name)
        if ext is not None and ext.parallel_read_safe is None:
            ext.parallel_read_safe = True
    sphinx.builders.make_chunks = _one_per_batch(app)
    sphinx.builders.ParallelTasks = _Tasks


def setup(app):
    if app.parallel <= 1:
        app.parallel = max(1, min(os.cpu_count() or 1, 4))
    app.connect("builder-inited", _prepare)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
