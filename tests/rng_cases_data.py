"""Randomness-contract cases: privlib.data (see tests/contract.py).

``load_ipums`` reads a reader's own IPUMS extract; the case writes a tiny extract in the
IPUMS CSV layout (upper-case variable names, ``OCC1990`` instead of ``OCC``, ``999999`` for a
missing wage) to a temporary directory, removed when the interpreter exits.
"""
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from contract import Case
from privlib import data

_TMP = tempfile.TemporaryDirectory(prefix="privlib_rng_cases_")   # cleaned up at exit
_N = 60
_RAW = pd.DataFrame({
    "YEAR": 2009,
    "AGE": np.arange(20, 20 + _N),
    "STATEFIP": np.arange(_N) % 50 + 1,
    "EDUC": np.arange(_N) % 12,
    "OCC1990": np.arange(_N) * 7 + 3,
    "INCWAGE": (np.arange(_N) * 3_000) % 170_000,
})
IPUMS_PATH = Path(_TMP.name) / "usa_00001.csv"
_RAW.to_csv(IPUMS_PATH, index=False)

CASES = [
    Case(data.load_ipums, (IPUMS_PATH,), {"n": 20}, id="load_ipums"),
]
