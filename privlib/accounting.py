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

import pandas as pd

from ._validation import _fmt, check_epsilon

__all__ = ["COMPOSITIONS", "LedgerEntry", "Ledger", "BudgetExceededError", "total_epsilon"]

#: The ways a ledger entry composes with the others.
COMPOSITIONS = ("sequential", "parallel", "path")

#: Relative slack of :meth:`Ledger.check` (floating-point sums of budget fractions).
_REL_TOL = 1e-9


class BudgetExceededError(RuntimeError):
    """A DP computation spent more than the budget it was granted (a bug, never a user error)."""


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
    """

    mechanism: str
    eps: float
    composition: str = "sequential"
    group: str = ""
    path: tuple = ()
    detail: str = ""

    def __post_init__(self):
        if not isinstance(self.mechanism, str) or not self.mechanism:
            raise TypeError(f"mechanism: expected a non-empty str, got {_fmt(self.mechanism)}")
        if isinstance(self.eps, bool) or not isinstance(self.eps, numbers.Real):
            raise TypeError(f"eps: expected a real number, got {type(self.eps).__name__} {_fmt(self.eps)}")
        if not math.isfinite(float(self.eps)) or float(self.eps) < 0:
            raise ValueError(f"eps: expected a finite number >= 0 in a ledger entry, got {_fmt(self.eps)}")
        object.__setattr__(self, "eps", float(self.eps))
        if self.composition not in COMPOSITIONS:
            raise ValueError(f"composition: expected one of {list(COMPOSITIONS)}, got {_fmt(self.composition)}")
        if self.composition == "parallel" and not self.group:
            raise ValueError("group: a 'parallel' entry needs the name of its group of disjoint calls")
        path = tuple(int(p) for p in self.path)
        if self.composition == "path" and not path:
            raise ValueError("path: a 'path' entry needs the node ids from the root to its node")
        object.__setattr__(self, "path", path)


class Ledger(Sequence):
    """An immutable sequence of :class:`LedgerEntry`, with the composed total.

    Parameters
    ----------
    entries : iterable of LedgerEntry

    Examples
    --------
    >>> tree = Ledger([LedgerEntry("exponential", 0.1, "path", path=(0,)),
    ...                LedgerEntry("exponential", 0.1, "path", path=(0, 1)),
    ...                LedgerEntry("exponential", 0.3, "path", path=(0, 2))])
    >>> round(tree.total(), 12)
    0.4
    """

    __slots__ = ("_entries",)

    def __init__(self, entries: Iterable[LedgerEntry] = ()):
        entries = tuple(entries)
        for i, e in enumerate(entries):
            if not isinstance(e, LedgerEntry):
                raise TypeError(f"entries[{i}]: expected a LedgerEntry, got {type(e).__name__} {_fmt(e)}")
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return Ledger(self._entries[i])
        return self._entries[i]

    def __iter__(self) -> Iterator[LedgerEntry]:
        return iter(self._entries)

    def __eq__(self, other) -> bool:
        return isinstance(other, Ledger) and self._entries == other._entries

    def __hash__(self) -> int:
        return hash(self._entries)

    def __repr__(self) -> str:
        return f"Ledger({len(self)} entries, total eps {self.total():.6g})"

    def __add__(self, other: "Ledger") -> "Ledger":
        """Concatenate two ledgers (the computations compose sequentially)."""
        if not isinstance(other, Ledger):
            return NotImplemented
        return Ledger(self._entries + other._entries)

    # ------------------------------------------------------------------ composition
    def sequential(self) -> float:
        """Sum of the ``"sequential"`` entries."""
        return float(sum(e.eps for e in self._entries if e.composition == "sequential"))

    def parallel(self) -> dict:
        """Cost of each ``"parallel"`` group: its largest eps."""
        groups: dict = {}
        for e in self._entries:
            if e.composition == "parallel":
                groups[e.group] = max(groups.get(e.group, 0.0), e.eps)
        return groups

    def path_costs(self) -> dict:
        """For every node that has ``"path"`` entries: the eps summed from the root to it."""
        at: dict = {}
        for e in self._entries:
            if e.composition == "path":
                at[e.path] = at.get(e.path, 0.0) + e.eps
        return {p: sum(at.get(p[:i], 0.0) for i in range(1, len(p) + 1)) for p in at}

    def tree(self) -> float:
        """Cost of the ``"path"`` entries: the largest sum along a root-to-node path."""
        costs = self.path_costs()
        return max(costs.values()) if costs else 0.0

    def total(self) -> float:
        """Total eps: sequential sum + each parallel group's maximum + the tree's largest path."""
        return self.sequential() + float(sum(self.parallel().values())) + self.tree()

    def check(self, eps: float, *, name: str = "eps") -> "Ledger":
        """Return the ledger if its :meth:`total` is at most ``eps``, else raise.

        Raises
        ------
        BudgetExceededError
            ``total() > eps`` beyond a relative slack of 1e-9 (floating-point sums).
        """
        eps = check_epsilon(eps, name)
        spent = self.total()
        if spent > eps * (1.0 + _REL_TOL) + 1e-15:
            raise BudgetExceededError(f"{name}: the computation spent eps = {spent!r}, more than the "
                                      f"budget {eps!r} it was granted")
        return self

    def to_frame(self) -> pd.DataFrame:
        """One row per entry: mechanism, eps, composition, group, path, detail."""
        cols = ["mechanism", "eps", "composition", "group", "path", "detail"]
        return pd.DataFrame([[getattr(e, c) for c in cols] for e in self._entries], columns=cols)


def total_epsilon(entries: Iterable[LedgerEntry]) -> float:
    """Total eps of ``entries`` (see :meth:`Ledger.total`); refuses anything but ledger entries.

    >>> total_epsilon([LedgerEntry("laplace", 0.5), LedgerEntry("laplace", 0.25)])
    0.75
    """
    return (entries if isinstance(entries, Ledger) else Ledger(entries)).total()

