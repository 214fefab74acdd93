"""What every chapter does with its numbers and its scorecard: glue them rounded, show them whole.

The notebooks keep the science; the bookkeeping (rounded glue, the scorecard's counts and
statuses, the interactive table every reader can filter and sort) lives here.
"""
from __future__ import annotations

import html
import math
import numbers

import numpy as np
import pandas as pd

from ..scorecard import Scorecard
from ._tex import tex_to_unicode

__all__ = ["round_sig", "glue_num", "publish_scorecard", "interactive_table", "scorecard_table"]

#: Significant digits of every glued number by default (at most 12 reach an output: the C math
#: library differs in the last bits between CPUs).
GLUE_DIGITS = 10


def round_sig(value: object, digits: int = GLUE_DIGITS) -> object:
    """``value`` rounded to ``digits`` significant digits (ints, bools and strings unchanged).

    Parameters
    ----------
    value : float, int, bool, str or numpy scalar
        The value to round.
    digits : int
        Significant digits, 1 to 12.

    Returns
    -------
    float, int, bool or str
        A Python scalar: a float rounded to ``digits`` significant digits, an int, a bool or the
        string unchanged.

    Raises
    ------
    ValueError
        ``digits`` outside 1..12.
    TypeError
        ``value`` is not a scalar number, bool or string.

    Examples
    --------
    >>> round_sig(0.10577944146825383), round_sig(2 / 3, 3), round_sig(np.int64(7)), round_sig(True)
    (0.1057794415, 0.667, 7, True)
    """
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral) or not 1 <= digits <= 12:
        raise ValueError(f"digits: expected a whole number of significant digits from 1 to 12, got {digits!r}")
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        v = float(value)
        if not math.isfinite(v) or v == 0.0:
            return v
        out = float(f"{v:.{int(digits)}g}")
        if not math.isfinite(out):            # rounding up past the largest float: round toward 0
            from decimal import ROUND_DOWN, Decimal
            d = Decimal(v)
            out = float(d.quantize(Decimal(1).scaleb(d.adjusted() - int(digits) + 1), rounding=ROUND_DOWN))
        return out
    raise TypeError(f"value: expected a number, bool or str to glue, got {type(value).__name__} {value!r}")


