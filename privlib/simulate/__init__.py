"""Documented, seeded simulators standing in for data that cannot be redistributed.

* ``establishments`` -- an LEHD-like establishment panel (QWI chapter)
* ``commuting`` -- an OnTheMap-like commuting geography (OnTheMap chapter)
* ``ratings`` -- a Netflix-like population of users rating movies (HI/PI chapter)
"""
