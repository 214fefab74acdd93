"""A seeded, documented stand-in for the LEHD establishment panel behind the QWI.

The confidential LEHD micro data (one record per establishment and quarter) cannot be
redistributed, so the QWI chapter runs on this simulator.  It produces the variables the
slides' Tables 1 and 7-9 use, with the accounting identities of the QWI:

* ``B``  beginning-of-quarter employment; ``E`` end-of-quarter employment; ``E_{t} = B_{t+1}``
* ``H``  new hires, ``R`` recalls, ``A = H + R`` accessions, ``S`` separations,
  ``E = B + A - S``; ``M = B + A`` employment at any time during the quarter
* ``F``  full-quarter employment (beginning-of-quarter workers who did not separate)
* ``W1`` total payroll of all ``M`` workers; ``W2`` payroll of end-of-quarter workers
* ``weight``  a QWI-style final weight (>= 1) per establishment

Design (all choices are ours -- the slides give none; they are stated so that a reader can
change them):

* establishment "target" sizes are heavy-tailed: a lognormal (log-mean ``size_logmean``,
  log-sd ``size_logsd``) so that most establishments are tiny and a few are large, as in the
  county x NAICS industry-group cells of the slides' Maryland data;
* each establishment belongs to one county and one industry, drawn with Zipf-like
  probabilities (a few big counties/industries, many small ones);
* quarterly flows: separations S ~ Binomial(B, s_j) with establishment separation rate s_j;
  recalls R ~ Poisson(r * target); hires H ~ Poisson(max(target_t - B + S - R, 0) + h * target),
  where target_t carries an establishment-specific seasonal amplitude (some seasonal
  establishments drop to zero employment in the off season);
* earnings: an establishment wage level (lognormal, quarterly dollars) times a per-quarter
  lognormal shock; ``W2 = E x wage``, ``W1 = (F + 0.5 (M - F)) x wage`` (partial-quarter
  workers paid half a quarter);
* weights: 1/p with p ~ Beta(9, 1.5) (mean weight about 1.19), a stand-in for the QWI final
  weight that corrects for establishments missing from the frame.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ._checks import check_lognormal_size
from .._validation import as_generator, check_int

#: Largest panel (establishments x quarters) simulated (memory guard).
_MAX_ROWS = 50_000_000

__all__ = ["simulate_establishments", "QWI_COUNTS"]

#: The QWI count variables the panel carries.
QWI_COUNTS = ("B", "E", "M", "H", "R", "A", "S", "F")


def _zipf_probs(k: int, s: float) -> np.ndarray:
    w = 1.0 / np.arange(1, k + 1) ** s
    return w / w.sum()


def simulate_establishments(*, n_establishments: int = 4000, n_quarters: int = 12, n_counties: int = 24,
                            n_industries: int = 60, size_logmean: float = 0.6, size_logsd: float = 1.3,
                            rng: int | np.random.Generator) -> pd.DataFrame:
    """Simulate an establishment x quarter panel with the QWI variables.

    Parameters
    ----------
    n_establishments, n_quarters, n_counties, n_industries : int
        Panel dimensions (>= 1; ``n_quarters`` >= 2).
    size_logmean, size_logsd : float
        Lognormal parameters of the establishments' target employment: ``size_logmean`` in
        [-20, 12], ``size_logsd`` in (0, 5].
    rng : int or numpy.random.Generator
        Required, keyword-only.

    Returns
    -------
    pandas.DataFrame
        One row per establishment and quarter (``n_establishments * n_quarters`` rows),
        columns ``estab, county, industry, quarter, B, E, M, H, R, A, S, F, W1, W2, dWA, dWS,
        weight`` (``dWA`` / ``dWS``: total earnings change of the quarter's accessions /
        separations, dollars; 0 when there are none).

    Raises
    ------
    ValueError
        A count out of range, more than 5e7 establishment-quarters, or a size parameter NaN,
        infinite or out of range.
    TypeError
        A count not an integer.

    Examples
    --------
    >>> p = simulate_establishments(n_establishments=5, n_quarters=2, n_counties=2, n_industries=2, rng=0)
    >>> len(p), bool((p["E"] == p["B"] + p["A"] - p["S"]).all())
    (10, True)
    """
    J = check_int(n_establishments, "n_establishments", minimum=1)
    Q = check_int(n_quarters, "n_quarters", minimum=2)
    C = check_int(n_counties, "n_counties", minimum=1)
    K = check_int(n_industries, "n_industries", minimum=1)
    if J * Q > _MAX_ROWS:
        raise ValueError(f"n_establishments, n_quarters: expected at most {_MAX_ROWS:,} establishment-quarters, "
                         f"got {J * Q:,}")
    mu, sd = check_lognormal_size(size_logmean, size_logsd)
    gen = as_generator(rng)

    county = gen.choice(C, size=J, p=_zipf_probs(C, 0.8))
    industry = gen.choice(K, size=J, p=_zipf_probs(K, 0.6))
    target = np.exp(gen.normal(mu, sd, size=J))
    season_amp = np.where(gen.random(J) < 0.15, gen.uniform(0.5, 1.0, J), gen.uniform(0.0, 0.15, J))
    season_phase = gen.integers(0, 4, size=J)
    sep_rate = gen.beta(2.0, 8.0, size=J)            # mean 0.2 per quarter
    hire_extra = 0.05
    recall_rate = 0.03
    wage = np.exp(gen.normal(np.log(9000.0), 0.5, size=J))   # quarterly earnings level, dollars
    weight = 1.0 / gen.beta(9.0, 1.5, size=J)

    out = {k: np.zeros((Q, J), dtype=np.int64) for k in QWI_COUNTS}
    W1 = np.zeros((Q, J))
    W2 = np.zeros((Q, J))
    Bt = gen.poisson(target)
    for t in range(Q):  # loop over quarters only; vectorised over establishments
        tgt = target * (1.0 + season_amp * np.cos(2 * np.pi * (t + season_phase) / 4.0))
        tgt = np.maximum(tgt, 0.0)
        S = gen.binomial(Bt, sep_rate)
        R = gen.poisson(recall_rate * tgt)
        H = gen.poisson(np.maximum(tgt - Bt + S - R, 0.0) + hire_extra * tgt)
        A = H + R
        E = Bt + A - S
        M = Bt + A
        F = Bt - S
        shock = np.exp(gen.normal(0.0, 0.1, size=J))
        out["B"][t], out["E"][t], out["M"][t] = Bt, E, M
        out["H"][t], out["R"][t], out["A"][t], out["S"][t], out["F"][t] = H, R, A, S, F
        W2[t] = E * wage * shock
        W1[t] = (F + 0.5 * (M - F)) * wage * shock
        Bt = E
    # Earnings changes of accessions and separations (QWI's dWA and dWS, slide "Multiplicative
    # Noise Infusion": Z_dWA = dWA / A): the sum over the quarter's accessions (separations) of
    # the earnings at the new job minus the earnings before it, drawn after the loop so that
    # the other variables keep their stream.
    level = wage * np.exp(gen.normal(0.0, 0.1, size=(Q, J)))
    dWA = level * (0.08 * out["A"] + 0.3 * np.sqrt(out["A"]) * gen.standard_normal((Q, J)))
    dWS = level * (-0.05 * out["S"] + 0.3 * np.sqrt(out["S"]) * gen.standard_normal((Q, J)))

    frame = pd.DataFrame({
        "estab": np.tile(np.arange(J), Q),
        "county": np.tile(county, Q),
        "industry": np.tile(industry, Q),
        "quarter": np.repeat(np.arange(Q), J),
    })
    for k in QWI_COUNTS:
        frame[k] = out[k].ravel()
    frame["W1"] = W1.ravel()
    frame["W2"] = W2.ravel()
    frame["dWA"] = dWA.ravel()
    frame["dWS"] = dWS.ravel()
    frame["weight"] = np.tile(weight, Q)
    return frame.sort_values(["estab", "quarter"], kind="stable", ignore_index=True)
