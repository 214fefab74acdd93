"""Chapter 6, every source's mechanisms on one privacy/utility scale.

Cormode, Procopiuc, Shen, Srivastava & Yu (2013), Section II, measure any anonymization by
what an adversary learns -- the naive-Bayes breach ``beta`` (:func:`privlib.attacks.naive_bayes`,
:func:`privlib.metrics.privacy_breach`) -- and by what an analyst loses -- the median relative
error ``alpha`` of range COUNT queries "with range conditions on all attributes of D"
(Definition 2; :func:`definition2_workload`: the sensitive attribute included).  This module
publishes the mechanisms of the book's five sources on chapter 2's Adult setup
(:func:`privlib.experiments.empirical_privacy.adult_setup`) and converts each release to a
:class:`privlib.partition.Decomposition` with :mod:`privlib.release`, so that the same attack
and the same workloads measure all of them:

* ``mondrian-k/l/t`` -- Mondrian (:func:`privlib.partition.mondrian`, chapter 2); parameter k, l, t
* ``dp-kdtree`` -- DP kd-tree (:func:`privlib.partition.dp_kdtree`, chapter 2); parameter eps
* ``fulldomain-k/l/t`` -- lattice search (:func:`privlib.generalization.search`, ch. 1); parameter k, l, t
* ``tds`` -- TDS (:func:`privlib.diffgen.tds`, chapter 3); parameter k
* ``diffgen`` -- DiffGen, the SA as class (:func:`privlib.diffgen.diffgen`); parameter eps
* ``onthemap`` -- Multinomial-Dirichlet synthesis conditioned on noise-infused cell totals,
  eps-DP prior (:func:`privlib.synth.synthesize_table`, chapter 4); parameter eps
* ``onthemap-pdp`` -- the same at OnTheMap's operating point: the (eps, delta = 1e-6)-PDP prior
  of :func:`privlib.synth.min_alpha_for_pdp`, accounted at the prune-adjusted eps; parameter eps
* ``qwi`` -- QWI ramp noise per QI cell with QWI's small-cell suppression (:mod:`privlib.noise`,
  chapter 4); parameter b - 1
* ``swap`` -- SA swapping (:func:`privlib.reident.swap`, chapter 5); parameter rate
* ``laplace`` -- histogram with exact discrete Laplace noise
  (:func:`privlib.mechanisms.discrete_laplace`); parameter eps
* ``hierarchical`` -- Hay et al. (2010)'s hierarchical histogram with constrained inference
  (:func:`privlib.hierarchical.hierarchical_histogram`); parameter eps
* ``privelet`` -- Xiao, Wang & Gehrke (2010)'s Privelet, Haar wavelet
  (:func:`privlib.privelet.privelet_histogram`); parameter eps
* ``mst`` -- McKenna, Miklau & Sheldon (2021)'s MST synthesizer, (eps, 1e-6)-DP from rho-zCDP
  (:func:`privlib.synth.mst`, :func:`mst_release`); parameter eps
* ``unprotected``, ``sa-marginal``, ``one-class`` -- the scale's anchors (:func:`anchor_release`)

:func:`release` publishes one (family, value) and returns a :class:`Released` (the
decomposition, the guarantee it carries under its own neighbour relation, and its guarantee
under the common relation :data:`COMMON_RELATION`, see :func:`common_guarantee`);
:func:`measure` gives ``beta`` (and the raw ``beta_raw``) and ``alpha`` for every workload and
post-processing policy (:data:`POLICIES`, :func:`postprocess`); :func:`sweep` runs every
(family, value, seed) through :func:`privlib.experiments.run` with the seeds of
:func:`privlib.experiments.spawn` (seed ``i`` is the same for every family: common random
numbers), so the rows do not depend on ``n_jobs``.

Income classification accuracy is not measured: income is one of chapter 2's
quasi-identifiers, so a classifier trained on the releases would predict a column that every
release publishes (generalized) as a QI.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from .._progress import check_progress
from .._validation import check_in, check_int
from ..metrics import Workload
from ._robust import (ANCHORS, ATTACKERS, _attack_measures, anchor_release, attack_measures, bootstrap_bands,
                      bootstrap_difference, dp_odds_bound, fraction_workload, frontier, frontier_difference,
                      hierarchical_release, kendall_matrix, rank_families)
from ._runner import check_n_jobs, run, spawn
from ._scale_cells import MAX_HISTOGRAM_CELLS
from ._scale_measure import (POLICIES, _check_policies, _check_setup, _measure, definition2_workload,
                             estimate_sa_answers, measure, median_error, postprocess)
from ._scale_release import (COMMON_RELATION, DIFFGEN_H, FAMILIES, GUARANTEES, KDTREE_HEIGHT, NEIGHBOURS, OTM_DELTA,
                             OTM_MIN_P, OTM_RAMP, QWI_MIN_PERSONS, QWI_SUPPRESSED, SA_PERTURBING, Released,
                             adult_hierarchies, _check_value, common_guarantee, information_losses, release)
from ._scale_releases import MST_DELTA, mst_release, privelet_release
from .empirical_privacy import Setup

__all__ = ["FAMILIES", "GUARANTEES", "NEIGHBOURS", "COMMON_RELATION", "POLICIES", "SA_PERTURBING", "KDTREE_HEIGHT",
           "DIFFGEN_H", "OTM_DELTA", "OTM_MIN_P", "OTM_RAMP", "QWI_MIN_PERSONS", "QWI_SUPPRESSED", "MAX_HISTOGRAM_CELLS",
           "DETERMINISTIC",
           "Released", "ANCHORS", "ATTACKERS", "anchor_release", "attack_measures", "bootstrap_difference",
           "dp_odds_bound", "fraction_workload", "hierarchical_release", "privelet_release", "mst_release",
           "MST_DELTA", "bootstrap_bands",
           "frontier", "frontier_difference", "kendall_matrix", "rank_families",
           "adult_hierarchies", "common_guarantee", "definition2_workload", "postprocess",
           "estimate_sa_answers", "median_error", "release", "measure", "sweep", "information_losses"]


def _task(task: tuple, *, setup: Setup, workloads: Mapping, hierarchies: Mapping | None, diffgen_h: int,
          kdtree_height: int = KDTREE_HEIGHT,
          attacks: bool = False, errors: bool = False, policies: tuple = POLICIES,
          qwi_suppressed: str = "read-as-zero", rho: float | None = None) -> dict:
    """One task of :func:`sweep` (module level: worker processes import it by name); ``rho``: the
    setup's baseline accuracy (:func:`privlib.metrics.majority_accuracy`), read once per sweep."""
    from ..attacks import naive_bayes
    family, value, seed, child = task
    gen = np.random.default_rng(child)
    r = release(setup, family, value, rng=gen, hierarchies=hierarchies, diffgen_h=diffgen_h,
                kdtree_height=kdtree_height, qwi_suppressed=qwi_suppressed)
    # one naive-Bayes attack per release, shared by the attackers' measures and beta (it draws nothing); the
    # setup was checked by release
    nb = naive_bayes(r.decomposition, setup.df)
    more = _attack_measures(setup, r.decomposition, rng=gen, prediction=nb) if attacks else {}
    return {**more, "family": family, "parameter": GUARANTEES[family][0], "value": value, "seed": seed,
            "guarantee": r.guarantee, "relation": NEIGHBOURS[family], "eps_spent": r.decomposition.ledger.total(),
            "eps_common": r.eps_common, "eps_adjusted": float(r.decomposition.params.get("eps_adjusted", np.nan)),
            "dropped": float(r.decomposition.params.get("dropped_count", 0.0)),
            **_measure(setup, workloads, r.decomposition, errors=errors, policies=policies, prediction=nb,
                       checked=True, rho=rho)}


