"""Chapter 6's families: every source's mechanism released on the common scale (:func:`release`).

Private module of :mod:`privlib.experiments.one_scale` (which re-exports its public names).
"""
from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import as_generator, check_in, check_int
from ..accounting import Ledger, LedgerEntry
from ..partition import Decomposition
from ._robust import ANCHORS, anchor_release, hierarchical_release
from ._scale_cells import _cell_table, _decoded, _domain, _histogram
from ._scale_measure import _check_setup
from ._scale_releases import MST_DELTA, mst_release, privelet_release
from .empirical_privacy import Setup, build

__all__ = ["FAMILIES", "GUARANTEES", "NEIGHBOURS", "COMMON_RELATION", "MST_DELTA", "SA_PERTURBING", "KDTREE_HEIGHT", "DIFFGEN_H",
           "OTM_DELTA", "OTM_MIN_P", "OTM_RAMP", "QWI_MIN_PERSONS", "QWI_SUPPRESSED", "Released", "adult_hierarchies",
           "common_guarantee", "release", "information_losses"]

#: family -> (the parameter's name, the guarantee the release carries under its own neighbour relation).
GUARANTEES = {
    "mondrian-k": ("k", "k-anonymity"),
    "mondrian-l": ("l", "distinct l-diversity"),
    "mondrian-t": ("t", "t-closeness of split nodes on k = 8 (source's rule: leaves may exceed t)"),
    "dp-kdtree": ("eps", "eps-DP"),
    "fulldomain-k": ("k", "k-anonymity"),
    "fulldomain-l": ("l", "distinct l-diversity"),
    "fulldomain-t": ("t", "t-closeness (equal distance) and 8-anonymity"),
    "tds": ("k", "k-anonymity"),
    "diffgen": ("eps", "eps-DP"),
    "onthemap": ("eps", "eps-DP of each record's SA value, given the published cell totals"),
    "onthemap-pdp": ("eps", "(eps, 1e-6)-PDP of each record's SA value, given the published cell totals; "
                            "accounted at the prune-adjusted eps"),
    "qwi": ("b - 1", "none"),
    "swap": ("rate", "none"),
    "laplace": ("eps", "eps-DP"),
    "hierarchical": ("eps", "eps-DP"),
    "privelet": ("eps", "eps-DP"),
    "mst": ("eps", "(eps, 1e-6)-DP, from rho-zCDP"),
    "unprotected": ("none", "none (anchor: the exact QI cells and occupations)"),
    "sa-marginal": ("none", "none (anchor: exact QI cells, occupation replaced by its overall distribution)"),
    "one-class": ("none", "none (anchor: one class, the overall occupation histogram)"),
}
#: The families, in the chapter's order.
FAMILIES = tuple(GUARANTEES)
#: The neighbour relation of each family's own guarantee.
NEIGHBOURS = {
    **{f: "none (a syntactic property of the output)" for f in ("mondrian-k", "mondrian-l", "mondrian-t",
                                                                "fulldomain-k", "fulldomain-l", "fulldomain-t",
                                                                "tds")},
    "dp-kdtree": "add or remove one record",
    "diffgen": "add or remove one record",
    "laplace": "add or remove one record",
    "hierarchical": "add or remove one record",
    "privelet": "add or remove one record",
    "mst": "add or remove one record",
    "onthemap": "change one record's SA value, the cell totals fixed",
    "onthemap-pdp": "change one record's SA value, the cell totals fixed",
    "qwi": "none",
    "swap": "none",
    **{f: "none (an anchor)" for f in ANCHORS},
}
#: The neighbour relation every family's guarantee is restated under (:func:`common_guarantee`).
COMMON_RELATION = "add or remove one record"
#: Families that perturb only the sensitive attribute given the QI cells.
SA_PERTURBING = ("onthemap", "onthemap-pdp", "swap")
#: Height of the DP kd-tree (chapter 2's Figure 4).
KDTREE_HEIGHT = 10
#: DiffGen's number of specializations (chapter 3 uses 15 on all nine predictors).
DIFFGEN_H = 10
#: Public domain of hours per week for DiffGen's numerical taxonomy, ``[1, 100)``.
HOURS_DOMAIN = (1, 100)
#: OnTheMap's operating point (slide "Final Privacy Settings for OnTheMap V3"): delta and min_p.
OTM_DELTA, OTM_MIN_P = 1e-6, 0.025
#: Ramp (a, b) of the noise infused into OnTheMap's published totals (chapter 4's simulation).
OTM_RAMP = (1.05, 1.15)
#: QWI suppresses a published cell counting 0 < X < this many persons (``privlib.noise.aggregate``).
QWI_MIN_PERSONS = 3
#: How the analyst reads QWI's suppressed cells (the slides: "treated as missing data and estimated", no
#: estimator; the choice set ``qwi-suppressed-cells`` of ``choices.csv``): as 0, or estimated from each QI
#: cell's published total (:func:`privlib.noise.estimate_suppressed`) equally or with the public prior.
QWI_SUPPRESSED = ("read-as-zero", "margin-equal", "margin-prior")

