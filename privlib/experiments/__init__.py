"""The book's experiments: one module per chapter, above the algorithms.

=================== ==========================================================================
``run``, ``spawn``  the parallel runner every sweep goes through, and its seeding rule
=================== ==========================================================================

Algorithm and metric modules never import from here (nor from :mod:`privlib.data`); the
chapters' notebooks call these modules or the algorithms directly.
"""
from ._runner import check_n_jobs, run, spawn

__all__ = ["check_n_jobs", "run", "spawn"]
