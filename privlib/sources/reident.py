"""The worked numbers of the re-identification source, as printed: Table I and Section V-A.

Massart & Standaert, "Towards long-term privacy bounds in open data publishing" (source 002
of the compendium; :mod:`privlib.reident`).  The source's data are the Netflix Prize ratings
reduced to 13,141 users with 1,000 rated movies each (Section IV); its Table I gives the
hypothetical and perceived information (bits) of the exhaustive and first-order models for
three granularities of the grades, and Section V-A turns three of those numbers into leakage
bounds ``log2(n_u) / I``.

Examples
--------
>>> from privlib.reident import leakages_needed
>>> [round(leakages_needed(bits, n_users=N_USERS)) for bits in SECTION_VA_BITS]
[40, 72, 9]
>>> float(table1().loc[(1800, "PI (1st-order)"), "5-star"])
0.194
"""
from __future__ import annotations

import pandas as pd

__all__ = [
    "CITATION",
    "N_USERS",
    "N_RATINGS",
    "N_COMBINATIONS",
    "N_CATEGORIES",
    "N_OBS",
    "TABLE1_COLUMNS",
    "TABLE1_ROWS",
    "TABLE1",
    "SECTION_VA_LOG2_USERS",
    "SECTION_VA_BITS",
    "SECTION_VA_LEAKAGES",
    "table1",
]

#: The source, as cited in the book.
CITATION = ("C. Massart, F.-X. Standaert, \"Towards long-term privacy bounds in open data publishing\" "
            "(source 002 of the compendium)")

#: Section IV: users kept.
N_USERS = 13_141
#: Section IV: rated movies kept per user.
N_RATINGS = 1_000
#: Section IV: distinct category combinations.
N_COMBINATIONS = 1_211
#: Section IV: categories (genres).
N_CATEGORIES = 27
#: Table I: the database sizes N_o (exhaustive and first-order rows; first-order rows only).
N_OBS = (900, 1_800)

#: Table I: the granularities of the grades (columns), in the printed order.
TABLE1_COLUMNS = ("no-grade", "like-dislike", "5-star")
#: Table I: the rows (N_o, metric), in the printed order.
TABLE1_ROWS = ((900, "HI (exh.)"), (900, "PI (exh.)"), (900, "HI (1st-order)"), (900, "PI (1st-order)"),
               (1800, "HI (1st-order)"), (1800, "PI (1st-order)"))
#: Table I, as printed (bits; strings keep the printed digits), one list per column.
TABLE1 = {
    "no-grade": ["0.586", "-1.782", "0.069", "0.019", "0.061", "0.038"],
    "like-dislike": ["1.001", "-2.286", "0.203", "0.090", "0.185", "0.133"],
    "5-star": ["1.568", "-3.033", "0.392", "0.077", "0.346", "0.194"],
}

#: Section V-A: "log2(13,141) = 13.68".
SECTION_VA_LOG2_USERS = "13.68"
#: Section V-A: the informations turned into bounds (first-order HI and PI, exhaustive HI) ...
SECTION_VA_BITS = (0.346, 0.19, 1.56)
#: ... and the printed numbers of leakages 13.68 / I.
SECTION_VA_LEAKAGES = ("40", "72", "9")


def table1(*, printed: bool = False) -> pd.DataFrame:
    """Table I of the source as a DataFrame indexed by (N_o, metric).

    Parameters
    ----------
    printed : bool, default False
        Keep the printed strings (e.g. ``"0.090"``) instead of floats.

    Returns
    -------
    DataFrame
        One column per granularity (:data:`TABLE1_COLUMNS`), rows :data:`TABLE1_ROWS`.

    Examples
    --------
    >>> table1(printed=True).loc[(900, "PI (1st-order)"), "like-dislike"]
    '0.090'
    """
    out = pd.DataFrame({g: list(TABLE1[g]) for g in TABLE1_COLUMNS},
                       index=pd.MultiIndex.from_tuples(TABLE1_ROWS, names=["N_o", "metric"]))
    return out if printed else out.astype(float)
