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

Groups and trees live inside one ``scope`` (one computation, e.g. one release).  Separate
computations compose sequentially whatever their groups and paths: ``ledger_a + ledger_b``
puts ``ledger_b``'s entries in new scopes, so its total is ``a.total() + b.total()`` (two
releases of one data set are never merged into one parallel group or one tree);
:meth:`Ledger.concat` joins the pieces of one computation into one scope.

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

from ._docs import shared_doc
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
    scope : int
        The computation the call belongs to (>= 0): parallel groups and trees are formed
        within a scope; scopes compose sequentially (see ``Ledger.__add__``).

    Raises
    ------
    ValueError
        A negative or non-finite ``eps``, an unknown ``composition``, a ``"parallel"`` entry
        without ``group``, a ``"path"`` entry without ``path``, a negative node id or scope.
    TypeError
        A non-numeric ``eps``, an empty ``mechanism``, a ``group`` or ``detail`` that is not a
        str, a ``path`` that is not a sequence of ints (bools and floats refused), a ``scope``
        that is not an int.

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
    scope: int = 0

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
        if type(self.composition) is not str or self.composition not in COMPOSITIONS:
            raise ValueError(f"composition: expected one of {list(COMPOSITIONS)}, got {_fmt(self.composition)}")
        if self.composition == "parallel" and not self.group:
            raise ValueError("group: a 'parallel' entry needs the name of its group of disjoint calls")
        if type(self.group) is not str:
            raise TypeError(f"group: expected a str, got {type(self.group).__name__} {_fmt(self.group)}")
        if type(self.detail) is not str:
            raise TypeError(f"detail: expected a str, got {type(self.detail).__name__} {_fmt(self.detail)}")
        path = self.path
        if type(path) is not tuple or not all(type(p) is int and p >= 0 for p in path):
            path = _check_path(path)
            object.__setattr__(self, "path", path)
        scope = self.scope
        if type(scope) is not int:
            if isinstance(scope, bool) or not isinstance(scope, (numbers.Integral, np.integer)):
                raise TypeError(f"scope: expected an int, got {type(scope).__name__} {_fmt(scope)}")
            scope = int(scope)
            object.__setattr__(self, "scope", scope)
        if scope < 0:
            raise ValueError(f"scope: expected an int >= 0, got {scope}")
        if self.composition == "path" and not path:
            raise ValueError("path: a 'path' entry needs the node ids from the root to its node")


def _check_path(path) -> tuple:
    """``path`` as a tuple of non-negative ints; bools, floats (even 2.0), strings refused."""
    if isinstance(path, (str, bytes)) or not isinstance(path, (Sequence, np.ndarray)):
        raise TypeError(f"path: expected a tuple of node ids (ints), got {type(path).__name__} {_fmt(path)}")
    out = []
    for p in path:
        if isinstance(p, (bool, np.bool_)) or not isinstance(p, (numbers.Integral, np.integer)):
            raise TypeError(f"path: expected node ids that are ints, got {type(p).__name__} {_fmt(p)} in "
                            f"{_fmt(path)}")
        if p < 0:
            raise ValueError(f"path: expected node ids >= 0, got {int(p)} in {_fmt(path)}")
        out.append(int(p))
    return tuple(out)


