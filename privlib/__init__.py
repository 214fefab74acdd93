"""privlib: the algorithms, metrics and data loaders behind the privlib-book compendium.

Modules, by layer (a module imports only from its own layer or below; see ``ARCHITECTURE.md``):

== ================== ===================================================================
0  accounting         the budget ledger every DP result carries (sequential, parallel, tree-path)
0  mechanisms         Laplace, exponential (log space) and geometric mechanisms
0  hierarchy          generalization hierarchies / taxonomy trees, with their cached array views
1  closeness          Earth Mover's Distance (closed forms, POT), KL and variational distance
1  requirements       the privacy-model vocabulary: KAnonymity, LDiversity, TCloseness
2  models             k-anonymity, l-diversity and t-closeness checks on a published table
2  generalization     full-domain generalization (lattice search) and data-quality metrics
2  partition          spatial decompositions: Mondrian (k, l, t) and the DP kd-tree
2  attacks            the naive-Bayes attack on a decomposition
2  metrics            empirical privacy (breach) and utility (range-query error)
2  release            every release as a decomposition; the anonymized table; information loss
2  diffgen            DiffGen, top-down specialization (TDS) and classification accuracy
2  noise              QWI multiplicative noise infusion (ramp distribution)
2  synth              OnTheMap: Multinomial-Dirichlet synthesizer, DP ratios, PDP
2  reident            HI/PI re-identification bounds, success rates, data swapping
2  scale              the counting algorithms on a Dask DataFrame / dask.distributed cluster
3  data               shipped data sets (Adult, census substitute, IPUMS reader, MovieLens), md5-checked
3  simulate           seeded simulators standing in for data that cannot be shared
3  sources            the sources' worked tables, as the sources print them
4  experiments        one module per chapter (setups, sweeps) and the parallel runner ``run``
4  scorecard          the reproduction scorecard every chapter ends with
== ================== ===================================================================

``import privlib`` is cheap: the modules are imported when first used (``privlib.partition``
imports :mod:`privlib.partition` on first access, :pep:`562`).  The ledger types of
:mod:`privlib.accounting` are re-exported here, as are :class:`PrivacyLeakWarning`,
``SeedReuseWarning`` and ``demonstration``.

Randomness: every function that draws takes a required ``rng``.  ``rng=None`` draws fresh
entropy from the operating system -- the choice for a real release.  An int seed makes a
release reproducible, and so a demonstration, not a private release (whoever knows or guesses
the seed knows the noise); reusing one int seed for two DP releases warns
(``SeedReuseWarning``) unless inside ``demonstration``.

Examples
--------
>>> import privlib
>>> privlib.Ledger([privlib.LedgerEntry("laplace", 0.5)]).total()
0.5
>>> privlib.mechanisms.laplace_scale(eps=0.5)
2.0
"""
from __future__ import annotations

import importlib as _importlib
import warnings as _warnings

from ._validation import PrivacyLeakWarning, SeedReuseWarning, demonstration

__version__ = "0.1.0"

# A privacy leak is reported at every call, not once per code location (users' own filters,
# installed before or after this import, still take precedence: the rule is appended last).
_warnings.filterwarnings("always", category=PrivacyLeakWarning, append=True)

#: The public modules and packages, imported on first access.
_MODULES = (
    "accounting", "mechanisms", "hierarchy",
    "closeness", "requirements",
    "models", "generalization", "partition", "attacks", "metrics", "release", "diffgen", "noise", "synth",
    "reident",
    "scale", "hierarchical", "privelet",
    "data", "simulate", "sources",
    "experiments", "scorecard",
)
#: Names re-exported from a module: name -> module.
_NAMES = {"BudgetExceededError": "accounting", "Ledger": "accounting", "LedgerEntry": "accounting"}

__all__ = [*_MODULES, *_NAMES, "PrivacyLeakWarning", "SeedReuseWarning", "demonstration", "__version__"]


def __getattr__(name: str):
    if name in _MODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    if name in _NAMES:
        value = getattr(_importlib.import_module(f"{__name__}.{_NAMES[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
