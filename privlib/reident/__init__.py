"""Re-identification with external leakages: hypothetical and perceived information.

Massart & Standaert, *Towards long-term privacy bounds in open data publishing*
(source 002 of the compendium).  A database holds, for each user ``u_i``, ``N_o``
observations ``o_ij``; an adversary holding fresh observations of a user ("external
leakages") tries to find the user's pseudonym.  The risk is bounded with two
information-theoretic metrics computed from the database itself:

* the **hypothetical information** (Section III-B, the ``HI~`` equation)::

      HI = H[U] + sum_i Pr[u_i] sum_{o in D_i} f~(o|u_i) log2 Pr~[u_i|o]

  with the model ``g~`` estimated directly from all the data;
* the **perceived information** of one cross-validation fold ``j`` (the ``PI^(j)``
  equation)::

      PI^(j) = H[U] + sum_i Pr[u_i] sum_{o in D_i^(j)} 1/|D_i^(j)| log2 Pr^^(j)[u_i|o]

  with ``g^^(j)`` estimated without fold ``j``; PI is the mean over the ``K`` folds.

Both use Bayes with a uniform prior over users (Section II-C): ``Pr[u_i] = 1/n_u``,
``H[U] = log2 n_u`` and ``Pr[u_i|o] = g(o|u_i) / sum_j g(o|u_j)``.

Data layout
-----------
``obs`` is a *long table*: one row per observation, a user column and the
characteristic columns.  For the ratings of the source each row is one rated movie, one
column per category, holding the grade code when the movie belongs to the category and
``absent`` (default ``0``) otherwise -- so an observation with all 27 columns is one of
the source's ``5^27`` exhaustive bins (Section II-C).  :func:`rating_observations` builds
this table from a ratings table with ``|``-separated genres.

Models (Section II-C)
---------------------
* :func:`first_order` -- "treats the characteristics of each observation independently":
  every row is split into one *simplified observation* ``(c, o(c))`` per characteristic
  ``c`` whose value is not ``absent`` (the source: "each observation has been split into
  several independent ones"), and the model is one histogram over the pairs
  ``(c, value)`` (``5 * 27`` bins for the source).  ``N_o``, folds and leakages then
  count simplified observations, as in the source's ``N_o = 1,800``.
* :func:`exhaustive` -- one histogram over whole rows (every combination of
  characteristic values).  Only the combinations present in the data get a bin, and the
  counts are held per (user, bin) pair, never as a dense ``users x 5^27`` array.

Outliers in the PI (Section III-B: "negligible probabilities for correct users")
--------------------------------------------------------------------------------
A test observation whose correct-user probability is zero (the user never produced it
in the training folds, or nobody did) has ``log2 0 = -inf``.  The source handles these
"as in [6]" without giving the rule, so two explicit rules are offered:
``outliers="drop"`` (default) excludes such an **outlier** from its user's average (a
user whose test fold holds only outliers is left out of that fold's average over users);
``outliers="floor"`` replaces the zero probability by ``floor`` (default ``1 / n_u**2``,
i.e. ``-2 H[U]`` bits), which keeps every observation and lets PI become very negative.
Both rules are computed in one pass when ``outliers=("drop", "floor")``.  The fraction of
outlier test observations is reported as ``f_o``.  The two rules give qualitatively
different PI curves (see the chapter), so a PI value is only meaningful with its rule.

Everything is vectorised with ``pandas.factorize``, ``numpy.bincount`` and
``scipy.sparse`` (imported only by the attacks with several leakages); no Python loop runs
over records or users.

Modules (private, re-exported here)
-----------------------------------
``_records`` the models and the encoding (:func:`encode_records`, :func:`encode_models`,
:func:`cut`); ``_codes`` the integer coding; ``_folds`` the cross-validation folds;
``_information`` HI, PI and the leakage bound; ``_tables`` Table I and Figure 2;
``_attacks`` the success rate; ``_utility`` the category prediction; ``_swapping`` data
swapping; ``_ratings`` the reduction of ratings to observations.
"""
from __future__ import annotations

from ._attacks import fresh_success_rate, largest_step, success_rate
from ._folds import draw_folds
from ._information import (
    OUTLIER_RULES,
    Information,
    OutlierRule,
    hypothetical_information,
    leakages_needed,
    perceived_information,
)
from ._ratings import GRANULARITIES, RATING_RANGE, rating_observations
from ._records import (
    EXHAUSTIVE,
    FIRST_ORDER,
    Model,
    Records,
    cut,
    encode_models,
    encode_records,
    exhaustive,
    first_order,
    observation_counts,
)
from ._swapping import swap
from ._tables import information_curve, information_table
from ._utility import category_density, category_prediction

__all__ = [
    "Model",
    "first_order",
    "exhaustive",
    "FIRST_ORDER",
    "EXHAUSTIVE",
    "Records",
    "encode_records",
    "encode_models",
    "cut",
    "observation_counts",
    "draw_folds",
    "Information",
    "OutlierRule",
    "OUTLIER_RULES",
    "hypothetical_information",
    "perceived_information",
    "leakages_needed",
    "information_table",
    "information_curve",
    "success_rate",
    "fresh_success_rate",
    "largest_step",
    "category_prediction",
    "category_density",
    "swap",
    "rating_observations",
    "GRANULARITIES",
    "RATING_RANGE",
]