_INT_TYPE = {int}


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

    __slots__ = ("_cols", "_entries", "_total")     # _total: total(), memoised (the columns never change)
    _FIELDS = ("mechanism", "eps", "composition", "group", "path", "detail", "scope")

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
            # a tuple of ints >= 0 is kept as is (checked in C: the set of its types, its minimum)
            paths = tuple(p if type(p) is tuple and p and set(map(type, p)) == _INT_TYPE and min(p) >= 0
                          else LedgerEntry(mechanism, 0.0, "path", path=p).path for p in paths)
        else:
            paths = ((),) * n
        obj = cls.__new__(cls)
        obj._entries = None
        obj._cols = ((probe.mechanism,) * n, tuple(arr.tolist()), (composition,) * n, (group,) * n, paths,
                     (detail,) * n, (0,) * n)
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
        """Sequential composition of two computations: ``(a + b).total() == a.total() + b.total()``.

        ``other``'s entries move to new scopes (after ``self``'s), so that a parallel group or a
        tree of ``other`` never merges with one of ``self`` that has the same name or node
        ids: two releases of the same data cost the sum of their budgets.

        Examples
        --------
        >>> one = Ledger([LedgerEntry("laplace", 1.0, "parallel", group="cells")])
        >>> (one + one).total()
        2.0
        """
        if not isinstance(other, Ledger):
            return NotImplemented
        shift = (max(self._cols[6]) + 1) if len(self) else 0
        obj = Ledger.__new__(Ledger)
        obj._entries = None
        cols = list(other._cols)
        cols[6] = tuple(c + shift for c in cols[6])
        obj._cols = tuple(a + b for a, b in zip(self._cols, cols))
        return obj

    @classmethod
    def concat(cls, *ledgers: Ledger) -> Ledger:
        """The entries of ``ledgers`` as ONE computation: scopes kept, so parallel groups of one
        name and trees with common node ids merge (e.g. a kd-tree's ledger built level by
        level).  Use ``+`` for separate computations.

        Examples
        --------
        >>> a = Ledger.from_calls("laplace", [0.5], "path", paths=[(0,)])
        >>> b = Ledger.from_calls("laplace", [0.5], "path", paths=[(0, 1)])
        >>> Ledger.concat(a, b).total(), (a + b).total()
        (1.0, 1.0)
        """
        for i, led in enumerate(ledgers):
            if not isinstance(led, Ledger):
                raise TypeError(f"ledgers[{i}]: expected a Ledger, got {type(led).__name__} {_fmt(led)}")
        obj = cls.__new__(cls)
        obj._entries = None
        obj._cols = tuple(sum((led._cols[f] for led in ledgers), ()) for f in range(len(cls._FIELDS)))
        return obj

    # ------------------------------------------------------------------ composition
    def sequential(self) -> float:
        """Sum of the ``"sequential"`` entries."""
        eps, comp = self._cols[1], self._cols[2]
        return float(sum(e for e, c in zip(eps, comp) if c == "sequential"))

    def parallel(self) -> dict:
        """Cost of each ``"parallel"`` group: its largest eps (McSherry 2009, Theorem 2).

        Keys: the group's name, or ``(scope, name)`` for groups of scopes above 0 (after
        ``+``): groups of different computations never merge."""
        _, eps, comp, group, _, _, scope = self._cols
        groups: dict = {}
        for e, c, g, sc in zip(eps, comp, group, scope):
            if c == "parallel":
                key = g if sc == 0 else (sc, g)
                groups[key] = max(groups.get(key, 0.0), e)
        return groups

    def path_costs(self, *, scope: int | None = None) -> dict[tuple[int, ...], float]:
        """For every node that has ``"path"`` entries (of ``scope``; default: every scope, which
        must then be one): the eps summed from the root to it."""
        _, eps, comp, _, path, _, scopes = self._cols
        if scope is None:
            found = {sc for c, sc in zip(comp, scopes) if c == "path"}
            if len(found) > 1:
                raise ValueError(f"scope: the ledger holds the trees of {len(found)} computations; "
                                 f"expected one of {sorted(found)}")
            scope = found.pop() if found else 0
        at: dict = {}
        for e, c, p, sc in zip(eps, comp, path, scopes):
            if c == "path" and sc == scope:
                at[p] = at.get(p, 0.0) + e
        memo: dict = {(): 0.0}
        get = at.get

        def cost(p):  # eps from the root to p, memoised over the prefixes; a loop, as a path may be deep
            k = len(p)
            while p[:k] not in memo:
                k -= 1
            for j in range(k + 1, len(p) + 1):   # the same sums as at[p] + cost(p[:-1]), root first
                memo[p[:j]] = get(p[:j], 0.0) + memo[p[:j - 1]]
            return memo[p]

        out = {}
        for p in at:
            c = memo.get(p)
            if c is None:
                parent = memo.get(p[:-1])        # the common case (a tree listed root first): one sum
                c = memo[p] = get(p, 0.0) + parent if parent is not None else cost(p)
            out[p] = c
        return out

    def tree(self) -> float:
        """Cost of the ``"path"`` entries: the largest sum along a root-to-node path (summed over
        the scopes: the trees of separate computations compose sequentially)."""
        total = 0.0
        for sc in sorted({sc for c, sc in zip(self._cols[2], self._cols[6]) if c == "path"}):
            costs = self.path_costs(scope=sc)
            total += max(costs.values()) if costs else 0.0
        return total

    def total(self) -> float:
        """Total eps: sequential sum + each parallel group's maximum + the tree's largest path."""
        try:
            return self._total
        except AttributeError:
            self._total = self.sequential() + float(sum(self.parallel().values())) + self.tree()
            return self._total

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
        """One row per entry: mechanism, eps, composition, group, path, detail (and scope when
        the ledger joins several computations)."""
        import pandas as pd

        cols = ["mechanism", "eps", "composition", "group", "path", "detail"]
        if any(self._cols[6]):
            cols.append("scope")
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
        ``eps'``, the budget of the k-fold composition (with delta ``delta_prime``).

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

#: The result of the conversions to zero-concentrated DP.
RHO_RETURNS_DOC = """
Returns
-------
float
    rho, the zCDP parameter.
"""


@shared_doc(rho_returns=RHO_RETURNS_DOC)
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

    {{rho_returns}}

    Examples
    --------
    >>> gaussian_rho(sensitivity=1, sigma2=50)
    0.01
    """
    sensitivity = check_positive(sensitivity, "sensitivity")
    return sensitivity ** 2 / (2 * check_positive(float(sigma2), "sigma2"))


@shared_doc(rho_returns=RHO_RETURNS_DOC)
def pure_to_zcdp(eps: float) -> float:
    """rho of an eps-DP mechanism: ``eps**2 / 2`` (Bun & Steinke 2016, Proposition 1.4).

    Parameters
    ----------
    eps : float
        Budget of a pure eps-DP mechanism, > 0.

    {{rho_returns}}

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
