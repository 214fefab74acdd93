"""The sources' worked examples used by the tests, typed once in privlib.sources.

t-closeness (source 003): Figure 1, the disease hierarchy (respiratory and digestive system
diseases), from privlib.sources.tcloseness.
"""
from privlib.sources.tcloseness import FIGURE1, FIGURE1_BODY, FIGURE1_ROOT  # noqa: F401
