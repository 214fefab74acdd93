"""Rebuild the generalization hierarchies of data/adult/hierarchies/ (ARX format).

Run from the repository root:  python scripts/build_adult_hierarchies.py

Each file has one ';'-separated row per leaf value: the value, then its generalizations
from the most specific to the root '*'.  Categorical taxonomies are written out below
(see data/adult/hierarchies/README.md for where each comes from); numeric attributes get
aligned interval hierarchies over their whole integer domain (age, education_num,
hours_per_week) or over the values that occur in adult.data and adult.test (fnlwgt,
capital_gain, capital_loss).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "adult" / "hierarchies"

CATEGORICAL = {
    "workclass": {
        "Private-sector": ["Private"],
        "Self-employed": ["Self-emp-not-inc", "Self-emp-inc"],
        "Government": ["Federal-gov", "State-gov", "Local-gov"],
        "Not-working": ["Without-pay", "Never-worked"],
    },
    "education": {
        "Without-post-secondary": {
            "Elementary": ["Preschool", "1st-4th", "5th-6th", "7th-8th"],
            "Secondary": ["9th", "10th", "11th", "12th", "HS-grad"],
        },
        "Post-secondary": {
            "College-or-associate": ["Some-college", "Assoc-voc", "Assoc-acdm"],
            "University": ["Bachelors", "Masters", "Prof-school", "Doctorate"],
        },
    },
    "marital_status": {
        "Married": {
            "Spouse-present": ["Married-civ-spouse", "Married-AF-spouse"],
            "Spouse-not-present": ["Married-spouse-absent", "Separated"],
        },
        "Not-married": {
            "Previously-married": ["Divorced", "Widowed"],
            "Never-married": ["Never-married"],
        },
    },
    "occupation": {
        "White-collar": {
            "Professional": ["Exec-managerial", "Prof-specialty", "Tech-support"],
            "Office-and-sales": ["Adm-clerical", "Sales"],
        },
        "Blue-collar": {
            "Production": ["Craft-repair", "Machine-op-inspct", "Handlers-cleaners"],
            "Outdoor-and-transport": ["Transport-moving", "Farming-fishing"],
        },
        "Service": {
            "Personal-service": ["Other-service", "Priv-house-serv"],
            "Protective": ["Protective-serv", "Armed-Forces"],
        },
    },
    "relationship": {
        "Family": {"Spouse": ["Husband", "Wife"], "Other-family": ["Own-child", "Other-relative"]},
        "Non-family": {"No-spouse-or-child": ["Not-in-family", "Unmarried"]},
    },
    "race": {"*": ["White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other"]},
    "sex": {"*": ["Female", "Male"]},
    "native_country": {
        "North-America": ["United-States", "Canada", "Outlying-US(Guam-USVI-etc)", "Puerto-Rico"],
        "Latin-America": ["Mexico", "Cuba", "Jamaica", "Honduras", "Dominican-Republic", "Ecuador", "Haiti",
                          "Columbia", "Guatemala", "Nicaragua", "El-Salvador", "Trinadad&Tobago", "Peru"],
        "Europe": ["England", "Germany", "Greece", "Italy", "Poland", "Portugal", "Ireland", "France",
                   "Hungary", "Scotland", "Yugoslavia", "Holand-Netherlands"],
        "Asia": ["Cambodia", "India", "Japan", "South", "China", "Iran", "Philippines", "Vietnam", "Laos",
                 "Taiwan", "Thailand", "Hong"],
    },
    "income": {"*": ["<=50K", ">50K"]},
}

# numeric attributes: (domain or None for observed values, list of interval widths per level)
NUMERIC = {
    "age": (range(17, 91), [5, 10, 20]),
    "education_num": (range(1, 17), [2, 4, 8]),
    "hours_per_week": (range(1, 100), [5, 10, 20, 40]),
    "fnlwgt": (None, [50_000, 100_000, 500_000]),
    "capital_gain": (None, [1_000, 5_000, 25_000]),
    "capital_loss": (None, [500, 1_000, 2_000]),
}


def rows_categorical(tree):
    rows = []
    for top, sub in tree.items():
        if isinstance(sub, list):  # leaves directly below `top`
            rows += [[leaf, "*"] if top == "*" else [leaf, top, "*"] for leaf in sub]
            continue
        for mid, leaves in sub.items():
            rows += [[leaf, mid, top, "*"] for leaf in leaves]
    depth = max(len(r) for r in rows)
    if any(len(r) != depth for r in rows):
        raise ValueError("taxonomy is not balanced")
    return rows


def interval_label(lo, width):
    return f"[{lo}-{lo + width})"


def rows_numeric(values, widths):
    rows = []
    for v in values:
        v = int(v)
        rows.append([str(v)] + [interval_label((v // w) * w, w) for w in widths] + ["*"])
    return rows


def observed(attr):
    cols = ["age", "workclass", "fnlwgt", "education", "education_num", "marital_status", "occupation",
            "relationship", "race", "sex", "capital_gain", "capital_loss", "hours_per_week", "native_country",
            "income"]
    frames = [pd.read_csv(ROOT / "data" / "adult" / f, header=None, names=cols, skipinitialspace=True,
                          comment="|") for f in ("adult.data", "adult.test")]
    return np.unique(pd.concat(frames)[attr].to_numpy())


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for attr, tree in CATEGORICAL.items():
        write(attr, rows_categorical(tree))
    for attr, (domain, widths) in NUMERIC.items():
        write(attr, rows_numeric(domain if domain is not None else observed(attr), widths))


def write(attr, rows):
    path = OUT / f"{attr}.csv"
    text = "".join(";".join(map(str, r)) + "\n" for r in rows)
    path.write_text(text, encoding="utf-8")
    print(f"{path.relative_to(ROOT)}  {len(rows)} leaves  md5 {hashlib.md5(text.encode()).hexdigest()}")


if __name__ == "__main__":
    main()
