"""The Multinomial-Dirichlet synthesizer on any table of counts."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import as_generator, check_array, check_epsilon, warn_privacy_leak
from ..accounting import Ledger
from ._pdp import min_alpha_for_dp
from ._transition import _MAX_DRAWS

#: Above this prior (times 1 + the group's count) the Dirichlet draw is the uniform distribution to
#: double precision (eps -> 0): its spread ~ 1 / sqrt(alpha) and its bias ~ n / alpha are below 1e-17.
_FLAT_ALPHA = 1e34


# ----------------------------------------------------------------------------------------
# the Multinomial-Dirichlet synthesizer on any table of counts
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class TableSynthesis:
    """Synthetic counts of :func:`synthesize_table`, with their privacy accounting.

    Attributes
    ----------
    counts : pandas.DataFrame
        Synthetic counts: one row per group (the "workplace"), one column per value of the
        public domain (the "home block"); row sums equal ``totals``.
    totals : numpy.ndarray
        Group sizes the synthesizer drew (public, or published with a warning).
    alpha : numpy.ndarray
        Symmetric Dirichlet prior per cell of each group, ``m / (e^eps - 1)``.
    eps : float
        The eps-DP guarantee per group (parallel composition across groups).
    ledger : privlib.accounting.Ledger

    Examples
    --------
    >>> import numpy as np
    >>> syn = synthesize_table(np.array([[3, 1]]), eps=1.0, rng=0, totals=[4])
    >>> syn.totals.tolist(), syn.eps
    ([4], 1.0)
    """

    counts: pd.DataFrame
    totals: np.ndarray
    alpha: np.ndarray
    eps: float
    ledger: Ledger


def synthesize_table(counts: pd.DataFrame | np.ndarray, *, eps: float, rng: int | np.random.Generator,
                     totals: np.ndarray | None = None) -> TableSynthesis:
    """Multinomial-Dirichlet synthesis of a table of counts under eps-differential privacy.

    OnTheMap's synthesizer (slides "Synthetic Data Model" and "The Multinomial-Dirichlet
    Synthesizer"; Machanavajjhala et al. 2008) applied to any table: each row (group) plays
    the workplace and each column (a value of a public domain) the home block.  For a group
    with confidential counts ``n`` and size ``m``::

        alpha = m / (e^eps - 1)            (min_alpha_for_dp: the worst case n_i = 1, m_i = m)
        pi ~ Dirichlet(alpha + n)
        synthetic counts ~ Multinomial(m, pi)

    Each group's draw is eps-differentially private for neighbouring tables that move one
    record of the group from one column to another (the slides' neighbours: the group sizes
    are fixed); groups hold disjoint records, so the release composes in parallel.

    Parameters
    ----------
    counts : pandas.DataFrame or array_like (groups x values)
        Non-negative integer counts; the columns must be the *public* domain of the value
        (include the values with no record: ``crosstab(...).reindex(columns=domain,
        fill_value=0)``).
    eps : float
        Privacy budget of each group's synthesizer, > 0.
    rng : int or numpy.random.Generator
    totals : array_like, optional
        Public group sizes ``m`` (one per row).  Without it the data's own row sums are used
        and published, with a :class:`~privlib.PrivacyLeakWarning`: the guarantee above
        covers a record's value, not the size of its group.

    Returns
    -------
    TableSynthesis

    Raises
    ------
    ValueError
        Negative, fractional, NaN or empty counts; ``totals`` of the wrong length or negative;
        ``eps`` not a finite number > 0.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"a": [3, 0], "b": [1, 4]}, index=["g1", "g2"])
    >>> syn = synthesize_table(table, eps=1.0, rng=0, totals=[4, 4])
    >>> syn.counts.sum(axis=1).tolist(), round(syn.ledger.total(), 12)
    ([4, 4], 1.0)
    """
    eps = check_epsilon(eps)
    frame = counts if isinstance(counts, pd.DataFrame) else None
    n = check_array(counts.to_numpy() if frame is not None else counts, "counts", ndim=2, minimum=0)
    if n.size == 0:
        raise ValueError(f"counts: expected at least one group and one value, got shape {n.shape}")
    if np.any(n != np.round(n)):
        raise ValueError("counts: expected whole numbers (counts of records), got fractions")
    if n.sum() > _MAX_DRAWS and totals is None:   # the row sums are the synthetic totals: checked before int64
        raise ValueError(f"counts: the group sizes (row sums) are the synthetic totals without `totals`; expected "
                         f"at most {_MAX_DRAWS:,} records in all, got {n.sum():.6g}")
    if n.max() >= 2.0 ** 53:
        raise ValueError(f"counts: expected counts below 2**53 (exact in float64), got a maximum of {n.max():.6g}")
    n = n.astype(np.int64)
    gen = as_generator(rng, release=True)
    if totals is None:
        warn_privacy_leak("synthesize_table: no public `totals` were given, so the group sizes of the data are "
                          "published as they are (outside the privacy budget); pass totals=")
        m = n.sum(axis=1)
    else:
        m = check_array(totals, "totals", ndim=1, minimum=0)
        if m.shape[0] != n.shape[0]:
            raise ValueError(f"totals: expected one size per group ({n.shape[0]}), got {m.shape[0]}")
        if np.any(m != np.round(m)):
            raise ValueError("totals: expected whole numbers (group sizes), got fractions")
        m = m.astype(np.int64)
    if m.sum() > _MAX_DRAWS:
        raise ValueError(f"totals: expected at most {_MAX_DRAWS:,} synthetic records in all, got {int(m.sum()):,}")
    alpha = np.asarray(min_alpha_for_dp(m, eps=eps), dtype=float)
    conc = alpha[:, None] + n
    # A prior this large (eps -> 0) makes pi uniform to double precision: Dirichlet(alpha + n) has mean
    # (alpha + n_i) / (k alpha + sum n) and spread ~ 1 / sqrt(k alpha); inf (eps ~ 1e-310) would give NaN.
    flat = alpha > _FLAT_ALPHA * (1.0 + n.sum(axis=1))
    ok = (conc > 0) & ~flat[:, None]
    draws = gen.standard_gamma(np.where(ok, conc, 1.0))
    draws = np.where(ok, draws, 0.0)
    sums = draws.sum(axis=1, keepdims=True)
    k = n.shape[1]
    pi = np.divide(draws, sums, out=np.full(draws.shape, 1.0 / k), where=sums > 0)
    syn = gen.multinomial(m, pi)
    ledger = Ledger.from_calls("multinomial-dirichlet", np.full(n.shape[0], eps), "parallel", group="groups",
                               detail="one synthesizer per group, alpha = m / (e^eps - 1)").check(eps)
    out = (pd.DataFrame(syn, index=frame.index, columns=frame.columns) if frame is not None
           else pd.DataFrame(syn))
    return TableSynthesis(counts=out, totals=m, alpha=alpha, eps=eps, ledger=ledger)
