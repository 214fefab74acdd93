"""Documented, seeded simulators standing in for data that cannot be redistributed.

* ``establishments`` -- an LEHD-like establishment panel (QWI chapter)
* ``commuting`` -- an OnTheMap-like commuting geography (OnTheMap chapter), in the input
  schema of :mod:`privlib.synth` (:class:`~privlib.synth.Geography`,
  :class:`~privlib.synth.CommutingData`)
* ``ratings`` -- a Netflix-like population of users rating movies (HI/PI chapter)
"""
from .commuting import simulate_commuting, simulate_geography
from .establishments import QWI_COUNTS, simulate_establishments
from .ratings import NETFLIX_CATEGORIES, RatingsPopulation, simulate_ratings

__all__ = [
    "simulate_geography",
    "simulate_commuting",
    "simulate_establishments",
    "QWI_COUNTS",
    "simulate_ratings",
    "RatingsPopulation",
    "NETFLIX_CATEGORIES",
]
