"""privlib: the algorithms, metrics and data loaders behind the privlib-book compendium.

Modules (one idea each, named as in the sources):

========== ==============================================================
data        shipped data sets (Adult, census substitute, MovieLens) with checksums
hierarchy   generalization hierarchies / taxonomy trees
mechanisms  Laplace, exponential and geometric mechanisms
closeness   Earth Mover's Distance and the naive distances (t-closeness)
models      k-anonymity, l-diversity and t-closeness checks on a published table
scorecard   the reproduction scorecard every chapter ends with
========== ==============================================================
"""
__version__ = "0.1.0"
