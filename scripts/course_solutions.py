"""Exercises of the book: a written solution for each, everything hidden until asked for.

Re-runnable (idempotent) after merging other changes into the notebooks:

    python scripts/course_solutions.py

1. Every code cell that holds a solution (``metadata.mystnb.code_prompt_show`` names a solution)
   is tagged ``hide-cell`` (its code *and* output stay behind the toggle) and ``solution`` (the
   student edition drops it, see book/_ext/editions.py); its toggle reads "Show the code and
   output of the solution to exercise N".
2. Every exercise that has no written solution gets one: a ``{dropdown} Solution to exercise N``
   right after the question, from the texts below (the reasoning; the numbers stay in the hidden
   cell's output, computed in the build).
3. A few wording corrections in questions and text.

Only markdown cells and cell metadata change; no output is touched.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HIDE = {"hide-input", "hide-output"}          # replaced by hide-cell
KEEP_HIDDEN = {"hide-cell", "remove-cell", "remove-output"}

# (notebook, exercise number) -> the written solution (MyST markdown)
SOLUTIONS: dict[tuple[str, int], str] = {
    ("book/foundations/linkage.ipynb", 1): r"""
Cutting ZIP codes to three digits and age at 40 produces the same classes as generalization 3:
below 40 the ten ZIP codes split the same way under 47\*\*\* and 476\*\*. So generalization 4 has
the $k$, the distinct $\ell$ and the $t$ of generalization 3 (the hidden output gives them). Among
the tables with $k \ge 3$ and $\ell \ge 3$ (generalizations 2, 3 and 4), generalization 2 keeps the
most detail (four ZIP digits) and is the one to publish if salary is not sensitive beyond
$\ell$-diversity; generalizations 3 and 4 have a smaller $t$ (their classes' salaries are closer to
the table's), so a custodian who also bounds what a class reveals about the salary picks one of
them.""",
    ("book/foundations/linkage.ipynb", 3): r"""
The ten salaries $3, \dots, 12$ make an ordered domain of $m = 10$ values; $Q$ puts $1/10$ on each
and the class's $P$ puts $1/3$ on 3, 4 and 5. The ordered distance is
$\frac{1}{m - 1}\sum_{i} |r_i|$ with $r_i$ the cumulative difference of $P - Q$ up to the $i$-th
value: $r = \tfrac13 - \tfrac1{10}, \tfrac23 - \tfrac2{10}, 1 - \tfrac3{10}$, then
$1 - \tfrac4{10}, \dots, 1 - \tfrac{10}{10}$. The first three sum to $1.4$, the last seven to
$0.6 + 0.5 + \dots + 0 = 2.1$, so $D = 3.5 / 9 \approx 0.389$, which `emd_ordered` confirms.""",
    ("book/foundations/linkage.ipynb", 4): r"""
For each candidate column $c$, the records alone in their class under the QIs
(age, sex, race, $c$) are those `models.k_anonymity(adult, QI).sizes == 1` marks. Columns with many
distinct values (hours per week, capital gain, native country) single out the most records; a
column with few values (relationship, work class) adds little. The lesson for a custodian: what
makes a column a quasi-identifier is that an adversary can learn it from another source, not that
it looks identifying; a column left out of the declaration is never generalized, and one such
column with many values can void the guarantee of every model computed on the others.""",
    ("book/foundations/dp.ipynb", 2): r"""
The total and the two selections each read the whole table: sequential composition adds their
budgets, $0.1 + 0.05 + 0.05$. The 16 leaf counts read disjoint parts of the table: parallel
composition charges their largest budget once, $0.4$, not $16 \times 0.4$. The ledger thus holds
one sequential entry for the total, 16 entries of one parallel group for the leaves and two
sequential entries for the exponential mechanism, and totals $0.6$.""",
    ("book/foundations/dp.ipynb", 3): r"""
The geometric mechanism's probabilities are proportional to $e^{-\varepsilon |z| / \Delta f}$, so
$\Pr[Z = z] / \Pr[Z = z - \Delta f] = e^{\varepsilon(|z - \Delta f| - |z|) / \Delta f}$. By the
triangle inequality the exponent is at most $\varepsilon$, with equality when $z \le 0$ (both
points on the same side of 0, the shift moving away from it). So the largest ratio over the window
is exactly $e^{\varepsilon}$: the guarantee holds and is tight, at every $\varepsilon$.""",
    ("book/foundations/dp.ipynb", 4): r"""
The exponential mechanism reports $r$ with probability proportional to
$\exp(\varepsilon u(r) / (2 \Delta u))$: the distribution depends on $\varepsilon$ and the utilities
only through their product $\varepsilon\, u$. Search a grid of $\varepsilon$ (steps of 0.01) for the
first one at which heart disease gets probability 0.9. Doubling every count doubles every utility
while the sensitivity stays 1 (one record still changes one count by one), so the same
distribution is reached at half the $\varepsilon$; the grid's rounding to two decimals can move the
halved value by 0.01. A larger table thus buys the same accuracy at a smaller budget.""",
    ("book/foundations/dp.ipynb", 5): r"""
Any rule that says "0" on a set $S$ of outputs wins with probability
$\tfrac12 P_0(S) + \tfrac12 (1 - P_1(S))$. Differential privacy gives $P_0(S) \le e^{\varepsilon}
P_1(S)$ and $1 - P_1(S) \le e^{\varepsilon} (1 - P_0(S))$; maximising the success under these two
constraints gives $e^{\varepsilon} / (1 + e^{\varepsilon})$, whatever the rule. Applied to privlib's
samplers, the float inversion is such a rule, so its success must stay below the bound (up to
sampling error, the 2 standard errors of the last column), and it does at every $\varepsilon$. The
success gets close to the bound only at large $\varepsilon$, where the noise is small and any
sensible test does well.""",
    ("book/foundations/measuring.ipynb", 1): r"""
The attack is right on records 1, 3, 4 and 5: its accuracy $1 - \pi$ is $4/6$, so $\pi = 1/3$.
The baseline $\rho$ is the share of the most frequent true value; a, b and c each hold 2 of the 6
records, so $\rho = 1/3$. The breach increase is $\beta = (1 - \pi) / \rho - 1 = (4/6)/(2/6) - 1 = 1$:
the attack is right twice as often as guessing the most frequent value.""",
    ("book/foundations/measuring.ipynb", 3): r"""
Both classifiers see the same release: leaf majority predicts each record's leaf's most frequent
value, naive Bayes combines the per-attribute histograms of the leaves. Build the three Mondrian
releases, run both attacks and compare their accuracies (the breach $\beta = (1 - \pi)/\rho - 1$ differs
by the accuracy difference divided by $\rho$). The hidden table shows differences of a few
percentage points, with either classifier ahead depending on $k$: the source's "low single digit
percentages" holds here. What the adversary learns is decided by the release, not by the choice
between reasonable classifiers.""",
    ("book/foundations/measuring.ipynb", 4): r"""
The noise added to each count has mean 0, so a range query that sums many leaves has errors that
partly cancel. Setting negative counts to 0 keeps only the positive half of the noise of the many
leaves whose true count is 0 or small: every such leaf is biased upwards, and the biases of a range
query's leaves add up instead of cancelling. At $\varepsilon = 0.05$ the noise is large, so the bias
is too, and the clipped error is larger in every seed. Clipping is a post-processing for users who
read single cells, not for those who sum them.""",
    ("book/tutorial/own_data.ipynb", 1): r"""
Pass both requirements to `generalization.search`; its best node (the hidden output prints its
levels) is the minimal node of the lattice, by the search's criterion, that satisfies both. Then
generalize the table at those levels and measure it independently with `models.k_anonymity` and
`models.l_diversity(..., kind="entropy")`: its $k$ must be at least 50 and its entropy $\ell$ at
least 5. Both checks must agree, because the search and `privlib.models` compute the same
definitions on the same classes; a disagreement would be a bug in one of them.""",
    ("book/tutorial/own_data.ipynb", 2): r"""
The kd-tree splits its budget between the private medians (the share `median_fraction`) and the
leaf counts, and between the levels of the tree; the shares are fixed fractions of `eps`, so every
ledger totals exactly 1 (last column but one). Deeper trees give smaller leaves that fit the
workload's query boxes better, at the price of more noise per count; medians bought with a larger
share of the budget cut the data where they are, not at the middle of the domain. Read the error
column for the best combination in this run, and check it over a few seeds before choosing: one
seed of a noisy release is not a comparison.""",
    ("book/tutorial/own_data.ipynb", 3): r"""
An ARX hierarchy file has one line per leaf value: the value, then its generalizations up to the
root, separated by `;`. `marital.path(value)` gives exactly that path, so writing one joined path
per leaf produces the file, and `Hierarchy.from_csv` reads it back. Comparing the two hierarchies'
`generalize` on the column of `df` at every level, from 0 to the height, prints `True` when the
file is right.""",
    ("book/ch2_empirical_privacy/empirical_privacy.ipynb", 2): r"""
The frequency reading asks that no sensitive value hold more than a share $1/\ell$ of a class,
which is stricter than $\ell$ distinct values; the releases it allows have fewer, larger classes.
Rebuild the syntactic points with the frequency rows of Figure 2 and read the curves as in Figure 5.
At $\alpha \le 25\%$ the frequency reading gives a smaller breach than the distinct one on both data
sets. No $t$-closeness release is that accurate (its smallest error is above 25%), so there is no
$t$-closeness point to compare with there, and the table says "none". Over the range of errors both
curves cover, the largest gap between the $\ell$ and $t$ curves grows under the frequency reading:
$\ell$-diversity does not come closer to $t$-closeness; it buys its lower breach with more error.""",
    ("book/ch2_empirical_privacy/empirical_privacy.ipynb", 3): r"""
`median_fraction = 0` spends nothing on the medians (the tree cuts at the middle of each box's
domain) and the whole budget on the counts; larger fractions buy data-dependent cuts with budget
taken from the counts. At $\varepsilon = 0.5$ on Adult the hidden table shows the best $\alpha$ at
fraction 0, while $\beta$ barely moves: the breach depends on how homogeneous the leaves are, which
the cut positions change little. Private medians are worth their budget when the data are skewed
enough that middle cuts leave many empty or crowded boxes and $\varepsilon$ is large enough for the
medians to be accurate; the project asks you to map where that happens over $\varepsilon$ and the
height.""",
    ("book/ch2_empirical_privacy/empirical_privacy.ipynb", 4): r"""
The naive-Bayes attack gives each prediction a confidence (the posterior of the predicted value).
Keep the records in the top 10% of confidence and compute the accuracy there against the same
baseline $\rho$. These records sit in homogeneous classes, where the release tells the adversary
most: their accuracy, and so their $\beta$, is several times that of all records (hidden output).
An average breach hides the records most at risk; a custodian should look at its tail too.""",
    ("book/ch2_empirical_privacy/empirical_privacy.ipynb", 5): r"""
The source's rule checks $t$ when it decides a split, not on the leaves it publishes, so a leaf can
end further than $t$ from the table's distribution. The column `excess` of the hidden table is the
largest leaf distance minus $t$, and `share_above_t` the share of records in leaves above $t$: at
small $t$ every record sits in such a leaf. The strict rule (every published leaf within $t$)
publishes fewer leaves at the same $t$; to publish as many leaves as the source's rule at
$t = 0.2$ it needs a larger $t$ (printed for both data sets). A note to a data owner: the source's
rule does not give the guarantee its $t$ names; use the strict rule, and choose the $t$ you state
to the data subjects.""",
    ("book/ch3_diffgen/diffgen.ipynb", 1): r"""
The maximum of means picks the best height $h$ after seeing the runs it reports: a selection
effect that is upwards biased, more so when few runs make the means noisy. The leave-one-run-out
estimate chooses $h$ on the other runs and scores it on the held-out one, so the choice and the
evaluation use different draws. The hidden table shows the maximum of means above the held-out
value for every number of runs, with a gap that shrinks as runs are added (the noise of a mean of
$n$ runs falls as $1/\sqrt{n}$); compare that gap with the standard deviation of single runs in
`fig3`: an overshoot of the order of a fraction of a standard deviation is the price of picking the
best of several noisy curves.""",
    ("book/ch3_diffgen/diffgen.ipynb", 2): r"""
At the root every child of every attribute has the same majority class, so Max scores every
candidate the same (the number of records in the majority class): its selection probabilities are
uniform. InfoGain's scores differ between attributes, but by less than a tenth of a bit, against a
sensitivity of 1 and an $\varepsilon'$ of a few hundredths: $\exp(\varepsilon' u / 2)$ is almost 1
for every candidate, and its probabilities are uniform too, to three decimals. This is the source's
explanation in numbers: InfoGain's differences between a good and a bad attribute are tiny
compared with its sensitivity, at every iteration; Max's are 0 at the root, but deeper in the tree
the majority classes of the children differ and Max's differences are counts of records, large
compared with its sensitivity of 1, so it selects good attributes with high probability.""",
    ("book/ch3_diffgen/diffgen.ipynb", 3): r"""
