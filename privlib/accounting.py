"""Privacy accounting: one budget ledger for every differentially private result.

Every DP algorithm of privlib returns a :class:`Ledger` with one :class:`LedgerEntry` per
mechanism call, as OpenDP's compositors and diffprivlib's ``BudgetAccountant`` keep them, so
that a test (or a reader) can add the budget up instead of trusting it.  Three ways of
composing are recorded:

``"sequential"``
    the calls read the same records: their eps add up (sequential composition,
    McSherry 2009, Theorem 1; DiffGen's Lemma 4.1).
``"parallel"``
    the entries that share a ``group`` read disjoint records: the group costs its largest
    eps (parallel composition, McSherry 2009, Theorem 2; DiffGen's Lemma 4.2).  Groups add up.
``"path"``
    calls on the nodes of a tree whose nodes at one depth partition the records (a
    kd-tree): ``path`` is the tuple of node ids from the root to the node the call reads,
    and the tree costs the largest sum of eps along a root-to-node path (Cormode et al.'s
    DP kd-tree budget).  The tree's cost adds to the rest.

:meth:`Ledger.total` adds the three parts; :meth:`Ledger.check` raises
:class:`BudgetExceededError` when the total exceeds the budget the caller granted, and every
DP function of privlib calls it before it returns.

Examples
--------
>>> ledger = Ledger([
...     LedgerEntry("exponential", 0.25, "sequential", detail="choose a split"),
...     LedgerEntry("laplace", 0.5, "parallel", group="leaf counts"),
...     LedgerEntry("laplace", 0.5, "parallel", group="leaf counts"),
... ])
>>> ledger.total()
0.75
>>> ledger.check(1.0).total()
0.75
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ._validation import _fmt, check_epsilon

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike

__all__ = ["COMPOSITIONS", "LedgerEntry", "Ledger", "BudgetExceededError", "total_epsilon"]

#: The ways a ledger entry composes with the others.
COMPOSITIONS = ("sequential", "parallel", "path")

#: Relative slack of :meth:`Ledger.check` (floating-point sums of budget fractions).
_REL_TOL = 1e-9


class BudgetExceededError(RuntimeError):
    """A DP computation spent more than the budget it was granted (a bug, never a user error).

    Raised by :meth:`Ledger.check`.
    """


@dataclass(frozen=True)
class LedgerEntry:
    """One mechanism call of a differentially private algorithm and the eps it spent.

    Parameters
    ----------
    mechanism : str
        The mechanism called (``"laplace"``, ``"exponential"``, ``"geometric"``, ...).
    eps : float
        Budget spent by the call: finite and >= 0.
    composition : {"sequential", "parallel", "path"}
        How the call composes with the others (see the module docstring).
    group : str
        With ``"parallel"``: the name of the set of calls on disjoint records.
    path : tuple of int
        With ``"path"``: node ids from the tree's root to the node the call reads.
    detail : str
        Free text: the step of the algorithm ("Algorithm 1, line 9"), the node, the attribute.

    Raises
    ------
    ValueError
        A negative or non-finite ``eps``, an unknown ``composition``, a ``"parallel"`` entry
        without ``group`` or a ``"path"`` entry without ``path``.
    TypeError
        A non-numeric ``eps`` or an empty ``mechanism``.

    Examples
    --------
    >>> e = LedgerEntry("laplace", 0.5, "parallel", group="leaf counts", detail="Algorithm 1, line 9")
    >>> e.eps, e.composition
    (0.5, 'parallel')
    """

    mechanism: str
    eps: float
    composition: str = "sequential"
    group: str = ""
    path: tuple = ()
    detail: str = ""

    def __post_init__(self):
        eps = self.eps
        if type(eps) is not float:  # fast path: builders pass floats
            if isinstance(eps, bool) or not isinstance(eps, numbers.Real):
                raise TypeError(f"eps: expected a real number, got {type(eps).__name__} {_fmt(eps)}")
            eps = float(eps)
            object.__setattr__(self, "eps", eps)
        if not (0.0 <= eps < math.inf):
            raise ValueError(f"eps: expected a finite number >= 0 in a ledger entry, got {_fmt(self.eps)}")
        if type(self.mechanism) is not str or not self.mechanism:
            raise TypeError(f"mechanism: expected a non-empty str, got {_fmt(self.mechanism)}")
        if self.composition not in COMPOSITIONS:
            raise ValueError(f"composition: expected one of {list(COMPOSITIONS)}, got {_fmt(self.composition)}")
        if self.composition == "parallel" and not self.group:
            raise ValueError("group: a 'parallel' entry needs the name of its group of disjoint calls")
        path = self.path
        if type(path) is not tuple or not all(type(p) is int for p in path):
            path = tuple(int(p) for p in path)
            object.__setattr__(self, "path", path)
        if self.composition == "path" and not path:
            raise ValueError("path: a 'path' entry needs the node ids from the root to its node")


class Ledger(Sequence):
    """An immutable sequence of :class:`LedgerEntry`, with the composed total.

    Parameters
    ----------
    entries : iterable of LedgerEntry
        The mechanism calls (default: none, an empty ledger that costs nothing).

    Raises
    ------
    TypeError
        An entry that is not a :class:`LedgerEntry`.

    Notes
    -----
    The ledger is stored by columns; :meth:`from_calls` records many calls of one mechanism
    (one per tree node, say) without building an entry object per call, and the totals are
    computed from the columns.  Entries are built when the ledger is iterated.

    Examples
    --------
    >>> tree = Ledger([LedgerEntry("exponential", 0.1, "path", path=(0,)),
    ...                LedgerEntry("exponential", 0.1, "path", path=(0, 1)),
    ...                LedgerEntry("exponential", 0.3, "path", path=(0, 2))])
    >>> round(tree.total(), 12)
    0.4
    """

    __slots__ = ("_cols", "_entries")
    _FIELDS = ("mechanism", "eps", "composition", "group", "path", "detail")

    def __init__(self, entries: Iterable[LedgerEntry] = (), /) -> None:
        entries = tuple(entries)
        for i, e in enumerate(entries):
            if not isinstance(e, LedgerEntry):
                raise TypeError(f"entries[{i}]: expected a LedgerEntry, got {type(e).__name__} {_fmt(e)}")
        self._entries = entries
        self._cols = tuple(tuple(getattr(e, f) for e in entries) for f in self._FIELDS)

    @classmethod
    def from_calls(cls, mechanism: str, eps: ArrayLike, composition: str, *, group: str = "",
                   paths: Sequence[tuple[int, ...]] | None = None, detail: str = "") -> Ledger:
        """A ledger of many calls of one mechanism, validated at once (no object per call).

        Parameters
        ----------
        mechanism : str
            The mechanism called.
        eps : array_like of float
            The eps of each call (finite, >= 0).
        composition : {"sequential", "parallel", "path"}
            How the calls compose (see the module docstring).
        group : str
            With ``"parallel"``: the group's name.
        paths : sequence of tuple of int
            With ``"path"``: one root-to-node path per call.
        detail : str
            Free text, shared by the calls.

        Returns
        -------
        Ledger
            One entry per call.

        Raises
        ------
        ValueError
            As :class:`LedgerEntry`, or a number of ``paths`` that is not one per call.

        Examples
        --------
        >>> led = Ledger.from_calls("laplace", [0.5, 0.5], "path", paths=[(0, 1), (0, 2)])
        >>> led.total(), len(led), led[1].path
        (0.5, 2, (0, 2))
        """
        probe = LedgerEntry(mechanism, 0.0, composition, group=group, path=(0,), detail=detail)
        arr = np.asarray(eps, dtype=float).ravel()
        if arr.size and not (np.all(np.isfinite(arr)) and arr.min() >= 0):
            bad = arr[~(np.isfinite(arr) & (arr >= 0))][0]
            raise ValueError(f"eps: expected finite numbers >= 0 in a ledger, got {bad!r}")
        n = arr.size
        if composition == "path":
            if paths is None or len(paths) != n:
                raise ValueError(f"paths: expected one root-to-node path per call ({n}), got "
                                 f"{'none' if paths is None else len(paths)}")
            paths = tuple(p if type(p) is tuple and p and all(type(x) is int for x in p)
                          else LedgerEntry(mechanism, 0.0, "path", path=p).path for p in paths)
        else:
            paths = ((),) * n
        obj = cls.__new__(cls)
        obj._entries = None
        obj._cols = ((probe.mechanism,) * n, tuple(arr.tolist()), (composition,) * n, (group,) * n, paths,
                     (detail,) * n)
        return obj

    @property
    def entries(self) -> tuple[LedgerEntry, ...]:
        """The entries, as :class:`LedgerEntry` objects."""
        if self._entries is None:
            self._entries = tuple(LedgerEntry(*row) for row in zip(*self._cols))
        return self._entries

    def __len__(self) -> int:
        return len(self._cols[1])

    def __getitem__(self, i: int | slice) -> LedgerEntry | Ledger:
        if isinstance(i, slice):
            return Ledger(self.entries[i])
        return self.entries[i]

    def __iter__(self) -> Iterator[LedgerEntry]:
        return iter(self.entries)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ledger) and self._cols == other._cols

    def __hash__(self) -> int:
        return hash(self._cols)

    def __repr__(self) -> str:
        return f"Ledger({len(self)} entries, total eps {self.total():.6g})"

    def __add__(self, other: Ledger) -> Ledger:
        """Concatenate two ledgers (the computations compose sequentially)."""
        if not isinstance(other, Ledger):
            return NotImplemented
        obj = Ledger.__new__(Ledger)
        obj._entries = None
        obj._cols = tuple(a + b for a, b in zip(self._cols, other._cols))
        return obj

    # ------------------------------------------------------------------ composition
    def sequential(self) -> float:
        """Sum of the ``"sequential"`` entries."""
        _, eps, comp, _, _, _ = self._cols
        return float(sum(e for e, c in zip(eps, comp) if c == "sequential"))

    def parallel(self) -> dict[str, float]:
        """Cost of each ``"parallel"`` group: its largest eps (McSherry 2009, Theorem 2)."""
        _, eps, comp, group, _, _ = self._cols
        groups: dict = {}
        for e, c, g in zip(eps, comp, group):
            if c == "parallel":
                groups[g] = max(groups.get(g, 0.0), e)
        return groups

    def path_costs(self) -> dict[tuple[int, ...], float]:
        """For every node that has ``"path"`` entries: the eps summed from the root to it."""
        _, eps, comp, _, path, _ = self._cols
        at: dict = {}
        for e, c, p in zip(eps, comp, path):
            if c == "path":
                at[p] = at.get(p, 0.0) + e
        memo: dict = {(): 0.0}

        def cost(p):  # eps from the root to p, memoised over the prefixes; a loop, as a path may be deep
            k = len(p)
            while p[:k] not in memo:
                k -= 1
            for j in range(k + 1, len(p) + 1):   # the same sums as at[p] + cost(p[:-1]), root first
                memo[p[:j]] = at.get(p[:j], 0.0) + memo[p[:j - 1]]
            return memo[p]

        return {p: cost(p) for p in at}

    def tree(self) -> float:
        """Cost of the ``"path"`` entries: the largest sum along a root-to-node path."""
        costs = self.path_costs()
        return max(costs.values()) if costs else 0.0

    def total(self) -> float:
        """Total eps: sequential sum + each parallel group's maximum + the tree's largest path."""
        return self.sequential() + float(sum(self.parallel().values())) + self.tree()

    def check(self, eps: float, *, name: str = "eps") -> Ledger:
        """Return the ledger if its :meth:`total` is at most ``eps``, else raise.

        Parameters
        ----------
        eps : float
            The budget granted, > 0.
        name : str
            The argument's name in the error message.

        Returns
        -------
        Ledger
            ``self``.

        Raises
        ------
        BudgetExceededError
            ``total() > eps`` beyond a relative slack of 1e-9 (floating-point sums).

        Examples
        --------
        >>> Ledger([LedgerEntry("laplace", 0.5)]).check(1.0).total()
        0.5
        """
        eps = check_epsilon(eps, name)
        spent = self.total()
        if spent > eps * (1.0 + _REL_TOL) + 1e-15:
            raise BudgetExceededError(f"{name}: the computation spent eps = {spent!r}, more than the "
                                      f"budget {eps!r} it was granted")
        return self

    def to_frame(self) -> pd.DataFrame:
        """One row per entry: mechanism, eps, composition, group, path, detail."""
        import pandas as pd

        cols = ["mechanism", "eps", "composition", "group", "path", "detail"]
        return pd.DataFrame([[getattr(e, c) for c in cols] for e in self.entries], columns=cols)


def total_epsilon(entries: Iterable[LedgerEntry]) -> float:
    """Total eps of ``entries`` (see :meth:`Ledger.total`); refuses anything but ledger entries.

    Parameters
    ----------
    entries : Ledger or iterable of LedgerEntry
        The mechanism calls.

    Returns
    -------
    float
        Sequential sum + each parallel group's maximum + the tree's largest path.

    Raises
    ------
    TypeError
        An entry that is not a :class:`LedgerEntry`.

    Examples
    --------
    >>> total_epsilon([LedgerEntry("laplace", 0.5), LedgerEntry("laplace", 0.25)])
    0.75
    """
    return (entries if isinstance(entries, Ledger) else Ledger(entries)).total()



# -- beyond pure eps: advanced composition and zero-concentrated DP (zCDP) ------------------------

from dataclasses import replace  # noqa: E402  (this section is self-contained)

from ._validation import check_int, check_positive, check_probability  # noqa: E402

__all__ += ["advanced_composition", "composed_epsilon", "gaussian_rho", "pure_to_zcdp", "zcdp_to_dp",
            "ledger_rho", "check_rho"]

def advanced_composition(eps: float, *, k: int, delta_prime: float) -> float:
    """The eps of ``k`` adaptive eps-DP mechanisms under advanced composition (at extra delta').

    Dwork, Rothblum & Vadhan (2010), Theorem III.3: the k-fold composition of eps-DP mechanisms
    is ``(eps', delta')``-DP with ``eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1)``.  It
    beats the sequential ``k eps`` only when eps is small and k large; :func:`composed_epsilon`
    takes the better of the two.

    Parameters
    ----------
    eps : float
        Budget of each mechanism, finite and > 0.
    k : int
        Number of mechanisms, >= 1.
    delta_prime : float
        The additional delta, in (0, 1).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        ``eps`` not > 0, ``k`` < 1, ``delta_prime`` outside (0, 1).
    TypeError
        ``k`` not an integer.

    Examples
    --------
    >>> round(advanced_composition(0.01, k=10_000, delta_prime=1e-6), 3)   # sequential: 100
    6.262
    """
    eps = check_epsilon(eps)
    k = check_int(k, "k", minimum=1)
    delta_prime = check_probability(delta_prime, "delta_prime", low_open=True, high_open=True)
    return math.sqrt(2 * k * math.log(1 / delta_prime)) * eps + k * eps * math.expm1(eps)


def composed_epsilon(eps: float, *, k: int, delta_prime: float) -> float:
    """The smaller of the sequential ``k eps`` and :func:`advanced_composition`'s eps.

    Parameters
    ----------
    eps : float
        Budget of each mechanism, > 0.
    k : int
        Number of mechanisms, >= 1.
    delta_prime : float
        The additional delta of advanced composition, in (0, 1).

    Returns
    -------
    float
        The eps of the composition (at ``delta_prime`` when advanced composition wins).

    Examples
    --------
    >>> composed_epsilon(1.0, k=3, delta_prime=1e-6)    # few, large: sequential wins
    3.0
    """
    return min(check_int(k, "k", minimum=1) * check_epsilon(eps),
               advanced_composition(eps, k=k, delta_prime=delta_prime))


def gaussian_rho(*, sensitivity: float, sigma2: float) -> float:
    """zCDP parameter rho of (discrete) Gaussian noise of variance parameter ``sigma2``.

    Bun & Steinke (2016), Proposition 1.6; for the discrete Gaussian, Canonne, Kamath & Steinke
    (2020), Theorem 4: adding N_Z(0, sigma2) to an integer query of L2 sensitivity ``sensitivity``
    is ``sensitivity**2 / (2 sigma2)``-zCDP.

    Parameters
    ----------
    sensitivity : float
        L2 sensitivity of the query, > 0.
    sigma2 : float
        Variance parameter of the noise, > 0.

    Returns
    -------
    float
        rho.

    Examples
    --------
    >>> gaussian_rho(sensitivity=1, sigma2=50)
    0.01
    """
    sensitivity = check_positive(sensitivity, "sensitivity")
    return sensitivity ** 2 / (2 * check_positive(float(sigma2), "sigma2"))


def pure_to_zcdp(eps: float) -> float:
    """rho of an eps-DP mechanism: ``eps**2 / 2`` (Bun & Steinke 2016, Proposition 1.4).

    Parameters
    ----------
    eps : float
        Budget of a pure eps-DP mechanism, > 0.

    Returns
    -------
    float
        rho.

    Examples
    --------
    >>> pure_to_zcdp(0.5)
    0.125
    """
    return check_epsilon(eps) ** 2 / 2


def zcdp_to_dp(rho: float, *, delta: float) -> float:
    """The eps of a rho-zCDP mechanism at ``delta``: ``rho + 2 sqrt(rho ln(1/delta))``.

    Bun & Steinke (2016), Proposition 1.3 (rho-zCDP implies (eps, delta)-DP for every delta > 0).

    Parameters
    ----------
    rho : float
        zCDP parameter, > 0.
    delta : float
        In (0, 1).

    Returns
    -------
    float
        eps.

    Examples
    --------
    >>> round(zcdp_to_dp(0.5, delta=1e-6), 3)
    5.757
    """
    rho = check_positive(rho, "rho")
    delta = check_probability(delta, "delta", low_open=True, high_open=True)
    return rho + 2 * math.sqrt(rho * math.log(1 / delta))


def ledger_rho(ledger: Ledger | Iterable[LedgerEntry], *, gaussian: Iterable[float] = ()) -> float:
    """Total zCDP rho of a ledger of pure-DP calls plus sequential Gaussian releases.

    zCDP composes as eps does: rhos add up sequentially, a group of calls on disjoint records costs
    its largest rho, and a tree its largest path sum (Bun & Steinke 2016, Lemma 2.3; parallel
    composition holds because each record enters one call of the group).  Each entry's eps
    becomes ``eps**2 / 2`` (:func:`pure_to_zcdp`); ``gaussian`` lists the rhos of Gaussian
    releases (:func:`gaussian_rho`), composed sequentially.  For many small-eps calls the zCDP
    total converted by :func:`zcdp_to_dp` is far below the pure ``Ledger.total``.

    Parameters
    ----------
    ledger : Ledger or iterable of LedgerEntry
        The pure-DP calls.
    gaussian : iterable of float
        rhos of Gaussian releases, each > 0.

    Returns
    -------
    float

    Examples
    --------
    >>> calls = Ledger([LedgerEntry("laplace", 0.01) for _ in range(10_000)])
    >>> round(calls.total(), 6), round(ledger_rho(calls), 6), round(zcdp_to_dp(ledger_rho(calls), delta=1e-6), 3)
    (100.0, 0.5, 5.757)
    """
    led = ledger if isinstance(ledger, Ledger) else Ledger(ledger)
    squared = Ledger([replace(e, eps=e.eps ** 2 / 2) for e in led])
    extra = [check_positive(float(r), "gaussian") for r in gaussian]
    return squared.total() + float(sum(extra))


def check_rho(spent: float, rho: float, *, name: str = "rho") -> float:
    """Return ``spent`` if it is at most the zCDP budget ``rho``, else raise BudgetExceededError.

    Parameters
    ----------
    spent : float
        The rho spent (:func:`ledger_rho`).
    rho : float
        The zCDP budget granted, > 0.
    name : str
        The argument's name in the error message.

    Returns
    -------
    float
        ``spent``.

    Examples
    --------
    >>> check_rho(0.25, 0.5)
    0.25
    """
    rho = check_positive(rho, name)
    if spent > rho * (1.0 + _REL_TOL) + 1e-15:
        raise BudgetExceededError(f"{name}: the computation spent rho = {spent!r}, more than the budget "
                                  f"{rho!r} it was granted")
    return spent
