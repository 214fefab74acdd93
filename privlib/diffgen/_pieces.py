"""Docstring pieces the DiffGen and TDS callables share (:func:`privlib._docs.shared_doc`)."""
from __future__ import annotations

#: The predictors, the class attribute and the taxonomies (the reference implementations' and
#: the classifiers' reading; :func:`privlib.diffgen.diffgen` says more about the grid).
PREDICTORS_DOC = """
predictors : list of str
    Predictor attributes.
target : str
    The class attribute.
taxonomies : dict
    Every predictor -> :class:`~privlib.hierarchy.Hierarchy` or public domain ``(low, high)``.
"""
#: The job taxonomy of the source's Figure 1, abbreviated (every example's first lines).
_JOB = """
Examples
--------
>>> import pandas as pd
>>> from privlib.hierarchy import Hierarchy
>>> job = Hierarchy.from_dict({"Any": {"Pro": ["Eng", "Law"], "Art": ["Dan", "Wri"]}})
"""
#: The source's Table 1.a (eight records, the job taxonomy of Figure 1 abbreviated).
TABLE_1A_DOC = _JOB + """\
>>> df = pd.DataFrame({"job": ["Eng", "Law", "Eng", "Law", "Dan", "Wri", "Wri", "Dan"],
...                    "age": [34, 50, 38, 33, 20, 37, 32, 25],
...                    "class": ["Y", "N", "N", "Y", "Y", "N", "Y", "N"]})   # Table 1.a
"""
#: A training and a test table for the classifiers' accuracy.
TRAIN_TEST_DOC = _JOB + """\
>>> tax = {"job": job, "age": (18, 65)}
>>> train = pd.DataFrame({"job": ["Eng", "Law", "Dan", "Wri"] * 5, "age": [30, 50, 25, 60] * 5,
...                       "class": ["Y", "Y", "N", "N"] * 5})
>>> test = pd.DataFrame({"job": ["Law", "Dan"], "age": [40, 40], "class": ["Y", "N"]})
"""
