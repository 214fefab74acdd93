"""A source's words with TeX in them, typeset as plain Unicode for an HTML table cell.

The registries of readings quote the sources verbatim, formulas included (``$\\varepsilon
\\leq 0.5$``, ``B_{jt}^* = \\delta_j \\times B_{jt}``).  MathJax does not typeset inside the
interactive tables, so the scorecards show such a quote through :func:`tex_to_unicode`:
``ε ≤ 0.5``, ``Bⱼₜ* = δⱼ × Bⱼₜ``.  Only the common commands of the quotes are known; an
unknown command loses its backslash, never its name.
"""
from __future__ import annotations

import re

__all__ = ["tex_to_unicode"]

#: Commands written as one Unicode character or word.
SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "varrho": "ϱ",
    "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "ϕ", "varphi": "φ", "chi": "χ", "psi": "ψ",
    "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
    "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "ell": "ℓ",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈",
    "sim": "~", "times": "×", "cdot": "·", "in": "∈", "notin": "∉", "parallel": "∥",
    "mid": "|", "pm": "±", "infty": "∞", "to": "→", "rightarrow": "→", "leftarrow": "←",
    "sum": "∑", "prod": "∏", "subset": "⊂", "subseteq": "⊆", "cup": "∪", "cap": "∩",
    "ldots": "…", "dots": "…", "cdots": "⋯", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈",
    "rceil": "⌉", "langle": "⟨", "rangle": "⟩", "propto": "∝", "quad": " ", "qquad": " ",
    "ln": "ln", "log": "log", "exp": "exp", "max": "max", "min": "min", "Pr": "Pr",
    "sqrt": "√", "lvert": "|", "rvert": "|", "vert": "|",
}
#: Commands whose argument is shown as it is (fonts, text).
_PLAIN = {"text", "mathrm", "mathit", "mathsf", "mathtt", "textrm", "textit", "emph",
          "operatorname", "mathcal"}
_BOLD = {"mathbf", "boldsymbol", "textbf", "bm"}
#: Accents: a combining character after the argument.
_ACCENTS = {"bar": "\u0304", "overline": "\u0304", "hat": "\u0302", "widehat": "\u0302",
            "tilde": "\u0303", "widetilde": "\u0303", "dot": "\u0307", "vec": "\u20d7"}
