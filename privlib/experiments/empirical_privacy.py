"""Chapter 2, empirical privacy and empirical utility: the setups and sweeps of the source.

Cormode, Procopiuc, Shen, Srivastava & Yu, *Empirical privacy and empirical utility of
anonymized data* (ICDE Workshops 2013), Section III "Experiments": the data sets as the chapter
codes them (:func:`adult_setup`, :func:`census_setup`, :class:`Setup`); one decomposition
(:func:`build`: Mondrian k / l / t or the DP kd-tree); one point of a figure (:func:`evaluate`:
build, attack every record with :func:`privlib.attacks.naive_bayes`, answer the workload with
:func:`privlib.metrics.median_relative_error`); many points (:func:`sweep`, through
:func:`privlib.experiments.run`: every task carries its own int seed -- the chapter uses the run
index, common random numbers across models -- so the rows do not depend on ``n_jobs``); and the
readings of the source's workload compared in the chapter (:func:`query_readings`).
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._progress import check_progress
from .._validation import as_generator, check_in, check_probability
from ..metrics import (Workload, estimate_answers, leaf_counts, median_relative_error, overlap_fractions,
                       privacy_breach)
from ..partition import Decomposition, dp_kdtree, encode_ordinal, mondrian
from ._readings import QUERY_READINGS, QuerySample, query_readings
from ._runner import check_n_jobs, run

__all__ = ["ADULT_QI", "ADULT_SA", "CENSUS_QI", "CENSUS_SA", "CENSUS_EDUCATION", "N_SALARY_CLASSES", "Setup",
           "adult_setup", "census_setup", "industry_pay_class", "build", "measure", "evaluate", "sweep", "QUERY_READINGS",
           "QuerySample", "query_readings", "best_share"]


# ----------------------------------------------------------------------------- setups
#: The quasi-identifiers of the Adult set-up (Section V of the source).
ADULT_QI = ("workclass", "education", "sex", "hours_per_week", "income")
#: The sensitive attribute of the Adult set-up.
ADULT_SA = "occupation"
#: The quasi-identifiers of the census set-up.
CENSUS_QI = ("age", "state", "education", "occupation")
#: The sensitive attribute of the census set-up (salary in classes).
CENSUS_SA = "salary_class"
#: The census education levels, in increasing order (the ordinal code of the QI).
CENSUS_EDUCATION = (
    "Children", "Less than 1st grade", "1st 2nd 3rd or 4th grade", "5th or 6th grade", "7th and 8th grade",
    "9th grade", "10th grade", "11th grade", "12th grade no diploma", "High school graduate",
    "Some college but no degree", "Associates degree-occup /vocational", "Associates degree-academic program",
    "Bachelors degree(BA AB BS)", "Masters degree(MA MS MEng MEd MSW MBA)",
    "Prof school degree (MD DDS DVM LLB JD)", "Doctorate degree(PhD EdD)",
)
#: Number of salary classes of the census sensitive attribute.
N_SALARY_CLASSES = 10


@dataclass(frozen=True, eq=False)
class Setup:
    """One experimental setup: coded data, QIs, SA, public domains and the orders used.

    Attributes
    ----------
    name, df, qi, sa : str, pandas.DataFrame, tuple of str, str
        The name, the coded records (ordered integer codes on the QIs), the QIs and the SA.
    domain, orders : dict
        ``{qi: (low, high)}`` public code ranges; ``{column: values in code order}``.
    distance : {"equal", "ordered"}
        The ground distance of t-closeness on the SA.
    sa_values : tuple or None
        The public SA values (histogram columns); None: the values present.

    Examples
    --------
    >>> import pandas as pd
    >>> s = Setup("toy", pd.DataFrame({"x": range(10), "s": list("ab") * 5}), ("x",), "s", {"x": (0, 9)})
    >>> s.n, s.sample(0.5, rng=0).n
    (10, 5)
    """

    name: str
    df: pd.DataFrame
    qi: tuple
    sa: str
    domain: dict
    orders: dict = field(default_factory=dict)
    distance: str = "equal"
    #: the public set of sensitive values (histogram columns); None: the values present
    sa_values: tuple | None = None

    @property
    def n(self) -> int:
        """Number of records."""
        return len(self.df)

    def sample(self, fraction: float, *, rng: int | np.random.Generator) -> "Setup":
        """A simple random sample of ``round(fraction * n)`` records (same domains), for Figure 6(b).

        Parameters
        ----------
        fraction : float in (0, 1]
        rng : int or numpy.random.Generator
            Required, keyword-only.

        Returns
        -------
        Setup

        Raises
        ------
        ValueError
            For a fraction outside (0, 1] or one that rounds to no record.
        """
        fraction = check_probability(fraction, "fraction", low_open=True)
        gen = as_generator(rng)
        m = int(round(fraction * self.n))
        if m < 1:
            raise ValueError(f"fraction: {fraction!r} of {self.n} records rounds to an empty sample")
        idx = np.sort(gen.choice(self.n, size=m, replace=False))   # sort: distinct indices
        return Setup(self.name, self.df.iloc[idx].reset_index(drop=True), self.qi, self.sa, self.domain,
                     self.orders, self.distance, self.sa_values)


def adult_setup(df: pd.DataFrame | None = None) -> Setup:
    """Adult (train, 30,162 complete records): QIs workclass, education, sex, hours per week,
    income; SA occupation (Section III).

    Orders of the categorical QIs: workclass and sex in the leaf order of the Adult
    hierarchies (``privlib.data.load_hierarchy``: Private, Self-emp-not-inc, Self-emp-inc,
    Federal-gov, State-gov, Local-gov, Without-pay, Never-worked; Female, Male); education
    by ``education_num`` (Preschool ... Doctorate); income ``<=50K`` < ``>50K``.  Public domains:
    the code ranges of these orders (the values listed in ``adult.names``), hours per week 1..99
    (the range of the CPS question on usual weekly hours, top-coded at 99).  Public SA values:
    the 14 occupations listed in ``adult.names`` (the occupation hierarchy's leaves), sorted.

    Parameters
    ----------
    df : pandas.DataFrame, optional
        Adult records (default ``privlib.data.load_adult(split="train")``).

    Returns
    -------
    Setup

    Examples
    --------
    >>> s = adult_setup()
    >>> s.n, s.qi, len(s.sa_values)
    (30162, ('workclass', 'education', 'sex', 'hours_per_week', 'income'), 14)
    """
    from .. import data
    if df is None:
        df = data.load_adult(split="train")
    edu = df.drop_duplicates("education").sort_values("education_num", kind="stable")["education"].tolist()
    full_edu = list(data.load_hierarchy("education").leaves)
    if sorted(edu) != sorted(full_edu) or [e for e in full_edu if e in edu] != edu:
        full_edu = edu  # pragma: no cover - the hierarchy's leaf order is the education_num order
    orders = {
        "workclass": list(data.load_hierarchy("workclass").leaves),
        "education": full_edu,
        "sex": list(data.load_hierarchy("sex").leaves),
        "income": ["<=50K", ">50K"],
    }
    coded = encode_ordinal(df[list(ADULT_QI) + [ADULT_SA]], orders)
    domain = {c: (0, len(orders[c]) - 1) for c in orders}
    domain["hours_per_week"] = (1, 99)
    sa_values = tuple(sorted(data.load_hierarchy("occupation").leaves))
    return Setup("Adult", coded.reset_index(drop=True), ADULT_QI, ADULT_SA, domain, orders, "equal", sa_values)


def industry_pay_class(industry: Sequence, income: Sequence, *, n_classes: int = N_SALARY_CLASSES) -> np.ndarray:
    """An ordinal "salary class" from industry codes: the pay level of each record's industry.

    Industries are ranked by their share of incomes over 50,000 (ties: by code), then cut
    into ``n_classes`` groups of roughly equal numbers of records: a record's class is
    ``floor(n_classes * m)``, ``m`` the midpoint of its industry's slice of the cumulative
    record mass.  Class 0 holds the lowest-paid industries.

    Parameters
    ----------
    industry, income : sequence
        Each record's industry code and income class (``"50000+"`` counts as high).
    n_classes : int, default 10

    Returns
    -------
    numpy.ndarray
        One int64 class per record.

    Examples
    --------
    >>> industry_pay_class([1, 1, 2, 2], ["50000+", "-50000", "-50000", "-50000"], n_classes=2).tolist()
    [1, 1, 0, 0]
    """
    frame = pd.DataFrame({"ind": np.asarray(industry), "rich": np.asarray(income) == "50000+"})
    stats = frame.groupby("ind")["rich"].agg(["mean", "size"]).reset_index()
    stats = stats.sort_values(["mean", "ind"], kind="stable")
    mass = stats["size"].to_numpy() / len(frame)
    mid = np.cumsum(mass) - mass / 2
    cls = np.minimum(np.floor(mid * n_classes).astype(np.int64), n_classes - 1)
    lookup = dict(zip(stats["ind"].tolist(), cls.tolist()))
    return frame["ind"].map(lookup).to_numpy(np.int64)


def census_setup(df: pd.DataFrame | None = None) -> Setup:
    """The census substitute (UCI Census-Income KDD 1994-95; records with an occupation).

    The source's QIs are age, (insurance) state, education and occupation and its SA a
    salary class, from 100,000 records of the 2009 IPUMS USA ACS.  The substitute
    (``privlib.data.load_census``, 100,000 CPS records) has no current state of residence
    and no salary amount, so:

    * population: the 49,627 records with an occupation (``detailed_occupation_recode > 0``),
      as ``privlib.data.load_ipums`` keeps only records with an occupation -- the other
      half are children and people out of the labour force, who have no salary class;
    * ``state`` = ``state_of_previous_residence`` (51 values; "Not in universe" for the
      ~92% who did not move), ordered "Not in universe", "?", "Abroad", then the states
      alphabetically;
    * ``education`` ordered by attainment (Children ... Doctorate degree);
    * ``occupation`` = ``detailed_occupation_recode`` (codes 1..46);
    * ``salary_class`` = :func:`industry_pay_class` of ``detailed_industry_recode`` -- ten
      ordered classes of industries by their share of incomes over 50,000 (the file's only
      pay information besides a rarely filled hourly wage): a group-level stand-in for
      the individual salary class.

    Public domains: age 0..90 (the CPS top-codes age at 90), the code ranges of the state
    and education orders, occupation codes 1..46 (the detailed occupation recode runs 0..46,
    0 = not in universe, excluded); public SA values: the classes 0..9 by construction.

    Parameters
    ----------
    df : pandas.DataFrame, optional
        Census records (default ``privlib.data.load_census()``).

    Returns
    -------
    Setup

    Examples
    --------
    >>> s = census_setup()
    >>> s.n, s.qi, s.distance
    (49627, ('age', 'state', 'education', 'occupation'), 'ordered')
    """
    from .. import data
    if df is None:
        df = data.load_census()
    df = df[df["detailed_occupation_recode"] > 0]
    states = sorted(set(df["state_of_previous_residence"]) - {"Not in universe", "?", "Abroad"})
    state_order = ["Not in universe", "?", "Abroad"] + states
    out = pd.DataFrame({
        "age": df["age"].astype("int64").to_numpy(),
        "state": df["state_of_previous_residence"].to_numpy(),
        "education": df["education"].to_numpy(),
        "occupation": df["detailed_occupation_recode"].astype("int64").to_numpy(),
        "salary_class": industry_pay_class(df["detailed_industry_recode"], df["income"]),
    })
    orders = {"state": state_order, "education": list(CENSUS_EDUCATION)}
    coded = encode_ordinal(out, orders)
    domain = {"age": (0, 90), "state": (0, len(state_order) - 1), "education": (0, len(CENSUS_EDUCATION) - 1),
              "occupation": (1, 46)}
    return Setup("Census", coded.reset_index(drop=True), CENSUS_QI, CENSUS_SA, domain, orders, "ordered",
                 tuple(range(N_SALARY_CLASSES)))


# ----------------------------------------------------------------------------- sweeps
def build(setup: Setup, model: str, value: float, *, rng: int | np.random.Generator, **kw: Any) -> Decomposition:
    """Build the decomposition of ``model`` ("k", "l", "t", "eps") with parameter ``value``.

    ``"k"``: Mondrian k-anonymity; ``"l"``: Mondrian ell-diversity (with k = 1 unless given);
    ``"t"``: Mondrian t-closeness on k = 8 (as the source), with the source's splitting rule
    (``t_rule="source"``: "nodes having EMD (compared to root) larger than the threshold t will
    not be split further", Section III; a leaf may then exceed t) unless ``t_rule="strict"``
    is given (every leaf within t, see :func:`privlib.partition.mondrian`); ``"eps"``: the DP kd-tree
    (``height`` keyword, default 8), drawn with ``rng`` (required, keyword-only; checked but
    unused by the deterministic Mondrian models).  The setup's public ``domain`` and
    ``sa_values`` are passed to the builder.

    Parameters
    ----------
    setup : Setup
    model : {"k", "l", "t", "eps"}
    value : int or float (k, l, t or eps)
    rng : int or numpy.random.Generator
        Required, keyword-only.
    **kw
        ``max_height``, ``k`` (for l and t), ``l_kind``, ``t_rule``, ``height``, ``median_fraction``.

    Returns
    -------
    privlib.partition.Decomposition

    Raises
    ------
    TypeError, ValueError
        For a non-Setup, a missing ``rng``, an unknown ``model`` (and the builders' own checks).

    Examples
    --------
    >>> import pandas as pd
    >>> s = Setup("toy", pd.DataFrame({"x": range(8), "s": list("aaaabbbb")}), ("x",), "s", {"x": (0, 7)})
    >>> build(s, "k", 2, rng=0).n_leaves, build(s, "t", 0.3, rng=0, k=2).n_leaves
    (4, 2)
    """
    if not isinstance(setup, Setup):
        raise TypeError(f"setup: expected a privlib.experiments.empirical_privacy.Setup, got {type(setup).__name__}")
    check_in(model, "model", ("k", "l", "t", "eps"))
    gen = as_generator(rng)
    qi, sa = list(setup.qi), setup.sa
    common = dict(domain=setup.domain, sa_values=setup.sa_values)
    if model == "k":
        return mondrian(setup.df, qi, sa, k=value, max_height=kw.get("max_height"), **common)
    if model == "l":
        return mondrian(setup.df, qi, sa, k=kw.get("k", 1), l=value, l_kind=kw.get("l_kind", "distinct"),
                        max_height=kw.get("max_height"), **common)
    if model == "t":
        return mondrian(setup.df, qi, sa, k=kw.get("k", 8), t=value, distance=setup.distance,
                        t_rule=kw.get("t_rule", "source"), max_height=kw.get("max_height"), **common)
    return dp_kdtree(setup.df, qi, sa, eps=value, height=kw.get("height", 8), rng=gen,
                     median_fraction=kw.get("median_fraction", 0.3), **common)


def measure(setup: Setup, workload: Workload, decomposition: Decomposition) -> dict:
    """beta and alpha of one release: the naive-Bayes attack on every record and the workload's error.

    Parameters
    ----------
    setup : Setup
        The records attacked (all of them, as chapter 2).
    workload : privlib.metrics.Workload
        The range queries (the same for every mechanism).
    decomposition : privlib.partition.Decomposition
        The release.

    Returns
    -------
    dict
        ``leaves``, ``accuracy`` (of the attack), ``rho`` (the majority baseline), ``beta``
        (``accuracy / rho - 1``) and ``alpha`` (median relative error).

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.metrics import range_workload
    >>> s = Setup("toy", pd.DataFrame({"x": range(8), "s": list("aaaabbbb")}), ("x",), "s", {"x": (0, 7)})
    >>> wl = range_workload(s.df, ["x"], n=5, rng=0, domain=s.domain)
    >>> m = measure(s, wl, build(s, "k", 4, rng=0))
    >>> m["beta"], m["alpha"]
    (1.0, 0.0)
    """
    if not isinstance(setup, Setup):
        raise TypeError(f"setup: expected a privlib.experiments.empirical_privacy.Setup, got {type(setup).__name__}")
    return {**_breach(setup, decomposition), "alpha": median_relative_error(decomposition, workload)}


#: Share of the most confident guesses read by ``accuracy_top`` (:func:`evaluate`).
TOP_SHARE = 0.10


def _top_correct(prediction, share: float = TOP_SHARE) -> np.ndarray:
    """Whether each of the ``share`` most confident guesses of ``prediction`` is right.

    The variation of Definition 1 the source names after it ("restricting to the top-k tuples
    based on the confidence in their prediction"): the ``round(share * n)`` records (at least one)
    with the highest belief, ties in record order (a stable sort).
    """
    correct = prediction.predicted == prediction.actual
    k = max(int(round(share * correct.size)), 1)
    return correct[np.argsort(-prediction.confidence, kind="stable")[:k]]


def _breach(setup: Setup, decomposition: Decomposition, *, top: bool = False) -> dict:
    """The naive-Bayes attack on every record of ``setup``: leaves, accuracy, rho and beta
    (``top=True``: and ``accuracy_top``, on the ``TOP_SHARE`` (10%) most confident guesses)."""
    from ..attacks import naive_bayes
    pred = naive_bayes(decomposition, setup.df)
    br = privacy_breach(pred)
    out = {"leaves": int(decomposition.n_leaves), "accuracy": br.accuracy, "rho": br.rho, "beta": br.beta}
    if top:
        out["accuracy_top"] = float(np.mean(_top_correct(pred)))
    return out


#: The post-processings of noisy counts compared for alpha (:func:`privlib.metrics.leaf_counts`).
_ALPHA_VARIANTS = (("alpha", {}), ("alpha_clipped", {"clip_negative": True}),
                   ("alpha_clipped_total", {"clip_negative": True, "match_total": True}))


#: Cells of the grid (the product of the QI widths + 1) up to which the three alphas use the grid method.
_GRID_CELLS = 1_000_000


def _alphas(workload: Workload, decomposition: Decomposition) -> dict:
    """alpha from the counts as released, clipped, and clipped then rescaled to the noisy total.

    A small domain (Adult) answers each from the grid of :func:`privlib.metrics.estimate_answers`;
    a large one (the census) from one overlap matrix shared by the three -- in both cases the
    method ``estimate_answers`` itself picks there, so the main alpha is the one
    :func:`measure` gives, without a second overlap matrix.
    """
    widths = (decomposition.domain_upper - decomposition.domain_lower + 2).astype(float)
    if np.prod(widths) <= _GRID_CELLS:
        answers = [estimate_answers(decomposition, workload, method="grid", **kw) for _, kw in _ALPHA_VARIANTS]
    else:
        frac = overlap_fractions(decomposition, workload).astype(np.float64)
        answers = [frac @ leaf_counts(decomposition, **kw).astype(np.float64) for _, kw in _ALPHA_VARIANTS]
    return {col: float(np.median(np.abs(est - workload.answers) / workload.answers))
            for (col, _), est in zip(_ALPHA_VARIANTS, answers)}


def evaluate(setup: Setup, workload: Workload, model: str, value: float, *, rng: int | np.random.Generator,
             **kw: Any) -> dict:
    """Build, attack every record, answer the workload: one row of a figure.

    Returns a dict with ``model, value, seed, leaves, accuracy, rho, beta, alpha,
    accuracy_top`` (the attack's accuracy on its ``TOP_SHARE`` (10%) most confident guesses, the
    variation of Definition 1 that keeps the top tuples by confidence) and the keywords; ``seed`` is ``rng`` when it is an int seed (None for a Generator).  The keyword
    ``second_classifier=True`` (not passed to :func:`build`) adds ``accuracy_majority`` and
    ``beta_majority``: the same for a second classifier, the leaf's most frequent SA value
    (:func:`privlib.attacks.leaf_majority`).  For ``model="t"``, also
    ``leaf_emd_max`` (the largest EMD of a leaf to the whole table) and ``share_above_t`` (the
    share of records in leaves farther than ``t``: 0 under the strict rule, possibly more under
    the source's).  ``rng``
    (int or numpy Generator) is required and keyword-only.  ``rho`` is the baseline accuracy on ``setup.df``.  The keyword
    ``alpha_variants=True`` (not passed to :func:`build`) adds ``alpha_clipped`` and
    ``alpha_clipped_total``: the median relative error from counts with negative cells
    rounded up to 0, and from those counts rescaled to the noisy total
    (:func:`privlib.metrics.leaf_counts`), the census's three from one overlap matrix.

    Parameters
    ----------
    setup, workload : Setup, privlib.metrics.Workload
    model, value, rng
        As for :func:`build`.
    **kw
        :func:`build`'s keywords, and ``second_classifier``, ``alpha_variants``.

    Returns
    -------
    dict (one row of a figure)

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.metrics import range_workload
    >>> s = Setup("toy", pd.DataFrame({"x": range(8), "s": list("aaaabbbb")}), ("x",), "s", {"x": (0, 7)})
    >>> wl = range_workload(s.df, ["x"], n=5, rng=0, domain=s.domain)
    >>> row = evaluate(s, wl, "k", 4, rng=0)
    >>> row["leaves"], row["accuracy"], row["beta"], row["alpha"]
    (2, 1.0, 1.0, 0.0)
    """
    from ..attacks import leaf_majority
    from ..closeness import emd_equal, emd_ordered
    variants = bool(kw.pop("alpha_variants", False))
    second = bool(kw.pop("second_classifier", False))
    seed = int(rng) if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) else None
    dec = build(setup, model, value, rng=rng, **kw)
    # with the variants, one overlap matrix gives all three alphas (the main one included)
    alphas = _alphas(workload, dec) if variants else {"alpha": median_relative_error(dec, workload)}
    m = {**_breach(setup, dec, top=True), **alphas}
    row = dict(model=model, value=value, seed=seed, **kw, leaves=m["leaves"], depth=dec.height,
               **{key: m[key] for key in ("accuracy", "rho", "beta", "alpha", "accuracy_top")})
    if second:
        maj = privacy_breach(leaf_majority(dec, setup.df))
        row.update(accuracy_majority=maj.accuracy, beta_majority=maj.beta)
    if model == "t":
        emd = emd_ordered if dec.params["distance"] == "ordered" else emd_equal
        H = dec.histograms
        d = emd(H / np.maximum(dec.counts, 1)[:, None], H.sum(axis=0) / H.sum())
        row["leaf_emd_max"] = float(d.max())
        row["share_above_t"] = float(dec.counts[d > value + 1e-12].sum() / dec.counts.sum())
    if variants:
        row.update(alpha_clipped=m["alpha_clipped"], alpha_clipped_total=m["alpha_clipped_total"])
    return row


def _evaluate_task(task: tuple, *, setups: Mapping, workloads: Mapping) -> dict:
    """One task of :func:`sweep` (module level: worker processes import it by name)."""
    key, model, value, seed, kw = task
    return evaluate(setups[key], workloads[key], model, value, rng=seed, **kw)


def sweep(setups: Mapping[Hashable, Setup], workloads: Mapping[Hashable, Workload], tasks: Iterable[tuple], *,
          n_jobs: int = 1, backend: str | None = "loky", progress: bool | str = False,
          desc: str = "sweep") -> pd.DataFrame:
    """Run many :func:`evaluate` calls; one row per task, in task order.

    The tasks go through :func:`privlib.experiments.run` (joblib; on a cluster through its Dask
    or Ray backend, see :mod:`privlib.experiments`).  Each task carries its own int seed -- the
    chapter uses the run index, so the same seed gives every model the same noise (common
    random numbers) -- and the rows do not depend on ``n_jobs`` or the backend.

    Parameters
    ----------
    setups, workloads : mapping
        ``{key: Setup}`` and ``{key: Workload}``.
    tasks : iterable of (key, model, value, seed, kwargs)
        ``seed``: the task's own rng (a required int seed: randomness is never a default;
        ``None`` is refused).
    n_jobs : int, default 1
        1 runs in this process; more, or -1 for every core, run in parallel.
    backend : str or None, default "loky"
        joblib backend (None: the active ``joblib.parallel_config``).
    progress : bool or "text"
        ``True``: tqdm's live bar; ``"text"``: a reproducible text bar on stderr (for
        notebooks checked by nbval); ``False``: none.
    desc : str
        The bar's label.

    Returns
    -------
    pandas.DataFrame
        One row per task: ``data`` (the key) and :func:`evaluate`'s columns.

    Raises
    ------
    TypeError, ValueError
        For a seed that is not a non-negative int; an unknown setup key, a bad ``n_jobs`` or ``progress``.

    Examples
    --------
    >>> import pandas as pd
    >>> from privlib.metrics import range_workload
    >>> s = Setup("toy", pd.DataFrame({"x": range(8), "s": list("aaaabbbb")}), ("x",), "s", {"x": (0, 7)})
    >>> wl = range_workload(s.df, ["x"], n=5, rng=0, domain=s.domain)
    >>> frame = sweep({"toy": s}, {"toy": wl}, [("toy", "k", k, 0, {}) for k in (2, 4, 8)])
    >>> frame[["data", "value", "leaves"]].values.tolist()
    [['toy', 2, 4], ['toy', 4, 2], ['toy', 8, 1]]
    """
    n_jobs = check_n_jobs(n_jobs)
    check_progress(progress)
    tasks = [(k, m, v, s, dict(kw)) for k, m, v, s, kw in tasks]
    for t in tasks:
        if isinstance(t[3], bool) or not isinstance(t[3], (int, np.integer)) or t[3] < 0:
            raise TypeError(f"tasks: the seed of task {t[:4]!r} must be a non-negative int (the task's rng), "
                            f"got {type(t[3]).__name__} {t[3]!r}")
    missing = sorted({t[0] for t in tasks} - set(setups) | ({t[0] for t in tasks} - set(workloads)))
    if missing:
        raise ValueError(f"tasks: unknown setup key(s) {missing}")
    rows = run(_evaluate_task, tasks, n_jobs=n_jobs, backend=backend, progress=progress, desc=desc,
               shared={"setups": dict(setups), "workloads": dict(workloads)})
    frame = pd.DataFrame(rows)
    frame.insert(0, "data", [t[0] for t in tasks])
    return frame


# ----------------------------------------------------------------------------- Figure 5 read at fixed utility
def best_share(points: pd.DataFrame, model: Hashable = "eps", *, n: int = 25) -> float:
    """Share of fixed utility levels at which ``model`` gives the smallest breach (Section IV).

    The source's bottom line: "differential privacy often provides the best empirical privacy
    for a fixed (empirical) utility level".  On one data set's Figure 5 points (columns
    ``model``, ``alpha``, ``beta``), ``n`` error levels are spaced evenly in log alpha over the
    range where ``model``'s curve and at least one other curve both have points; at each level,
    every curve whose alpha range contains it gives its beta, interpolated linearly in log alpha
    between its points (sorted by alpha, a stable sort); ``model`` is best there when its beta is
    at most every other such curve's.

    Parameters
    ----------
    points : pandas.DataFrame
        Columns ``model``, ``alpha`` (> 0) and ``beta``; at least one point of ``model`` and one
        of another model.
    model : hashable, default "eps"
        The curve judged.
    n : int, default 25
        The number of error levels (at least 2).

    Returns
    -------
    float
        The share of the ``n`` levels at which ``model`` has the smallest beta; ``nan`` when
        its alpha range meets no other curve's.

    Raises
    ------
    ValueError
        Missing columns, a non-positive alpha, no point of ``model`` or of another model, or
        ``n`` below 2.

    Examples
    --------
    >>> p = pd.DataFrame({"model": ["eps", "eps", "k", "k"], "alpha": [0.01, 1.0, 0.01, 1.0],
    ...                   "beta": [1.0, 0.0, 0.6, 0.6]})
    >>> best_share(p, n=5)     # DP below k from alpha = 10**-1 on: 3 of the 5 levels
    0.6
    """
    missing = sorted({"model", "alpha", "beta"} - set(points.columns))
    if missing:
        raise ValueError(f"points: expected the columns model, alpha and beta, missing {missing}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n: expected an int of at least 2, got {n!r}")
    alpha = points["alpha"].to_numpy(dtype=float)
    if not (alpha > 0).all():
        raise ValueError("points: every alpha must be positive (the levels are spaced in log alpha)")
    mine = points["model"] == model
    if not mine.any() or mine.all():
        raise ValueError(f"model: expected points of {model!r} and of another model, got models "
                         f"{sorted(map(str, set(points['model'])))}")
    curves = {m: g.sort_values("alpha", kind="stable") for m, g in points.groupby("model", sort=False)}
    own = curves[model]
    others = [g for m, g in curves.items() if m != model]
    lo = max(own["alpha"].min(), min(g["alpha"].min() for g in others))
    hi = min(own["alpha"].max(), max(g["alpha"].max() for g in others))
    if not lo < hi:
        return float("nan")
    grid = np.geomspace(lo, hi, n)

    def beta_at(g):
        a = g["alpha"].to_numpy(dtype=float)
        b = np.interp(np.log(grid), np.log(a), g["beta"].to_numpy(dtype=float))
        return np.where((grid >= a.min()) & (grid <= a.max()), b, np.inf)

    rival = np.min([beta_at(g) for g in others], axis=0)
    return float(np.mean(beta_at(own) <= rival))
