"""Tag the book's bookkeeping cells so that the reader sees figures, tables and text, not glue.

A code cell is bookkeeping when every statement in it is one of

* a glue call (``glue_num``, ``glue``), a display option (``pd.set_option``,
  ``np.set_printoptions``, ``warnings.filterwarnings``/``simplefilter``), or the scorecard's
  publication (``publish_scorecard``, ``card.save``, ``card.check_complete``): tagged
  ``remove-input`` (its output, such as the scorecard table, stays);
* a scorecard record (``card = Scorecard.from_readings(...)``, ``card.record(...)``, any call of
  a method of ``card``), possibly inside a ``for``/``if`` whose other statements only assign the
  record's arguments: tagged ``hide-input`` (the test of each claim is one click away);

and so is a cell that records scorecard rows and whose statements are at least two thirds
bookkeeping (the rest prepares the values recorded): tagged ``hide-input`` (a table it shows
stays; only its code is folded).

a cell that already has one of ``remove-input``, ``hide-input``, ``remove-cell``, ``hide-cell``
keeps its tags.  Only the cells' metadata change: sources and outputs stay as they are.

Usage::

    python scripts/tag_bookkeeping.py           # tag the notebooks of _toc.yml
    python scripts/tag_bookkeeping.py --check   # list untagged bookkeeping cells; exit 1 if any
"""
from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
#: The tags that keep a cell's code out of the reader's way.
QUIET = ("remove-input", "hide-input", "remove-cell", "hide-cell")
GLUE = {"glue_num", "glue"}
DISPLAY = {"set_option", "set_printoptions", "filterwarnings", "simplefilter"}
PUBLISH = {"publish_scorecard"}
CARD_PUBLISH = {"save", "check_complete"}


def _call_kind(node: ast.AST) -> str | None:
    """'glue' (glue, display options, publication), 'record' (the scorecard) or None."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    if name in GLUE | PUBLISH or (isinstance(f, ast.Attribute) and name in DISPLAY):
        return "glue"
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "card":
        return "glue" if name in CARD_PUBLISH else "record"
    if isinstance(f, ast.Attribute) and name == "from_readings":
        return "record"
    return None


def _kinds(stmts: list, *, nested: bool) -> set | None:
    """The bookkeeping kinds of ``stmts``, or None if one of them does something else."""
    kinds: set = set()
    for s in stmts:
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant):
            continue                                           # a docstring or a bare string
        if isinstance(s, ast.Pass):
            continue
        if isinstance(s, ast.Expr) and _call_kind(s.value):
            kinds.add(_call_kind(s.value))
        elif isinstance(s, ast.Assign) and _call_kind(s.value) == "record":
            kinds.add("record")                                # card = Scorecard.from_readings(...)
        elif nested and isinstance(s, (ast.Assign, ast.AugAssign)):
            continue                                           # a record's arguments, in a loop
        elif isinstance(s, (ast.For, ast.If)):
            inner = _kinds(s.body + s.orelse, nested=True)
            if inner is None:
                return None
            kinds |= inner
        else:
            return None
    return kinds


def bookkeeping(source: str) -> str | None:
    """The tag a cell of this source needs: ``"remove-input"``, ``"hide-input"`` or None.

    >>> bookkeeping('glue_num("a", 1)\\nglue_num("b", 2)')
    'remove-input'
    >>> bookkeeping('publish_scorecard(card, prefix="ch1")')
    'remove-input'
    >>> bookkeeping('for k in KS:\\n    v = r[k]\\n    card.record(k, v)')
    'hide-input'
    >>> bookkeeping('x = f(1)\\nglue_num("x", x)') is None
    True
    >>> bookkeeping('x = f(1)\\ncard.record("a", x)\\ncard.record("b", 2 * x)')
    'hide-input'
    >>> bookkeeping('x = f(1)\\ny = g(x)\\ncard.record("a", x)') is None
    True
    """
    lines = [ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return None
    kinds = _kinds(tree.body, nested=False)
    if kinds:
        return "hide-input" if "record" in kinds else "remove-input"
    # a cell that records the scorecard's rows, with a few lines preparing their values (what
    # it shows, a table of the values checked, stays: only its code is folded)
    per_stmt = [_kinds([s], nested=False) for s in tree.body]
    n_book = sum(bool(k) for k in per_stmt)
    if any(k and "record" in k for k in per_stmt) and 3 * n_book >= 2 * len(tree.body):
        return "hide-input"
    return None


def toc_notebooks() -> list[Path]:
    """The notebooks of ``_toc.yml``, in its order."""
    files: list[str] = []

    def walk(x):
        if isinstance(x, dict):
            if "file" in x:
                files.append(x["file"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8")))
    return [ROOT / f"{f}.ipynb" for f in files if (ROOT / f"{f}.ipynb").exists()]


def untagged(nb: dict) -> list[tuple[int, str, str]]:
    """(cell index, tag needed, first line) of each bookkeeping cell without a quiet tag."""
    out = []
    for i, c in enumerate(nb["cells"]):
        if c["cell_type"] != "code":
            continue
        tag = bookkeeping("".join(c["source"]))
        if tag and not set(c.get("metadata", {}).get("tags", [])) & set(QUIET):
            out.append((i, tag, "".join(c["source"]).splitlines()[0]))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only list the untagged bookkeeping cells")
    args = ap.parse_args(argv)
    missing = 0
    for path in toc_notebooks():
        text = path.read_text(encoding="utf-8")
        nb = json.loads(text)
        todo = untagged(nb)
        for i, tag, first in todo:
            print(f"{path.relative_to(ROOT)} cell {i}: {tag}  ({first[:70]})")
            if not args.check:
                nb["cells"][i].setdefault("metadata", {}).setdefault("tags", []).append(tag)
        missing += len(todo)
        if todo and not args.check:
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + ("\n" if text.endswith("\n") else ""),
                            encoding="utf-8")
    return 1 if (args.check and missing) else 0


if __name__ == "__main__":
    sys.exit(main())