The discrete Laplace noise at $\varepsilon/2$ has $\Pr[Z = z] = \frac{1 - a}{1 + a}\, a^{|z|}$ with
$a = e^{-\varepsilon/2}$, so $\Pr[Z \ge 1] = \frac{1 - a}{1 + a} \cdot \frac{a}{1 - a} =
\frac{a}{1 + a}$. By symmetry, $Z$ given $Z \ge 1$ has the law of $|Z|$ given $Z \ne 0$, which is
how the sparse method draws the released counts of empty cells without drawing noise for each.
Rounded continuous noise $\mathrm{Lap}(2/\varepsilon)$ is at least 1 after rounding when it is at
least $\tfrac12$, with probability $\tfrac12 e^{-(1/2)/(2/\varepsilon)} = \tfrac12 e^{-\varepsilon/4}$.
The simulated frequencies of the hidden table agree with both formulas within sampling error
(200,000 draws: a standard error of about 0.001).""",
    ("book/ch3_diffgen/diffgen.ipynb", 4): r"""
Run TDS with growing $k$ and compare its test accuracy with DiffGen's at $\varepsilon = 1$,
$h = 15$. The hidden table shows that the accuracy first falls below DiffGen's at a $k$ of the order
of a hundred, and is not monotone in $k$ (TDS's specializations change with $k$). A class of a
hundred records out of 30,162 is a strict but not absurd anonymity threshold; at the $k$ where TDS
loses clearly (thousands) the release has only a handful of classes. The comparison is still not
like for like: $k$-anonymity bounds re-identification by linkage only, while $\varepsilon = 1$
bounds what any adversary learns.""",
    ("book/ch4_qwi_onthemap/qwi.ipynb", 1): r"""
A fuzz factor $\delta$ lies in $[a, b]$ or $[2 - b, 2 - a]$, so a cell of $B$ persons moves by
$|\delta - 1| B \le (b - 1) B$, and its rounded value changes only if $(b - 1) B \ge \tfrac12$. With
the chapter's $b$ ({glue:text}`ch4_ramp_b:.2f`) that is $B \ge 4$: cells of 1 to 3 persons never
change. A one-person cell is released as 2 when $\delta \ge 1.5$, which the ramp can draw only if
$b > 1.5$ (at $b = 1.5$ the point has probability 0); `RampDistribution(1.05, b).cdf(1.5)` confirms
that $1 - F(1.5)$ is 0 up to $b = 1.5$ and positive beyond.""",
    ("book/ch4_qwi_onthemap/qwi.ipynb", 2): r"""
With a common factor $c > 0$ the released series is $c x_t$, and the lag-1 autocorrelation is a
Pearson correlation of $(x_t)$ with $(x_{t-1})$, which does not change when both are multiplied by
$c$: means and standard deviations scale by $c$ and the ratio cancels it. The hidden cell checks it
on a series and on the whole Table 7 with a factor 1.1 for everyone (differences below $10^{-12}$).
Table 7 is non-zero because the establishments of a cell have *different* factors: when their
shares of the cell's employment change from quarter to quarter (growth, births, deaths), the noisy
total is no longer a constant multiple of the true one.""",
    ("book/ch4_qwi_onthemap/qwi.ipynb", 3): r"""
With every final weight 1 the weighted aggregate is the unweighted one, so Table 1B becomes Table 1A:
no 3 moves up, against the share of the simulated weights (hidden output). Weights above 1 turn a
small cell's fuzzed count into a larger weighted count, which is what moves small cells up a
category in Table 1B: the shift comes from the weighting, not from the noise.""",
    ("book/ch4_qwi_onthemap/qwi.ipynb", 4): r"""
Fill each suppressed cell with the mean of the nearest released values of the same series before and
after it (one of them at the ends). Because the filled value follows the series' own level, the
autocorrelation differences become much narrower than with the Poisson stand-in of Table 9 and,
in the stored run, narrower than Table 8 too. Narrower is not unbiased: interpolation smooths the
series, which raises its autocorrelation, so the differences are centred away from 0. The QWI's
synthetic replacements aim at both: a narrow spread and the right centre.""",
    ("book/ch4_qwi_onthemap/onthemap.ipynb", 1): r"""
*Plug-in.* The $m$ synthetic records are drawn from a multinomial with the posterior mean plugged in;
the output with all $m$ records in cell 1 has probability $((n_1 + \alpha)/(n + k\alpha))^m$ for $k$
cells. Moving one record into cell 1 multiplies it by $((n_1 + 1 + \alpha)/(n_1 + \alpha))^m$, which
is largest at $n_1 = 0$: $\varepsilon = m \ln((1 + \alpha)/\alpha)$. *Posterior predictive.* The
draws follow a Pólya urn started at the posterior counts; the same output has probability
$\prod_{j < m} (n_1 + \alpha + j)/(n + k\alpha + j)$, and the ratio between $n_1 = 1$ and $n_1 = 0$
telescopes to $\prod_{j<m} (1 + \alpha + j)/(\alpha + j) = (m + \alpha)/\alpha$. The two never agree
for a finite $\alpha > 0$: $(1 + 1/\alpha)^m > 1 + m/\alpha$ (Bernoulli's inequality, strict for
$m \ge 2$), so the plug-in $\varepsilon$ is always the larger; the gap vanishes only as
$\alpha \to \infty$, where both tend to 0.""",
    ("book/ch4_qwi_onthemap/onthemap.ipynb", 2): r"""
`synth.pdp_delta` computes, for a transition matrix and $\varepsilon = 2$, the probability of the
outputs that break the $\varepsilon$ bound, under three rules: counting a failing output under the
row where it is the less likely one ("smaller"), under any row ("any"), or taking the worst input
("worst case"). A larger $\alpha$ (a stronger prior) gives smaller $\delta$ under every rule. The
ICDE definition requires the bound "for all tables $D$", which is the worst case over the inputs,
not an average over a prior: it implies the worst-case rule.""",
    ("book/ch4_qwi_onthemap/onthemap.ipynb", 3): r"""
A stronger prior puts more pseudo-counts $\alpha_i$ in every origin, so the largest prunable
$\alpha$ grows and, with it, the term $\max_i \lceil \alpha_i \rceil \ln 2$ of the adjusted
$\varepsilon$ (Theorem 5.2): the adjusted $\varepsilon$ rises (hidden output). At the same time the
prior's pseudo-counts outweigh the few real records of small workplaces, so their synthetic
distribution moves towards the prior and away from the data: the KL of small workplaces rises too.
A stronger prior thus costs both privacy, as the theorem accounts it, and validity here.""",
    ("book/ch4_qwi_onthemap/onthemap.ipynb", 4): r"""
A count has sensitivity 1, and Laplace noise of scale $s$ changes the density of any output by at
most a factor $e^{|x - y|/s} \le e^{1/s}$ between neighbouring counts $x, y$: the sanitizer is
$(1/s)$-differentially private. With $s = 2/\varepsilon$ it is $\varepsilon/2$-DP, half the budget
the scale $1/\varepsilon$ would spend for twice the noise; at $\varepsilon = 2$, `dp_epsilon` of its
transition matrix is 1.""",
    ("book/ch5_reident/reident.ipynb", 3): r"""
Run `success_rate` for $M_o = 1, 2, 4, \dots, 32$ leakages and read where level-1 success reaches
80%; compare with $c \log_2(n_u)/\mathrm{PI}$. In the hidden output the success at 32 leakages is
still far from 80%, while $\log_2(n_u)/\mathrm{PI}$ ($c = 1$) already asks for more than 32: the
bound's order of magnitude is right, and the source's $c = \log_2 n_u$ multiplies it by about 8,
a conservative rule of thumb. Extend $M_o$ beyond 32 (and use `fresh_success_rate` for leakages
from data not seen in training) to locate the 80% point; the exhaustive model needs more data per
user, which is the point of {ref}`ch5-fresh`.""",
}

# wording corrections: (notebook, old, new)
WORDING = [
    ("book/foundations/dp.ipynb",
     "(d) the mean\nsalary when the number of records $n$ is public.",
     "(d) the mean\nsalary under replace-one neighbours, where the number of records $n$ is fixed and public."),
    ("book/foundations/dp.ipynb",
     "(d) With $n$ public the mean is the sum\ndivided by $n$: sensitivity $20 / n$, scale $40 / n$. With $n$ secret, the mean's sensitivity is\nnot bounded by a formula in public quantities:",
     "(d) Replacing one record moves the sum by at most 20 and leaves $n$ unchanged, so the mean\nmoves by at most $20 / n$: scale $40 / n$. Under add/remove neighbours $n$ itself changes, so it\ncannot be public in that model, and the mean's worst case (a data set of one record) is the whole\nrange, 20:"),
    ("book/foundations/dp.ipynb",
     "An average has no bounded sensitivity unless the\nnumber of records is public.",
     "An average of those ages has sensitivity\n$100 / n$ under replace-one neighbours with $n$ public; under add/remove neighbours its worst case\n(one record) is the whole range, 100, so one releases a noisy sum and a noisy count instead."),
    ("book/foundations/linkage.ipynb",
     "$(c, \\ell)$-diversity bounds the most frequent value by $c$ times the sum of the less frequent ones.",
     "$(c, \\ell)$-diversity bounds the count of the most frequent value by $c$ times the sum of the counts\nof the $\\ell$-th most frequent value and all rarer ones, $r_1 < c\\,(r_\\ell + r_{\\ell+1} + \\dots + r_m)$."),
]

EXERCISE = re.compile(r"\{admonition\} Exercise (\d+) \(")
SOL_PROMPT = re.compile(r"solution to exercise (\d+)", re.I)


def solution_cell(cell: dict) -> int | None:
    """The exercise number of a solution code cell, else None."""
    prompt = str(cell.get("metadata", {}).get("mystnb", {}).get("code_prompt_show", ""))
    m = SOL_PROMPT.search(prompt)
    return int(m.group(1)) if cell["cell_type"] == "code" and m else None


def apply(path: Path) -> int:
    text = path.read_text()
    nb = json.loads(text)
    rel = path.relative_to(ROOT).as_posix()
    changed = 0
    whole = "".join("".join(c["source"]) for c in nb["cells"])
    for cell in nb["cells"]:
        n = solution_cell(cell)
        if n is not None:
            md = cell.setdefault("metadata", {})
            tags = [t for t in md.get("tags", []) if t not in HIDE]
            if not set(tags) & KEEP_HIDDEN:
                tags.append("hide-cell")
            if "solution" not in tags:
                tags.append("solution")
            mystnb = md.setdefault("mystnb", {})
            new = {"code_prompt_show": f"Show the code and output of the solution to exercise {n}",
                   "code_prompt_hide": f"Hide the solution to exercise {n}"}
            if tags != md.get("tags") or any(mystnb.get(k) != v for k, v in new.items()):
                md["tags"], changed = tags, changed + 1
                mystnb.update(new)
        if cell["cell_type"] != "markdown":
            continue
        src = "".join(cell["source"])
        new_src = src
        for nb_name, old, new in WORDING:
            if nb_name == rel:
                new_src = new_src.replace(old, new)
        for m in reversed(list(EXERCISE.finditer(src))):
            n = int(m.group(1))
            if (rel, n) not in SOLUTIONS or f"{{dropdown}} Solution to exercise {n}\n" in whole:
                continue
            end = new_src.find("\n:::", new_src.find(m.group(0))) + len("\n:::")
            drop = f"\n\n:::{{dropdown}} Solution to exercise {n}{SOLUTIONS[rel, n].rstrip()}\n:::"
            new_src = new_src[:end] + drop + new_src[end:]
        if new_src != src:
            lines = new_src.splitlines(keepends=True)
            cell["source"], changed = lines, changed + 1
    if changed:
        out = json.dumps(nb, indent=1, ensure_ascii=False)
        path.write_text(out + ("\n" if text.endswith("\n") else ""))
    return changed


def main(argv: list[str]) -> None:
    paths = [Path(a).resolve() for a in argv] or sorted((ROOT / "book").rglob("*.ipynb"))
    for path in paths:
        if "_build" in path.parts or ".ipynb_checkpoints" in path.parts:
            continue
        n = apply(path)
        if n:
            print(f"{path.relative_to(ROOT)}: {n} cell(s) changed")
    missing = [k for k in SOLUTIONS if not (ROOT / k[0]).exists()]
    if missing:
        sys.exit(f"notebooks not found: {missing}")


if __name__ == "__main__":
    main(sys.argv[1:])
