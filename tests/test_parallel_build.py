"""The book's parallel reader (book/_ext/parallel_build.py): batches start in the order given,
and the reproduction report starts only after every other batch has finished."""
from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest

sphinx_parallel = pytest.importorskip("sphinx.util.parallel")

ROOT = Path(__file__).resolve().parents[1]


def _extension():
    spec = importlib.util.spec_from_file_location("parallel_build", ROOT / "book" / "_ext" / "parallel_build.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _read(chunk):
    """A stand-in for Sphinx's read_process: the batch's start and end times."""
    start = time.monotonic()
    time.sleep(0.3 if chunk[0].startswith("long") else 0.05)
    return start, time.monotonic()


@pytest.mark.skipif(not sphinx_parallel.parallel_available, reason="needs fork")
def test_batches_start_in_order_and_the_report_after_all_others():
    ext = _extension()
    chunks = [["long-a"], ["long-b"], ["c"], ["d"], ["e"], ["book/reproducibility"]]
    times = {}
    tasks = ext._Tasks(2)
    for chunk in chunks:
        tasks.add_task(_read, chunk, lambda arg, result: times.__setitem__(arg[0], result))
    tasks.join()
    assert set(times) == {c[0] for c in chunks}
    starts = sorted(times, key=lambda d: times[d][0])
    # the waiting batches start oldest first (Sphinx 7.4 alone starts the newest first)
    assert starts.index("c") < starts.index("d") < starts.index("e")
    # the report starts after every other batch has ended
    report_start = times["book/reproducibility"][0]
    assert all(end <= report_start for d, (_, end) in times.items() if d != "book/reproducibility")


def test_the_report_is_the_last_batch():
    ext = _extension()
    assert ext._after_all(["book/reproducibility"])
    assert not ext._after_all(["book/ch3_diffgen/diffgen"])
    assert not ext._after_all([("book/reproducibility", object())])   # the write phase's batches
    waiting = ext._Waiting(type("T", (), {"_pworking": 1, "_args": {0: ["book/reproducibility"]}})())
    waiting[0] = "pipe"
    assert not waiting                       # a task is running: the report may not start
    with pytest.raises(KeyError, match="no waiting task may start now"):
        waiting.popitem()
    waiting._tasks._pworking = 0
    assert waiting and waiting.popitem() == (0, "pipe")
