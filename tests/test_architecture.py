"""The architecture of privlib, checked by inspection (ARCHITECTURE.md states the rules).

No notebook is executed; the source is read with :mod:`ast` and the modules are imported.

1. size -- no file under ``privlib/`` has more than 700 lines;
2. layers -- an import (module level or inside a function) goes only to the same layer or a
   lower one (:data:`LAYERS`); so an algorithm module (layers 0-2) never imports
   ``privlib.data``, ``simulate``, ``sources`` or ``experiments``;
3. no import cycle among privlib's modules, counting module-level imports and imports inside
   functions alike (``TYPE_CHECKING`` blocks excepted; an edge goes to the module a statement
   names: ``from .x import y`` in a package's submodule is no edge to the package, while
   ``from . import y`` is);
4. the public face -- every public module has ``__all__`` and every name in it exists; within
   layers 0-3 no two modules export one name for different objects (a package re-exporting
   its submodule's object is the same object; a package listing its submodules names
   namespaces, not objects, and the per-source modules ``privlib.sources.*`` are namespaces
   read qualified, ``sources.qwi.TABLE1``); ``import privlib`` imports no public module and
   resolves every name of its ``__all__`` on access;
5. public names only -- ``tests/``, ``benchmarks/`` and the notebooks' code cells import no
   private privlib name (``privlib._x``, ``from privlib.x import _y``, ``alias._y``);
6. signatures and docstrings of every public callable in an ``__all__`` of layers 0-3 (and
   of the public methods of its public classes):

   * a type hint on every parameter (``self``/``cls`` excepted) and on the return
     (``__init__`` excepted);
   * **options are keyword-only**, by this heuristic: *a parameter with a default value is
     keyword-only* (data arguments -- frames, arrays, the column names that define them --
     have no default; a data argument that has one must be declared positional-only, before
     ``/``, and listed in ``_DATA_WITH_DEFAULT``: a positional-only option cannot be passed by
     name).  The ``__init__`` a dataclass generates from its fields is exempt (a result
     record, built field by field);
   * numpydoc sections: ``Parameters`` when the callable takes parameters (a class:
     ``Parameters`` or ``Attributes``), ``Returns`` (or ``Yields``) for functions whose return
     type is not ``None``, and ``Examples`` -- for the names in ``__all__``; exceptions and
     warnings need only a docstring;
7. lean imports -- importing any one privlib module after ``numpy`` and ``pandas`` imports
   none of :data:`HEAVY` (one subprocess; each module is imported in a child forked from an
   interpreter that has imported numpy and pandas only);
8. the type hints are shipped (``privlib/py.typed``, in the package data).
"""
from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import json
import re
import subprocess
import sys
import textwrap
import warnings

import pytest

from conftest import ROOT

PKG = ROOT / "privlib"
MAX_LINES = 700

#: Layer of each top-level module or package of privlib (COMMON.md / ARCHITECTURE.md).
LAYERS = {
    "_validation": 0, "_rng": 0, "_progress": 0, "_docs": 0, "accounting": 0, "mechanisms": 0, "hierarchy": 0,
    "closeness": 1, "requirements": 1,
    "models": 2, "generalization": 2, "partition": 2, "attacks": 2, "metrics": 2, "release": 2, "diffgen": 2,
    "noise": 2, "synth": 2, "reident": 2, "scale": 2, "hierarchical": 2, "privelet": 2,
    "data": 3, "simulate": 3, "sources": 3,
    "experiments": 4, "scorecard": 4,
}
#: Dependencies that a privlib module imports only inside the function that uses them.
HEAVY = ("scipy.optimize", "sklearn", "joblib", "ot", "matplotlib", "dask", "distributed")