@dataclass(frozen=True, eq=False)
class Released:
    """One mechanism's release on the common scale.

    Attributes
    ----------
    family : str
        One of :data:`FAMILIES`.
    value : float
        The family's parameter (k, l, t, eps, b - 1 or a swap rate).
    decomposition : privlib.partition.Decomposition
        The release as boxes over the QI codes with SA histograms (ledger in ``.ledger``), the
        counts as released (raw; :func:`postprocess` gives the other policy).
    guarantee : str
        The guarantee the release carries under its own neighbour relation (:data:`GUARANTEES`,
        :data:`NEIGHBOURS`).
    eps_common : float
        Its eps under :data:`COMMON_RELATION` (``inf``: no finite eps; :func:`common_guarantee`).
    """

    family: str
    value: float
    decomposition: Decomposition
    guarantee: str
    eps_common: float = math.inf


def common_guarantee(family: str, value: float) -> tuple[float, str]:
    """A family's guarantee restated under :data:`COMMON_RELATION` (add or remove one record).

    * DP kd-tree, DiffGen, Laplace histogram: eps-DP under add/remove already (every count has
      sensitivity 1); under "change one record" (or one record's SA value) they are 2 eps-DP,
      since a change is a removal and an addition.
    * OnTheMap (both priors): its eps (or (eps, delta)) protects a change of one record's SA value
      with the cell totals held fixed.  The totals are published with QWI's multiplicative noise,
      which is not differentially private (a cell of 0 is published as 0, a cell of 1 as 1), so
      under add/remove there is **no finite eps**.
    * Syntactic families (k, l, t; TDS), QWI and swapping: deterministic functions of the data or
      noise without a DP proof: no finite eps.

    Parameters
    ----------
    family : str
        One of :data:`FAMILIES`.
    value : float
        The family's parameter.

    Returns
    -------
    (float, str)
        The eps under add/remove (``inf`` when there is none) and the conversion in words.

    Examples
    --------
    >>> common_guarantee("laplace", 0.5)
    (0.5, 'eps-DP under add/remove (native); 2 eps = 1 under a change of one record')
    >>> common_guarantee("onthemap", 1.0)[0]
    inf
    """
    check_in(family, "family", FAMILIES)
    value = _check_value(family, value)
    if family in ("dp-kdtree", "diffgen", "laplace", "hierarchical", "privelet"):
        return float(value), (f"eps-DP under add/remove (native); 2 eps = {2 * value:g} under a change of "
                              "one record")
    if family == "mst":
        return float(value), (f"(eps, {MST_DELTA:g})-DP under add/remove (native, from rho-zCDP); 4 rho under a "
                              "change of one record (zCDP's group privacy)")
    if family in ("onthemap", "onthemap-pdp"):
        return math.inf, ("no finite eps under add/remove: the cell totals carry multiplicative noise, not "
                          "DP noise; the eps holds for a change of one record's SA value given the totals")
    if family in ("qwi", "swap"):
        return math.inf, "no finite eps (no formal guarantee)"
    return math.inf, "no finite eps (a deterministic function of the data)"


