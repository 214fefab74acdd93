"""Publishing a generalized table: full-domain levels or a (local) cut of the hierarchy."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ._encoding import TOY_LATTICE_DOC
from .._docs import shared_doc
from .._validation import check_columns, check_int, check_no_nan, check_unique_columns
from ..hierarchy import Hierarchy

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["generalize_table", "generalize_to_cut"]


@shared_doc(toy_lattice=TOY_LATTICE_DOC)
def generalize_table(df: pd.DataFrame, hierarchies: Mapping, levels: Mapping) -> pd.DataFrame:
    """Full-domain generalization: replace column ``a`` by its ancestors at ``levels[a]``.

    Parameters
    ----------
    df : DataFrame
    hierarchies : mapping column -> Hierarchy
    levels : mapping column -> int
        The level of every column to generalize (0 = as is, ``height`` = the root).

    Returns
    -------
    DataFrame
        A copy of ``df`` with the columns of ``levels`` generalized.

    Raises
    ------
    HierarchyError
        For a value missing from a hierarchy (naming the value and the attribute).
    ValueError
        For a column of ``levels`` without a hierarchy, or a level out of range.

    Examples
    --------
    {{toy_lattice}}
    >>> generalize_table(df, {"age": age}, {"age": 1})["age"].tolist()
    ['2*', '2*', '3*', '3*', '2*', '3*']
    """
    check_unique_columns(df, "df")                 # a DataFrame, distinct column names
    if not isinstance(levels, Mapping):
        raise TypeError(f"levels: expected a mapping column -> level, got {type(levels).__name__}")
    if not isinstance(hierarchies, Mapping):
        raise TypeError(f"hierarchies: expected a mapping column -> Hierarchy, got {type(hierarchies).__name__}")
    check_no_nan(df, "df", check_columns(df, list(levels), "levels"))
    out = df.copy()
    for a, L in levels.items():
        (a,) = check_columns(df, [a], "levels")
        if a not in hierarchies:
            raise ValueError(f"hierarchies: no hierarchy for the column {a!r} of levels; "
                             f"hierarchies are given for {list(hierarchies)}")
        h = hierarchies[a]
        if not isinstance(h, Hierarchy):
            raise TypeError(f"hierarchies[{a!r}]: expected a privlib Hierarchy, got {type(h).__name__}")
        L = check_int(L, f"levels[{a!r}]", minimum=0, maximum=h.height)
        out[a] = h.generalize(df[a], L)
    return out


def generalize_to_cut(values: ArrayLike, hierarchy: Hierarchy, cut: Sequence) -> np.ndarray:
    """Generalize every value to its ancestor in ``cut``, a set of hierarchy nodes.

    Subtree (local) generalization, as in the source's Tables 2 and 5, where different
    ZIP codes are cut at different levels (``476**`` next to ``4790*``).  Every value given
    must have exactly one ancestor (or itself) in the cut; leaves that do not occur in
    ``values`` need not be covered.

    Parameters
    ----------
    values : array-like
        Leaves of ``hierarchy``.
    hierarchy : Hierarchy
    cut : sequence
        Nodes of ``hierarchy``.

    Returns
    -------
    ndarray

    Raises
    ------
    ValueError
        For a value with no or several ancestors in the cut.

    Examples
    --------
    >>> from privlib.hierarchy import Hierarchy
    >>> z = Hierarchy.from_rows([["47677", "4767*", "476**", "*"], ["47602", "4760*", "476**", "*"],
    ...                          ["47905", "4790*", "479**", "*"]])
    >>> generalize_to_cut(["47677", "47602", "47905"], z, ["476**", "4790*"]).tolist()
    ['476**', '476**', '4790*']
    """
    if not isinstance(hierarchy, Hierarchy):
        raise TypeError(f"hierarchy: expected a privlib Hierarchy, got {type(hierarchy).__name__}")
    cut = list(cut)
    for node in cut:
        hierarchy.depth(node)  # raises HierarchyError for a node that is not in the hierarchy
    cutset = set(cut)
    s = pd.Series(values) if not isinstance(values, pd.Series) else values
    hierarchy.check_values(s)
    mapping = {}
    for v in pd.unique(s):
        hits = [a for a in hierarchy.path(v) if a in cutset]
        if len(hits) != 1:
            raise ValueError(f"cut: value {v!r} of {hierarchy._label()} has {len(hits)} ancestors in the cut "
                             f"{cut}; expected exactly one")
        mapping[v] = hits[0]
    return s.map(mapping).to_numpy()
