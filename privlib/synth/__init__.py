"""Synthetic data, differential privacy and probabilistic differential privacy (OnTheMap).

Implements the "Cryptographic and Statistical Advances in Confidentiality Protection"
half of :cite:t:`abowd2011slides`, which summarises
:cite:t:`machanavajjhala2008onthemap`:

*Detailed example (two categories)*

* :func:`md_transition` -- the Multinomial-Dirichlet synthesizer's transition matrix
  Pr[m | n] (slide "The Multinomial-Dirichlet Synthesizer").  Two models:

  ``kind="posterior-predictive"``
      the slide's formula Pr[m|n] = E_{pi|n}[M(m, pi)] with pi | n ~ D(alpha + n), i.e. the
      Dirichlet-multinomial (beta-binomial for k = 2) posterior predictive;
  ``kind="plug-in"``
      a multinomial M(m, pi_hat) with the posterior *mean* pi_hat = (alpha + n)/(alpha_0 + n)
      plugged in.  **This is the model that generates the slides' table** (every entry to six
      decimals), and its prior marginal Pr[n] = M(n, alpha/alpha_0) generates the slides'
      joint table.

* :func:`md_prior` -- the marginal Pr[n] of the confidential counts under either model.
* :func:`dp_ratio_table` -- ``|ln Pr[m|n(1)] / Pr[m|n(2)]|`` for neighbouring n (slide
  "epsilon-Differential Privacy"); its maximum is the synthesizer's epsilon.
* :func:`disclosure_mask`, :func:`joint_table`, :func:`pdp_delta` -- the disclosure set and
  the probability delta of probabilistic differential privacy (slide "Probabilistic
  Differential Privacy").
* :func:`laplace_transition` -- the Laplace sanitizer with the total released without noise
  (slide "Laplace Sanitizer").
* :func:`min_alpha_for_dp`, :func:`min_alpha_for_pdp` -- minimum prior sample size for
  eps-DP (closed form) and for (eps, delta)-PDP (search; slide "Search Algorithm Implements
  PDP").
* :func:`pruned_epsilon` -- Theorem 5.2 as summarised on slide "Refinement: Domain Pruning".
* :func:`coarsening_privacy` -- Theorem 5.1 (slide "Refinement: Coarsening the Domain"):
  eps and delta measured over fine neighbours equal those over coarse neighbours.

*OnTheMap-style synthesizer* (slides "Coarsening Steps" to "Posterior, Likelihood and Prior
Mass across Commute Ranges"): :func:`build_domains`, :func:`synthesize`,
:func:`validity_grid`, :func:`analytical_validity`.

Submodules (private; import from :mod:`privlib.synth`): ``_transition`` (M-D and Laplace
transition matrices), ``_pdp`` (DP / PDP measures, alpha searches, Theorems 5.1-5.2),
``_schema`` (the input data types), ``_domains`` (settings, grid, prior domains),
``_synthesize`` (OnTheMap-style synthesis and validity), ``_table`` (synthesis of any table),
``_mst`` (MST, McKenna, Miklau & Sheldon 2021: :func:`mst`, synthetic records from the noisy 1-way
marginals and a maximum spanning tree of noisy 2-way marginals, rho-zCDP).
"""
from __future__ import annotations

from ._domains import (
    DIRECTION_LABELS,
    DISTANCE_BINS,
    DISTANCE_LABELS,
    N_GRID,
    Domains,
    OTMSettings,
    build_domains,
    grid_cell,
)
from ._pdp import (
    PDP_GRID_PER_DECADE,
    CoarseningCheck,
    coarsening_privacy,
    disclosure_mask,
    dp_epsilon,
    dp_ratio_table,
    joint_table,
    min_alpha_for_dp,
    min_alpha_for_pdp,
    pdp_delta,
    pruned_epsilon,
)
from ._mst import IPF_ROUNDS, MSTSynthesis, mst
from ._schema import CommutingData, Geography, tract_distances
from ._synthesize import (
    ALPHA_MIN_RTOL,
    Synthesis,
    analytical_validity,
    kept_jobs,
    mass_by_distance,
    synthesize,
    validity_grid,
)
from ._table import TableSynthesis, synthesize_table
from ._transition import (
    DISCLOSURE_RULES,
    MD_KINDS,
    laplace_transition,
    md_prior,
    md_transition,
    ratio_frame,
    transition_frame,
)

__all__ = [
    "MD_KINDS",
    "DISCLOSURE_RULES",
    "md_transition",
    "md_prior",
    "transition_frame",
    "ratio_frame",
    "dp_ratio_table",
    "dp_epsilon",
    "disclosure_mask",
    "joint_table",
    "pdp_delta",
    "laplace_transition",
    "min_alpha_for_dp",
    "PDP_GRID_PER_DECADE",
    "min_alpha_for_pdp",
    "pruned_epsilon",
    "coarsening_privacy",
    "CoarseningCheck",
    "Geography",
    "CommutingData",
    "tract_distances",
    "DISTANCE_BINS",
    "DISTANCE_LABELS",
    "DIRECTION_LABELS",
    "N_GRID",
    "grid_cell",
    "OTMSettings",
    "Domains",
    "build_domains",
    "ALPHA_MIN_RTOL",
    "Synthesis",
    "synthesize",
    "kept_jobs",
    "validity_grid",
    "analytical_validity",
    "mass_by_distance",
    "TableSynthesis",
    "synthesize_table",
    "IPF_ROUNDS",
    "MSTSynthesis",
    "mst",
]