def adult_hierarchies(setup: Setup) -> dict:
    """The book's Adult hierarchies of the setup's QIs (``privlib.data.load_hierarchy``).

    The categorical codes of :func:`~privlib.experiments.empirical_privacy.adult_setup` follow
    the hierarchies' depth-first leaf order, so every hierarchy node is an interval of codes.

    Parameters
    ----------
    setup : Setup

    Returns
    -------
    dict of str to privlib.hierarchy.Hierarchy

    Examples
    --------
    >>> from privlib.experiments.empirical_privacy import adult_setup
    >>> sorted(adult_hierarchies(adult_setup()))
    ['education', 'hours_per_week', 'income', 'sex', 'workclass']
    """
    from .. import data
    return {a: data.load_hierarchy(a) for a in setup.qi}


# ----------------------------------------------------------------------------- families
def _fulldomain(setup: Setup, model: str, value: float, hierarchies: Mapping) -> Decomposition:
    from ..generalization import encode_lattice, search
    from ..release import from_generalization
    from ..requirements import KAnonymity, LDiversity, TCloseness
    enc = encode_lattice(_decoded(setup), list(setup.qi), hierarchies, sensitive=[setup.sa],
                         sa_domains={setup.sa: list(setup.sa_values)})
    reqs = {"k": lambda: [KAnonymity(int(value))],
            "l": lambda: [LDiversity(value)],
            "t": lambda: [KAnonymity(8), TCloseness(value, distance="equal")]}[model]()
    res = search(enc, reqs)
    if res.best is None:  # pragma: no cover - the top node satisfies every requirement used here
        raise ValueError(f"value: no full-domain generalization satisfies {model} = {value!r}")
    orders = {a: setup.orders[a] for a in setup.qi if a in setup.orders}
    return from_generalization(setup.df, list(res.best), qi=list(setup.qi), sa=setup.sa,
                               sa_values=list(setup.sa_values), hierarchies=hierarchies, orders=orders)


