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
from typing import Any

__all__ = ["TEXT_FORMAT", "check_progress", "progress_bar"]

TEXT_FORMAT = "{desc}: {percentage:3.0f}%|{bar:20}| {n_fmt}/{total_fmt}"


def check_progress(progress: bool | str) -> bool | str:
    """``progress`` must be ``True``, ``False`` or ``"text"``.

    Parameters
    ----------
    progress : bool or "text"
        The value to check.

    Returns
    -------
    bool or str
        ``progress`` unchanged.

    Raises
    ------
    ValueError
        Anything else (``1``, ``None``, ``"TEXT"``, ...).

    Examples
    --------
    >>> check_progress("text")
    'text'
    """
    if progress is True or progress is False or (isinstance(progress, str) and progress == "text"):
        return progress
    raise ValueError(f"progress: expected True, False or 'text', got {progress!r}")


def progress_bar(total: int, desc: str, progress: bool | str = False) -> Any:
    """A tqdm bar over ``total`` steps (see the module docstring for ``progress``).

    Use it as ``bar.update()`` per finished step and ``bar.close()`` at the end.  tqdm is
    imported here, on first use (``tqdm.auto`` only for a live bar).

    Parameters
    ----------
    total : int
        Number of steps.
    desc : str
        Label shown before the bar.
    progress : bool or "text"
        ``False``: a disabled bar; ``True``: tqdm's live bar; ``"text"``: the reproducible text bar.

    Returns
    -------
    tqdm.tqdm
        The bar.

    Raises
    ------
    ValueError
        A bad ``progress``.

    Examples
    --------
    >>> bar = progress_bar(3, "demo", False)
    >>> for _ in range(3):
    ...     bar.update()
    >>> bar.close()
    """
    progress = check_progress(progress)
    from tqdm import tqdm as tqdm_text

    if not progress or total <= 0:
        return tqdm_text(total=total, disable=True)
    if progress is True:
        from tqdm.auto import tqdm as tqdm_live

        return tqdm_live(total=total, desc=desc, leave=False)
    return tqdm_text(total=total, desc=desc, file=sys.stderr, bar_format=TEXT_FORMAT, ascii=True,
                      miniters=max(1, math.ceil(total / 10)), mininterval=0, maxinterval=math.inf,
                      leave=True)
