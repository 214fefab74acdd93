"""Write the Adult taxonomy trees of Fung, Wang & Yu (IEEE TKDE 19(5), 2007) as hierarchy files.

DiffGen's experiments (Mohammed et al., KDD 2011) and top-down specialization (Fung et al.)
run on these trees.  They are transcribed here as facts -- which value lies under which
group -- from the authors' published experiment description (the taxonomy file of their
Adult experiments), into this repository's own format: one ``;``-separated row per leaf,
the leaf and then its generalizations up to the root ``*``, a shallow leaf padded by
repeating itself (as ARX does).  The numerical attributes get their public domains.

Run from the repository root: ``python scripts/build_tkde_hierarchies.py``; it prints every
file's md5, which must match ``privlib.data.HIERARCHY_SETS["tkde2007"]``.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "data" / "adult" / "hierarchies_tkde2007"

TREES = {
    "workclass": {"Worked": {"With-Pay": {"Private": None,
                                          "Self-emp": ["Self-emp-not-inc", "Self-emp-inc"],
                                          "Gov": ["Federal-gov", "Local-gov", "State-gov"]},
                             "Without-pay": None},
                  "Never-worked": None},
    "education": {"Without-Post-Secondary": {"Preschool": None,
                                             "Elementary": ["1st-4th", "5th-6th", "7th-8th"],
                                             "Secondary": {"Junior-Secondary": ["9th", "10th"],
                                                           "Senior-Secondary": ["11th", "12th", "HS-grad"]}},
                  "Post-secondary": {"Some-college": None,
                                     "Assoc": ["Assoc-acdm", "Assoc-voc"],
                                     "University": {"Bachelors": None, "Prof-school": None,
                                                    "Post-grad": ["Masters", "Doctorate"]}}},
    "marital_status": {"Married": {"Partner-present": ["Married-civ-spouse", "Married-AF-spouse"],
                                   "Partner-absent": ["Divorced", "Separated", "Widowed",
                                                      "Married-spouse-absent"]},
                       "Never-married": None},
    "occupation": {"White-collar": ["Exec-managerial", "Prof-specialty", "Sales", "Adm-clerical"],
                   "Blue-collar": ["Tech-support", "Craft-repair", "Machine-op-inspct", "Handlers-cleaners",
                                   "Transport-moving", "Priv-house-serv"],
                   "Other": ["Protective-serv", "Armed-Forces", "Farming-fishing", "Other-service"]},
    "relationship": {"In-family": ["Wife", "Own-child", "Husband"],
                     "Not-in-family": None, "Other-relative": None, "Unmarried": None},
    "race": {"White": None,
             "Colored": ["Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black"]},
    "sex": {"Female": None, "Male": None},
    "native_country": {
        "North-America": {"USA": ["United-States", "Outlying-US(Guam-USVI-etc)"], "Canada": None},
        "Middle-America": ["Mexico", "Honduras", "Guatemala", "Nicaragua", "El-Salvador"],
        "South-America": {"Western-South-America": ["Ecuador", "Peru"],
                          "Northern-South-America": ["Columbia"],
                          "Caribbean": ["Puerto-Rico", "Dominican-Republic", "Jamaica", "Cuba", "Haiti",
                                        "Trinadad&Tobago"]},
        "Europe": {"Western-Europe": ["France", "England", "Ireland", "Scotland", "Holand-Netherlands"],
                   "Southern-Europe": ["Italy", "Greece"],
                   "Southwestern-Europe": ["Portugal"],
                   "Southeastern-Europe": ["Yugoslavia"],
                   "Central-Europe": ["Hungary", "Germany", "Poland"]},
        "Asia": {"Southeastern-Asia": ["Philippines", "Thailand", "Cambodia", "Vietnam", "Laos"],
                 "Southern-Asia": ["India"],
                 "Eastern-Asia": ["Japan", "China", "Hong", "Taiwan", "South"],
                 "Middle-East": ["Iran"]}},
    "income": {">50K": None, "<=50K": None},
}

#: Public numerical domains [low, high] of the same experiments.
DOMAINS = {"age": (15, 95), "fnlwgt": (0, 1_500_000), "education_num": (1, 20), "capital_gain": (0, 100_000),
           "capital_loss": (0, 5_000), "hours_per_week": (1, 100)}


def paths(tree, above=()):
    """(leaf, ancestors from the leaf's parent up to, not including, the root)."""
    items = tree.items() if isinstance(tree, dict) else ((leaf, None) for leaf in tree)
    for node, sub in items:
        if sub is None:
            yield node, above[::-1]
        else:
            yield from paths(sub, above + (node,))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for attribute, tree in TREES.items():
        rows = list(paths(tree))
        width = max(len(anc) for _, anc in rows)
        lines = []
        for leaf, anc in rows:
            pad = [leaf] * (width - len(anc))
            lines.append(";".join([leaf, *pad, *anc, "*"]))
        (OUT / f"{attribute}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    body = "attribute;low;high\n" + "".join(f"{a};{lo};{hi}\n" for a, (lo, hi) in DOMAINS.items())
    (OUT / "domains.csv").write_text(body, encoding="utf-8")
    for f in sorted(OUT.glob("*.csv")):
        print(f"{f.stem}: {hashlib.md5(f.read_bytes()).hexdigest()}")


if __name__ == "__main__":
    main()