def _cut_intervals(setup: Setup, rel) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per QI: the cut index of every code of its public domain, and each cut's code interval.

    One probe table for every QI (each QI's block sweeps its domain, the other QIs fixed at the
    first record's values), encoded by the release at once (row by row: the same codes as one
    probe per QI).
    """
    blocks = []
    for a in setup.qi:
        lo, hi = setup.domain[a]
        codes = np.arange(lo, hi + 1)
        probe = pd.DataFrame({b: np.repeat(setup.df[b].to_numpy()[:1], codes.size) for b in setup.qi})
        probe[a] = codes
        blocks.append(probe)
    enc = rel.encode(_decoded(setup, pd.concat(blocks, ignore_index=True)))
    out, at = [], 0
    for j, (a, probe) in enumerate(zip(setup.qi, blocks)):
        codes = probe[a].to_numpy()
        g = enc[at:at + codes.size, j]
        at += codes.size
        cuts, first = np.unique(g, return_index=True)
        change = int((np.diff(g) != 0).sum())
        if change != cuts.size - 1:
            raise ValueError(f"release: a cut value of {a!r} is not an interval of codes (codes must follow the "
                             "hierarchy's depth-first leaf order)")
        last = np.array([codes[g == c].max() for c in cuts])
        out.append((cuts, codes[first], last))
    return out


def _from_diffgen(setup: Setup, rel, params: dict, gen=None) -> Decomposition:
    """DiffGen / TDS release -> boxes: every combination of cut values is a box of QI codes.

    TDS: the released (exact) class counts.  DiffGen (``gen`` given): Line 12's counts *before*
    the library's clipping at 0 -- the true box x class counts plus exact discrete Laplace noise at
    Line 12's budget (the ledger's entry), drawn here because the library releases only the
    clipped counts; the clipped draw is discarded, so the budget is spent once.  Cells of a
    numerical cut holding no integer code hold no record and are not drawn (``dropped_cells``).
    """
    from ..release import from_boxes
    per = _cut_intervals(setup, rel)
    sizes = tuple(len(p[0]) for p in per)
    grid = np.stack(np.unravel_index(np.arange(int(np.prod(sizes))), sizes), axis=1)
    lower = np.stack([per[j][1][grid[:, j]] for j in range(len(per))], axis=1)
    upper = np.stack([per[j][2][grid[:, j]] for j in range(len(per))], axis=1)
    S = len(setup.sa_values)
    if gen is None:
        # released rows -> grid position (rows of a numerical cut holding no integer code are dropped)
        pos = np.stack([np.searchsorted(per[j][0], rel.group_codes[:, j]) for j in range(len(per))], axis=1)
        pos = np.minimum(pos, np.array(sizes) - 1)
        ok = np.all(np.stack([per[j][0][pos[:, j]] == rel.group_codes[:, j] for j in range(len(per))], axis=1),
                    axis=1)
        cell = np.ravel_multi_index(pos[ok].T, sizes)
        cls = pd.Index(setup.sa_values).get_indexer(np.asarray(rel.classes, dtype=object)[rel.class_codes[ok]])
        hist = np.bincount(cell * S + cls, weights=rel.counts[ok].astype(float),
                           minlength=grid.shape[0] * S).reshape(-1, S)
        params = {**params, "dropped_count": float(rel.counts[~ok].sum())}
    else:
        from ..mechanisms import discrete_laplace
        line12 = [e for e in rel.ledger if e.group.startswith("Algorithm 1, line 12")]
        if len(line12) != 1:  # pragma: no cover - DiffGen's ledger has one Line 12 entry
            raise RuntimeError("release: DiffGen's ledger has no single Line 12 entry")
        X = setup.df[list(setup.qi)].to_numpy(np.int64)
        pos = np.stack([np.searchsorted(per[j][1], X[:, j], side="right") - 1 for j in range(len(per))], axis=1)
        cell = np.ravel_multi_index(pos.T, sizes)
        cls = pd.Index(setup.sa_values).get_indexer(setup.df[setup.sa])
        true = np.bincount(cell * S + cls, minlength=grid.shape[0] * S)
        hist = discrete_laplace(true, eps=line12[0].eps, sensitivity=1, rng=gen).reshape(-1, S)
        params = {**params, "dropped_count": 0.0}
    lo, hi = _domain(setup)
    return from_boxes(lower, upper, hist, qi=list(setup.qi), sa=setup.sa, sa_values=list(setup.sa_values),
                      domain_lower=lo, domain_upper=hi, ledger=rel.ledger, params=params)


def _diffgen(setup: Setup, family: str, value: float, hierarchies: Mapping, gen, h: int) -> Decomposition:
    from ..diffgen import diffgen, tds
    tax = {a: (HOURS_DOMAIN if a == "hours_per_week" else hierarchies[a]) for a in setup.qi}
    df = _decoded(setup)
    if family == "tds":
        rel = tds(df, list(setup.qi), setup.sa, tax, k=int(value))
        return _from_diffgen(setup, rel, {"model": "tds", "k": int(value)})
    rel = diffgen(df, list(setup.qi), setup.sa, tax, eps=value, h=h, classes=list(setup.sa_values), rng=gen)
    rel.ledger.check(value)
    return _from_diffgen(setup, rel, {"model": "diffgen", "eps": value, "h": h, "eps_unspent": rel.eps_unspent},
                         gen=gen)


def _published_totals(counts: np.ndarray, gen) -> np.ndarray:
    """OnTheMap's published cell totals: the true sizes times a QWI ramp factor, rounded (chapter 4)."""
    from ..noise import RampDistribution, draw_factors
    n = counts.sum(axis=1)
    delta = draw_factors(np.arange(n.size), dist=RampDistribution(*OTM_RAMP), rng=gen).to_numpy()
    return np.round(delta * n).astype(np.int64)


def _onthemap(setup: Setup, eps: float, gen) -> Decomposition:
    from ..synth import synthesize_table
    cells, counts = _cell_table(setup, full=False)
    # each QI cell plays the workplace; its size is published noise-infused (QWI's ramp, as
    # chapter 4), and the synthesizer draws that many records conditioned on the published total
    totals = _published_totals(counts, gen)
    syn = synthesize_table(counts, eps=eps, rng=gen, totals=totals)
    syn.ledger.check(eps)
    return _histogram(setup, cells, syn.counts.to_numpy(np.int64), ledger=syn.ledger,
                      params={"model": "onthemap", "eps": eps, "published_total": int(totals.sum())})