# ----------------------------------------------------------------------------- the modules
def _module_name(path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


FILES = {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}
MODULES = sorted(FILES)
PUBLIC = [m for m in MODULES if not any(part.startswith("_") for part in m.split(".")[1:])]


def _top(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


def _layer(module: str):
    return LAYERS.get(_top(module))


def _is_package(module: str) -> bool:
    return FILES[module].name == "__init__.py"


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """Absolute name of the module a ``from ... import`` reads from."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not _is_package(module):
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(module: str, node) -> list[str]:
    """The privlib modules an import statement imports (a package and the submodules named)."""
    out = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        src = _resolve(module, node)
        names = [src] + [f"{src}.{a.name}" for a in node.names if f"{src}.{a.name}" in FILES]
    for name in names:
        if name == "privlib" or name.startswith("privlib."):
            parts = name.split(".")
            # importing a.b.c imports a.b first: every privlib prefix that is a module counts
            out.extend(".".join(parts[:i]) for i in range(2, len(parts) + 1) if ".".join(parts[:i]) in FILES)
            if name == "privlib":
                out.append("privlib")
    return list(dict.fromkeys(out))


def _is_type_checking(node) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _named(module: str, node) -> list[str]:
    """The privlib modules an import statement names itself (no package prefix implied)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        src = _resolve(module, node)
        subs = [f"{src}.{a.name}" for a in node.names if f"{src}.{a.name}" in FILES]
        names = subs + ([src] if len(subs) < len(node.names) else [])
    return [n for n in names if n in FILES]


def _imports(module: str, *, module_level: bool, type_checking: bool = True, named: bool = False):
    """(line, target module) of every privlib import in ``module`` (``named``: only the modules
    a statement names, not the packages above them)."""
    tree = ast.parse(FILES[module].read_text(), filename=str(FILES[module]))
    found = []
    targets = _named if named else _targets

    def visit(node, top):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                if top or not module_level:
                    found.extend((child.lineno, t) for t in targets(module, child))
            elif _is_type_checking(child):
                if not module_level and type_checking:
                    visit(child, top)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, False)
            elif isinstance(child, ast.ClassDef):
                visit(child, top)
            else:
                visit(child, top)

    visit(tree, True)
    return found


# ----------------------------------------------------------------------------- 1. size
@pytest.mark.parametrize("module", MODULES)
def test_no_file_over_700_lines(module):
    n = len(FILES[module].read_text().splitlines())
    assert n <= MAX_LINES, f"{FILES[module].relative_to(ROOT)}: {n} lines (at most {MAX_LINES})"


# ----------------------------------------------------------------------------- 2. layers
def test_every_module_has_a_layer():
    missing = sorted({_top(m) for m in MODULES if m != "privlib" and _layer(m) is None})
    assert missing == [], f"modules without a layer in LAYERS (add them there and to ARCHITECTURE.md): {missing}"


@pytest.mark.parametrize("module", [m for m in MODULES if m != "privlib"])
def test_imports_go_down_the_layers(module):
    own = _layer(module)
    if own is None:
        pytest.skip("no layer (reported by test_every_module_has_a_layer)")
    bad = [f"line {line}: imports {target} (layer {_layer(target)}) from layer {own}"
           for line, target in _imports(module, module_level=False)
           if target != "privlib" and _layer(target) is not None and _layer(target) > own]
    assert not bad, f"{FILES[module].relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_face_imports_no_public_module_at_import_time():
    bad = [t for _, t in _imports("privlib", module_level=True) if t in PUBLIC and t != "privlib"]
    assert bad == [], f"privlib/__init__.py imports {bad} eagerly; resolve them in __getattr__"


# ----------------------------------------------------------------------------- 3. cycles
def _graph(*, module_level: bool = True) -> dict:
    """privlib's import graph: module -> the privlib modules it imports (``TYPE_CHECKING`` blocks
    excepted), at module level only or also inside functions."""
    graph = {}
    for m in MODULES:
        graph[m] = {t for _, t in _imports(m, module_level=module_level, type_checking=False, named=True) if t != m}
    return graph


def _cycles(graph: dict) -> list[list[str]]:
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_no_import_cycle():
    assert _cycles(_graph()) == [], "module-level import cycles (strongly connected groups of modules)"


def test_no_import_cycle_counting_imports_inside_functions():
    # a deferred import is a dependency too: the package's picture has no circle at all (a
    # submodule importing its own package counts; move the shared piece to a lower module)
    assert _cycles(_graph(module_level=False)) == [], "import cycles (strongly connected groups of modules)"


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_graph_names_the_module_an_import_reads_from():
    def named(module, code):
        return _named(module, ast.parse(code).body[0])
    assert named("privlib.models._check", "from ._classes import class_counts") == ["privlib.models._classes"]
    assert named("privlib.models._check", "from . import class_counts") == ["privlib.models"]
    assert named("privlib.requirements._base", "import privlib.requirements as R") == ["privlib.requirements"]


# ----------------------------------------------------------------------------- 4. the public face
def _import(module):
    try:
        return importlib.import_module(module)
    except Exception as exc:  # reported, not hidden: another module's test still runs
        pytest.fail(f"import {module} failed: {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("module", PUBLIC)
def test_every_public_module_has_a_complete_all(module):
    mod = _import(module)
    names = getattr(mod, "__all__", None)
    assert names is not None, f"{module}: no __all__"
    assert len(set(names)) == len(names), f"{module}: __all__ repeats {sorted({n for n in names if names.count(n) > 1})}"
    missing = [n for n in names if not hasattr(mod, n)]
    assert missing == [], f"{module}.__all__ names what the module does not define: {missing}"


def test_no_two_modules_export_one_name_for_different_objects():
    owners: dict = {}
    for module in PUBLIC:
        if module == "privlib" or _layer(module) is None or _layer(module) > 3:
            continue
        try:
            mod = importlib.import_module(module)
        except Exception:
            continue   # reported by test_every_public_module_has_a_complete_all
        if module.startswith("privlib.sources."):
            continue   # one namespace per source, read qualified: sources.qwi.TABLE1
        for n in getattr(mod, "__all__", ()):
            if hasattr(mod, n) and not inspect.ismodule(getattr(mod, n)):
                owners.setdefault(n, []).append((module, getattr(mod, n)))
    clashes = []
    for n, found in sorted(owners.items()):
        objs = [o for _, o in found]
        if any(o is not objs[0] for o in objs[1:]):
            clashes.append(f"{n}: " + ", ".join(m for m, _ in found))
    assert not clashes, "one public name, several objects:\n" + "\n".join(clashes)


def test_the_face_resolves_every_name_lazily():
    code = textwrap.dedent("""
        import json, sys
        import privlib
        eager = sorted(m for m in sys.modules if m.startswith("privlib.") and not m.split(".")[1].startswith("_"))
        bad = []
        for name in privlib.__all__:
            try:
                getattr(privlib, name)
            except Exception as exc:
                bad.append(f"{name}: {type(exc).__name__}: {exc}")
        print(json.dumps({"eager": eager, "bad": bad, "dir": sorted(set(privlib.__all__) - set(dir(privlib)))}))
    """)
    out = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                    cwd=ROOT).stdout)
    assert out["eager"] == [], f"import privlib imports {out['eager']}: resolve them on first access"
    assert not out["bad"], "privlib.__all__ names that do not resolve:\n" + "\n".join(out["bad"])
    assert out["dir"] == [], f"dir(privlib) misses {out['dir']}"