_GREEK_LETTERS = set("αβγδεζηθϑικλμνξπρϱστυϕφχψωΓΔΘΛΞΠΣΦΨΩℓ")
_SUB = dict(zip("0123456789+-=()aehijklmnoprstuvxβγρφχ", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ"))
_SUP = dict(zip("0123456789+-=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVW*'",
                "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ*'"))
_LITERAL_UNDERSCORE = "\x00"      # ``\_`` (a name such as min_p), kept out of the subscripts


def _bold(text: str) -> str:
    out = []
    for ch in text:
        if "a" <= ch <= "z":
            out.append(chr(0x1D41A + ord(ch) - ord("a")))
        elif "A" <= ch <= "Z":
            out.append(chr(0x1D400 + ord(ch) - ord("A")))
        else:
            out.append(ch)
    return "".join(out)


def _script(arg: str, table: dict, mark: str) -> str:
    if arg and all(ch in table for ch in arg):
        return "".join(table[ch] for ch in arg)
    if len(arg) == 1 or arg.isalnum():
        return mark + arg
    return f"{mark}({arg})"


class _Reader:
    """A recursive reader of the TeX of one formula."""

    def __init__(self, text: str):
        self.s, self.i = text, 0

    def _arg(self) -> str:
        """The next argument: a {group}, a command or one character, converted."""
        s = self.s
        while self.i < len(s) and s[self.i] == " ":
            self.i += 1
        if self.i >= len(s):
            return ""
        if s[self.i] == "{":
            depth, start = 0, self.i
            while self.i < len(s):
                depth += {"{": 1, "}": -1}.get(s[self.i], 0)
                self.i += 1
                if depth == 0:
                    break
            return _Reader(s[start + 1:self.i - 1]).read()
        if s[self.i] == "\\":
            return self._command()
        self.i += 1
        return s[self.i - 1]

    def _command(self) -> str:
        s = self.s
        self.i += 1                                   # the backslash
        m = re.match(r"[A-Za-z]+", s[self.i:])
        if not m:                                     # \_ \, \{ \% \\ ...
            ch = s[self.i:self.i + 1]
            self.i += 1
            return {"_": _LITERAL_UNDERSCORE, ",": " ", ";": " ", ":": " ", "!": "", " ": " ",
                    "\\": "; "}.get(ch, ch)
        name = m.group(0)
        self.i += len(name)
        if name in ("frac", "dfrac", "tfrac"):
            num, den = self._arg(), self._arg()
            wrap = (lambda x: f"({x})" if re.search(r"[\s+\-×·/]", x.strip()) else x.strip())
            return f"{wrap(num)}/{wrap(den)}"
        if name in _PLAIN:
            return self._arg()
        if name in _BOLD:
            return _bold(self._arg())
        if name in _ACCENTS:
            arg = self._arg()
            return arg + _ACCENTS[name] if len(arg) == 1 else f"{arg}{_ACCENTS[name]}"
        if name in ("begin", "end"):
            self._arg()
            return ""
        if name in ("left", "right", "big", "Big", "bigg", "Bigg", "displaystyle", "limits"):
            return ""
        out = SYMBOLS.get(name, name)
        # "\Delta WA" is Delta followed by WA: TeX eats the space after a command name
        if out in _GREEK_LETTERS and re.match(r" +[A-Za-z]", s[self.i:]):
            self.i += len(s[self.i:]) - len(s[self.i:].lstrip(" "))
        return out

    def read(self) -> str:
        s, out = self.s, []
        while self.i < len(s):
            ch = s[self.i]
            if ch == "\\":
                out.append(self._command())
            elif ch in "_^":
                self.i += 1
                out.append(_script(self._arg(), _SUB if ch == "_" else _SUP, ch))
            elif ch == "{":
                out.append(self._arg())
            elif ch == "}":
                self.i += 1
            elif ch in "&~":
                self.i += 1
                out.append(" ")
            else:
                out.append(ch)
                self.i += 1
        return "".join(out)


def _plain_scripts(text: str) -> str:
    """Outside a formula: ``P_1``, ``N_o``, ``λ^2`` as the subscripts and powers they stand for."""
    text = re.sub(r"(?<=[^\W\d_])_([A-Za-z0-9])(?![A-Za-z0-9])",
                  lambda m: _SUB.get(m.group(1), m.group(0)), text)
    return re.sub(r"(?<=\w)\^([A-Za-z0-9]+)",
                  lambda m: _script(m.group(1), _SUP, "^") if all(c in _SUP for c in m.group(1))
                  else m.group(0), text)


def tex_to_unicode(text: str) -> str:
    """``text`` with its TeX (``$...$`` formulas, or a bare formula) written in Unicode.

    Greek letters and relations become their characters (``\\varepsilon`` ε, ``\\leq`` ≤),
    ``\\frac{a}{b}`` becomes ``a/b``, sub- and superscripts become Unicode sub- and superscript
    characters where every character has one (else ``_x``), font commands keep their argument
    (bold as mathematical bold letters), the ``$`` go.  Text without a formula keeps its
    braces; its ``P_1`` and ``λ^2`` become ``P₁`` and ``λ²``.  Runs of spaces become one.

    Parameters
    ----------
    text : str
        A quote from a source.

    Returns
    -------
    str
        The quote for an HTML table (still to be HTML-escaped).

    Raises
    ------
    TypeError
        ``text`` is not a str.

    Examples
    --------
    >>> tex_to_unicode(r"seems $\\varepsilon \\leq 0.5$ suitable")
    'seems ε ≤ 0.5 suitable'
    >>> tex_to_unicode(r"the first-order one only has $5 \\cdot 27$")
    'the first-order one only has 5 · 27'
    >>> tex_to_unicode(r"B_{jt}^* = \\delta_j \\times B_{jt}")
    'Bⱼₜ* = δⱼ × Bⱼₜ'
    >>> tex_to_unicode("Q = {flu, gastritis}, P_1")
    'Q = {flu, gastritis}, P₁'
    """
    if not isinstance(text, str):
        raise TypeError(f"text: expected a str quote, got {type(text).__name__} {text!r}")
    if "$" in text:
        parts = text.split("$")
        if len(parts) % 2 == 0:                       # an odd number of $: the last one is text
            parts[-2:] = [parts[-2] + "$" + parts[-1]]
        out = "".join(_Reader(p).read() if k % 2 else _plain_scripts(p) for k, p in enumerate(parts))
    elif re.search(r"\\[A-Za-z]|[_^]\{", text):
        out = _Reader(text).read()
    else:
        out = _plain_scripts(text)
    return re.sub(r" {2,}", " ", out.replace(_LITERAL_UNDERSCORE, "_")).strip()