@functools.lru_cache(maxsize=16)
def _pdp_alpha_table(eps: float, delta: float, m_cap: int) -> np.ndarray:
    """alpha_min(m) of (eps, delta)-PDP for m = 0 .. m_cap (OnTheMap's search, as privlib.synth.synthesize)."""
    from ..synth import min_alpha_for_pdp
    from ..synth._synthesize import ALPHA_MIN_RTOL
    vals = [min_alpha_for_pdp(m, eps=eps, delta=delta, kind="posterior-predictive", prior="worst", rule="any",
                              rtol=ALPHA_MIN_RTOL) for m in range(1, m_cap + 1)]
    return np.array([vals[0]] + vals)


def _onthemap_pdp(setup: Setup, eps: float, gen) -> Decomposition:
    """OnTheMap's synthesizer at its operating point (slide "Final Privacy Settings for OnTheMap V3").

    Prior ``alpha_i = max(alpha_min(min(m, 64)), 1 / S)`` with ``alpha_min`` the (eps, 1e-6)-PDP
    prior (:class:`privlib.synth.OTMSettings`' search) and a uniform public prior share ``1 / S``;
    pi ~ Dirichlet(alpha + n), ``m`` records ~ Multinomial(m, pi), ``m`` the published
    (noise-infused) total.  With a uniform prior share every retention probability is 1, so domain
    pruning removes no value; the ledger nevertheless carries the slides' prune-adjusted eps
    (:func:`privlib.synth.pruned_epsilon`, Theorem 5.2 with min_p = 0.025), the bound OnTheMap
    states for its release.
    """
    from ..synth import OTMSettings, pruned_epsilon
    cells, counts = _cell_table(setup, full=False)
    totals = _published_totals(counts, gen)
    m_cap = OTMSettings().m_cap
    amin = _pdp_alpha_table(float(eps), OTM_DELTA, m_cap)[np.minimum(totals, m_cap)]
    S = counts.shape[1]
    alpha = np.maximum(amin, 1.0 / S)
    conc = alpha[:, None] + counts
    draws = gen.standard_gamma(conc)
    pi = draws / draws.sum(axis=1, keepdims=True)
    syn = gen.multinomial(totals, pi)
    eps_adj = pruned_epsilon(eps, min_p=OTM_MIN_P, alpha=float(alpha.max()))
    ledger = Ledger.from_calls("multinomial-dirichlet (PDP)", np.full(counts.shape[0], eps_adj), "parallel",
                               group="QI cells",
                               detail=f"(eps = {eps:g}, delta = {OTM_DELTA:g})-PDP prior; prune-adjusted eps "
                                      f"(min_p = {OTM_MIN_P:g})").check(eps_adj)
    return _histogram(setup, cells, syn, ledger=ledger,
                      params={"model": "onthemap-pdp", "eps": eps, "delta": OTM_DELTA, "eps_adjusted": eps_adj,
                              "published_total": int(totals.sum())})


def _qwi(setup: Setup, excess: float, gen, suppressed_cells: str = "read-as-zero") -> Decomposition:
    """One ramp factor per QI cell (the employer), then QWI's suppression of small cells.

    A published cell (QI cell x SA value) counting ``0 < X < QWI_MIN_PERSONS`` persons is
    suppressed (``privlib.noise.aggregate``'s persons rule) and released as missing.  The analyst
    and the attacker read it as 0 (``suppressed_cells="read-as-zero"``) or estimate it
    (:data:`QWI_SUPPRESSED`) from the QI cell's total, published with the same factor as its cells
    (as QWI publishes a county's total beside its county x industry cells) and suppressed by the
    same persons rule: the total minus the cell's published counts, spread equally
    (``"margin-equal"``) or in proportion to the SA values' shares of all published counts
    (``"margin-prior"``, a public prior) over the suppressed cells
    (:func:`privlib.noise.estimate_suppressed`); cells whose total is suppressed too stay 0.  The
    establishments rule (fewer than 3 establishments) is not applied: each QI cell is one
    employer here, so it would suppress every cell.
    """
    from ..noise import RampDistribution, draw_factors, estimate_suppressed
    check_in(suppressed_cells, "suppressed_cells", QWI_SUPPRESSED)
    cells, counts = _cell_table(setup, full=False)
    dist = RampDistribution(1 + excess / 2, 1 + excess)        # distortion between b/2 and b
    delta = draw_factors(np.arange(cells.shape[0]), dist=dist, rng=gen).to_numpy()
    suppressed = (counts > 0) & (counts < QWI_MIN_PERSONS)
    released = np.where(suppressed, 0.0, counts * delta[:, None])
    if suppressed_cells != "read-as-zero":
        total = counts.sum(axis=1)
        margins = np.where((total > 0) & (total < QWI_MIN_PERSONS), np.nan, total * delta)
        prior = released.sum(axis=0) if suppressed_cells == "margin-prior" else None
        released = np.nan_to_num(estimate_suppressed(released, suppressed, margins, prior=prior), nan=0.0)
    return _histogram(setup, cells, released, ledger=None,
                      params={"model": "qwi", "a": 1 + excess / 2, "b": 1 + excess,
                              "suppressed_cells": int(suppressed.sum()),
                              "suppressed_records": int(counts[suppressed].sum()),
                              "suppressed_reading": suppressed_cells})


