import shutil

import numpy as np
import pandas as pd
import pytest

from privlib import data
from privlib.hierarchy import HierarchyError


def test_adult_counts_and_columns():
    assert len(data.load_adult(split="all", dropna=False)) == 48_842
    assert len(data.load_adult(split="all")) == 45_222
    assert len(data.load_adult(split="train")) == 30_162
    assert len(data.load_adult(split="train", dropna=False)) == 32_561
    assert len(data.load_adult(split="test")) == 15_060
    df = data.load_adult()
    assert list(df.columns) == data.ADULT_COLUMNS
    assert set(df["income"]) == {"<=50K", ">50K"}
    assert not df.isna().any().any()
    assert df["age"].dtype == np.int64 and df["age"].between(17, 90).all()
    raw = data.load_adult(split="all", dropna=False)
    assert raw["workclass"].isna().sum() == 2_799 and raw["occupation"].isna().sum() == 2_809


def test_adult_returns_a_copy():
    a = data.load_adult(split="train")
    a.loc[0, "age"] = -1
    assert data.load_adult(split="train").loc[0, "age"] != -1


def test_adult_bad_split():
    with pytest.raises(ValueError, match=r"split: expected one of \['all', 'train', 'test'\]"):
        data.load_adult(split="validation")


def test_checksum_error_names_file_and_both_checksums(tmp_path, monkeypatch):
    shutil.copytree(data.data_dir() / "adult", tmp_path / "adult")
    with open(tmp_path / "adult" / "adult.test", "ab") as fh:
        fh.write(b"tampered\n")
    monkeypatch.setenv("PRIVLIB_DATA", str(tmp_path))
    data.clear_cache()
    try:
        with pytest.raises(data.ChecksumError, match=r"adult\.test: md5 [0-9a-f]{32} does not match the expected "
                                                     "35238206dfdf7f1fe215bbb874adecdc"):
            data.load_adult(split="test")
        assert issubclass(data.ChecksumError, ValueError)
        # the train file is intact and still loads
        assert len(data.load_adult(split="train")) == 30_162
    finally:
        data.clear_cache()


def test_missing_file_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVLIB_DATA", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="census_kdd_sample.csv.gz"):
        data.load_census()


def test_census_sample():
    df = data.load_census()
    assert df.shape == (100_000, 24)
    assert set(df["income"]) == {"- 50000", "50000+"}
    assert df["age"].between(0, 90).all()
    assert set(df["year"]) == {94, 95}
    assert df["instance_weight"].gt(0).all()


def test_census_checksum(tmp_path, monkeypatch):
    (tmp_path / "census").mkdir()
    (tmp_path / "census" / data.CENSUS_FILE).write_bytes(b"not the file")
    monkeypatch.setenv("PRIVLIB_DATA", str(tmp_path))
    with pytest.raises(data.ChecksumError, match=data.CENSUS_MD5):
        data.load_census()


def test_movielens():
    df = data.load_movielens()
    assert len(df) == 100_004 and df["user"].nunique() == 671
    assert df["rating"].between(0.5, 5).all()
    assert df["genres"].str.contains("Comedy").any()


def test_ipums_reader(tmp_path):
    raw = pd.DataFrame({"YEAR": 2009, "AGE": [30, 40, 50, 60], "STATEFIP": [1, 2, 6, 36], "EDUC": [6, 7, 10, 11],
                        "OCC1990": [22, 0, 100, 200], "INCWAGE": [0, 25_000, 999_999, 160_000]})
    path = tmp_path / "usa_00001.csv"
    raw.to_csv(path, index=False)
    out = data.load_ipums(path, n=None, rng=0)
    assert list(out.columns) == ["age", "state", "education", "occupation", "salary_class"]
    assert out["age"].tolist() == [30, 60]          # occupation 0 and missing wage dropped
    assert out["salary_class"].tolist() == [0, 10]
    raw.drop(columns="EDUC").to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"unknown column\(s\) \['EDUC'\]"):
        data.load_ipums(path, rng=0)
    with pytest.raises(FileNotFoundError, match="IPUMS"):
        data.load_ipums(tmp_path / "nope.csv", rng=0)


def test_every_adult_value_is_in_its_hierarchy():
    df = data.load_adult(split="all", dropna=False)
    for attr, h in data.adult_hierarchies().items():
        h.check_values(df[attr].dropna())
        assert h.root == "*"


def test_hierarchy_missing_value_names_value_and_attribute():
    h = data.load_hierarchy("workclass")
    with pytest.raises(HierarchyError, match=r"'Astronaut' of attribute 'workclass' not in its hierarchy"):
        h.generalize(pd.Series(["Private", "Astronaut"]), 1)
    with pytest.raises(ValueError, match="attribute: expected one of"):
        data.load_hierarchy("zip")


def test_hierarchy_levels_generalize():
    age = data.load_hierarchy("age")
    assert age.generalize([17, 42], 1).tolist() == ["[15-20)", "[40-45)"]
    assert age.generalize([17, 42], age.height).tolist() == ["*", "*"]
    edu = data.load_hierarchy("education")
    assert edu.generalize(["Masters", "9th"], 1).tolist() == ["University", "Secondary"]
    assert edu.generalize(["Masters", "9th"], 2).tolist() == ["Post-secondary", "Without-post-secondary"]


