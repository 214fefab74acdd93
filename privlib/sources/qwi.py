"""The QWI noise-infusion tables, as the slides print them (cells as printed strings).

Abowd & Vilhuber (2011), "Synthetic Data and Confidentiality Protection" (NSF-Census-IRS
workshop slides; part 1, "Noise Infusion", after Abowd, Stephens & Vilhuber 2006),
:cite:p:`abowd2011slides`: Maryland county x NAICS industry-group cells.  Each table is a tuple
of rows of the printed strings; ``numpy.array(table, dtype=float)`` gives the numbers.
Reproduced in form by :mod:`privlib.noise` on a simulated panel.

Examples
--------
>>> import numpy as np
>>> rows = np.array(TABLE_1["1A"], dtype=float).sum(axis=1)
>>> bool(np.all(np.abs(rows - 100) <= 0.03))      # row percentages, two decimals
True
"""
from __future__ import annotations

from ._printed import printed_table

__all__ = [
    "CITATION",
    "CATEGORIES",
    "TABLE_1",
    "PERCENTILES",
    "VARIABLES",
    "TABLE_7",
    "TABLE_8",
    "TABLE_9",
]

#: The source, as cited in the book.
CITATION = ("J. M. Abowd, L. Vilhuber, \"Synthetic data and confidentiality protection\", slides, 2011 "
            "(after J. M. Abowd, B. E. Stephens, L. Vilhuber, \"Confidentiality protection in the Census "
            "Bureau's Quarterly Workforce Indicators\", 2006)")

#: Rows (undistorted B) and columns (released B) of Tables 1A-1C.
CATEGORIES = ("0", "1", "2", "3", "4", "5+")
#: Tables 1A (unweighted distorted), 1B (weighted distorted) and 1C (weighted distorted with
#: synthetic replacements of the suppressed cells): row percentages of released
#: beginning-of-quarter employment B by undistorted B, categories :data:`CATEGORIES`.
TABLE_1 = {
    "1A": printed_table("""
        99.61   0.39   0.00   0.00   0.00   0.00
         0.00  98.57   1.43   0.00   0.00   0.00
         0.00   1.04  96.10   2.85   0.00   0.00
         0.00   0.00   2.19  93.21   4.60   0.00
         0.00   0.00   0.00   7.30  82.52  10.18
         0.00   0.00   0.00   0.00   1.60  98.40
    """),
    "1B": printed_table("""
        99.19   0.81   0.00   0.00   0.00   0.00
         0.14  89.29  10.56   0.01   0.00   0.00
         0.04   1.39  67.45  30.70   0.42   0.00
         0.03   0.04   2.19  50.99  42.76   3.99
         0.03   0.02   0.03   3.07  41.04  55.81
         0.01   0.00   0.00   0.02   0.33  99.64
    """),
    "1C": printed_table("""
        99.17   0.82   0.01   0.00   0.00   0.00
         7.85  84.74   6.62   0.78   0.01   0.00
         0.51  11.93  61.06  24.14   2.24   0.12
         0.06   0.76   7.53  47.50  39.13   5.02
         0.03   0.11   0.93   7.40  38.84  52.69
         0.01   0.01   0.01   0.11   0.71  99.16
    """),
}
#: Rows of Tables 7-9 (percentiles, in the printed order).
PERCENTILES = (99, 95, 90, 75, 50, 25, 10, 5, 1)
#: Columns of Tables 7-9.
VARIABLES = ("B", "H", "R", "E", "A", "S", "M", "F", "FA", "FS", "H3")
#: Table 7: percentiles of the difference in lag-1 autocorrelation, unweighted distorted minus
#: undistorted, across county x industry series; rows :data:`PERCENTILES`, columns
#: :data:`VARIABLES`.
TABLE_7 = printed_table("""
     0.067   0.058   0.042   0.066   0.061   0.061   0.079   0.059   0.056   0.054   0.056
     0.036   0.035   0.025   0.036   0.036   0.036   0.042   0.032   0.034   0.033   0.035
     0.025   0.025   0.015   0.024   0.025   0.025   0.028   0.021   0.024   0.023   0.024
     0.009   0.009   0.005   0.009   0.010   0.010   0.011   0.008   0.009   0.008   0.008
     0.000   0.000   0.000   0.000   0.000   0.000   0.000   0.000   0.000   0.000   0.000
    -0.008  -0.011  -0.005  -0.009  -0.010  -0.010  -0.011  -0.008  -0.009  -0.008  -0.009
    -0.023  -0.028  -0.016  -0.023  -0.026  -0.026  -0.027  -0.022  -0.026  -0.024  -0.026
    -0.035  -0.038  -0.025  -0.037  -0.036  -0.038  -0.041  -0.033  -0.037  -0.035  -0.038
    -0.061  -0.063  -0.045  -0.065  -0.059  -0.065  -0.074  -0.061  -0.061  -0.059  -0.062
""")
#: Table 8: the same, weighted distorted data with the suppressed cells treated as missing.
TABLE_8 = printed_table("""
     0.318   0.592   0.538   0.325   0.602   0.652   0.330   0.366   0.606   0.656   0.648
     0.153   0.326   0.221   0.158   0.294   0.304   0.134   0.181   0.317   0.352   0.359
     0.086   0.196   0.136   0.084   0.173   0.181   0.063   0.108   0.196   0.218   0.229
     0.021   0.060   0.049   0.019   0.053   0.053   0.017   0.025   0.068   0.070   0.087
    -0.002  -0.006   0.000  -0.003  -0.006  -0.008  -0.006  -0.001  -0.004  -0.004  -0.001
    -0.029  -0.075  -0.063  -0.031  -0.071  -0.078  -0.037  -0.026  -0.070  -0.084  -0.082
    -0.085  -0.188  -0.162  -0.091  -0.170  -0.190  -0.099  -0.077  -0.169  -0.200  -0.190
    -0.150  -0.289  -0.242  -0.154  -0.258  -0.288  -0.176  -0.141  -0.262  -0.300  -0.286
    -0.393  -0.551  -0.474  -0.426  -0.505  -0.531  -0.489  -0.419  -0.499  -0.538  -0.527
""")
#: Table 9: the same, weighted distorted data with synthetic replacements of suppressed cells.
TABLE_9 = printed_table("""
     0.107   0.246   0.223   0.096   0.238   0.263   0.210   0.227   0.260   0.157   0.294
     0.056   0.144   0.126   0.051   0.134   0.166   0.123   0.112   0.145   0.076   0.185
     0.036   0.104   0.092   0.033   0.099   0.120   0.084   0.075   0.108   0.049   0.133
     0.011   0.050   0.043   0.010   0.047   0.058   0.037   0.031   0.051   0.018   0.066
    -0.004   0.003   0.007  -0.005   0.005   0.007   0.006   0.002   0.007  -0.003   0.009
    -0.030  -0.043  -0.013  -0.030  -0.032  -0.032  -0.017  -0.018  -0.030  -0.034  -0.037
    -0.065  -0.109  -0.067  -0.064  -0.089  -0.095  -0.049  -0.056  -0.095  -0.082  -0.128
    -0.092  -0.167  -0.120  -0.093  -0.142  -0.145  -0.081  -0.088  -0.144  -0.116  -0.194
    -0.166  -0.295  -0.257  -0.176  -0.257  -0.268  -0.168  -0.187  -0.277  -0.233  -0.343
""")