def _swap(setup: Setup, rate: float, gen) -> Decomposition:
    from ..release import from_microdata
    from ..reident import swap
    n = setup.n
    chosen = gen.random(n) < rate
    frame = setup.df.copy()
    # the chosen records form one "user" whose SA values are permuted; every other record is its own user
    frame["_group"] = np.where(chosen, -1, np.arange(n))
    out = swap(frame, [setup.sa], rng=gen, user="_group")
    lo, hi = _domain(setup)
    return from_microdata(out.drop(columns="_group"), qi=list(setup.qi), sa=setup.sa,
                          sa_values=list(setup.sa_values), domain_lower=lo, domain_upper=hi,
                          params={"model": "swap", "rate": rate, "swapped": int(chosen.sum())})


def _laplace(setup: Setup, eps: float, gen) -> Decomposition:
    from ..mechanisms import discrete_laplace
    cells, counts = _cell_table(setup, full=True)
    noisy = discrete_laplace(counts, eps=eps, sensitivity=1, rng=gen)
    ledger = Ledger([LedgerEntry("discrete laplace", eps, "parallel", group="QI cell x SA counts",
                                 detail="one count per cell of the public domain, sensitivity 1 (add/remove)")])
    ledger.check(eps)
    return _histogram(setup, cells, noisy, ledger=ledger, params={"model": "laplace", "eps": eps})


def _check_value(family: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"value: expected a number for family {family!r}, got {value!r}")
    if not np.isfinite(value):
        raise ValueError(f"value: expected a finite number for family {family!r}, got {value!r}")
    name = GUARANTEES[family][0]
    if name == "none":
        if value != 0:
            raise ValueError(f"value: an anchor ({family!r}) has no parameter; expected 0, got {value!r}")
    elif name in ("k", "l"):
        if value != int(value) or value < 1:
            raise ValueError(f"value: expected an integer {name} >= 1 for family {family!r}, got {value!r}")
    elif name in ("eps", "t", "b - 1"):
        upper = {"t": 1.0, "b - 1": 1.0}.get(name, np.inf)
        if not 0 < value < upper or (name == "t" and value > 1):
            raise ValueError(f"value: expected {name} in (0, {upper}) for family {family!r}, got {value!r}")
    elif not 0 <= value <= 1:
        raise ValueError(f"value: expected a swap rate in [0, 1] for family {family!r}, got {value!r}")
    return value


