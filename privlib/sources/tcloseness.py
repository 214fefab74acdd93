"""The worked examples of the t-closeness source, as printed: Tables 1, 3 and 5, Figure 1.

Li, Li & Venkatasubramanian, *t-Closeness: Privacy beyond k-anonymity and l-diversity*
(ICDE 2007, and its slides).  The running examples are nine patient records with two
quasi-identifiers (ZIP code, age) and the sensitive attributes disease (Table 1) or salary
and disease (Table 3); Figure 1 is the disease hierarchy of the hierarchical ground distance.

Examples
--------
>>> from privlib.models import t_closeness
>>> t5 = table5()
>>> round(t_closeness(t5, ["zip", "age"], "salary", distance="ordered").t, 3)   # "0.167-closeness"
0.167
>>> round(t_closeness(t5, ["zip", "age"], "disease", distance="hierarchical",
...                   hierarchy=disease_hierarchy()).t, 3)   # printed 0.278: see chapter 1
0.296
"""
from __future__ import annotations

import pandas as pd

from ..hierarchy import Hierarchy

__all__ = [
    "CITATION",
    "FIGURE1_ROOT",
    "FIGURE1_BODY",
    "FIGURE1",
    "TABLE1",
    "TABLE3",
    "TABLE5",
    "disease_hierarchy",
    "table1",
    "table3",
    "table5",
]

#: The source, as cited in the book.
CITATION = ("N. Li, T. Li, S. Venkatasubramanian, \"t-Closeness: Privacy beyond k-anonymity and "
            "l-diversity\", ICDE 2007, pp. 106-115")

#: Figure 1 (slide "Hierarchical Distance"): the disease hierarchy, below its root.
FIGURE1_BODY = {
    "Respiratory system diseases": {
        "Respiratory infection": ["flu", "pneumonia", "bronchitis"],
        "Vascular lung diseases": ["pulmonary edema", "pulmonary embolism"]},
    "Digestive system diseases": {
        "Stomach diseases": ["gastric ulcer", "gastritis", "stomach cancer"],
        "Colon diseases": ["colitis", "colon cancer"]}}
#: Figure 1: the root of the disease hierarchy.
FIGURE1_ROOT = "Respiratory & digestive system diseases"
#: Figure 1 with its root, the input of ``Hierarchy.from_dict``.
FIGURE1 = {FIGURE1_ROOT: FIGURE1_BODY}

#: Table 1, "Original Patients Table": ZIP code, age, disease; records 1-9.
TABLE1 = {
    "zip": ["47677", "47602", "47678", "47905", "47909", "47906", "47605", "47673", "47607"],
    "age": [29, 22, 27, 43, 52, 47, 30, 36, 32],
    "disease": ["heart disease"] * 3 + ["flu", "heart disease", "cancer", "heart disease", "cancer", "cancer"],
}
#: Table 3, "Original Salary/Disease Table": the QIs of Table 1, salary (in thousands), disease.
TABLE3 = {
    "zip": TABLE1["zip"],
    "age": TABLE1["age"],
    "salary": [3, 4, 5, 6, 11, 8, 7, 9, 10],
    "disease": ["gastric ulcer", "gastritis", "stomach cancer", "gastritis", "flu", "bronchitis",
                "bronchitis", "pneumonia", "stomach cancer"],
}
#: Table 5, "Table that has 0.167-closeness w.r.t. Salary and 0.278-closeness w.r.t. Disease",
#: in its printed row order; ``index`` holds the record numbers of Table 3.
TABLE5 = {
    "index": [1, 3, 8, 4, 5, 6, 2, 7, 9],
    "zip": ["4767*"] * 3 + ["4790*"] * 3 + ["4760*"] * 3,
    "age": ["≤ 40"] * 3 + ["≥ 40"] * 3 + ["≤ 40"] * 3,
    "salary": [3, 5, 9, 6, 11, 8, 4, 7, 10],
    "disease": ["gastric ulcer", "stomach cancer", "pneumonia", "gastritis", "flu", "bronchitis",
                "gastritis", "bronchitis", "stomach cancer"],
}


def disease_hierarchy() -> Hierarchy:
    """Figure 1 as a :class:`~privlib.hierarchy.Hierarchy` named ``"disease"``.

    Returns
    -------
    Hierarchy

    Examples
    --------
    >>> h = disease_hierarchy()
    >>> len(h.leaves), h.height, h.distance("flu", "pneumonia"), h.distance("flu", "colitis")
    (10, 3, 0.3333333333333333, 1.0)
    """
    return Hierarchy.from_dict(FIGURE1, name="disease")


def table1() -> pd.DataFrame:
    """Table 1 (original patients table), indexed by record number 1-9.

    Returns
    -------
    DataFrame
        Columns ``zip`` (str), ``age`` (int), ``disease``.

    Examples
    --------
    >>> table1()["disease"].value_counts().to_dict()
    {'heart disease': 5, 'cancer': 3, 'flu': 1}
    """
    return pd.DataFrame(TABLE1, index=range(1, 10))


def table3() -> pd.DataFrame:
    """Table 3 (original salary/disease table), indexed by record number 1-9.

    Returns
    -------
    DataFrame
        Columns ``zip``, ``age``, ``salary`` (thousands), ``disease``.

    Examples
    --------
    >>> table3()["salary"].tolist()
    [3, 4, 5, 6, 11, 8, 7, 9, 10]
    """
    return pd.DataFrame(TABLE3, index=range(1, 10))


def table5() -> pd.DataFrame:
    """Table 5 as printed (generalized QIs), indexed by the record numbers of Table 3.

    Returns
    -------
    DataFrame
        Columns ``zip``, ``age`` (generalized), ``salary``, ``disease``, in the printed order.

    Examples
    --------
    >>> table5().index.tolist()
    [1, 3, 8, 4, 5, 6, 2, 7, 9]
    """
    cols = {k: v for k, v in TABLE5.items() if k != "index"}
    return pd.DataFrame(cols, index=TABLE5["index"])