# ----------------------------------------------------------------------------- 5. public names only
def _private_uses(source: str) -> list[str]:
    """Lines of ``source`` that reach a private privlib name."""
    with warnings.catch_warnings():          # the files' own SyntaxWarnings are not our business
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    aliases = set()
    bad = []

    def private(name):
        return any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in name.split("."))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "privlib" or a.name.startswith("privlib."):
                    if private(a.name):
                        bad.append(f"line {node.lineno}: import {a.name}")
                    aliases.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and (
                node.module == "privlib" or node.module.startswith("privlib.")):
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if private(full):
                    bad.append(f"line {node.lineno}: from {node.module} import {a.name}")
                aliases.add(a.asname or a.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in aliases:
                bad.append(f"line {node.lineno}: {ast.unparse(node)}")
    return sorted(set(bad), key=lambda s: int(s.split()[1].rstrip(":")))


def _code_files():
    files = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "benchmarks").rglob("*.py"))
    return [p for p in files if p.name != "test_architecture.py"]


def _notebooks():
    return sorted(p for p in (ROOT / "book").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def _cell_source(cell) -> str:
    src = "".join(cell["source"])
    # IPython magics and shell escapes are not Python
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in src.splitlines())


def test_the_private_name_detector():
    src = ("import privlib._validation\nfrom privlib import _progress\nfrom privlib.diffgen import _prepare\n"
           "from privlib import diffgen as dg\nx = dg._diffgen\nfrom privlib.partition import mondrian\n"
           "y = mondrian.__doc__\n")
    assert [b.split(":")[0] for b in _private_uses(src)] == ["line 1", "line 2", "line 3", "line 5"]


