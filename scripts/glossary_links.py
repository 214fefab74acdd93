"""Link each page's first use of a glossary term to book/glossary.md ({term} roles).

    python scripts/glossary_links.py [notebook ...]     # default: the chapters and tutorials

Re-runnable: a term already linked on a page is not linked again. Only prose is touched:
headings, directive lines, labels, code spans, roles, math and link texts are left alone.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "book").glob("ch*/*.ipynb")) + sorted((ROOT / "book" / "tutorial").glob("*.ipynb"))

# phrase as written in prose (regex, case-insensitive) -> glossary term
TERMS = {
    r"differential privacy": "differential privacy",
    r"quasi-identifiers?": "quasi-identifier",
    r"sensitive attributes?": "sensitive attribute",
    r"equivalence class(?:es)?": "equivalence class",
    r"generalization hierarch(?:y|ies)": "generalization hierarchy",
    r"full-domain generalization": "full-domain generalization",
    r"lattice": "lattice",
    r"Earth Mover's Distance": "Earth Mover's Distance",
    r"Laplace mechanism": "Laplace mechanism",
    r"exponential mechanism": "exponential mechanism",
    r"discrete Laplace": "discrete Laplace mechanism",
    r"geometric mechanism": "geometric mechanism",
    r"sensitivity": "sensitivity",
    r"privacy budget": "privacy budget",
    r"post-processing": "post-processing",
    r"sequential composition": "sequential composition",
    r"parallel composition": "parallel composition",
    r"Mondrian": "Mondrian",
    r"DP kd-tree": "DP kd-tree",
    r"naive-Bayes attack": "naive-Bayes attack",
    r"breach increase": "breach increase",
    r"baseline accuracy": "baseline accuracy",
    r"median relative error": "median relative error",
    r"range quer(?:y|ies)": "range query",
    r"workload": "workload",
    r"DiffGen": "DiffGen",
    r"TDS": "TDS",
    r"InfoGain": "InfoGain",
    r"noise infusion": "noise infusion",
    r"ramp distribution": "ramp distribution",
    r"QWIPU": "QWIPU",
    r"QWI": "QWI",
    r"LEHD": "LEHD",
    r"OnTheMap": "OnTheMap",
    r"synthetic data": "synthetic data",
    r"probabilistic differential privacy": "probabilistic differential privacy",
    r"perceived information": "perceived information",
    r"hypothetical information": "hypothetical information",
    r"data swapping": "data swapping",
    r"re-identification": "re-identification",
    r"linkage attacks?": "linkage attack",
    r"suppression": "suppression",
    r"spatial decomposition": "spatial decomposition",
    r"scorecard": "scorecard",
    r"self-checks?": "self-check",
    r"source arithmetic": "source arithmetic",
}
# spans never rewritten: code spans and roles, math, links, and whole structural lines
PROTECT = re.compile(
    r"(\{[\w:-]+\}`[^`]*`|``.*?``|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]+\$|\[[^\]\n]*\]\([^)\n]*\)"
    r"|^(?:#|:::|\(|```|\s*:\w)[^\n]*$|<[^>\n]+>)", re.S | re.M)
ROLE = re.compile(r"\{term\}`(?:[^`<]*<)?([^`>]+)>?`")


def linked_terms(text: str) -> set[str]:
    return {m.group(1).strip().lower() for m in ROLE.finditer(text)}


def link_cell(src: str, done: set[str]) -> str:
    parts = PROTECT.split(src)
    for i in range(0, len(parts), 2):          # even parts: free prose
        chunk = parts[i] or ""
        for pattern, term in TERMS.items():
            if term.lower() in done:
                continue
            m = re.search(rf"(?<![\w/-]){pattern}(?![\w/-])", chunk, flags=re.I if pattern.islower() else 0)
            if not m:
                continue
            word = m.group(0)
            role = f"{{term}}`{word}`" if word.lower() == term.lower() else f"{{term}}`{word} <{term}>`"
            chunk = chunk[:m.start()] + role + chunk[m.end():]
            done.add(term.lower())
        parts[i] = chunk
    return "".join(p or "" for p in parts)


def apply(path: Path) -> int:
    text = path.read_text()
    nb = json.loads(text)
    cells = nb["cells"]
    done = linked_terms("".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown"))
    n = 0
    for c in cells[1:]:                         # not the title cell
        if c["cell_type"] != "markdown":
            continue
        src = "".join(c["source"])
        new = link_cell(src, done)
        if new != src:
            c["source"] = new.splitlines(keepends=True)
            n += new.count("{term}") - src.count("{term}")
    if n:
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + ("\n" if text.endswith("\n") else ""))
    return n


if __name__ == "__main__":
    paths = [Path(a).resolve() for a in sys.argv[1:]] or PAGES
    for p in paths:
        print(f"{p.relative_to(ROOT)}: {apply(p)} term(s) linked")
