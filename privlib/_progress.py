"""Progress bars for privlib's long loops (the sweeps of the chapters).

Every sweep takes ``progress``:

``False``
    no bar (the default);
``True``
    tqdm's live bar (``tqdm.auto``: a widget in Jupyter, text on stderr in a terminal), with
    elapsed time and rate;
``"text"``
    a *reproducible* text bar on stderr, for notebooks whose stored outputs are compared on
    every run (nbval): it advances in steps of about a tenth of the total and shows no times,
    so the same run prints the same characters.  The book's chapters tag such cells
    ``remove-stderr``: a reader re-running a notebook sees the bar, the rendered page does not
    (it would show every frame on its own line).
"""
from __future__ import annotations

import math
import sys

from tqdm import tqdm as _tqdm_text
from tqdm.auto import tqdm as _tqdm_live

__all__ = ["TEXT_FORMAT", "check_progress", "progress_bar"]

TEXT_FORMAT = "{desc}: {percentage:3.0f}%|{bar:20}| {n_fmt}/{total_fmt}"


def check_progress(progress):
    """``progress`` must be ``True``, ``False`` or ``"text"``."""
    if progress is True or progress is False or (isinstance(progress, str) and progress == "text"):
        return progress
    raise ValueError(f"progress: expected True, False or 'text', got {progress!r}")


def progress_bar(total: int, desc: str, progress=False):
    """A tqdm bar over ``total`` steps (see the module docstring for ``progress``).

    Use it as ``bar.update()`` per finished step and ``bar.close()`` at the end.
    """
    progress = check_progress(progress)
    if not progress or total <= 0:
        return _tqdm_text(total=total, disable=True)
    if progress is True:
        return _tqdm_live(total=total, desc=desc, leave=False)
    return _tqdm_text(total=total, desc=desc, file=sys.stderr, bar_format=TEXT_FORMAT, ascii=True,
                      miniters=max(1, math.ceil(total / 10)), mininterval=0, maxinterval=math.inf,
                      leave=True)
