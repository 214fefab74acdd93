"""OnTheMap's worked tables, as the slides print them (cells as printed strings).

Abowd & Vilhuber (2011), "Synthetic Data and Confidentiality Protection" (NSF-Census-IRS
workshop slides; part 2, "Cryptographic and Statistical Advances in Confidentiality
Protection", after Machanavajjhala et al. 2008), the slides :mod:`privlib.sources.qwi` cites.
Each table is a tuple of rows of the printed strings (e.g. ``"6.91E-06"``), so that a comparison can honour
the printed precision; ``numpy.array(table, dtype=float)`` gives the numbers.  Reproduced by
:mod:`privlib.synth`.

Examples
--------
>>> import numpy as np
>>> from privlib.synth import md_transition
>>> T = md_transition(5, 5, alpha=0.5, kind="plug-in")
>>> bool(np.array_equal(np.round(T, 6), np.array(MD_TRANSITION, dtype=float)))
True
"""
from __future__ import annotations

from ._printed import printed_table

__all__ = [
    "CITATION",
    "MD_TRANSITION",
    "MD_RATIO",
    "MD_JOINT",
    "MD_DELTA",
    "LAPLACE_TRANSITION",
    "LAPLACE_RATIO",
    "FRACTION_BANDS",
    "FRACTION_POSITIVE_BEFORE",
    "FRACTION_POSITIVE_AFTER",
    "SUPPORT_ROWS",
    "SUPPORT_POINTS",
    "MASS_COLUMNS",
    "MASS_BY_DISTANCE",
]

#: The source, as cited in the book.
CITATION = ("J. M. Abowd, L. Vilhuber, \"Synthetic data and confidentiality protection\", slides, 2011 "
            "(after A. Machanavajjhala, D. Kifer, J. Abowd, J. Gehrke, L. Vilhuber, \"Privacy: theory meets "
            "practice on the map\", ICDE 2008)")

#: Slide "The Multinomial-Dirichlet Synthesizer": Pr[m | n] for k = 2, alpha = (1/2, 1/2),
#: n = m = 5; rows n = (0,5) ... (5,0), columns m = (0,5) ... (5,0).
MD_TRANSITION = printed_table("""
    0.647228  0.294194  0.053490  0.004863  0.000221  0.000004
    0.237305  0.395508  0.263672  0.087891  0.014648  0.000977
    0.067544  0.241227  0.344610  0.246150  0.087911  0.012559
    0.012559  0.087911  0.246150  0.344610  0.241227  0.067544
    0.000977  0.014648  0.087891  0.263672  0.395508  0.237305
    0.000004  0.000221  0.004863  0.053490  0.294194  0.647228
""")
#: Slide "epsilon-Differential Privacy": ``|ln Pr[m | n(1)] / Pr[m | n(2)]|`` of the table above
#: for the five neighbouring pairs (0,5) vs (1,4) ... (4,1) vs (5,0).
MD_RATIO = printed_table("""
    1.003353   0.29593  1.595212  2.894495  4.193778  5.493061
    1.256572  0.494432  0.267708  1.029848  1.791988  2.554128
    1.682361  1.009417  0.336472  0.336472  1.009417  1.682361
    2.554128  1.791988  1.029848  0.267708  0.494432  1.256572
    5.493061  4.193778  2.894495  1.595212   0.29593  1.003353
""")
#: Slide "Probabilistic Differential Privacy": the joint table Pr[m, n] = Pr[m | n] Pr[n].
MD_JOINT = printed_table("""
    0.020226  0.009194  0.001672  0.000152  6.91E-06  1.26E-07
    0.037079  0.061798  0.041199  0.013733  0.002289  0.000153
    0.021107  0.075383  0.107691  0.076922  0.027472  0.003925
    0.003925  0.027472  0.076922  0.107691  0.075383  0.021107
    0.000153  0.002289  0.013733  0.041199  0.061798  0.037079
    1.26E-07  6.91E-06  0.000152  0.001672  0.009194  0.020226
""")
#: Slide "Probabilistic Differential Privacy": "delta = 0.000623, which is just the sum of the
#: highlighted cells" (eps = 2).
MD_DELTA = "0.000623"
#: Slide "Laplace Sanitizer": Pr[m | n] of the Laplace sanitizer at eps = 2, n = 5.
LAPLACE_TRANSITION = printed_table("""
    0.816060  0.159046  0.021525  0.002913  0.000394  0.000062
    0.183940  0.632121  0.159046  0.021525  0.002913  0.000456
    0.024894  0.159046  0.632121  0.159046  0.021525  0.003369
    0.003369  0.021525  0.159046  0.632121  0.159046  0.024894
    0.000456  0.002913  0.021525  0.159046  0.632121  0.183940
    0.000062  0.000394  0.002913  0.021525  0.159046  0.816060
""")
#: Slide "Laplace Sanitizer": the differential-privacy ratio table of the Laplace sanitizer.
LAPLACE_RATIO = printed_table("""
    1.489880  1.379885  2.000000  2.000000  2.000000  2.000000
    2.000000  1.379885  1.379885  2.000000  2.000000  2.000000
    2.000000  2.000000  1.379885  1.379885  2.000000  2.000000
    2.000000  2.000000  2.000000  1.379885  1.379885  2.000000
    2.000000  2.000000  2.000000  2.000000  1.379885  1.489880
""")