def release(setup: Setup, family: str, value: float, *, rng: int | np.random.Generator,
            hierarchies: Mapping | None = None, diffgen_h: int = DIFFGEN_H,
            kdtree_height: int = KDTREE_HEIGHT, qwi_suppressed: str = "read-as-zero") -> Released:
    """Publish ``setup`` with one mechanism and convert the release to a Decomposition.

    ``mondrian-*`` and ``dp-kdtree``: :func:`privlib.experiments.empirical_privacy.build`
    (chapter 2's settings: t on k = 8 with the source's rule; a DP kd-tree of height
    ``kdtree_height``, exact discrete Laplace counts, negative ones kept).
    ``fulldomain-*``: the minimal lattice node of smallest discernibility
    (:func:`privlib.generalization.search`; l alone, t with 8-anonymity as chapter 2's t)
    -> :func:`privlib.release.from_generalization`.  ``tds`` / ``diffgen``: chapter 3's
    algorithms with the QIs as predictors and the SA as class (DiffGen: ``h`` =
    :data:`DIFFGEN_H`, hours per week on ``[1, 100)``); every combination of cut values is a
    box (a hierarchy node is an interval of codes) -> :func:`privlib.release.from_boxes`;
    DiffGen's counts are Line 12's raw noisy counts (see ``_from_diffgen``).
    ``onthemap``: each QI cell's total is published with QWI's ramp noise
    (:data:`OTM_RAMP`), and :func:`privlib.synth.synthesize_table` draws that many records per
    cell with the eps-DP prior.  ``onthemap-pdp``: the same with the (eps, 1e-6)-PDP prior,
    accounted at the prune-adjusted eps.  ``qwi``: one ramp factor per QI cell with
    ``a = 1 + value / 2``, ``b = 1 + value`` (slide "Noise Factor Distribution"), then cells of
    1 or 2 persons suppressed (:data:`QWI_MIN_PERSONS`).  ``swap``: each record joins the swap
    set with probability ``value``; the SA values of the set are permuted
    (:func:`privlib.reident.swap`) -> :func:`privlib.release.from_microdata`.  ``laplace``:
    exact discrete Laplace noise (:func:`privlib.mechanisms.discrete_laplace`) on every QI cell x
    SA count of the public domain; ``hierarchical`` and ``privelet``: the same counts through
    :func:`hierarchical_release` and :func:`privelet_release`.  ``mst``: McKenna et al.'s MST
    synthesizer at (eps, 1e-6) (:func:`mst_release`), released as microdata.

    Parameters
    ----------
    setup : Setup
        Coded records inside their public domains, with public SA values (chapter 2).
    family : str
        One of :data:`FAMILIES`.
    value : float
        The family's parameter (:data:`GUARANTEES`).
    rng : int or numpy.random.Generator
        Required, keyword-only (unused by the deterministic syntactic families).
    hierarchies : mapping, optional
        ``{qi: Hierarchy}`` for ``fulldomain-*``, ``tds`` and ``diffgen`` (default
        :func:`adult_hierarchies`).
    diffgen_h : int, default :data:`DIFFGEN_H`
        DiffGen's number of specializations.
    kdtree_height : int, default :data:`KDTREE_HEIGHT`
        The DP kd-tree's height.
    qwi_suppressed : str, default "read-as-zero"
        How ``qwi``'s suppressed cells are read (:data:`QWI_SUPPRESSED`; ``_qwi``).

    Returns
    -------
    Released

    Raises
    ------
    TypeError, ValueError
        For a non-Setup, a setup without ``sa_values`` or with records outside its domain, a
        Laplace histogram of more than :data:`MAX_HISTOGRAM_CELLS` cells, an unknown ``family``
        or a parameter outside its range (the message names the argument and the value), and the
        mechanisms' own checks.

    Examples
    --------
    >>> import pandas as pd
    >>> s = Setup("toy", pd.DataFrame({"x": [0, 0, 1, 1], "s": list("abab")}), ("x",), "s", {"x": (0, 1)},
    ...           sa_values=("a", "b"))
    >>> r = release(s, "laplace", 1.0, rng=0)
    >>> r.guarantee, r.decomposition.n_leaves, r.decomposition.ledger.total(), r.eps_common
    ('eps-DP', 2, 1.0, 1.0)
    """
    setup = _check_setup(setup)
    check_in(family, "family", FAMILIES)
    check_in(qwi_suppressed, "qwi_suppressed", QWI_SUPPRESSED)
    value = _check_value(family, value)
    gen = as_generator(rng)
    if family.startswith("mondrian-") or family == "dp-kdtree":
        model = "eps" if family == "dp-kdtree" else family[-1]
        height = check_int(kdtree_height, "kdtree_height", minimum=1)
        dec = build(setup, model, value, rng=gen, **({"height": height} if model == "eps" else {}))
    elif family.startswith("fulldomain-") or family in ("tds", "diffgen"):
        hierarchies = adult_hierarchies(setup) if hierarchies is None else hierarchies
        if family.startswith("fulldomain-"):
            dec = _fulldomain(setup, family[-1], value, hierarchies)
        else:
            dec = _diffgen(setup, family, value, hierarchies, gen, diffgen_h)
    elif family in ANCHORS:
        dec = anchor_release(setup, family)
    elif family in ("hierarchical", "privelet", "mst"):
        dec = {"hierarchical": hierarchical_release, "privelet": privelet_release,
               "mst": mst_release}[family](setup, value, rng=gen)
    elif family == "qwi":
        dec = _qwi(setup, value, gen, qwi_suppressed)
    else:
        dec = {"onthemap": _onthemap, "onthemap-pdp": _onthemap_pdp, "swap": _swap,
               "laplace": _laplace}[family](setup, value, gen)
    if family in ("dp-kdtree", "diffgen", "laplace", "hierarchical", "privelet", "mst", "onthemap"):
        dec.ledger.check(value)
    return Released(family, value, dec, GUARANTEES[family][1], common_guarantee(family, value)[0])


