"""A table as a source prints it, typed once as text: one row a line, cells apart by white space."""
from __future__ import annotations

__all__ = ["printed_table"]


def printed_table(text: str) -> tuple[tuple[str, ...], ...]:
    """The rows of ``text``, each a tuple of its cells as printed strings (blank lines skipped).

    The sources' worked tables are typed as the slides print them and kept as strings, so that a
    comparison can honour the printed precision; ``numpy.array(table, dtype=float)`` gives the
    numbers.  A cell holds no white space (``"1,005"``, ``"-0.008"``, ``"6.91E-06"``).

    Parameters
    ----------
    text : str
        The table, one row a line.

    Returns
    -------
    tuple of tuple of str

    Raises
    ------
    ValueError
        When the rows do not all have the same number of cells.

    Examples
    --------
    >>> printed_table('''
    ...     0.47  0.37
    ...     0.30  0.26
    ... ''')
    (('0.47', '0.37'), ('0.30', '0.26'))
    """
    rows = tuple(tuple(line.split()) for line in text.splitlines() if line.strip())
    widths = {len(r) for r in rows}
    if len(widths) > 1:
        raise ValueError(f"text: expected rows of one length, got lengths {sorted(widths)}")
    return rows
