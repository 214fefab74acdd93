"""The worked example of DiffGen's source, as printed: Table 1, Figure 1, Figure 2 / Example 3.

Mohammed, Chen, Fung & Yu, "Differentially private data release for data mining", KDD 2011
(:func:`privlib.diffgen.diffgen`).  The running example is a table of eight records with a
categorical predictor *Job* (taxonomy tree of Figure 1), a numerical predictor *Age* with the
public domain [18, 65) and a class attribute with values Y and N.

Examples
--------
>>> from privlib.diffgen import contingency_table
>>> t = contingency_table(table1a(), ["job", "age"], taxonomies(), cuts=TABLE1D_CUTS)
>>> t["count"].tolist() == TABLE1D_COUNTS
True

The printed cost and benefit at eps = 0.5 are the two ends of one curve (they add up to BA - LA):

>>> ba, la = float(SECTION5["BA"]), float(SECTION5["LA"])
>>> [round(float(c) + float(b), 2) for c, b in zip(SECTION5["cost_eps05"], SECTION5["benefit_eps05"][::-1])]
[9.8, 9.8]
>>> round(ba - la, 2)
9.8
"""
from __future__ import annotations

import pandas as pd

from ..hierarchy import Hierarchy

__all__ = [
    "CITATION",
    "JOB_TAXONOMY",
    "AGE_DOMAIN",
    "CLASSES",
    "TABLE1A",
    "TABLE1B_JOB",
    "TABLE1B_AGE",
    "TABLE1C_CUTS",
    "TABLE1C_COUNTS",
    "TABLE1D_CUTS",
    "TABLE1D_COUNTS",
    "EXAMPLE3_STEPS",
    "EXAMPLE3_COUNTS",
    "EXAMPLE3_PARENTS",
    "EXAMPLE3_LEAF_COUNTS",
    "SECTION5",
    "job_taxonomy",
    "taxonomies",
    "table1a",
]

#: The source, as cited in the book.
CITATION = ("N. Mohammed, R. Chen, B. C. M. Fung, P. S. Yu, \"Differentially private data release for data "
            "mining\", KDD 2011, pp. 493-501")

#: Figure 1: the taxonomy tree of Job.
JOB_TAXONOMY = {"Any_Job": {"Professional": ["Engineer", "Lawyer"], "Artist": ["Dancer", "Writer"]}}
#: Figure 1: the domain of Age, the root [18-65) of its (dynamically built) taxonomy.
AGE_DOMAIN = (18, 65)
#: The class domain of the example (Table 1.a, column Class).
CLASSES = ("N", "Y")

#: Table 1.a, "raw data table": Job, Age, Class, in the printed row order.
TABLE1A = {
    "job": ["Engineer", "Lawyer", "Engineer", "Lawyer", "Dancer", "Writer", "Writer", "Dancer"],
    "age": [34, 50, 38, 33, 20, 37, 32, 25],
    "class": ["Y", "N", "N", "Y", "Y", "N", "Y", "N"],
}
#: Table 1.b, "4-anonymous table": Job generalized to Professional / Artist, Age to [18-65).
TABLE1B_JOB = ["Professional"] * 4 + ["Artist"] * 4
#: Table 1.b: the Age column.
TABLE1B_AGE = ["[18-65)"] * 8
#: Table 1.c, "contingency table": the leaves of Job x Age split at 40, row by row.
TABLE1C_CUTS = {"job": ["Engineer", "Lawyer", "Dancer", "Writer"], "age": [40]}
#: Table 1.c: the Count column, in the printed row order.
TABLE1C_COUNTS = [2, 0, 1, 1, 2, 0, 2, 0]
#: Table 1.d, "generalized contingency table": Professional / Artist x Age split at 40.
TABLE1D_CUTS = {"job": ["Professional", "Artist"], "age": [40]}
#: Table 1.d: the Count column, in the printed row order.
TABLE1D_COUNTS = [3, 1, 4, 0]

#: Example 3 / Figure 2: the specializations Any_Job -> {Professional, Artist}, then
#: [18-65) -> {[18-40), [40-65)}.
EXAMPLE3_STEPS = [("job", "Any_Job"), ("age", "[18-65)", 40)]
#: Figure 2: the record count of every partition of the tree, in creation order (root first).
EXAMPLE3_COUNTS = [8, 4, 4, 3, 1, 4, 0]
#: Figure 2: the parent of every partition (-1: the root).
EXAMPLE3_PARENTS = [-1, 0, 0, 1, 1, 2, 2]
#: Figure 2: the leaf partitions' counts (the empty partition is kept).
EXAMPLE3_LEAF_COUNTS = [3, 1, 4, 0]

#: Section 5, "Data Quality": the numbers printed about Figure 3(a) (percentages, as printed;
#: "around 3", "about 78", "about 7" and "about 3" are kept as their printed digits).
SECTION5 = {
    "BA": "85.3", "LA": "75.5",
    "cost_eps1_h10": "3", "benefit_eps1_h10": "6.74",
    "cost_eps05": ("3.57", "4.8"), "benefit_eps05": ("5", "6.23"),
    "best_eps01": "78", "cost_eps01": "7", "benefit_eps01": "3",
}


def job_taxonomy() -> Hierarchy:
    """Figure 1's taxonomy tree of Job, as a :class:`~privlib.hierarchy.Hierarchy`.

    Returns
    -------
    Hierarchy
        Root ``Any_Job``; a new object at each call.

    Examples
    --------
    >>> job_taxonomy().children("Any_Job")
    ('Professional', 'Artist')
    """
    return Hierarchy.from_dict(JOB_TAXONOMY, name="job")


def taxonomies() -> dict:
    """The ``taxonomies`` argument of :func:`privlib.diffgen.diffgen` for Table 1.

    Returns
    -------
    dict
        ``{"job": job_taxonomy(), "age": AGE_DOMAIN}``.

    Examples
    --------
    >>> taxonomies()["age"]
    (18, 65)
    """
    return {"job": job_taxonomy(), "age": AGE_DOMAIN}


def table1a() -> pd.DataFrame:
    """Table 1.a as a DataFrame (a new copy at each call).

    Returns
    -------
    pandas.DataFrame
        Columns ``job, age, class``, eight rows.

    Examples
    --------
    >>> table1a().shape
    (8, 3)
    """
    return pd.DataFrame({k: list(v) for k, v in TABLE1A.items()})
