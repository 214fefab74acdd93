"""Chapter 6, every source's mechanisms on one privacy/utility scale.

Cormode, Procopiuc, Shen, Srivastava & Yu (2013), Section II, measure any anonymization by
what an adversary learns -- the naive-Bayes breach ``beta`` (:func:`privlib.attacks.naive_bayes`,
:func:`privlib.metrics.privacy_breach`) -- and by what an analyst loses -- the median relative
error ``alpha`` of range COUNT queries over the quasi-identifiers
(:func:`privlib.metrics.median_relative_error`).  This module publishes the mechanisms of the
book's five sources on chapter 2's Adult setup
(:func:`privlib.experiments.empirical_privacy.adult_setup`) and converts each release to a
:class:`privlib.partition.Decomposition` with :mod:`privlib.release`, so that the same attack
and the same workload measure all of them:

* ``mondrian-k/l/t`` -- Mondrian (:func:`privlib.partition.mondrian`, chapter 2); parameter k, l, t
* ``dp-kdtree`` -- DP kd-tree (:func:`privlib.partition.dp_kdtree`, chapter 2); parameter eps
* ``fulldomain-k/l/t`` -- lattice search (:func:`privlib.generalization.search`, ch. 1); parameter k, l, t
* ``tds`` -- TDS (:func:`privlib.diffgen.tds`, chapter 3); parameter k
* ``diffgen`` -- DiffGen, the SA as class (:func:`privlib.diffgen.diffgen`); parameter eps
* ``onthemap`` -- Multinomial-Dirichlet (:func:`privlib.synth.synthesize_table`); parameter eps
* ``qwi`` -- QWI ramp noise per QI cell (:mod:`privlib.noise`, chapter 4); parameter b - 1
* ``swap`` -- SA swapping (:func:`privlib.reident.swap`, chapter 5); parameter rate
* ``laplace`` -- Laplace histogram (:func:`privlib.mechanisms.laplace`); parameter eps

:func:`release` publishes one (family, value) and returns a :class:`Released` (the
decomposition and the formal guarantee it carries); :func:`measure` gives ``beta`` and
``alpha``; :func:`sweep` runs every (family, value, seed) through
:func:`privlib.experiments.run` with the seeds of :func:`privlib.experiments.spawn` (seed
``i`` is the same for every family: common random numbers), so the rows do not depend on
``n_jobs``.

Income classification accuracy is not measured: income is one of chapter 2's
quasi-identifiers, so a classifier trained on the releases would predict a column that every
release publishes (generalized) as a QI.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._progress import check_progress
from .._validation import as_generator, check_in
from ..accounting import Ledger, LedgerEntry
from ..metrics import Workload
from ..partition import Decomposition
from ._runner import check_n_jobs, run, spawn
from .empirical_privacy import Setup, build, measure

__all__ = ["FAMILIES", "GUARANTEES", "SA_PERTURBING", "KDTREE_HEIGHT", "DIFFGEN_H", "Released", "adult_hierarchies", "release", "measure",
           "sweep", "information_losses"]

#: family -> (the parameter's name, the formal guarantee the release carries).
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
    "onthemap": ("eps", "eps-DP for each record's SA value, delta = 0, given the public QI-cell sizes"),
    "qwi": ("b - 1", "none"),
    "swap": ("rate", "none"),
    "laplace": ("eps", "eps-DP"),
}
#: The families, in the chapter's order.
FAMILIES = tuple(GUARANTEES)
#: Families that perturb only the sensitive attribute and keep every QI-cell size exact.
SA_PERTURBING = ("onthemap", "swap")
#: Height of the DP kd-tree (chapter 2's Figure 4).
KDTREE_HEIGHT = 10
#: DiffGen's number of specializations (chapter 3 uses 15 on all nine predictors).
DIFFGEN_H = 10
#: Public domain of hours per week for DiffGen's numerical taxonomy, ``[1, 100)``.
HOURS_DOMAIN = (1, 100)


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
        The release as boxes over the QI codes with SA histograms (ledger in ``.ledger``).
    guarantee : str
        The formal guarantee the release carries (:data:`GUARANTEES`).
    """

    family: str
    value: float
    decomposition: Decomposition
    guarantee: str


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


