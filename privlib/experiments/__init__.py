"""The book's experiments: one module per chapter, above the algorithms.

======================= ======================================================================
``run``, ``spawn``       the parallel runner every sweep goes through, and its seeding rule
``glue_num``             a number glued for the text, rounded to 10 significant digits
``publish_scorecard``    a chapter's scorecard checked against its registry, saved, glued, shown
``interactive_table``    a filterable, sortable, wrapped table that works offline (ITables)
``tex_to_unicode``       a source's quote with its TeX written in Unicode (the scorecards' quotes)
======================= ======================================================================

Algorithm and metric modules never import from here (nor from :mod:`privlib.data`); the
chapters' notebooks call these modules or the algorithms directly.
"""
from ._publish import glue_num, interactive_table, publish_scorecard, round_sig, scorecard_table
from ._runner import check_n_jobs, run, spawn
from ._tex import tex_to_unicode

__all__ = ["check_n_jobs", "run", "spawn", "glue_num", "round_sig", "publish_scorecard", "interactive_table",
           "scorecard_table", "tex_to_unicode"]
