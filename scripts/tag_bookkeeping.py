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
keeps its tags.

A visible code cell that *mixes* a computation with bookkeeping statements is first split
(:func:`split_cell`): the computation stays in the cell (its id, its printed and displayed
outputs), and its top-level bookkeeping statements move to a new cell right after it, id
``<id>-bk``, tagged as above, with the glue outputs (and, after ``publish_scorecard``, the
scorecard's table).  A bookkeeping statement moves only past computation that does not change
what it reads (nor read what it sets); where it would, the cell is split at that point into
several computation/bookkeeping pairs (``<id>``, ``<id>-bk``, ``<id>-c2``, ``<id>-bk2``, ...).
When a part's last statement is an expression that was not the cell's last, it is assigned to
``_`` so that it does not start displaying its value.  Bookkeeping inside a loop (or another statement) that also computes cannot be split off: ``--check`` lists it
(:func:`buried`) and it is moved by hand (the loop collects the values, a quiet cell glues or records them).
Re-running changes nothing: a split cell holds no bookkeeping statement any more.

Usage::

    python scripts/tag_bookkeeping.py           # split mixed cells, tag the notebooks of _toc.yml
    python scripts/tag_bookkeeping.py --check   # list mixed and untagged bookkeeping cells; exit 1 if any
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


# ----------------------------------------------------------------------------- splitting
def _parse(source: str):
    """(tree, lines) of a cell, magics blanked so that line numbers stay; None if not Python."""
    lines = ["" if ln.lstrip().startswith(("%", "!")) else ln for ln in source.splitlines()]
    try:
        return ast.parse("\n".join(lines)), source.splitlines()
    except SyntaxError:
        return None


def _is_book(stmt) -> bool:
    return bool(_kinds([stmt], nested=False))


def _comprehension_names(node) -> set:
    """Names bound by the comprehensions inside ``node`` (local to them)."""
    return {n.id for c in ast.walk(node) if isinstance(c, ast.comprehension)
            for n in ast.walk(c.target) if isinstance(n, ast.Name)}


def _reads(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} \
        - _comprehension_names(node)


def _sets(node) -> set:
    """The names a statement binds or may change: assigned (``x = ``, ``x[i] = ``, ``x.a = ``,
    ``del x``), defined or imported, and, in a call made for its effect (``x.append(...)``,
    ``shuffle(x)``), every name the call mentions."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out |= {(a.asname or a.name).split(".")[0] for a in n.names}
        elif isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, (ast.Store, ast.Del)):
            b = n.value
            while isinstance(b, (ast.Attribute, ast.Subscript, ast.Call)):
                b = b.func if isinstance(b, ast.Call) else b.value
            if isinstance(b, ast.Name):
                out.add(b.id)
        elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and not _silent(n):
            out |= _reads(n.value)
    return (out | {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}) \
        - (_comprehension_names(node) if not isinstance(node, (ast.For, ast.While)) else set())


def _binds(stmt) -> set:
    """The names a bookkeeping statement changes: those it assigns, and ``card`` when it records."""
    out = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    if any(isinstance(n, ast.Call) and _call_kind(n) == "record" for n in ast.walk(stmt)):
        out.add("card")
    return out


def mixed(source: str) -> list:
    """The top-level bookkeeping statements (first lines) of a cell that also computes.

    >>> mixed('x = f(1)\\nglue_num("x", x)')
    ['glue_num("x", x)']
    >>> mixed('glue_num("a", 1)'), mixed('x = f(1)')
    ([], [])
    """
    parsed = _parse(source)
    if parsed is None:
        return []
    tree, lines = parsed
    book = [_is_book(s) for s in tree.body]
    if all(book) or not any(book):
        return []
    return [lines[s.lineno - 1].strip() for s, b in zip(tree.body, book) if b]


def buried(source: str) -> list:
    """The bookkeeping calls (first lines) inside a statement that also computes: a glue or a
    record in the body of a loop, a ``with`` or a function that does other work.  They cannot be
    moved by :func:`split_cell`; the computation collects their values (a dict filled in the
    loop) and a quiet cell after it glues or records them.

    >>> buried('for k in K:\\n    x = f(k)\\n    print(x)\\n    glue_num(k, x)')
    ['glue_num(k, x)']
    >>> buried('for k in K:\\n    glue_num(k, r[k])'), buried('x = f(1)\\nglue_num("x", x)')
    ([], [])
    """
    parsed = _parse(source)
    if parsed is None:
        return []
    tree, lines = parsed
    return [lines[n.lineno - 1].strip() for s in tree.body if not _is_book(s)
            for n in ast.walk(s) if isinstance(n, ast.Call) and _call_kind(n)]


def _segments(tree) -> list:
    """[(computation statements, bookkeeping statements)]: bookkeeping moved past computation
    only while that computation neither changes what it reads nor reads what it sets."""
    segs, comp, book = [], [], []
    for s in tree.body:
        if _is_book(s):
            book.append(s)
            continue
        if book and (_sets(s) & set().union(*map(_reads, book)) or _reads(s) & set().union(*map(_binds, book))):
            segs.append((comp, book))
            comp, book = [], []
        comp.append(s)
    segs.append((comp, book))
    return [(c, b) for c, b in segs if c or b]


def _text(lines: list, stmts: list, bounds: dict) -> str:
    return "\n".join("\n".join(lines[bounds[id(s)][0]:bounds[id(s)][1]]) for s in stmts).strip("\n")


def _glue_names(stmts: list) -> set:
    return {n.args[0].value for s in stmts for n in ast.walk(s)
            if isinstance(n, ast.Call) and _call_kind(n) == "glue" and n.args
            and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)}


def _silent(stmt) -> bool:
    """True for an expression statement that displays nothing (print, display, plt.show, a string)."""
    v = stmt.value
    if isinstance(v, ast.Constant):
        return True
    if isinstance(v, ast.Call):
        f = v.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return name in {"print", "display", "show"} | GLUE | PUBLISH | CARD_PUBLISH | DISPLAY
    return False


def _discard(lines: list, stmt) -> list:
    """``lines`` with the expression statement ``stmt`` assigned to ``_``: its value is not displayed
    (a trailing ``;`` is not enough: IPython looks for it in the input history, which nbval does not
    keep)."""
    out = list(lines)
    ln, col = out[stmt.lineno - 1], stmt.col_offset
    out[stmt.lineno - 1] = ln[:col] + "_ = " + ln[col:]
    return out


def _coalesce(outputs: list) -> list:
    out = []
    for o in outputs:
        if out and o["output_type"] == "stream" and out[-1]["output_type"] == "stream" \
                and out[-1]["name"] == o["name"]:
            out[-1] = dict(out[-1], text="".join(out[-1]["text"]) + "".join(o["text"]))
        else:
            out.append(o)
    return out


def split_cell(cell: dict) -> list | None:
    """The cells that replace a visible code cell mixing computation and bookkeeping, or None."""
    if cell["cell_type"] != "code" or set(cell.get("metadata", {}).get("tags", [])) & set(QUIET):
        return None
    source = "".join(cell["source"])
    if not mixed(source):
        return None
    tree, lines = _parse(source)
    body = tree.body
    # each statement owns its lines and the comments and blank lines just above it
    bounds, start = {}, 0
    for s in body:
        bounds[id(s)] = (start, s.end_lineno)
        start = s.end_lineno
    head = "\n".join(lines[:body[0].lineno - 1])            # magics and comments before the code
    tail = "\n".join(lines[body[-1].end_lineno:])           # comments after it
    bounds[id(body[0])] = (body[0].lineno - 1, body[0].end_lineno)
    segs = _segments(tree)
    last_is_book = _is_book(body[-1])
    outputs = cell.get("outputs", [])
    glue_out = [o for o in outputs if "scrapbook" in o.get("metadata", {})]
    other = [o for o in outputs if "scrapbook" not in o.get("metadata", {})]
    table_out = []
    if last_is_book and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in PUBLISH
                            for n in ast.walk(body[-1])):
        while other and other[-1]["output_type"] == "display_data":    # the scorecard's table
            table_out.insert(0, other.pop())
    book_segs = [i for i, (_, b) in enumerate(segs) if b]
    glue_for = {i: [] for i in book_segs}
    for o in glue_out:
        name = o["metadata"]["scrapbook"].get("name")
        owner = next((i for i in book_segs if name in _glue_names(segs[i][1])), book_segs[-1])
        glue_for[owner].append(o)
    comp_segs = [i for i, (c, _) in enumerate(segs) if c]

    def calls(i, names):
        return any(isinstance(n, ast.Call) and (getattr(n.func, "id", None) or getattr(n.func, "attr", None)) in names
                   for s in segs[i][0] for n in ast.walk(s))

    def owner_of(o):
        """The computation part that made an output: prints and displays where they are called."""
        names = {"stream": {"print"}, "display_data": {"display", "show", "imshow", "plot"}}.get(o["output_type"])
        if names and len(comp_segs) > 1:
            return next((i for i in comp_segs if calls(i, names)), comp_segs[-1])
        return comp_segs[-1]
    new, n_c, n_b = [], 0, 0
    for i, (comp, book) in enumerate(segs):
        if comp:
            last, shown = comp[-1], lines
            if isinstance(last, ast.Expr) and last is not body[-1] and not _silent(last):
                # a value the cell did not display before the split stays undisplayed
                shown = _discard(lines, last)
            text = _text(shown, comp, bounds)
            if n_c == 0 and head:
                text = head + "\n" + text
            if i == comp_segs[-1] and tail.strip() and not last_is_book:
                text = text + "\n" + tail
            n_c += 1
            c = dict(cell) if n_c == 1 else {"cell_type": "code", "execution_count": None,
                                              "id": f"{cell['id']}-c{n_c}", "metadata": {}, "outputs": []}
            c["source"] = text.splitlines(keepends=True)
            c["outputs"] = _coalesce([o for o in other if owner_of(o) == i])
            new.append(c)
        if book:
            n_b += 1
            last, shown = book[-1], lines
            if isinstance(last, ast.Expr) and last is not body[-1] and not _silent(last):
                # card.record(...) returns its claim, which the cell did not display
                shown = _discard(lines, last)
            text = _text(shown, book, bounds)
            if i == len(segs) - 1 and tail.strip() and last_is_book:
                text = text + "\n" + tail
            tag = bookkeeping(text) or "hide-input"
            new.append({"cell_type": "code", "execution_count": None,
                        "id": f"{cell['id']}-bk" + (str(n_b) if n_b > 1 else ""),
                        "metadata": {"tags": [tag]},
                        "outputs": glue_for[i] + (table_out if i == book_segs[-1] else []),
                        "source": text.splitlines(keepends=True)})
    return new


def split_notebook(nb: dict) -> int:
    """Split every mixed cell of ``nb`` in place; the number of cells split."""
    cells, n = [], 0
    for c in nb["cells"]:
        parts = split_cell(c)
        if parts:
            n += 1
            cells += parts
        else:
            cells.append(c)
    nb["cells"] = cells
    return n


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
        n_split = 0
        for c in nb["cells"]:
            if c["cell_type"] == "code" and not set(c.get("metadata", {}).get("tags", [])) & set(QUIET) \
                    and mixed("".join(c["source"])):
                print(f"{path.relative_to(ROOT)} cell {c.get('id')}: mixed, split  ({mixed(''.join(c['source']))[0][:60]})")
                missing += 1
            if c["cell_type"] == "code" and not set(c.get("metadata", {}).get("tags", [])) & set(QUIET) \
                    and buried("".join(c["source"])):
                print(f"{path.relative_to(ROOT)} cell {c.get('id')}: bookkeeping inside a computing statement, "
                      f"move it by hand  ({buried(''.join(c['source']))[0][:60]})")
                missing += 1
        if not args.check:
            n_split = split_notebook(nb)
        todo = untagged(nb)
        for i, tag, first in todo:
            print(f"{path.relative_to(ROOT)} cell {i}: {tag}  ({first[:70]})")
            if not args.check:
                nb["cells"][i].setdefault("metadata", {}).setdefault("tags", []).append(tag)
        missing += len(todo)
        if (todo or n_split) and not args.check:
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + ("\n" if text.endswith("\n") else ""),
                            encoding="utf-8")
    return 1 if (args.check and missing) else 0


if __name__ == "__main__":
    sys.exit(main())
