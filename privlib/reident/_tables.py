"""The source's Table I and Figure 2 (private): HI and PI per granularity and model, and
against the database size ``N_o``, each model encoded once and cut."""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd

from .._docs import shared_doc
from .._validation import _fmt, as_generator, check_int, check_probability
from ._information import _check_rules, _hi, _pairs, _perceived
from ._records import (
    OBS_MODEL_DOC,
    EXHAUSTIVE,
    FIRST_ORDER,
    Model,
    Records,
    cut,
    encode_models,
    encode_records,
    exhaustive,
    first_order,
)

#: The PI's folds and their generator, in both tables of the source.
FOLDS_RNG_DOC = """
folds : int
    ``K`` of the PI.
rng : int or numpy.random.Generator
    Seed or generator of the fold draws (required).
"""
#: The PI's outlier rules and the result: one per rule.
OUTLIERS_DOC = """
outliers : {"drop", "floor"} or tuple of them, default "drop"
    The PI's outlier rule(s).

Returns
-------
DataFrame or dict of str to DataFrame
    The result (one rule) or ``{rule: result}`` (a tuple of rules).
"""


@shared_doc(folds_rng=FOLDS_RNG_DOC, outliers=OUTLIERS_DOC)
def information_table(observations: Mapping[str, pd.DataFrame | Mapping[str, Records]], *,
                      n_obs: tuple[int, int], folds: int, rng: int | np.random.Generator, user: Hashable = "user",
                      outliers: str | tuple[str, ...] = "drop") -> pd.DataFrame | dict[str, pd.DataFrame]:
    """Table I of the source: HI and PI, exhaustive and first-order, per granularity.

    ``observations`` maps a granularity name to its long table (or to an already encoded
    ``{"first-order": Records, "exhaustive": Records}`` from :func:`encode_models` without
    ``n_obs``: each model is encoded once per granularity and :func:`cut` to every
    ``N_o``); ``n_obs = (a, b)`` gives
    the two database sizes: the exhaustive and first-order rows at ``N_o = a``, the
    first-order rows at ``N_o = b`` (the source's 900 and 1,800).  Returns one row per
    (N_o, metric, model) and one column per granularity, plus the outlier fractions
    ``f_o`` of each PI in rows of their own.  With a tuple of ``outliers`` rules, a dict
    ``{rule: table}`` (computed in one pass).  ``rng`` (required, keyword-only; int seed or
    Generator): one generator shared by all the PI fold draws, in the order of the rows.

    Parameters
    ----------
    observations : dict
        ``{granularity: long table}`` or ``{granularity: {"first-order": Records,
        "exhaustive": Records}}``.
    n_obs : (int, int)
        The two database sizes ``(a, b)``.
    {{folds_rng}}
    user : hashable, default "user"
        The user column of the tables.
    {{outliers}}

    Raises
    ------
    ValueError
        An empty ``observations``, ``n_obs`` not two sizes, and the errors of
        :func:`perceived_information`.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from privlib.reident import information_table
    >>> g = np.random.default_rng(0)
    >>> obs = pd.DataFrame({"user": np.repeat(np.arange(4), 20), "A": g.integers(0, 3, 80),
    ...                     "B": g.integers(0, 3, 80)})
    >>> t = information_table({"g": obs}, n_obs=(10, 20), folds=2, rng=1)
    >>> t.round(2).loc[10, "g"].tolist()
    [0.56, 0.87, 0.55, 0.14, 0.36, 0.22]
    """
    gen = as_generator(rng)
    rules = _check_rules(outliers)
    if not isinstance(observations, dict) or not observations:
        raise ValueError(f"observations: expected a non-empty dict {{granularity: long table}}, "
                         f"got {type(observations).__name__} {_fmt(observations)}")
    if isinstance(n_obs, (str, bytes)) or not hasattr(n_obs, "__len__") or len(n_obs) != 2:
        raise ValueError(f"n_obs: expected two database sizes (N_o of the exhaustive rows, larger N_o of the "
                         f"first-order rows), got {_fmt(n_obs)}")
    a, b = (check_int(x, "n_obs", minimum=1) for x in n_obs)
    rows = {r: [] for r in rules}
    plan = [(a, exhaustive()), (a, first_order()), (b, first_order())]
    encoded = {}
    for name, obs in observations.items():  # each model encoded once per granularity, then cut
        if not isinstance(obs, dict):  # the rows coded once for both models
            both = encode_models(obs, models={EXHAUSTIVE: exhaustive(), FIRST_ORDER: first_order()}, user=user)
        for kind, model in ((EXHAUSTIVE, exhaustive()), (FIRST_ORDER, first_order())):
            if isinstance(obs, dict):
                if not isinstance(obs.get(kind), Records) or obs[kind].model.kind != kind:
                    raise ValueError(f"observations: {name!r} holds a dict; expected {{'first-order': Records, "
                                     f"'exhaustive': Records}} from encode_models(), got keys {sorted(obs)}")
                encoded[name, kind] = obs[kind]
            else:
                encoded[name, kind] = both[kind]
    for n, model in plan:
        label = "exh." if model.kind == EXHAUSTIVE else "1st-order"
        hi, pi, fo = {}, {r: {} for r in rules}, {}
        for name in observations:
            rec = cut(encoded[name, model.kind], n_obs=n)
            pairs = _pairs(rec)
            hi[name] = _hi(rec, pairs, user).bits
            p = _perceived(rec, None, folds, gen, user=user, characteristics=None, n_obs=None, floor=None,
                           require_equal=True, protect=None, pairs=pairs)
            for r in rules:
                pi[r][name] = p[r].bits
            fo[name] = p[rules[0]].outlier_fraction
        for r in rules:
            rows[r] += [{"N_o": n, "metric": f"HI ({label})", **hi}, {"N_o": n, "metric": f"PI ({label})", **pi[r]},
                        {"N_o": n, "metric": f"f_o ({label})", **fo}]
    out = {r: pd.DataFrame(rows[r]).set_index(["N_o", "metric"]) for r in rules}
    return out[outliers] if isinstance(outliers, str) else out