def _check_setup(setup) -> Setup:
    if not isinstance(setup, Setup):
        raise TypeError(f"setup: expected a privlib.experiments.empirical_privacy.Setup, got {type(setup).__name__}")
    return setup


def _decoded(setup: Setup, df: pd.DataFrame | None = None) -> pd.DataFrame:
    """The records with their categorical QIs as values (codes index ``setup.orders``)."""
    df = setup.df if df is None else df
    out = df.copy()
    for a, order in setup.orders.items():
        if a in setup.qi:
            out[a] = np.asarray(order, dtype=object)[df[a].to_numpy()]
    return out


def _domain(setup: Setup) -> tuple[np.ndarray, np.ndarray]:
    lo = np.array([setup.domain[a][0] for a in setup.qi], dtype=np.int64)
    hi = np.array([setup.domain[a][1] for a in setup.qi], dtype=np.int64)
    return lo, hi


def _cell_table(setup: Setup, *, full: bool) -> tuple[np.ndarray, np.ndarray]:
    """QI cells and their SA counts: every cell of the public domain (``full``) or those present.

    The cell key is a mixed-radix index over the public domain; its size is checked against
    int64 before it is formed.
    """
    lo, hi = _domain(setup)
    width = hi - lo + 1
    if float(np.prod(width.astype(float))) >= 2.0 ** 62:
        raise ValueError(f"setup: the QI domain has {np.prod(width.astype(float)):.3g} cells, too many for an "
                         "int64 cell key")
    X = setup.df[list(setup.qi)].to_numpy(np.int64) - lo
    key = np.ravel_multi_index(X.T, tuple(width))
    S = len(setup.sa_values)
    s = pd.Index(setup.sa_values).get_indexer(setup.df[setup.sa])
    if (s < 0).any():
        raise ValueError(f"setup: values of {setup.sa!r} outside sa_values")
    if full:
        n_cells = int(np.prod(width))
        counts = np.bincount(key * S + s, minlength=n_cells * S).reshape(n_cells, S).astype(float)
        cells = np.stack(np.unravel_index(np.arange(n_cells), tuple(width)), axis=1) + lo
        return cells, counts
    uniq, inv = np.unique(key, return_inverse=True)
    counts = np.bincount(inv.ravel() * S + s, minlength=uniq.size * S).reshape(uniq.size, S).astype(float)
    cells = np.stack(np.unravel_index(uniq, tuple(width)), axis=1) + lo
    return cells, counts


def _histogram(setup: Setup, cells, counts, *, ledger: Ledger | None, params: dict) -> Decomposition:
    from ..release import from_histogram
    lo, hi = _domain(setup)
    return from_histogram(cells, counts, qi=list(setup.qi), sa=setup.sa, sa_values=list(setup.sa_values),
                          domain_lower=lo, domain_upper=hi, ledger=ledger, params=params)