@pytest.mark.parametrize("path", _code_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_tests_and_benchmarks_use_public_names_only(path):
    bad = _private_uses(path.read_text())
    assert not bad, "private privlib names used:\n" + "\n".join(bad)


@pytest.mark.parametrize("path", _notebooks(), ids=lambda p: str(p.relative_to(ROOT)))
def test_notebooks_use_public_names_only(path):
    cells = json.loads(path.read_text())["cells"]
    bad = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code":
            bad.extend(f"cell {i}, {b}" for b in _private_uses(_cell_source(cell)))
    assert not bad, "private privlib names used:\n" + "\n".join(bad)


# ----------------------------------------------------------------------------- 6. signatures, docstrings
_SECTION = re.compile(r"^\s*(Parameters|Returns|Yields|Raises|Examples|Attributes|Other Parameters)\s*\n\s*-{3,}\s*$",
                      re.M)


def _sections(doc: str | None) -> set:
    return set(_SECTION.findall(inspect.cleandoc(doc or "")))


def _params(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None, []
    return sig, [p for p in sig.parameters.values() if p.name not in ("self", "cls")]


#: The positional-only parameters with a default that are *data* (reviewed one by one): the only
#: exemptions from "a parameter with a default is keyword-only".  A positional-only option cannot
#: be passed by name at all (``load_adult(split="train")`` was a TypeError), so ``/`` no longer
#: exempts a parameter by itself.
def _requirement_classes():
    import privlib.requirements as R
    return [c for c in R.__all__ if isinstance(getattr(R, c), type) and issubclass(getattr(R, c), R.Requirement)]


_REQUIREMENT_CLASSES = _requirement_classes()
_DATA_WITH_DEFAULT = {
    ("privlib.accounting.Ledger.__init__", "entries"),            # the ledger's entries
    ("privlib.data.adult_hierarchies", "attributes"),             # the columns whose trees are loaded
    ("privlib.metrics.privacy_breach", "actual"),                 # the true values (or in a Prediction)
    # the classes' sensitive counts, in the protocol every privacy model implements (so that a new
    # model is one file: its methods are exempt as the protocol's are)
    *((f"privlib.requirements.{c}.{m}", "counts") for c in _REQUIREMENT_CLASSES
      for m in ("satisfied", "holds", "measure")),
}
#: Options that are still positional-only, owned by modules outside this check's last review: to be
#: made keyword-only.  This set may only shrink (its entries are checked to exist).
_PENDING_POSITIONAL_OPTIONS = {
    ("privlib.noise.RampDistribution.rvs", "size"),
}


def _hint_problems(qual, fn, *, is_init=False, dataclass_init=False):
    sig, params = _params(fn)
    if sig is None:
        return []
    ann = getattr(fn, "__annotations__", {})
    out = [f"{qual}: no type hint on parameter {p.name!r}" for p in params if p.name not in ann]
    if not is_init and "return" not in ann:
        out.append(f"{qual}: no return type hint")
    if not dataclass_init:
        out.extend(f"{qual}: option {p.name!r} has a default but is not keyword-only (put it after `*`)"
                   for p in params if p.default is not inspect.Parameter.empty
                   and p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD)
        out.extend(f"{qual}: option {p.name!r} has a default but is positional-only, so it cannot be passed "
                   f"by name (put it after `*`; a data argument with a default is listed in _DATA_WITH_DEFAULT)"
                   for p in params if p.default is not inspect.Parameter.empty
                   and p.kind is inspect.Parameter.POSITIONAL_ONLY
                   and (qual, p.name) not in _DATA_WITH_DEFAULT | _PENDING_POSITIONAL_OPTIONS)
    return out


def test_the_keyword_only_heuristic_catches_positional_options():
    def load(split: str = "all", /, *, dropna: bool = True) -> None: ...
    def encode(df: object, qi: object, sensitive: tuple = (), /) -> None: ...
    def evaluate(enc: object, levels: object, requirements: tuple = ()) -> None: ...
    def fine(df: object, /, *, split: str = "all") -> None: ...
    assert any("'split'" in p and "positional-only" in p for p in _hint_problems("m.load", load))
    assert any("'sensitive'" in p for p in _hint_problems("m.encode", encode))
    assert any("'requirements'" in p for p in _hint_problems("m.evaluate", evaluate))
    assert _hint_problems("m.fine", fine) == []


def _resolve_qualname(qual):
    parts = qual.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for name in parts[i:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(qual)  # pragma: no cover


@pytest.mark.parametrize("qual,param", sorted(_DATA_WITH_DEFAULT | _PENDING_POSITIONAL_OPTIONS))
def test_the_positional_exemptions_exist(qual, param):
    try:
        fn = _resolve_qualname(qual)
    except (ImportError, AttributeError):
        if (qual, param) in _PENDING_POSITIONAL_OPTIONS:
            pytest.skip(f"{qual} is gone (moved or renamed): remove it from _PENDING_POSITIONAL_OPTIONS")
        raise
    p = inspect.signature(inspect.unwrap(fn)).parameters[param]
    assert p.kind is inspect.Parameter.POSITIONAL_ONLY and p.default is not inspect.Parameter.empty, \
        f"{qual}({param}) is no longer a positional-only parameter with a default: remove it from the list"


def _is_exception(obj) -> bool:
    return inspect.isclass(obj) and issubclass(obj, BaseException)


def _own_methods(cls):
    for name, attr in vars(cls).items():
        if name.startswith("_") and name not in ("__init__", "__call__"):
            continue
        if isinstance(attr, property):
            fn = attr.fget
        else:
            fn = attr.__func__ if isinstance(attr, (classmethod, staticmethod)) else attr
        if inspect.isfunction(fn):
            yield name, fn, isinstance(attr, property)


def _api_problems(module: str) -> list[str]:
    mod = importlib.import_module(module)
    problems = []
    for name in getattr(mod, "__all__", ()):
        obj = getattr(mod, name, None)
        qual = f"{module}.{name}"
        if _is_exception(obj):
            if not (obj.__doc__ or "").strip():
                problems.append(f"{qual}: no docstring")
            continue
        if inspect.isclass(obj):
            secs = _sections(obj.__doc__)
            init = vars(obj).get("__init__")
            is_dc = dataclasses.is_dataclass(obj)
            takes = bool(_params(init)[1]) if inspect.isfunction(init) else is_dc and bool(dataclasses.fields(obj))
            if takes and not secs & {"Parameters", "Attributes"}:
                problems.append(f"{qual}: no numpydoc 'Parameters' (or 'Attributes') section")
            if "Examples" not in secs:
                problems.append(f"{qual}: no 'Examples' section")
            for mname, fn, is_prop in _own_methods(obj):
                dc_init = is_dc and mname == "__init__"
                if getattr(fn, "__module__", None) != obj.__module__ and not dc_init:
                    continue
                problems.extend(_hint_problems(f"{qual}.{mname}", fn, is_init=mname == "__init__",
                                               dataclass_init=dc_init))
        elif callable(obj) and (inspect.isfunction(obj) or inspect.isbuiltin(obj) or hasattr(obj, "__wrapped__")):
            fn = inspect.unwrap(obj)
            secs = _sections(fn.__doc__)
            sig, params = _params(fn)
            if params and "Parameters" not in secs:
                problems.append(f"{qual}: no numpydoc 'Parameters' section")
            if fn.__annotations__.get("return", "") not in ("None", None) and not secs & {"Returns", "Yields"}:
                problems.append(f"{qual}: no numpydoc 'Returns' section")
            if "Examples" not in secs:
                problems.append(f"{qual}: no 'Examples' section")
            problems.extend(_hint_problems(qual, fn))
    return problems


def test_the_type_hints_are_shipped():
    import tomllib
    assert (PKG / "py.typed").exists()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in data["privlib"]


API_MODULES = [m for m in PUBLIC if m != "privlib" and _layer(m) is not None and _layer(m) <= 3]


@pytest.mark.parametrize("module", API_MODULES)
def test_public_callables_are_typed_keyword_only_and_documented(module):
    _import(module)
    problems = _api_problems(module)
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems)


# ----------------------------------------------------------------------------- 7. lean imports
_LEAN = textwrap.dedent("""
    import json, os, sys
    import numpy, pandas
    heavy = {heavy!r}
    def loaded():
        return sorted(h for h in heavy if h in sys.modules)
    base = loaded()
    out = {{}}
    for module in {modules!r}:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                __import__(module)
                msg = json.dumps([h for h in loaded() if h not in base])
            except BaseException as exc:
                msg = json.dumps("import failed: " + type(exc).__name__ + ": " + str(exc)[:200])
            os.write(w, msg.encode())
            os._exit(0)
        os.close(w)
        chunks = []
        while True:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            chunks.append(chunk)
        os.close(r)
        os.waitpid(pid, 0)
        out[module] = json.loads(b"".join(chunks).decode())
    print(json.dumps({{"base": base, "modules": out}}))
""")


@pytest.fixture(scope="module")
def heavy_imports():
    code = _LEAN.format(heavy=HEAVY, modules=MODULES)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout)


def test_numpy_and_pandas_alone_import_nothing_heavy(heavy_imports):
    assert heavy_imports["base"] == []


@pytest.mark.parametrize("module", MODULES)
def test_importing_a_module_imports_nothing_heavy(heavy_imports, module):
    got = heavy_imports["modules"][module]
    assert got == [], f"import {module} imports {got}: import them inside the function that uses them"