@shared_doc(obs_model=OBS_MODEL_DOC, folds_rng=FOLDS_RNG_DOC, outliers=OUTLIERS_DOC)
def information_curve(obs: pd.DataFrame | Records, *, model: Model | None = None,
                      n_obs_grid: int | Sequence[int], folds: int, rng: int | np.random.Generator,
                      user: Hashable = "user", quantiles: float | Sequence[float] = (0.1, 0.9),
                      outliers: str | tuple[str, ...] = "drop") -> pd.DataFrame | dict[str, pd.DataFrame]:
    """HI and PI against ``N_o`` (Figure 2), with the spread across users.

    For each ``N_o`` in ``n_obs_grid`` the same users (those with at least the largest
    ``N_o``) are cut to their first ``N_o`` observations.  ``obs`` may be a long table or
    :class:`Records` from :func:`encode_records` (then ``model`` is ignored).  Columns: ``n_obs``, ``HI``,
    ``PI``, ``f_o`` and the per-user quantiles ``HI_q<..>``, ``PI_q<..>``.  With a tuple
    of ``outliers`` rules, a dict ``{rule: curve}`` (computed in one pass).  ``rng``
    (required, keyword-only; int seed or Generator): one generator for every fold draw.

    Parameters
    ----------
    {{obs_model}}
    n_obs_grid : int or sequence of int
        The database sizes ``N_o``.
    {{folds_rng}}
    user : hashable, default "user"
        The user column of a table.
    quantiles : float or sequence of float, default (0.1, 0.9)
        The per-user quantiles reported.
    {{outliers}}

    Raises
    ------
    ValueError
        An empty grid, quantiles outside ``[0, 1]``, and the errors of
        :func:`perceived_information`.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from privlib.reident import first_order, information_curve
    >>> g = np.random.default_rng(0)
    >>> obs = pd.DataFrame({"user": np.repeat(np.arange(4), 20), "A": g.integers(0, 3, 80)})
    >>> c = information_curve(obs, model=first_order(), n_obs_grid=[4, 12], folds=2, rng=1)
    >>> c[["n_obs", "HI", "PI"]].round(2).to_numpy().tolist()
    [[4.0, 0.13, 0.35], [12.0, 0.01, -0.09]]
    """
    gen = as_generator(rng)
    rules = _check_rules(outliers)
    grid = [check_int(n, "n_obs_grid", minimum=1) for n in np.atleast_1d(np.asarray(n_obs_grid, dtype=object)).tolist()]
    if not grid:
        raise ValueError("n_obs_grid: expected at least one N_o, got none")
    quantiles = [check_probability(q, "quantiles") for q in np.atleast_1d(np.asarray(quantiles, dtype=object)).tolist()]
    full = cut(obs, n_obs=max(grid)) if isinstance(obs, Records) else encode_records(obs, model=model, user=user,
                                                                                     n_obs=max(grid))
    rows = {r: [] for r in rules}
    for n in grid:
        rec = cut(full, n_obs=n)
        pairs = _pairs(rec)
        hi = _hi(rec, pairs, user)
        pis = _perceived(rec, None, folds, gen, user=user, characteristics=None, n_obs=None, floor=None,
                         require_equal=True, protect=None, pairs=pairs)
        for r in rules:
            pi = pis[r]
            row = {"n_obs": n, "HI": hi.bits, "PI": pi.bits, "f_o": pi.outlier_fraction, "n_users": rec.n_users}
            for q in quantiles:
                row[f"HI_q{int(round(100 * q))}"] = float(np.nanquantile(hi.per_user, q))
                row[f"PI_q{int(round(100 * q))}"] = float(np.nanquantile(pi.per_user, q))
            rows[r].append(row)
    out = {r: pd.DataFrame(rows[r]) for r in rules}
    return out[outliers] if isinstance(outliers, str) else out