def test_hierarchy_checksum(tmp_path, monkeypatch):
    shutil.copytree(data.data_dir() / "adult" / "hierarchies", tmp_path / "adult" / "hierarchies")
    path = tmp_path / "adult" / "hierarchies" / "sex.csv"
    path.write_text(path.read_text().replace("Male", "M"))
    monkeypatch.setenv("PRIVLIB_DATA", str(tmp_path))
    with pytest.raises(data.ChecksumError, match=r"sex\.csv"):
        data.load_hierarchy("sex")


# ---------------------------------------------------------------------------- regressions
def _ipums(tmp_path, **cols):
    raw = pd.DataFrame({"YEAR": 2009, "AGE": [30, 40, 50, 60], "STATEFIP": [1, 2, 6, 36], "EDUC": [6, 7, 10, 11],
                        "OCC": [22, 10, 100, 200], "INCWAGE": [0, 25_000, 5_000, 160_000]})
    for k, v in cols.items():
        raw[k] = v
    path = tmp_path / "usa.csv"
    raw.to_csv(path, index=False)
    return path


def test_ipums_rng_is_required_and_keyword_only(tmp_path):
    import inspect
    p = inspect.signature(data.load_ipums).parameters["rng"]
    assert p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is inspect.Parameter.empty
    path = _ipums(tmp_path)
    with pytest.raises(TypeError, match="rng"):
        data.load_ipums(path, n=2)
    a, b = data.load_ipums(path, n=2, rng=2009), data.load_ipums(path, n=2, rng=2009)
    assert a.equals(b) and len(a) == 2


@pytest.mark.parametrize("n, exc", [(0, ValueError), (-5, ValueError), (2.5, TypeError), ("10", TypeError)])
def test_ipums_n_must_be_a_positive_integer_or_none(tmp_path, n, exc):
    with pytest.raises(exc, match="n: expected an integer"):
        data.load_ipums(_ipums(tmp_path), n=n, rng=0)


def test_ipums_more_records_asked_than_available_keeps_all(tmp_path):
    assert len(data.load_ipums(_ipums(tmp_path), n=100, rng=0)) == 4


def test_ipums_duplicated_and_bad_columns_are_clear_errors(tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text("AGE,age,STATEFIP,EDUC,OCC,INCWAGE\n30,31,1,6,22,0\n")
    with pytest.raises(ValueError, match=r"duplicated column name\(s\) \['AGE'\]"):
        data.load_ipums(path, rng=0)
    with pytest.raises(ValueError, match=r"IPUMS variable 'AGE' must hold numeric codes, got \['thirty'\]"):
        data.load_ipums(_ipums(tmp_path, AGE=["thirty", 40, 50, 60]), rng=0)
    with pytest.raises(ValueError, match=r"missing values \(NaN\) in column\(s\) \['EDUC'\]"):
        data.load_ipums(_ipums(tmp_path, EDUC=[6, None, 10, 11]), rng=0)
    with pytest.raises(ValueError, match="'AGE' must hold integer codes"):
        data.load_ipums(_ipums(tmp_path, AGE=[30.5, 40, 50, 60]), rng=0)


def test_loader_argument_types_are_checked():
    with pytest.raises(TypeError, match="dropna"):
        data.load_adult(split="train", dropna="no")
    with pytest.raises(TypeError, match="attributes"):
        data.adult_hierarchies("age")


# ---------------------------------------------------------------- the TKDE 2007 hierarchy set
def test_tkde2007_trees_cover_every_adult_value_and_have_the_published_shape():
    from privlib.data import adult_hierarchies, load_adult
    trees = adult_hierarchies(hierarchy_set="tkde2007")
    assert set(trees) == {"workclass", "education", "marital_status", "occupation", "relationship", "race",
                          "sex", "native_country", "income"}
    df = load_adult(split="all", dropna=False)
    for a, h in trees.items():
        observed = set(df[a].dropna().unique()) - {"?"}
        assert observed <= set(h.leaves), (a, observed - set(h.leaves))
    occ = trees["occupation"]
    assert occ.parent("Tech-support") == "Blue-collar"          # the TKDE tree, not the book's
    assert set(occ.children("*")) == {"White-collar", "Blue-collar", "Other"}
    assert trees["workclass"].parent("Self-emp-inc") == "Self-emp"
    assert trees["workclass"].parent("Never-worked") == "*"
    assert len(trees["native_country"].leaves) == 41


def test_tkde2007_public_domains():
    from privlib.data import adult_domains, load_adult
    dom = adult_domains(hierarchy_set="tkde2007")
    assert dom == {"age": (15, 95), "fnlwgt": (0, 1_500_000), "education_num": (1, 20),
                   "capital_gain": (0, 100_000), "capital_loss": (0, 5_000), "hours_per_week": (1, 100)}
    df = load_adult(split="all")
    for a, (lo, hi) in dom.items():  # the public ranges cover the records
        assert lo <= df[a].min() and df[a].max() <= hi, a


def test_hierarchy_sets_are_named_and_checked():
    import pytest
    from privlib.data import adult_domains, load_hierarchy
    with pytest.raises(ValueError, match="hierarchy_set"):
        load_hierarchy("occupation", hierarchy_set="arx")
    with pytest.raises(ValueError, match="attribute"):
        load_hierarchy("age", hierarchy_set="tkde2007")       # numeric: a public domain, not a tree
    with pytest.raises(ValueError, match="hierarchy_set"):
        adult_domains(hierarchy_set="book")
    assert load_hierarchy("occupation").parent("Tech-support") != "Blue-collar"  # default: the book's set
