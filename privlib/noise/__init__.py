"""Multiplicative noise infusion of the Quarterly Workforce Indicators (QWI).

Implements the "Noise Infusion" half of :cite:t:`abowd2011slides`
(after :cite:t:`abowd2006qwi`):

* :class:`RampDistribution` -- the distortion-factor distribution (slide "Noise Factor
  Distribution"): density (b - d)/(b - a)^2 on [a, b] and (b + d - 2)/(b - a)^2 on
  [2 - b, 2 - a], so every factor moves a value away from the truth by between
  100(a - 1)% and 100(b - 1)%.
* :func:`draw_factors` -- one *permanent* factor per establishment (slide "The Quarterly
  Workforce Indicator System").
* :func:`distort` and :func:`aggregate` -- the formulas of slide "Multiplicative Noise
  Infusion": counts B* = delta B; ratios Z_W2* = delta W2 / E; changes
  JF* = JF x Ebar*/Ebar (and JC*, JD* by the same rule); change ratios
  Z_DWA* = (dWA / A) x (A* / A) (and Z_dWS*); each fuzzed item -- the changes included --
  weighted before aggregation (slide "Weighting");
  aggregation to county x industry cells; suppression flags (slide "QWIPU: Handling the
  Suppressions").
* :func:`replace_suppressed` -- synthetic replacements for suppressed cells (Table 1C / 9).
* :func:`estimate_suppressed` -- suppressed cells estimated from their row's published margin
  (the slides' "treated as missing data and estimated", with an estimator of ours).
* :func:`category_table`, :func:`autocorrelation_difference`, :func:`relative_error` -- the
  comparisons of Tables 1A-1C, 7-9 and the error distributions.

Submodules (private; import from :mod:`privlib.noise`): ``_ramp`` (the factor distribution
and permanent factors), ``_infusion`` (distortion, aggregation, suppression, replacements),
``_compare`` (the tables' comparisons).
"""
from __future__ import annotations

from ._compare import PERCENTILES, autocorrelation, autocorrelation_difference, category_table, relative_error
from ._infusion import OK, SUPPRESSED, aggregate, distort, estimate_suppressed, replace_suppressed
from ._ramp import RampDistribution, draw_factors

__all__ = [
    "RampDistribution",
    "draw_factors",
    "distort",
    "aggregate",
    "replace_suppressed",
    "estimate_suppressed",
    "category_table",
    "autocorrelation",
    "autocorrelation_difference",
    "relative_error",
    "PERCENTILES",
    "SUPPRESSED",
    "OK",
]

