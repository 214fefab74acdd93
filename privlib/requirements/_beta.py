"""beta-likeness (Cao & Karras, *Publishing microdata with a robust privacy guarantee*, PVLDB 2012)."""
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._validation import check_in, check_positive
from ._base import Requirement, _check_sa_name, _counts, _reference, _sizes

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["BetaLikeness"]


@dataclass(frozen=True)
class BetaLikeness(Requirement):
    """beta-likeness: no sensitive value is much more frequent in a class than in the table.

    Cao & Karras (2012), Definitions 2 and 3: with ``p_v`` the frequency of sensitive value
    ``v`` in the table and ``q_v`` in a class, the class satisfies *basic* beta-likeness when
    ``(q_v - p_v) / p_v <= beta`` for every ``v`` with ``q_v > p_v``, and *enhanced*
    beta-likeness when ``(q_v - p_v) / p_v <= min(beta, -ln p_v)``.  The bound is relative:
    a rare value (small ``p_v``) may gain little, where t-closeness's EMD bounds only the
    absolute difference.  A value absent from the table (``p_v = 0``) may not appear in a class.
    The condition is linear in the class's counts (``count_v <= (1 + bound_v) p_v size``), so
    the union of two satisfying classes satisfies it: monotone.

    Parameters
    ----------
    beta : float
        The largest relative gain allowed, ``beta > 0``.
    kind : {"basic", "enhanced"}
    sa : str, optional
        The sensitive column the requirement is about (``None``: the only one).

    Raises
    ------
    ValueError, TypeError
        For ``beta <= 0``, an unknown ``kind`` or an ``sa`` that is not one column name.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[8, 2], [9, 1], [7, 3]])      # table: p = (0.8, 0.2)
    >>> req = BetaLikeness(0.4)
    >>> req.measure(counts.sum(axis=1), counts).round(3).tolist()
    [0.0, 0.125, 0.5]
    >>> req.satisfied(counts.sum(axis=1), counts).tolist()
    [True, True, False]
    >>> BetaLikeness(2, kind="enhanced").label()
    'enhanced 2-likeness'
    """

    beta: float
    _: KW_ONLY
    kind: str = "basic"
    sa: str | None = None
    needs = "reference"
    monotone = True
    measure_name = "largest relative gain of a sensitive value"

    def __post_init__(self):
        _check_sa_name(self.sa)
        check_positive(self.beta, "beta")
        check_in(self.kind, "kind", ("basic", "enhanced"))

    def label(self) -> str:
        """A short name.

        {{label_returns}}

        Examples
        --------
        >>> BetaLikeness(1.5).label()
        'basic 1.5-likeness'
        """
        return f"{self.kind} {self.beta:g}-likeness" + (f" ({self.sa})" if self.sa is not None else "")

    def _gain(self, sizes, counts, q):
        sizes = _sizes(sizes)
        M = np.asarray(_counts(counts, sizes, "beta-likeness"), dtype=float)
        p = _reference(q, M)
        P = M / np.maximum(sizes, 1)[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = np.where(P > p, (P - p) / p, 0.0)        # p = 0 < P: infinite gain
        return gain, p

    def measure(self, sizes: ArrayLike, counts: ArrayLike | None = None, /, *, q: ArrayLike | None = None) -> np.ndarray:
        """Each class's largest relative gain ``max_v (q_v - p_v) / p_v`` (0 when no value gains).

        {{measure_doc}}

        Examples
        --------
        >>> BetaLikeness(1).measure([2], [[2, 0]], q=[0.5, 0.5]).tolist()
        [1.0]
        """
        gain, _ = self._gain(sizes, counts, q)
        return gain.max(axis=1, initial=0.0)

    def satisfied(self, sizes: ArrayLike, counts: ArrayLike | None = None, /, *, q: ArrayLike | None = None) -> np.ndarray:
        """One bool per class: every value's relative gain is within its bound (up to 1e-12).

        {{satisfied_doc}}

        Examples
        --------
        >>> BetaLikeness(1).satisfied([2, 2], [[2, 0], [1, 1]], q=[0.5, 0.5]).tolist()
        [True, True]
        """
        gain, p = self._gain(sizes, counts, q)
        bound = np.full(p.shape, float(self.beta))
        if self.kind == "enhanced":
            with np.errstate(divide="ignore"):
                bound = np.minimum(bound, -np.log(p))
        return (gain <= bound + 1e-12).all(axis=1)
