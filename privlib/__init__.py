"""privlib: the algorithms, metrics and data loaders behind the privlib-book compendium.

Modules (one idea each, named as in the sources):

================== ===================================================================
accounting         the budget ledger every DP result carries (sequential, parallel, tree-path)
data               shipped data sets (Adult, census substitute, IPUMS reader, MovieLens), md5-checked
hierarchy          generalization hierarchies / taxonomy trees
mechanisms         Laplace, exponential (log space) and geometric mechanisms
closeness          Earth Mover's Distance (closed forms and LP), KL and variational distance
models             k-anonymity, l-diversity and t-closeness checks on a published table
generalization     full-domain generalization (lattice search) and data-quality metrics
partition          spatial decompositions: Mondrian (k, l, t) and the DP kd-tree
attacks            the naive-Bayes attack on a decomposition
metrics            empirical privacy (breach) and utility (range-query error)
diffgen            DiffGen, top-down specialization (TDS) and classification accuracy
noise              QWI multiplicative noise infusion (ramp distribution)
synth              OnTheMap: Multinomial-Dirichlet synthesizer, DP ratios, PDP
reident            HI/PI re-identification bounds, success rates, data swapping
simulate           seeded simulators standing in for data that cannot be shared
scorecard          the reproduction scorecard every chapter ends with
================== ===================================================================
"""
__version__ = "0.1.0"

import warnings as _warnings

from ._validation import PrivacyLeakWarning

# A privacy leak is reported at every call, not once per code location (users' own filters,
# installed before or after this import, still take precedence: the rule is appended last).
_warnings.filterwarnings("always", category=PrivacyLeakWarning, append=True)

__all__ = ["PrivacyLeakWarning", "__version__"]