# ----------------------------------------------------------------------------- families
def _fulldomain(setup: Setup, model: str, value: float, hierarchies: Mapping) -> Decomposition:
    from ..generalization import encode_lattice, search
    from ..release import from_generalization
    from ..requirements import KAnonymity, LDiversity, TCloseness
    enc = encode_lattice(_decoded(setup), list(setup.qi), hierarchies, [setup.sa],
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


def _cut_intervals(setup: Setup, rel, a: str, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For QI ``a``: the cut index of every code of its public domain, and each cut's code interval."""
    lo, hi = setup.domain[a]
    codes = np.arange(lo, hi + 1)
    probe = pd.DataFrame({b: np.repeat(setup.df[b].to_numpy()[:1], codes.size) for b in setup.qi})
    probe[a] = codes
    g = rel.encode(_decoded(setup, probe))[:, j]
    cuts, first = np.unique(g, return_index=True)
    change = int((np.diff(g) != 0).sum())
    if change != cuts.size - 1:
        raise ValueError(f"release: a cut value of {a!r} is not an interval of codes (codes must follow the "
                         "hierarchy's depth-first leaf order)")
    last = np.array([codes[g == c].max() for c in cuts])
    return cuts, codes[first], last


def _from_diffgen(setup: Setup, rel, params: dict) -> Decomposition:
    """DiffGen / TDS release -> boxes: every combination of cut values is a box of QI codes."""
    from ..release import from_boxes
    per = [_cut_intervals(setup, rel, a, j) for j, a in enumerate(setup.qi)]
    sizes = tuple(len(p[0]) for p in per)
    grid = np.stack(np.unravel_index(np.arange(int(np.prod(sizes))), sizes), axis=1)
    lower = np.stack([per[j][1][grid[:, j]] for j in range(len(per))], axis=1)
    upper = np.stack([per[j][2][grid[:, j]] for j in range(len(per))], axis=1)
    # released rows -> grid position (rows of a numerical cut holding no integer code are dropped)
    pos = np.stack([np.searchsorted(per[j][0], rel.group_codes[:, j]) for j in range(len(per))], axis=1)
    pos = np.minimum(pos, np.array(sizes) - 1)
    ok = np.all(np.stack([per[j][0][pos[:, j]] == rel.group_codes[:, j] for j in range(len(per))], axis=1), axis=1)
    cell = np.ravel_multi_index(pos[ok].T, sizes)
    S = len(setup.sa_values)
    cls = pd.Index(setup.sa_values).get_indexer(np.asarray(rel.classes, dtype=object)[rel.class_codes[ok]])
    hist = np.bincount(cell * S + cls, weights=rel.counts[ok].astype(float),
                       minlength=grid.shape[0] * S).reshape(-1, S)
    params = {**params, "dropped_count": float(rel.counts[~ok].sum())}
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
    return _from_diffgen(setup, rel, {"model": "diffgen", "eps": value, "h": h,
                                      "eps_unspent": rel.eps_unspent})


def _onthemap(setup: Setup, eps: float, gen) -> Decomposition:
    from ..synth import synthesize_table
    cells, counts = _cell_table(setup, full=False)
    # OnTheMap's workplace totals are public; here each QI cell is a workplace and its size is
    # published exactly (the guarantee protects each record's SA value, not its QI cell)
    syn = synthesize_table(counts, eps=eps, rng=gen, totals=counts.sum(axis=1))
    syn.ledger.check(eps)
    return _histogram(setup, cells, syn.counts.to_numpy(float), ledger=syn.ledger,
                      params={"model": "onthemap", "eps": eps})


def _qwi(setup: Setup, excess: float, gen) -> Decomposition:
    from ..noise import RampDistribution, draw_factors
    cells, counts = _cell_table(setup, full=False)
    dist = RampDistribution(1 + excess / 2, 1 + excess)        # distortion between b/2 and b
    delta = draw_factors(np.arange(cells.shape[0]), dist=dist, rng=gen).to_numpy()
    return _histogram(setup, cells, counts * delta[:, None], ledger=None,
                      params={"model": "qwi", "a": 1 + excess / 2, "b": 1 + excess})


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
    from ..mechanisms import laplace
    cells, counts = _cell_table(setup, full=True)
    noisy = laplace(counts, eps=eps, sensitivity=1.0, rng=gen)
    ledger = Ledger([LedgerEntry("laplace", eps, "parallel", group="QI cell x SA counts",
                                 detail="one count per cell of the public domain, sensitivity 1")])
    ledger.check(eps)
    return _histogram(setup, cells, noisy, ledger=ledger, params={"model": "laplace", "eps": eps})


def _check_value(family: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not np.isfinite(value):
        raise TypeError(f"value: expected a finite number for family {family!r}, got {value!r}")
    name = GUARANTEES[family][0]
    if name in ("k", "l"):
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
            hierarchies: Mapping | None = None, diffgen_h: int = DIFFGEN_H) -> Released:
    """Publish ``setup`` with one mechanism and convert the release to a Decomposition.

    ``mondrian-*`` and ``dp-kdtree``: :func:`privlib.experiments.empirical_privacy.build`
    (chapter 2's settings: t on k = 8 with the source's rule; a DP kd-tree of height
    :data:`KDTREE_HEIGHT`).
    ``fulldomain-*``: the minimal lattice node of smallest discernibility
    (:func:`privlib.generalization.search`; l alone, t with 8-anonymity as chapter 2's t)
    -> :func:`privlib.release.from_generalization`.  ``tds`` / ``diffgen``: chapter 3's
    algorithms with the QIs as predictors and the SA as class (DiffGen: ``h`` =
    :data:`DIFFGEN_H`, hours per week on ``[1, 100)``); every combination of cut values is a
    box (a hierarchy node is an interval of codes) -> :func:`privlib.release.from_boxes`; a
    numerical cut interval that holds no integer code (DiffGen draws split points uniformly inside
    an interval) holds no record, so its noisy counts are left out (``params["dropped_count"]``).
    ``onthemap``: :func:`privlib.synth.synthesize_table` on the QI-cell x SA table (cell sizes
    public) -> :func:`privlib.release.from_histogram`.  ``qwi``: one ramp factor per QI cell
    with ``a = 1 + value / 2``, ``b = 1 + value`` (slide "Noise Factor Distribution").
    ``swap``: each record joins the swap set with probability ``value``; the SA values of the
    set are permuted (:func:`privlib.reident.swap`) -> :func:`privlib.release.from_microdata`.
    ``laplace``: ``Lap(1/eps)`` on every QI cell x SA count of the public domain.

    Parameters
    ----------
    setup : Setup
        Coded records with public domains and SA values (chapter 2).
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

    Returns
    -------
    Released

    Raises
    ------
    TypeError, ValueError
        For a non-Setup, an unknown ``family`` or a parameter outside its range (the message
        names the argument and the value), and the mechanisms' own checks.

    Examples
    --------
    >>> import pandas as pd
    >>> s = Setup("toy", pd.DataFrame({"x": [0, 0, 1, 1], "s": list("abab")}), ("x",), "s", {"x": (0, 1)},
    ...           sa_values=("a", "b"))
    >>> r = release(s, "laplace", 1.0, rng=0)
    >>> r.guarantee, r.decomposition.n_leaves, r.decomposition.ledger.total()
    ('eps-DP', 2, 1.0)
    """
    setup = _check_setup(setup)
    check_in(family, "family", FAMILIES)
    value = _check_value(family, value)
    gen = as_generator(rng)
    if family.startswith("mondrian-") or family == "dp-kdtree":
        model = "eps" if family == "dp-kdtree" else family[-1]
        dec = build(setup, model, value, rng=gen, **({"height": KDTREE_HEIGHT} if model == "eps" else {}))
    elif family.startswith("fulldomain-") or family in ("tds", "diffgen"):
        hierarchies = adult_hierarchies(setup) if hierarchies is None else hierarchies
        if family.startswith("fulldomain-"):
            dec = _fulldomain(setup, family[-1], value, hierarchies)
        else:
            dec = _diffgen(setup, family, value, hierarchies, gen, diffgen_h)
    else:
        dec = {"onthemap": _onthemap, "qwi": _qwi, "swap": _swap, "laplace": _laplace}[family](setup, value, gen)
    if GUARANTEES[family][1] == "eps-DP" or family == "onthemap":
        dec.ledger.check(value)
    return Released(family, value, dec, GUARANTEES[family][1])


def _task(task: tuple, *, setup: Setup, workload: Workload, hierarchies: Mapping | None, diffgen_h: int) -> dict:
    """One task of :func:`sweep` (module level: worker processes import it by name)."""
    family, value, seed, child = task
    r = release(setup, family, value, rng=np.random.default_rng(child), hierarchies=hierarchies,
                diffgen_h=diffgen_h)
    return {"family": family, "parameter": GUARANTEES[family][0], "value": value, "seed": seed,
            "guarantee": r.guarantee, "eps_spent": r.decomposition.ledger.total(),
            "dropped": float(r.decomposition.params.get("dropped_count", 0.0)),
            **measure(setup, workload, r.decomposition)}


def sweep(setup: Setup, workload: Workload, grid: Mapping[str, Iterable[float]], *, seed: int, n_seeds: int,
          n_jobs: int = 1, progress: bool | str = False, desc: str = "one scale", hierarchies: Mapping | None = None,
          diffgen_h: int = DIFFGEN_H,
          deterministic: Sequence[str] = ("mondrian-k", "mondrian-l", "mondrian-t", "fulldomain-k", "fulldomain-l",
                                          "fulldomain-t", "tds")) -> pd.DataFrame:
    """Release and measure every (family, value, seed) of ``grid``; one row per task, in task order.

    Seed ``i`` is ``np.random.default_rng(spawn(seed, n_seeds)[i])`` for every family and value
    (common random numbers).  Families in ``deterministic`` draw nothing and run once (seed 0).

    Parameters
    ----------
    setup : Setup
    workload : privlib.metrics.Workload
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
    diffgen_h : int, default :data:`DIFFGEN_H`
        As :func:`release`.
    deterministic : sequence of str
        Families run once.

    Returns
    -------
    pandas.DataFrame
        ``family, parameter, value, seed, guarantee, eps_spent``, ``dropped`` (TDS / DiffGen: the
        released count of cells whose numerical interval holds no integer code, left out of the
        boxes) and :func:`measure`'s columns.

    Raises
    ------
    TypeError, ValueError
        For an unknown family, a bad value, ``n_seeds`` < 1, a bad ``n_jobs`` or ``progress``.

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
    setup = _check_setup(setup)
    n_jobs = check_n_jobs(n_jobs)
    check_progress(progress)
    if isinstance(n_seeds, bool) or not isinstance(n_seeds, (int, np.integer)) or n_seeds < 1:
        raise ValueError(f"n_seeds: expected an int >= 1, got {n_seeds!r}")
    if not isinstance(grid, Mapping):
        raise TypeError(f"grid: expected a mapping family -> values, got {type(grid).__name__}")
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
    rows = run(_task, tasks, n_jobs=n_jobs, progress=progress, desc=desc,
               shared={"setup": setup, "workload": workload, "hierarchies": hierarchies, "diffgen_h": diffgen_h})
    return pd.DataFrame(rows)


def information_losses(setup: Setup, families: Sequence[str], *, k: int, hierarchies: Mapping | None = None,
                       categorical: Sequence[str] | None = None) -> pd.DataFrame:
    """Information loss of k-anonymous releases (:func:`privlib.release.information_loss`), one row each.

    Parameters
    ----------
    setup : Setup
    families : sequence of str
        Deterministic k-anonymity families (``"mondrian-k"``, ``"fulldomain-k"``, ``"tds"``).
    k : int
        The k of every release (and of C_avg).
    hierarchies : mapping, optional
        As :func:`release`.
    categorical : sequence of str, optional
        QIs whose NCP is the categorical ``|u| / |A|`` (default: the QIs listed in
        ``setup.orders``).

    Returns
    -------
    pandas.DataFrame
        Indexed by family: ``classes``, ``ncp_tight``, ``ncp_box``, ``dm``, ``c_avg``.

    Raises
    ------
    ValueError
        For a family that is not a k-anonymity family.

    Examples
    --------
    >>> import pandas as pd
    >>> s = Setup("toy", pd.DataFrame({"x": range(8), "s": list("aaaabbbb")}), ("x",), "s", {"x": (0, 7)})
    >>> information_losses(s, ["mondrian-k"], k=4)[["classes", "dm", "c_avg"]].values.tolist()
    [[2.0, 32.0, 1.0]]
    """
    from ..release import information_loss
    setup = _check_setup(setup)
    for f in families:
        check_in(f, "families", tuple(f for f in FAMILIES if GUARANTEES[f][0] == "k"))
    if categorical is None:
        categorical = [a for a in setup.qi if a in setup.orders]
    rows = {}
    for f in families:
        dec = release(setup, f, k, rng=0, hierarchies=hierarchies).decomposition   # deterministic: rng unused
        loss = information_loss(setup.df, dec, k=k, categorical=list(categorical))
        rows[f] = {"classes": float(loss.n_classes), "ncp_tight": loss.ncp_tight, "ncp_box": loss.ncp_box,
                   "dm": loss.dm, "c_avg": loss.c_avg}
    return pd.DataFrame.from_dict(rows, orient="index")
