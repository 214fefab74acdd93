"""One meaning per symbol across the book: the notebooks' formulas renamed to the notation page.

Re-runnable (idempotent) after merging other changes into the notebooks:

    python scripts/apply_notation.py            # apply; prints what changed
    python scripts/apply_notation.py --check    # exit 1 if an edit is still to apply

Each edit is an exact string replacement in one markdown cell (notebook path, cell id, old, new):
the book's own pages (Foundations, chapter 6, the tutorials) take the letters of
``book/notation.md`` (#notation-by-page), and chapters 1-5 keep their sources' letters, saying so
where they first use them (an added *Notation.* paragraph).  An edit whose ``new`` text is
already in the cell is skipped; one whose ``old`` text is missing too is an error naming the cell
(a merge changed that sentence: look at it and update the edit).  Code cells are never touched.
After it, regenerate the answer keys: ``python scripts/build_edition.py answer-keys``.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (notebook, cell id, old text, new text)
EDITS = [
    ("book/foundations/linkage.ipynb", "c13", "$$\n-\\sum_{s} p(E, s) \\log p(E, s) \\ge \\log \\ell ,\n$$", "$$\n-\\sum_{v} p(E, v) \\log p(E, v) \\ge \\log \\ell ,\n$$"),
    ("book/foundations/linkage.ipynb", "c13", "$p(E, s)$", "$p(E, v)$"),
    ("book/foundations/linkage.ipynb", "c13", "$s$", "$v$"),
    ("book/foundations/linkage.ipynb", "c13", "$r_1 < c\\,(r_\\ell + r_{\\ell+1} + \\dots + r_m)$", "$n_1 < c\\,(n_\\ell + n_{\\ell+1} + \\dots + n_M)$"),
    ("book/foundations/linkage.ipynb", "c15", "$D[P, Q] \\le t$", "$\\mathrm{EMD}[P, Q] \\le t$"),
    ("book/foundations/linkage.ipynb", "c15", "$m$", "$M$"),
    ("book/foundations/linkage.ipynb", "c15", "$d_{ij} = |i - j| / (m - 1)$", "$d_{ij} = |i - j| / (M - 1)$"),
    ("book/foundations/linkage.ipynb", "c15", "$$\nD[P, Q] = \\frac{1}{m - 1} \\sum_{i=1}^{m} \\Bigl| \\sum_{j=1}^{i} (p_j - q_j) \\Bigr| .\n$$", "$$\n\\mathrm{EMD}[P, Q] = \\frac{1}{M - 1} \\sum_{i=1}^{M} \\Bigl| \\sum_{j=1}^{i} (p_j - q_j) \\Bigr| .\n$$"),
    ("book/foundations/linkage.ipynb", "c15", "$m - 1$", "$M - 1$"),
    ("book/foundations/linkage.ipynb", "c21", "$m = 10$", "$M = 10$"),
    ("book/foundations/linkage.ipynb", "c21", "$\\frac{1}{m - 1}\\sum_{i} |r_i|$", "$\\frac{1}{M - 1}\\sum_{i} |\\chi_i|$"),
    ("book/foundations/linkage.ipynb", "c21", "$D = 3.5 / 9 \\approx 0.389$", "$\\mathrm{EMD} = 3.5 / 9 \\approx 0.389$"),
    ("book/foundations/measuring.ipynb", "c01", "$\\alpha$", "$\\eta$"),
    ("book/foundations/measuring.ipynb", "c05", "$\\Pr[t_j = u \\mid S = v]$", "$\\Pr[t_j = x \\mid Y = v]$"),
    ("book/foundations/measuring.ipynb", "c05", "$$\np_i = \\frac{\\Pr[S = v_i] \\prod_j \\Pr[t_j = \\tau_j \\mid S = v_i]}{\\sum_v \\Pr[S = v] \\prod_j \\Pr[t_j = \\tau_j \\mid S = v]} .\n$$", "$$\n\\psi_i = \\frac{\\Pr[Y = v_i] \\prod_j \\Pr[t_j = \\tau_j \\mid Y = v_i]}{\\sum_v \\Pr[Y = v] \\prod_j \\Pr[t_j = \\tau_j \\mid Y = v]} .\n$$"),
    ("book/foundations/measuring.ipynb", "c07", "$Q$", "$R$"),
    ("book/foundations/measuring.ipynb", "c07", "$c(Q)$", "$V(R)$"),
    ("book/foundations/measuring.ipynb", "c07", "$\\hat c(Q)$", "$\\hat V(R)$"),
    ("book/foundations/measuring.ipynb", "c07", "$|\\hat c(Q) - c(Q)| / c(Q)$", "$|\\hat V(R) - V(R)| / V(R)$"),
    ("book/foundations/measuring.ipynb", "c07", "$\\alpha$", "$\\eta$"),
    ("book/foundations/measuring.ipynb", "c09", "$\\alpha$", "$\\eta$"),
    ("book/foundations/measuring.ipynb", "c12", "$\\alpha$", "$\\eta$"),
    ("book/foundations/measuring.ipynb", "c16", "$\\alpha$", "$\\eta$"),
    ("book/foundations/measuring.ipynb", "c18", "$\\alpha$", "$\\eta$"),
    ("book/foundations/dp.ipynb", "c03", "$b = \\Delta f / \\varepsilon$", "$\\lambda = \\Delta f / \\varepsilon$"),
    ("book/foundations/dp.ipynb", "c03", "$\\frac{1}{2b} e^{-|z| / b}$", "$\\frac{1}{2\\lambda} e^{-|z| / \\lambda}$"),
    ("book/foundations/dp.ipynb", "c03", "$e^{|f(D) - f(D')| / b} \\le e^{\\varepsilon}$", "$e^{|f(D) - f(D')| / \\lambda} \\le e^{\\varepsilon}$"),
    ("book/foundations/dp.ipynb", "c08", "$b = \\Delta f / \\varepsilon$", "$\\lambda = \\Delta f / \\varepsilon$"),
    ("book/foundations/dp.ipynb", "c16", "$f(D) + b \\log U$", "$f(D) + \\lambda \\log U$"),
    ("book/foundations/dp_more.ipynb", "8e26f3cf", "$k$", "$J$"),
    ("book/foundations/dp_more.ipynb", "8e26f3cf", "$k\\varepsilon_0$", "$J\\varepsilon_0$"),
    ("book/foundations/dp_more.ipynb", "8e26f3cf", "$\\varepsilon' = \\sqrt{2k\\ln(1/\\delta')}\\,\\varepsilon_0 + k\\varepsilon_0(e^{\\varepsilon_0} - 1)$", "$\\varepsilon' = \\sqrt{2J\\ln(1/\\delta')}\\,\\varepsilon_0 + J\\varepsilon_0(e^{\\varepsilon_0} - 1)$"),
    ("book/foundations/dp_more.ipynb", "8e26f3cf", "$\\sqrt{k}$", "$\\sqrt{J}$"),
    ("book/foundations/dp_more.ipynb", "9beed3d4", "$\\sqrt{k}$", "$\\sqrt{J}$"),
    ("book/foundations/dp_more.ipynb", "909b4c91", "$\\bar r$", "$\\mu$"),
    ("book/foundations/dp_more.ipynb", "909b4c91", "$p = e^{\\varepsilon}/(1 + e^{\\varepsilon})$", "$\\phi = e^{\\varepsilon}/(1 + e^{\\varepsilon})$"),
    ("book/foundations/dp_more.ipynb", "909b4c91", "$\\hat\\theta = (\\bar r - (1 - p))/(2p - 1)$", "$\\hat\\theta = (\\mu - (1 - \\phi))/(2\\phi - 1)$"),
    ("book/foundations/dp_more.ipynb", "909b4c91", "$\\sqrt{p(1-p)/n}/(2p - 1)$", "$\\sqrt{\\phi(1-\\phi)/n}/(2\\phi - 1)$"),
    ("book/foundations/dp_more.ipynb", "9dbb9fc6", "$m$", "$H$"),
    ("book/foundations/dp_more.ipynb", "9dbb9fc6", "$\\Delta_1 = m$", "$\\Delta_1 = H$"),
    ("book/foundations/dp_more.ipynb", "9dbb9fc6", "$\\Delta_2 = \\sqrt{m}$", "$\\Delta_2 = \\sqrt{H}$"),
    ("book/foundations/dp_more.ipynb", "9dbb9fc6", "$m/\\varepsilon$", "$H/\\varepsilon$"),
    ("book/foundations/dp_more.ipynb", "9dbb9fc6", "$\\sqrt{m}$", "$\\sqrt{H}$"),
    ("book/foundations/dp_more.ipynb", "d10323ac", "$\\sqrt{k}$", "$\\sqrt{J}$"),
    ("book/foundations/dp_more.ipynb", "3e32b7b5", "$p = e/(1 + e)$", "$\\phi = e/(1 + e)$"),
    ("book/foundations/dp_more.ipynb", "3e32b7b5", "$\\sqrt{p(1-p)/n}/(2p - 1)$", "$\\sqrt{\\phi(1-\\phi)/n}/(2\\phi - 1)$"),
    ("book/foundations/dp_more.ipynb", "3e32b7b5", "$n = p(1-p)/(0.01(2p - 1))^2$", "$n = \\phi(1-\\phi)/(0.01(2\\phi - 1))^2$"),
    ("book/ch6_one_scale/one_scale.ipynb", "ch6-20", "$|u|/|A|$", "$|\\mathrm{lca}|/|A|$"),
    ("book/ch6_one_scale/one_scale.ipynb", "ch6-20", "$u$", "$\\mathrm{lca}$"),
    ("book/ch6_one_scale/one_scale.ipynb", "ch6-28", "$\\mathrm{round}(\\delta n)$", "$\\mathrm{round}(\\zeta n)$"),
    ("book/tutorial/own_data.ipynb", "02a7b13f", "$\\pi \\sim \\mathrm{Dirichlet}(\\alpha + n)$", "$\\omega \\sim \\mathrm{Dirichlet}(\\alpha + n)$"),
    ("book/tutorial/own_data.ipynb", "02a7b13f", "$\\mathrm{Multinomial}(m, \\pi)$", "$\\mathrm{Multinomial}(m, \\omega)$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "a64976c1", "$k = 2$", "$d = 2$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "e489cd20", "$k = 2$", "$d = 2$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "ffacda0d", "$m_1 = \\mathrm{clip}(\\mathrm{round}(n_1 + u), 0, n)$", "$m_1 = \\mathrm{clip}(\\mathrm{round}(n_1 + Z), 0, n)$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "ffacda0d", "$u \\sim \\mathrm{Lap}(0, 2/\\varepsilon)$", "$Z \\sim \\mathrm{Lap}(0, 2/\\varepsilon)$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "ffacda0d", "$\\Pr[|u| < 1/2]$", "$\\Pr[|Z| < 1/2]$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "ffacda0d", "$\\mathrm{Lap}(b)$", "$\\mathrm{Lap}(\\lambda)$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "ffacda0d", "$2b^2$", "$2\\lambda^2$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "c0ea9e74", "$k$", "$d$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "c0ea9e74", "$((n_1 + \\alpha)/(n + k\\alpha))^m$", "$((n_1 + \\alpha)/(n + d\\alpha))^m$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "c0ea9e74", "$\\prod_{j < m} (n_1 + \\alpha + j)/(n + k\\alpha + j)$", "$\\prod_{j < m} (n_1 + \\alpha + j)/(n + d\\alpha + j)$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "e023d850", "$s$", "$\\lambda$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "e023d850", "$e^{|x - y|/s} \\le e^{1/s}$", "$e^{|x - y|/\\lambda} \\le e^{1/\\lambda}$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "e023d850", "$(1/s)$", "$(1/\\lambda)$"),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "e023d850", "$s = 2/\\varepsilon$", "$\\lambda = 2/\\varepsilon$"),
    ("book/ch3_diffgen/diffgen.ipynb", "f6f9b6b5", "$s$", "$j$"),
    ("book/ch3_diffgen/diffgen.ipynb", "f6f9b6b5", "$r$", "$i$"),
    ("book/ch3_diffgen/diffgen.ipynb", "9cc05eed", "$n$", "$\\nu$"),
    ("book/ch3_diffgen/diffgen.ipynb", "9cc05eed", "$1/\\sqrt{n}$", "$1/\\sqrt{\\nu}$"),
    ("book/ch1_tcloseness/tcloseness.ipynb", "c63", "$a = n_1/(n_1 + n_2)$", "$w = n_1/(n_1 + n_2)$"),
    ("book/ch1_tcloseness/tcloseness.ipynb", "c63", "$P = aP_1 + (1-a)P_2$", "$P = wP_1 + (1-w)P_2$"),
    ("book/ch1_tcloseness/tcloseness.ipynb", "c63", "$P - Q = a(P_1 - Q) + (1-a)(P_2 - Q)$", "$P - Q = w(P_1 - Q) + (1-w)(P_2 - Q)$"),
    ("book/ch1_tcloseness/tcloseness.ipynb", "c63", "$$D[P,Q] = \\tfrac{1}{2}\\sum_i |p_i - q_i| \\le a\\,D[P_1,Q] + (1-a)\\,D[P_2,Q] \\le \\max(D[P_1,Q], D[P_2,Q]).$$", "$$D[P,Q] = \\tfrac{1}{2}\\sum_i |p_i - q_i| \\le w\\,D[P_1,Q] + (1-w)\\,D[P_2,Q] \\le \\max(D[P_1,Q], D[P_2,Q]).$$"),
    ("book/ch1_tcloseness/tcloseness.ipynb", "c63", "$a$", "$w$"),
    ("book/ch1_tcloseness/tcloseness.ipynb", "c63", "$1-a$", "$1-w$"),
    ("book/ch2_empirical_privacy/empirical_privacy.ipynb", "53187d48", "$[a, a + \\lfloor W/2 \\rfloor]$", "$[x, x + \\lfloor W/2 \\rfloor]$"),
    ("book/ch2_empirical_privacy/empirical_privacy.ipynb", "d2dae0fe", "$[a, a + \\lfloor W/2 \\rfloor]$", "$[x, x + \\lfloor W/2 \\rfloor]$"),
    ("book/ch2_empirical_privacy/empirical_privacy.ipynb", "ch2-exercises", "$\\beta' = a\\,\\beta + b$", "$\\beta' = \\kappa\\,\\beta + \\xi$"),
    ("book/ch2_empirical_privacy/empirical_privacy.ipynb", "ch2-exercises", "$a = \\rho_{\\text{ours}}/0.11 > 1$", "$\\kappa = \\rho_{\\text{ours}}/0.11 > 1$"),
    ("book/ch2_empirical_privacy/empirical_privacy.ipynb", "ch2-exercises", "$b = a - 1$", "$\\xi = \\kappa - 1$"),
    ("book/ch4_qwi_onthemap/qwi.ipynb", "c42ba2c2", "$c > 0$", "$\\kappa > 0$"),
    ("book/ch4_qwi_onthemap/qwi.ipynb", "c42ba2c2", "$c x_t$", "$\\kappa x_t$"),
    ("book/ch4_qwi_onthemap/qwi.ipynb", "c42ba2c2", "$c$", "$\\kappa$"),
    ("book/foundations/linkage.ipynb", "c21", "$r_i$", "$\\chi_i$"),
    ("book/foundations/linkage.ipynb", "c21", "$r = \\tfrac13 - \\tfrac1{10}, \\tfrac23 - \\tfrac2{10}, 1 - \\tfrac3{10}$", "$\\chi = \\tfrac13 - \\tfrac1{10}, \\tfrac23 - \\tfrac2{10}, 1 - \\tfrac3{10}$"),
    ("book/ch1_tcloseness/tcloseness.ipynb", "c01", "ts of that\nversion; every reproduction tested in code says in the registry which plausible outcome would\nmake it differ.", "ts of that\nversion; every reproduction tested in code says in the registry which plausible outcome would\nmake it differ.\n\n*Notation.* This chapter keeps its source's letters where the rest of the book uses them otherwise ({ref}`the notation page <notation-by-page>`): the source writes $D[P, Q]$ for the Earth Mover's Distance, $m$ for the number of values of the sensitive attribute, $r_i = p_i - q_i$ for the differences of the EMD's closed form, $H$ for the height of a {term}`generalization hierarchy` and $N$ for a node of it; and the source of $\\beta$-likeness writes $\\beta$ for its bound."),
    ("book/ch4_qwi_onthemap/qwi.ipynb", "1ad51260", "nsus Bureau's OnTheMap, is the next\nsection, [Synthetic data, differential privacy and PDP in OnTheMap](onthemap.ipynb).", "nsus Bureau's OnTheMap, is the next\nsection, [Synthetic data, differential privacy and PDP in OnTheMap](onthemap.ipynb).\n\n*Notation.* This section keeps its source's letters where the rest of the book uses them otherwise ({ref}`the notation page <notation-by-page>`): the source writes $\\delta_j$ for the distortion factor and $p(\\delta)$ for its density, $\\Delta$ for a change from one quarter to the next, and capitals for the QWI's variables ($B$ beginning-of-quarter employment, $W$ total payroll, $E$, $F$, $M$ and the others of its tables)."),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "e489cd20", "e posterior **mean**\n  $\\hat\\pi_1 = (n_1 + 1/2)/(n + 1)$ plugged in (a hypothesis about how the printed table was made).", "e posterior **mean**\n  $\\hat\\pi_1 = (n_1 + 1/2)/(n + 1)$ plugged in (a hypothesis about how the printed table was made).\n\n*Notation.* This section keeps the slides' letters where the rest of the book uses them otherwise ({ref}`the notation page <notation-by-page>`): the slides write $D(\\alpha)$ for the Dirichlet distribution, $M(m, \\pi)$ for the multinomial and $\\pi$ for its cell probabilities, $E$ for an expectation, $f_i$ for the retention probabilities of domain pruning and $P$ for the posterior of a commute direction."),
    ("book/ch5_reident/reident.ipynb", "e96ab7d5", "_swap_users:,d` simulated users only, because each re-scores or re-encodes\n  the database once per fold and per setting.", "_swap_users:,d` simulated users only, because each re-scores or re-encodes\n  the database once per fold and per setting.\n\n*Notation.* This chapter keeps its source's letters where the rest of the book uses them otherwise ({ref}`the notation page <notation-by-page>`): the source writes $U$ for the user identity, $u_i$ for a user, $H[U]$ for the entropy of $U$ and $c$ for the constant of the leakage bound."),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "ffacda0d", "\"for all tables $D$\"", "\"for all tables D\""),
    ("book/ch4_qwi_onthemap/onthemap.ipynb", "14fc0a55", "\"for all tables $D$\"", "\"for all tables D\""),
    ("book/ch2_empirical_privacy/empirical_privacy.ipynb", "ch2-before-you-start", "and the relative error\n$\\alpha$)", "and the {term}`median relative error`\n$\\eta$, which the source writes $\\alpha$, as this chapter does)"),
]


def apply(root: Path = ROOT, *, check: bool = False) -> list:
    """Apply :data:`EDITS` under ``root``; the list of edits made (or, with ``check``, to make)."""
    done, books = [], {}
    for path, cid, old, new in EDITS:
        if path not in books:
            books[path] = json.loads((root / path).read_text(encoding="utf-8"))
        cells = [c for c in books[path]["cells"] if c.get("id") == cid]
        if len(cells) != 1 or cells[0]["cell_type"] != "markdown":
            raise SystemExit(f"{path}: no markdown cell with id {cid!r} (edit {old[:40]!r})")
        src = "".join(cells[0]["source"])
        if old in new:                                   # an insertion after an anchor
            if new in src:
                continue
            if old not in src:
                raise SystemExit(f"{path} cell {cid}: neither the anchor nor the edited text: {old[:60]!r}")
            src = src.replace(old, new, 1)
        elif old in src:
            src = src.replace(old, new)
        elif new in src:
            continue
        else:
            raise SystemExit(f"{path} cell {cid}: neither the old nor the new text: {old[:60]!r} -> {new[:60]!r}")
        cells[0]["source"] = src.splitlines(keepends=True)
        done.append((path, cid, old, new))
    if not check:
        for path in {p for p, *_ in done}:
            text = (root / path).read_text(encoding="utf-8")
            (root / path).write_text(json.dumps(books[path], indent=1, ensure_ascii=False)
                                     + ("\n" if text.endswith("\n") else ""), encoding="utf-8")
    return done


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only list the edits still to apply")
    args = ap.parse_args(argv)
    done = apply(check=args.check)
    for path, cid, old, new in done:
        print(f"{path} {cid}: {old[:50]!r} -> {new[:50]!r}")
    print(f"{len(done)} edit(s) {'to apply' if args.check else 'applied'}")
    return 1 if (args.check and done) else 0


if __name__ == "__main__":
    sys.exit(main())
