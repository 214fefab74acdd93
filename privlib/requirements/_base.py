"""The protocol every privacy model implements (:class:`Requirement`) and its input checks."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import pandas as pd

from .._docs import fill_doc

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["Requirement", "as_requirements"]

#: What a requirement reads, from least to most: the class sizes; the classes x sensitive values
#: counts; the counts and the table's sensitive distribution (the reference).
NEEDS = ("sizes", "counts", "reference")


#: Docstring pieces of the per-class methods, filled into every requirement's ``{{name}}`` lines.
DOC = {
    "per_class": """
        Parameters
        ----------
        sizes : array of shape (m,)
            Class sizes (the row sums of ``counts``).
        counts : array of shape (m, S), optional
            Sensitive-value counts of every class (read unless ``needs`` is ``"sizes"``).
        q : array of shape (S,), optional
            The table's sensitive distribution (read when ``needs`` is ``"reference"``;
            default: the classes' pooled one).
        """,
    "measure_returns": """
        Returns
        -------
        ndarray of float, shape (m,)
        """,
    "satisfied_returns": """
        Returns
        -------
        ndarray of bool, shape (m,)
        """,
    "label_returns": """
        Returns
        -------
        str
        """,
}


DOC["measure_doc"] = DOC["per_class"] + DOC["measure_returns"]
DOC["satisfied_doc"] = DOC["per_class"] + DOC["satisfied_returns"]


def _fill_methods(cls) -> None:
    for name, f in vars(cls).items():
        if callable(f) and f.__doc__ and "{{" in f.__doc__:
            f.__doc__ = fill_doc(f.__doc__, **DOC)


def _check_sa_name(sa) -> None:
    if isinstance(sa, (list, set, frozenset, dict, np.ndarray, pd.Index, pd.Series)):
        raise TypeError(f"sa: expected a column name (one sensitive attribute per requirement), "
                        f"got {type(sa).__name__} {sa!r}")


def _sizes(sizes) -> np.ndarray:
    s = np.asarray(sizes)
    if s.ndim != 1:
        raise ValueError(f"sizes: expected a 1-d array of class sizes, got shape {s.shape}")
    return s


def _counts(counts, sizes: np.ndarray, who: str) -> np.ndarray:
    if counts is None:
        raise ValueError(f"counts: {who} needs the classes x sensitive values count matrix, got None")
    c = np.asarray(counts)
    if c.ndim != 2 or c.shape[0] != sizes.shape[0]:
        raise ValueError(f"counts: expected a ({sizes.shape[0]}, S) matrix (one row per class), got shape {c.shape}")
    return c


def _reference(q, M: np.ndarray) -> np.ndarray:
    """The reference distribution: ``q`` as given, or the classes' pooled distribution."""
    if q is None:
        tot = M.sum()
        return M.sum(axis=0) / (tot if tot > 0 else 1)
    q = np.asarray(q, dtype=float)
    if q.shape != (M.shape[1],):
        raise ValueError(f"q: expected a distribution over the {M.shape[1]} sensitive values, got shape {q.shape}")
    return q


class Requirement:
    """A privacy model checked class by class (the protocol of :mod:`privlib.requirements`).

    A subclass is a frozen dataclass that sets the class attributes and implements
    :meth:`satisfied`, :meth:`measure` and :meth:`label`; :meth:`holds` is shared.  Every check
    (:func:`privlib.models.check`), Mondrian (``requirements=[...]``) and the lattice search read
    a requirement only through this protocol.

    Attributes
    ----------
    needs : {"sizes", "counts", "reference"}
        What :meth:`satisfied` reads: the class sizes only; also the classes x sensitive values
        counts; also the table's sensitive distribution ``q``.
    monotone : bool
        True when the union of two classes that satisfy it satisfies it too (it then survives
        further generalization, and the lattice search may prune with it).
    measure_name : str
        What :meth:`measure` returns for one class.

    Examples
    --------
    >>> from privlib.requirements import KAnonymity, Requirement
    >>> isinstance(KAnonymity(2), Requirement), KAnonymity(2).needs, KAnonymity(2).monotone
    (True, 'sizes', True)
    """

    needs: ClassVar[str] = "counts"
    monotone: ClassVar[bool] = False
    measure_name: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _fill_methods(cls)                       # the shared docstring pieces (``DOC``)

    def label(self) -> str:  # pragma: no cover - every subclass implements it
        """A short name of the model and its parameters.

        {{label_returns}}

        Examples
        --------
        >>> from privlib.requirements import KAnonymity
        >>> KAnonymity(4).label()
        '4-anonymity'
        """
        raise NotImplementedError

    def measure(self, sizes: ArrayLike, counts: ArrayLike | None = None, /, *,
                q: ArrayLike | None = None) -> np.ndarray:  # pragma: no cover - every subclass implements it
        """The model's value on each class (see ``measure_name``).

        {{measure_doc}}

        Examples
        --------
        >>> from privlib.requirements import KAnonymity
        >>> KAnonymity(2).measure([5]).tolist()
        [5.0]
        """
        raise NotImplementedError

    def satisfied(self, sizes: ArrayLike, counts: ArrayLike | None = None, /, *,
                  q: ArrayLike | None = None) -> np.ndarray:  # pragma: no cover - every subclass implements it
        """One bool per class.

        {{satisfied_doc}}

        Examples
        --------
        >>> from privlib.requirements import KAnonymity
        >>> KAnonymity(2).satisfied([1, 2]).tolist()
        [False, True]
        """
        raise NotImplementedError

    def holds(self, sizes: ArrayLike, counts: ArrayLike | None = None, /, *, q: ArrayLike | None = None) -> bool:
        """True when every class is satisfied (``satisfied(...).all()``).

        {{per_class}}

        Returns
        -------
        bool

        Examples
        --------
        >>> from privlib.requirements import KAnonymity
        >>> KAnonymity(2).holds([2, 3])
        True
        """
        return bool(np.asarray(self.satisfied(sizes, counts, q=q)).all())


_fill_methods(Requirement)


def as_requirements(requirements: Requirement | Sequence[Requirement], /) -> list:
    """A list of requirement objects, checked (one object is a list of one).

    Parameters
    ----------
    requirements : Requirement or sequence of Requirement

    Returns
    -------
    list of Requirement

    Raises
    ------
    TypeError
        For anything that is not a :class:`Requirement`, named with its type.

    Examples
    --------
    >>> from privlib.requirements import KAnonymity
    >>> as_requirements(KAnonymity(2))
    [KAnonymity(k=2)]
    """
    if isinstance(requirements, Requirement):
        requirements = [requirements]
    if isinstance(requirements, (str, bytes)):
        raise TypeError(f"requirements: expected privlib.requirements.Requirement objects, got {requirements!r}")
    reqs = list(requirements)
    for r in reqs:
        if not isinstance(r, Requirement):
            raise TypeError(f"requirements: expected privlib.requirements.Requirement objects, got "
                            f"{type(r).__name__} {r!r}")
    return reqs