DETERMINISTIC = ("mondrian-k", "mondrian-l", "mondrian-t", "fulldomain-k", "fulldomain-l", "fulldomain-t", "tds",
                 *ANCHORS)


def sweep(setup: Setup, workloads: Workload | Mapping[str, Workload], grid: Mapping[str, Iterable[float]], *,
          seed: int, n_seeds: int, n_jobs: int = 1, progress: bool | str = False, desc: str = "one scale",
          hierarchies: Mapping | None = None, diffgen_h: int = DIFFGEN_H, kdtree_height: int = KDTREE_HEIGHT,
          deterministic: Sequence[str] = DETERMINISTIC, attacks: bool = False,
          errors: bool = False, policies: Sequence[str] = POLICIES,
          qwi_suppressed: str = "read-as-zero") -> pd.DataFrame:
    """Release and measure every (family, value, seed) of ``grid``; one row per task, in task order.

    Seed ``i`` is ``np.random.default_rng(spawn(seed, n_seeds)[i])`` for every family and value
    (common random numbers; the children of one ``seed`` do not depend on ``n_seeds``, so seeds
    ``0 .. n - 1`` of a longer run are those of a shorter one).  Families in ``deterministic``
    draw nothing and run once (seed 0).

    Parameters
    ----------
    setup : Setup
    workloads : Workload or mapping of str to Workload
        As :func:`measure`.
    grid : mapping
        ``{family: values}``.
    seed : int
        The sweep's seed (required, keyword-only).
    n_seeds : int
        Seeds per (randomized family, value), at least 1.
    n_jobs : int, default 1
        Worker processes (-1: every core); the rows do not depend on it.
    progress : bool or "text"
        A progress bar on stderr (``"text"``: reproducible, for notebooks).
    desc : str
        The bar's label.
    hierarchies : mapping, optional
        As :func:`release` (default :func:`adult_hierarchies` when a family needs them).
    diffgen_h, kdtree_height : int
        As :func:`release` (defaults :data:`DIFFGEN_H`, :data:`KDTREE_HEIGHT`).
    deterministic : sequence of str
        Families run once.
    attacks : bool, default False
        Also every attacker's breach, the worst-case variants and the linkage rate
        (:func:`attack_measures`, drawn after the release from the same generator).
    errors : bool, default False
        Also each workload's per-query relative errors on the raw counts (``err_<name>``, arrays).
    policies : sequence of str, default POLICIES
        The post-processing policies measured (:func:`measure`); the rows of a run that needs
        only the raw counts skip the others' answers.
    qwi_suppressed : str, default "read-as-zero"
        How QWI's suppressed cells are read (:data:`QWI_SUPPRESSED`, :func:`release`).

    Returns
    -------
    pandas.DataFrame
        ``family, parameter, value, seed, guarantee, relation, eps_spent`` (the ledger's total),
        ``eps_common`` (eps under :data:`COMMON_RELATION`, inf: none), ``dropped`` and
        :func:`measure`'s columns.

    Raises
    ------
    TypeError, ValueError
        For an unknown family, a bad value, ``n_seeds`` < 1, a bad ``n_jobs``, ``progress`` or ``policies``.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.metrics import range_workload
    >>> s = Setup("toy", pd.DataFrame({"x": range(8), "s": list("aaaabbbb")}), ("x",), "s", {"x": (0, 7)},
    ...           sa_values=("a", "b"))
    >>> wl = range_workload(s.df, ["x"], n=5, rng=0, domain=s.domain)
    >>> rows = sweep(s, wl, {"mondrian-k": [2, 4], "laplace": [1.0]}, seed=0, n_seeds=2)
    >>> rows[["family", "seed", "leaves"]].values.tolist()
    [['mondrian-k', 0, 4], ['mondrian-k', 0, 2], ['laplace', 0, 8], ['laplace', 1, 8]]
    """
    from ..metrics import majority_accuracy
    setup = _check_setup(setup)
    n_jobs = check_n_jobs(n_jobs)
    check_progress(progress)
    if isinstance(n_seeds, bool) or not isinstance(n_seeds, (int, np.integer)) or n_seeds < 1:
        raise ValueError(f"n_seeds: expected an int >= 1, got {n_seeds!r}")
    if not isinstance(grid, Mapping):
        raise TypeError(f"grid: expected a mapping family -> values, got {type(grid).__name__}")
    policies = _check_policies(policies, errors=bool(errors))
    children = spawn(seed, int(n_seeds))
    tasks = []
    for family, values in grid.items():
        check_in(family, "grid", FAMILIES)
        for v in values:
            _check_value(family, v)
            for i in range(1 if family in deterministic else int(n_seeds)):
                tasks.append((family, v, i, children[i]))
    if hierarchies is None:
        needs = any(f.startswith("fulldomain-") or f in ("tds", "diffgen") for f in grid)
        hierarchies = adult_hierarchies(setup) if needs else None
    if isinstance(workloads, Workload):
        workloads = {"w": workloads}
    rows = run(_task, tasks, n_jobs=n_jobs, progress=progress, desc=desc,
               shared={"setup": setup, "workloads": dict(workloads), "hierarchies": hierarchies,
                       "diffgen_h": diffgen_h, "kdtree_height": check_int(kdtree_height, "kdtree_height", minimum=1),
                       "attacks": bool(attacks),
                       "errors": bool(errors), "policies": policies,
                       "qwi_suppressed": check_in(qwi_suppressed, "qwi_suppressed", QWI_SUPPRESSED),
                       "rho": majority_accuracy(setup.df[setup.sa])})
    return pd.DataFrame(rows)
