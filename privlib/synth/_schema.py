"""The OnTheMap synthesizer's input schema: a nested geography and the commuting tables.

Slide "The OnTheMap Data Structure": Job, Residence, Workplace and Geo-code tables.  The
algorithm owns this schema; :mod:`privlib.simulate.commuting` produces data in it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import check_array, check_columns, check_nonempty

#: A shared docstring piece (``{{toy_commuting}}``).
TOY_COMMUTING_DOC = """
>>> import pandas as pd
>>> from privlib.synth import CommutingData, Geography, build_domains, synthesize
>>> blocks = pd.DataFrame({"block": [0, 1, 2, 3], "tract": [0, 0, 1, 1], "puma": [0, 0, 1, 1],
...                        "spuma": 0, "x": [0.0, 0.2, 3.0, 3.2], "y": 0.0})
>>> tracts = pd.DataFrame({"tract": [0, 1], "puma": [0, 1], "spuma": 0, "x": [0.1, 3.1], "y": 0.0})
>>> data = CommutingData(Geography(blocks, tracts),
...     pd.DataFrame({"workplace": [0], "block": [0], "tract": [0], "n": [3]}),
...     pd.DataFrame({"workplace": [0, 0, 0], "home_block": [0, 2, 3], "home_tract": [0, 1, 1]}),
...     pd.DataFrame({"work_tract": [0, 0], "home_tract": [0, 1], "count": [5, 2]}))
"""


@dataclass(frozen=True)
class Geography:
    """Nested geography: super-PUMAs > PUMAs > census tracts > blocks.

    Parameters
    ----------
    blocks : pandas.DataFrame
        Columns ``block, tract, puma, spuma, x, y`` (coordinates in miles); the blocks of
        tract r are ``r * b ... r * b + b - 1`` for ``b`` blocks per tract.
    tracts : pandas.DataFrame
        Columns ``tract, puma, spuma, x, y`` (centroid of its blocks, miles) and ``pop``.

    Examples
    --------
    >>> import pandas as pd
    >>> tracts = pd.DataFrame({"tract": [0, 1], "puma": [0, 0], "spuma": [0, 0],
    ...                        "x": [0.0, 3.0], "y": [0.0, 4.0], "pop": [10.0, 20.0]})
    >>> geo = Geography(blocks=pd.DataFrame(), tracts=tracts)
    >>> geo.n_tracts, geo.n_pumas, geo.n_spumas
    (2, 1, 1)
    """

    blocks: pd.DataFrame
    tracts: pd.DataFrame

    @property
    def n_tracts(self) -> int:
        """Number of tracts."""
        return len(self.tracts)

    @property
    def n_pumas(self) -> int:
        """Number of PUMAs (largest id + 1)."""
        return int(self.tracts["puma"].max()) + 1

    @property
    def n_spumas(self) -> int:
        """Number of super-PUMAs (largest id + 1)."""
        return int(self.tracts["spuma"].max()) + 1


@dataclass(frozen=True)
class CommutingData:
    """The OnTheMap inputs: geography, workplaces, confidential jobs and the public prior table.

    Parameters
    ----------
    geography : Geography
    workplaces : pandas.DataFrame
        Columns ``workplace, block, tract, n`` (employment).
    jobs : pandas.DataFrame
        Columns ``workplace, home_block, home_tract`` (the confidential likelihood data).
    prior : pandas.DataFrame
        Columns ``work_tract, home_tract, count`` (public prior data, e.g. CTPP).

    Examples
    --------
    >>> import pandas as pd
    >>> geo = Geography(blocks=pd.DataFrame(), tracts=pd.DataFrame({"tract": [0]}))
    >>> d = CommutingData(geo, pd.DataFrame({"n": [2]}), pd.DataFrame(), pd.DataFrame())
    >>> int(d.workplaces["n"].sum())
    2
    """

    geography: Geography
    workplaces: pd.DataFrame
    jobs: pd.DataFrame
    prior: pd.DataFrame


def tract_distances(geo: Geography, tracts: np.ndarray | list[int]) -> np.ndarray:
    """Distances (miles) from the centroids of ``tracts`` to every tract centroid.

    Parameters
    ----------
    geo : Geography
    tracts : array_like of int
        Tract ids.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(tracts), geo.n_tracts)``.

    Examples
    --------
    >>> import pandas as pd
    >>> tr = pd.DataFrame({"tract": [0, 1], "puma": [0, 0], "spuma": [0, 0],
    ...                    "x": [0.0, 3.0], "y": [0.0, 4.0]})
    >>> tract_distances(Geography(blocks=pd.DataFrame(), tracts=tr), [0]).tolist()
    [[0.0, 5.0]]
    """
    t = np.asarray(tracts)
    x, y = geo.tracts["x"].to_numpy(), geo.tracts["y"].to_numpy()
    return np.hypot(x[t][:, None] - x[None, :], y[t][:, None] - y[None, :])


def check_commuting_data(data: object) -> None:
    """``data``: an object with the four tables of :class:`CommutingData` (private helper)."""
    for att in ("geography", "workplaces", "jobs", "prior"):
        if not hasattr(data, att):
            raise TypeError(f"data: expected CommutingData (geography, workplaces, jobs, prior), "
                            f"got {type(data).__name__} without {att!r}")
    geo = data.geography
    for att, cols in (("blocks", ["block", "tract", "x", "y"]), ("tracts", ["tract", "puma", "spuma", "x", "y"])):
        tab = getattr(geo, att, None)
        if not isinstance(tab, pd.DataFrame):
            raise TypeError(f"data.geography.{att}: expected a DataFrame, got {type(tab).__name__}")
        check_columns(tab, cols, f"data.geography.{att}")
        for c in ("x", "y"):
            check_array(tab[c].to_numpy(), f"data.geography.{att}[{c!r}]")
    check_nonempty(data.workplaces, "data.workplaces")
    check_columns(data.workplaces, ["workplace", "block", "tract", "n"], "data.workplaces")
    check_columns(data.jobs, ["workplace", "home_block", "home_tract"], "data.jobs")
    check_columns(data.prior, ["work_tract", "home_tract", "count"], "data.prior")
    n_t = len(geo.tracts)
    for frame, col, hi in ((data.workplaces, "tract", n_t), (data.jobs, "home_tract", n_t),
                           (data.prior, "work_tract", n_t), (data.prior, "home_tract", n_t),
                           (data.jobs, "workplace", len(data.workplaces))):
        v = check_array(frame[col].to_numpy(), f"{col}", dtype=float)
        if v.size and (v.min() < 0 or v.max() >= hi or np.any(v != np.round(v))):
            raise ValueError(f"{col}: expected integer ids in [0, {hi}), got values in [{v.min()!r}, {v.max()!r}]")
    cnt = check_array(data.prior["count"].to_numpy(), "data.prior['count']", minimum=0)
    if cnt.size == 0 or cnt.sum() <= 0:
        raise ValueError("data.prior: expected a public prior table with a positive total count, got none")