def information_losses(setup: Setup, families: Sequence[str], *, k: int, hierarchies: Mapping | None = None,
                       categorical: Sequence[str] | None = None) -> pd.DataFrame:
    """Information loss of k-anonymous releases, one row each.

    ``ncp`` is the normalized certainty penalty as Xu et al. (KDD 2006) define it: on a
    categorical QI the size of the least common ancestor of the class's values in the hierarchy
    (:func:`privlib.release.ncp_xu`); ``gcp_tight`` / ``gcp_box`` are its GCP variant (the share
    of the codes spanned, :func:`privlib.release.information_loss`) on tight ranges and on the
    published boxes; ``dm`` the discernibility metric; ``c_avg`` the normalized average class size.

    Parameters
    ----------
    setup : Setup
    families : sequence of str
        Deterministic k-anonymity families (``"mondrian-k"``, ``"fulldomain-k"``, ``"tds"``).
    k : int
        The k of every release (and of C_avg).
    hierarchies : mapping, optional
        As :func:`release` (default :func:`adult_hierarchies`); the categorical QIs' hierarchies
        give the least common ancestors.
    categorical : sequence of str, optional
        The categorical QIs (default: the QIs listed in ``setup.orders``).

    Returns
    -------
    pandas.DataFrame
        Indexed by family: ``classes``, ``ncp``, ``gcp_tight``, ``gcp_box``, ``dm``, ``c_avg``.

    Raises
    ------
    TypeError
        For ``families`` given as one string (or not a sequence).
    ValueError
        For a family that is not a k-anonymity family.

    Examples
    --------
    >>> import pandas as pd
    >>> s = Setup("toy", pd.DataFrame({"x": range(8), "s": list("aaaabbbb")}), ("x",), "s", {"x": (0, 7)},
    ...           sa_values=("a", "b"))
    >>> information_losses(s, ["mondrian-k"], k=4)[["classes", "dm", "c_avg"]].values.tolist()
    [[2.0, 32.0, 1.0]]
    """
    from ..release import information_loss, ncp_xu
    setup = _check_setup(setup)
    if isinstance(families, (str, bytes)) or not isinstance(families, Sequence):
        raise TypeError(f"families: expected a sequence of family names, got {type(families).__name__} {families!r}")
    for f in families:
        check_in(f, "families", tuple(f for f in FAMILIES if GUARANTEES[f][0] == "k"))
    if categorical is None:
        categorical = [a for a in setup.qi if a in setup.orders]
    if categorical and hierarchies is None:
        hierarchies = adult_hierarchies(setup)
    rows = {}
    for f in families:
        dec = release(setup, f, k, rng=0, hierarchies=hierarchies).decomposition   # deterministic: rng unused
        loss = information_loss(setup.df, dec, k=k, categorical=list(categorical))
        ncp, _ = ncp_xu(setup.df, dec, hierarchies={a: hierarchies[a] for a in categorical},
                        orders={a: setup.orders[a] for a in categorical})
        rows[f] = {"classes": float(loss.n_classes), "ncp": ncp, "gcp_tight": loss.ncp_tight,
                   "gcp_box": loss.ncp_box, "dm": loss.dm, "c_avg": loss.c_avg}
    return pd.DataFrame.from_dict(rows, orient="index")
