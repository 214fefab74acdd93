"""The scorecards' quotes: a source's TeX is typeset in Unicode in the HTML table."""
import csv
import re
from pathlib import Path

import pytest

from privlib.experiments import scorecard_table
from privlib.experiments import tex_to_unicode
from privlib.scorecard import Scorecard

READINGS = Path(__file__).resolve().parents[1] / "book" / "scorecards" / "readings"


@pytest.mark.parametrize("tex, expected", [
    (r"At least $\varepsilon \leq 0.5$ seems", "At least ε ≤ 0.5 seems"),
    (r"the first-order one only has $5 \cdot 27$", "the first-order one only has 5 · 27"),
    (r"where the marginal  $\Pr[\mathbf{n}]$  is based on the prior  $D(\boldsymbol{\alpha})$",
     "where the marginal Pr[𝐧] is based on the prior D(α)"),
    (r"B_{jt}^* = \delta_j \times B_{jt}", "Bⱼₜ* = δⱼ × Bⱼₜ"),
    (r"u \sim i.i.d \text{Lap}\left(0, \frac{2}{\epsilon}\right)", "u ~ i.i.d Lap(0, 2/ε)"),
    (r"Z\_W2_{jt}^* = \frac{\delta_j \times W_{2jt}}{E_{jt}}", "Z_W2ⱼₜ* = (δⱼ × W₂ⱼₜ)/Eⱼₜ"),
    (r"Z\_DWA_{kt}^* = \frac{\Delta WA_{kt}}{A_{kt}}", "Z_DWAₖₜ* = ΔWAₖₜ/Aₖₜ"),
    (r"as $min\_p$ is decreased", "as min_p is decreased"),
    (r"the exhaustive histogram has 5^{27} possible bins", "the exhaustive histogram has 5²⁷ possible bins"),
    (r"D_{KL}(P \parallel L) = \sum_i L(i)", "D_KL(P ∥ L) = ∑ᵢ L(i)"),
    (r"p(\delta_j) = \begin{cases} (b - \delta) / (b - a)^2, & \delta \in [a, b]",
     "p(δⱼ) = (b - δ) / (b - a)², δ ∈ [a, b]"),
    ("Q = {flu, gastritis}", "Q = {flu, gastritis}"),             # no formula: braces kept
    ("The closer P and Q are, the closer B_1 and B_2 are.", "The closer P and Q are, the closer B₁ and B₂ are."),
    ("its variance is 2λ^2 and mean is 0", "its variance is 2λ² and mean is 0"),
    ("costs $5 only", "costs $5 only"),                             # a lone $ is a dollar
    (r"unknown $\foo{x}$", "unknown foox"),                         # an unknown command keeps its name
    ("", ""),
])
def test_tex_to_unicode(tex, expected):
    assert tex_to_unicode(tex) == expected


def test_tex_to_unicode_refuses_a_non_string():
    with pytest.raises(TypeError, match="text: expected a str"):
        tex_to_unicode(3.5)


def _quotes():
    return sorted({r["quote"] for f in READINGS.glob("*.csv") if f.name not in ("history.csv",)
                   for r in csv.DictReader(f.open(encoding="utf-8")) if r.get("quote")})


def test_no_registered_quote_shows_raw_tex():
    quotes = _quotes()
    assert any("\\" in q for q in quotes)         # the registries do quote TeX
    raw = {q: tex_to_unicode(q) for q in quotes}
    bad = {q: u for q, u in raw.items() if re.search(r"\\[A-Za-z]|\$[^\d\s]|[_^]\{", u)}
    assert not bad, bad


def test_the_scorecard_table_shows_quotes_in_unicode():
    card = Scorecard("demo")
    card.add("eps", "0.5", 0.5, "printed", kind="reproduction", where="Section 5")
    frame = card.to_frame()
    frame["quote"] = [r"At least for these two datasets, $\varepsilon \leq 0.5$ seems suitable"]
    html_text = scorecard_table(frame, table_id="demo-quotes")._repr_html_()
    assert "ε ≤ 0.5" in html_text
    assert "varepsilon" not in html_text and "\\leq" not in html_text
