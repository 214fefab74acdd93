"""The sources' worked examples, typed once, as the sources print them.

Tests check the library against these tables and the notebooks show them beside the
reproduction; neither types them again.  One module per source, each value with its citation
(page, table or slide):

================ =====================================================================
``tcloseness``   Li, Li & Venkatasubramanian, *t-Closeness* (slides): the salary/disease table,
                 the disease hierarchy of Figure 1
``diffgen``      Mohammed et al., *Differentially private data release for data mining*: Table 1
``onthemap``     Abowd & Vilhuber, slides: OnTheMap's worked tables
``qwi``          Abowd & Vilhuber, slides: QWI's worked examples
``reident``      Massart & Standaert, *Towards long-term privacy bounds in open data
                 publishing*: Table I and the leakages of Section V-A
================ =====================================================================

The submodules load on first use (``privlib.sources.diffgen``), so importing the package costs
nothing.
"""
from __future__ import annotations

import importlib

__all__ = ["diffgen", "onthemap", "qwi", "reident", "tcloseness"]


def __getattr__(name: str):
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