#: Rows (distance bands, miles) of the two "Fraction of Points" tables.
FRACTION_BANDS = ("low-10", "10-25", "25-100", "100-500", "500-high", "All")
#: Slide "Fraction of Points in the Prior Domain with Positive Counts", State A ("Large
#: State"): Mean and SD across work tracts, one row per band of :data:`FRACTION_BANDS`.
FRACTION_POSITIVE_BEFORE = printed_table("""
    0.47  0.37
    0.30  0.26
    0.01  0.13
    0.01  0.03
    0.00  0.01
    0.18  0.28
""")
#: Slide "Fraction of Points ... after Eliminating Extremely Unlikely Commute Patterns",
#: State A: Mean and SD, rows :data:`FRACTION_BANDS`.
FRACTION_POSITIVE_AFTER = printed_table("""
    0.47  0.37
    0.30  0.26
    0.13  0.13
    0.06  0.09
    0.07  0.13
    0.21  0.27
""")

#: Rows of the slides' table "Support Points in Prior Domain".
SUPPORT_ROWS = ("Total", "Super-PUMA", "PUMA", "Tract", "low-10", "10-25", "25-100", "100-500", "500-high")
#: Slide "Support Points in Prior Domain", State A: Mean, Min, Max per row of
#: :data:`SUPPORT_ROWS` (thousands separators as printed).
SUPPORT_POINTS = printed_table("""
    1,005  583  2,067
      526  519    538
       39    9     73
      438   32  1,506
      265    1    878
      127    8    794
       85   23    289
      139  119    206
      389  361    412
""")

#: Columns of the slides' table "Posterior, Likelihood and Prior Mass across Commute Ranges"
#: (rows: :data:`privlib.synth.DISTANCE_LABELS`).
MASS_COLUMNS = ("all Post.", "all Lik.", "all Prior", "small Post.", "small Lik.", "small Prior")
#: Slide "Posterior, Likelihood and Prior Mass across Commute Ranges" (Large State A), all
#: workplaces and small (1-9 jobs) ones.
MASS_BY_DISTANCE = printed_table("""
    0.07  0.07  0.01  0.30  0.32  0.18
    0.15  0.15  0.03  0.13  0.16  0.03
    0.23  0.23  0.07  0.25  0.27  0.17
    0.26  0.26  0.24  0.28  0.27  0.31
    0.28  0.28  0.39  0.21  0.22  0.17
    0.14  0.13  0.19  0.18  0.16  0.31
    0.03  0.03  0.07  0.04  0.03  0.11
    0.02  0.02  0.05  0.01  0.00  0.08
""")