def glue_num(name: str, value: object, *, digits: int = GLUE_DIGITS) -> None:
    """Glue ``value`` (rounded by :func:`round_sig`) for the text, without displaying it.

    Parameters
    ----------
    name : str
        The glue key (``{glue:text}`name``).
    value : float, int, bool, str or numpy scalar
        The value.
    digits : int
        Significant digits of a float.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        A NaN or infinite ``value`` (a number the text cannot state), or bad ``digits``.
    TypeError
        As :func:`round_sig`, or a ``name`` that is not a str.

    Examples
    --------
    >>> glue_num("demo_value", 0.1 + 0.2)  # doctest: +SKIP
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name: expected a non-empty str glue key, got {type(name).__name__} {name!r}")
    rounded = round_sig(value, digits)
    if isinstance(rounded, float) and not math.isfinite(rounded):
        raise ValueError(f"value: expected a finite number to glue as {name!r}, got {rounded!r}")
    _glue_hidden(name, rounded)


#: The mime-type prefix of a hidden glue (``myst_nb.ext.glue.GLUE_PREFIX``).
_GLUE_PREFIX = "application/papermill.record/"


def _glue_hidden(name: str, value: object) -> None:
    """``myst_nb.glue(name, value, display=False)``: the same display message, byte for byte.

    myst_nb's ``glue`` lives in ``myst_nb.ext.glue``, whose import pulls in nbformat and
    jsonschema (1 to 3 s of CPU in every kernel, most of it building URI grammars); the message
    is three lines of IPython, written here.  ``tests/test_bad_inputs_audit.py`` checks that
    both send the same data and metadata.
    """
    from IPython.core.formatters import format_display_data
    from IPython.display import display
    mimebundle, metadata = format_display_data(value)
    metadata["scrapbook"] = dict(name=name, mime_prefix=_GLUE_PREFIX)
    display({_GLUE_PREFIX + k: v for k, v in mimebundle.items()}, raw=True, metadata=metadata)


def _key(card_prefix: str, rid: str) -> str:
    return f"{card_prefix}_{rid.replace('-', '_')}"


class _Table:
    """A displayed table: interactive HTML for the book, a one-line text form for plain consoles."""

    def __init__(self, html_text: str, text: str):
        self._html, self._text = html_text, text

    def _repr_html_(self) -> str:
        return self._html

    def __repr__(self) -> str:
        return self._text


def interactive_table(frame: pd.DataFrame, /, *, table_id: str, caption: str = "",
                      wide: tuple = (), html_columns: tuple = ()) -> object:
    """An interactive (filterable, sortable, wrapped) table that works offline: ITables, no paging.

    Every row is shown (no paging, and no downsampling of large tables) and every cell wraps
    inside the text column.  The DataTables
    bundle is served by the book's ``itables_offline`` extension; without it (a plain Jupyter
    session), the same rows show as a plain HTML table.

    Parameters
    ----------
    frame : pandas.DataFrame
        The rows; every cell is shown as text (HTML-escaped unless its column is in
        ``html_columns``).
    table_id : str
        The HTML id (stable, so that stored outputs do not change between runs).
    caption : str
        Shown above the table.
    wide : tuple of str
        Columns given a minimum width (long prose).
    html_columns : tuple of str
        Columns whose cells are already HTML.

    Returns
    -------
    object
        Displays as the table (``_repr_html_``); its text form names the rows and columns.

    Examples
    --------
    >>> t = interactive_table(pd.DataFrame({"a": [1, 2]}), table_id="demo")
    >>> repr(t)
    'table demo: 2 rows, columns a'
    """
    from itables import to_html_datatable
    shown = frame.copy()
    for col in shown.columns:
        cells = shown[col].astype(object).where(shown[col].notna(), "").astype(str)
        shown[col] = cells if col in html_columns else cells.map(html.escape)
    columns = list(shown.columns)
    # fixed layout: the wide (prose) columns share what the narrow ones leave, so the table fits
    # the text column and wraps instead of overflowing it
    n_wide = sum(c in wide for c in columns)
    narrow = 100.0 / (len(columns) + 2.0 * n_wide)
    defs = [{"targets": i, "width": f"{(3 if c in wide else 1) * narrow:.1f}%",
             **({"className": "privlib-wide"} if c in wide else {})} for i, c in enumerate(columns)]
    body = to_html_datatable(
        shown, table_id=table_id, connected=False, classes="display compact privlib-table",
        paging=False, allow_html=True, showIndex=False, order=[], autoWidth=False, columnDefs=defs,
        maxBytes=0,  # never downsample: every row of a scorecard is shown
        layout={"topStart": "info", "topEnd": "search", "bottomStart": None, "bottomEnd": None},
        style="width:100%", caption=caption or None)
    return _Table(body, f"table {table_id}: {len(frame)} rows, columns {', '.join(map(str, columns))}")


def scorecard_table(frame: pd.DataFrame, /, *, table_id: str) -> object:
    """A saved scorecard (``Scorecard.to_frame()``, or several chapters) as an interactive table.

    Columns shown: where (under the chapter of a report's row; the claim's id, kind and
    variant beneath), claim (and the source's words,
    their TeX written in Unicode by ``tex_to_unicode``), source (and tolerance), ours, status
    (and cause), reading and note (and the reason of a claim not reproduced).

    Parameters
    ----------
    frame : pandas.DataFrame
        As :meth:`privlib.scorecard.Scorecard.to_frame` or :func:`privlib.scorecard.load_scorecards`.
    table_id : str
        The HTML id.

    Returns
    -------
    object
        As :func:`interactive_table`.

    Examples
    --------
    >>> card = Scorecard("demo")
    >>> _ = card.add("a", "0.5", 0.5, "printed", kind="reproduction", where="Table 1")
    >>> repr(scorecard_table(card.to_frame(), table_id="demo"))[:22]
    'table demo: 1 rows, co'
    """
    f = frame.fillna("").astype(str)
    blank = pd.Series([""] * len(f), index=f.index)

    def col(name):
        return f[name] if name in f else blank

    def small(text):
        return f'<span class="privlib-small">{html.escape(text)}</span>' if text else ""

    # six columns, so that the table fits the text column at 1280 px: the claim's kind goes under
    # its place, the note under the reading
    # several chapters (the report): each row's chapter heads its place
    chapter = [f'<span class="privlib-chapter">{html.escape(c)}</span>' if c else "" for c in col("chapter")]
    where = [c + html.escape(w) + small(i) + small(k) + small(v) + small(f"option {o} of {of}" if of else "")
             for c, w, i, k, v, o, of in zip(chapter, col("where"), col("id"), col("kind"), col("variant"),
                                             col("option"), col("option of"))]
    # the source's words: its TeX typeset in Unicode (MathJax does not reach inside the table)
    claim = [html.escape(c) + (f'<span class="privlib-quote">“{html.escape(tex_to_unicode(q))}”</span>' if q else "")
             for c, q in zip(col("claim"), col("quote"))]
    source = [html.escape(s) + small("" if t in ("", "-") else f"tolerance {t}")
              for s, t in zip(col("source value"), col("tolerance"))]
    status = [f'<span class="status-{s.replace(" ", "-")}">{html.escape(s)}</span>' + small(c)
              + small(f"verdict: {v}" if v else "") for s, c, v in zip(col("status"), col("cause"), col("verdict"))]
    notes = ["; ".join(x for x in (n, r, f"can fail: {cf}" if cf else "", f"justification: {j}" if j else "") if x)
             for n, r, cf, j in zip(col("note"), col("reason"), col("can fail"), col("justification"))]
    reading = [html.escape(r) + small(f"note: {n}" if n else "") for r, n in zip(col("reading"), notes)]
    shown = pd.DataFrame({
        "where": where,
        "claim": claim,
        "source": source,
        "ours": col("our value").map(html.escape),
        "status": status,
        "reading and note": reading,
    })
    return interactive_table(shown, table_id=table_id, wide=("claim", "reading and note"),
                             html_columns=tuple(shown.columns))


def publish_scorecard(card: Scorecard, /, *, prefix: str, show: bool = True) -> None:
    """Check, save, glue and show a chapter's scorecard (the last code cell of every chapter).

    Refuses a registered claim without a value and a row that differs or is fragile without a
    cause (:meth:`~privlib.scorecard.Scorecard.check_complete`); saves
    ``book/scorecards/<chapter>.csv``; glues ``{prefix}_rep_claims``, ``{prefix}_rep_agrees``,
    ``_differs``, ``_fragile``, ``_choice_dependent``, ``_not_reproduced`` (reproduction rows, each
    claim once: a choice set's options are not counted), ``{prefix}_n_<kind>``
    for the other kinds, and for every row ``{prefix}_st_<id>`` (its status) and
    ``{prefix}_val_<id>`` (our value as shown), ``-`` in ids read as ``_``; displays every row and
    every note as an interactive table.

    Parameters
    ----------
    card : Scorecard
        Built with :meth:`~privlib.scorecard.Scorecard.from_readings`.
    prefix : str
        The chapter's glue prefix (``"ch1"``).
    show : bool
        Display the table.

    Returns
    -------
    None
        The scorecard itself is ``card.to_frame()``.

    Raises
    ------
    ValueError
        A claim without a value, a differing row without a cause, or a card without a registry.

    Examples
    --------
    >>> publish_scorecard(Scorecard("demo"), prefix="demo")
    Traceback (most recent call last):
    ...
    ValueError: card: expected a Scorecard built with Scorecard.from_readings (every row registered)
    """
    from IPython.display import display

    if not isinstance(card, Scorecard) or card.readings is None:
        raise ValueError("card: expected a Scorecard built with Scorecard.from_readings (every row registered)")
    if not isinstance(prefix, str) or not prefix.isidentifier():
        raise ValueError(f"prefix: expected a glue prefix such as 'ch1', got {prefix!r}")
    card.check_complete()
    card.save()
    frame = card.to_frame()
    counts = card.counts()
    rep = counts.get("reproduction", {})
    for key in ("claims", "agrees", "differs", "fragile", "choice-dependent", "not reproduced"):
        glue_num(f"{prefix}_rep_{key.replace(' ', '_').replace('-', '_')}", int(rep.get(key, 0)))
    for kind in ("source arithmetic", "self-check", "hypothesis", "cross-source", "calibration"):
        glue_num(f"{prefix}_n_{kind.replace(' ', '_').replace('-', '_')}",
                 int(counts.get(kind, {}).get("claims", 0)))
    for rid, st, ours in zip(frame["id"], frame["status"], frame["our value"]):
        glue_num(_key(f"{prefix}_st", rid), st)
        glue_num(_key(f"{prefix}_val", rid), ours)
    if show:
        display(scorecard_table(frame, table_id=f"{prefix}-scorecard"))
