"""One check of a published table against any list of requirements (:func:`check`)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..requirements import Requirement, as_requirements
from ._classes import class_counts

__all__ = ["check", "check_counts", "CheckReport"]


@dataclass(frozen=True)
class CheckReport:
    """Result of :func:`check`: one row per requirement.

    Attributes
    ----------
    table : pandas.DataFrame
        Columns ``requirement`` (label), ``holds``, ``failing_classes``, ``classes``,
        ``worst`` (the smallest measure for size and diversity models, the largest for the
        distance models: the class value that decides) and ``measure`` (what was measured).
    measures : dict
        ``{label: ndarray}``, each requirement's measure on every class (classes in the order
        of :func:`privlib.models.class_counts`).

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.requirements import KAnonymity
    >>> t = pd.DataFrame({"zip": ["a", "a", "b"], "disease": ["flu", "ulcer", "flu"]})
    >>> check(t, ["zip"], "disease", [KAnonymity(2)]).holds
    False
    """

    table: pd.DataFrame
    measures: dict

    @property
    def holds(self) -> bool:
        """True when every requirement holds."""
        return bool(self.table["holds"].all())


def check(df: pd.DataFrame, qi: Sequence[str], sa: str, requirements: Sequence[Requirement], /, *,
          sa_values: Sequence | None = None) -> CheckReport:
    """Check a published table against privacy requirements, each read through its protocol.

    The table is grouped once into equivalence classes (:func:`privlib.models.class_counts`);
    each requirement reads what it ``needs``: the class sizes, the classes x sensitive values
    counts, and the table's sensitive distribution as the reference ``q``.

    Parameters
    ----------
    df : pandas.DataFrame
        The published (generalized) table.
    qi : list of str
        Quasi-identifier columns.
    sa : str
        Sensitive attribute.
    requirements : Requirement or sequence of Requirement
    sa_values : sequence, optional
        The sensitive domain in order (for the ordered distance).

    Returns
    -------
    CheckReport

    Raises
    ------
    TypeError
        For a requirement that is not a :class:`privlib.requirements.Requirement`.
    ValueError
        For unknown columns or missing values (as :func:`privlib.models.class_counts`).

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.requirements import BetaLikeness, KAnonymity, LDiversity
    >>> t = pd.DataFrame({"zip": ["a"] * 4 + ["b"] * 4,
    ...                   "disease": ["flu", "flu", "flu", "hiv", "flu", "flu", "flu", "flu"]})
    >>> r = check(t, ["zip"], "disease", [KAnonymity(4), LDiversity(2), BetaLikeness(0.5)])
    >>> r.table["requirement"].tolist(), r.table["holds"].tolist(), r.table["failing_classes"].tolist()
    (['4-anonymity', 'distinct 2-diversity', 'basic 0.5-likeness'], [True, False, False], [0, 1, 1])
    """
    reqs = as_requirements(requirements)
    _, counts, _ = class_counts(df, qi, sa, sa_values=sa_values)
    return check_counts(counts, reqs)


def check_counts(counts: object, requirements: Sequence[Requirement], /) -> CheckReport:
    """:func:`check` from the classes x sensitive values counts (dense or scipy.sparse), the
    reference being the classes' pooled distribution (the whole table when they partition it);
    :func:`privlib.scale.dask_check` counts on a cluster and finishes here.

    Parameters
    ----------
    counts : array or scipy.sparse matrix of shape (m, S)
    requirements : Requirement or sequence of Requirement

    Returns
    -------
    CheckReport

    Examples
    --------
    >>> from privlib.requirements import KAnonymity
    >>> check_counts([[2, 1], [1, 0]], [KAnonymity(2)]).table["failing_classes"].tolist()
    [1]
    """
    reqs = as_requirements(requirements)
    M = counts.toarray() if hasattr(counts, "toarray") else np.asarray(counts)
    sizes = M.sum(axis=1)
    q = M.sum(axis=0) / max(M.sum(), 1)
    rows, measures = [], {}
    for r in reqs:
        ok = np.asarray(r.satisfied(sizes, M, q=q))
        val = np.asarray(r.measure(sizes, M, q=q), dtype=float)
        worst = float(val.max()) if r.needs == "reference" else float(val.min())
        measures[r.label()] = val
        rows.append(dict(requirement=r.label(), holds=bool(ok.all()), failing_classes=int((~ok).sum()),
                         classes=int(ok.size), worst=worst, measure=r.measure_name))
    return CheckReport(pd.DataFrame(rows), measures)
