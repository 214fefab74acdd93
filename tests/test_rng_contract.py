"""Randomness is never a default: the contract of every privlib callable that draws.

Two checks:

1. discovery -- every public function and public method of privlib with an ``rng`` parameter
   takes it keyword-only with no default, and has at least one ``Case`` in a
   ``tests/rng_cases_*.py`` file;
2. behaviour -- each case is called as described in ``tests/contract.py``.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

import numpy as np
import pytest

import privlib
from contract import equal

HERE = Path(__file__).resolve().parent


#: What could not be imported or resolved while collecting (reported by one test, so that one
#: broken module does not hide every other case).
ERRORS: list = []


def _cases():
    out = []
    for path in sorted(HERE.glob("rng_cases_*.py")):
        try:
            mod = importlib.import_module(path.stem)
        except Exception as exc:
            ERRORS.append(f"tests/{path.name}: {type(exc).__name__}: {exc}")
            continue
        out.extend(mod.CASES)
    return out


CASES = _cases()


def _public_modules():
    """Every public privlib module, walking the packages (private submodules skipped: their
    public objects are reached through the package that re-exports them)."""
    def onerror(name):
        ERRORS.append(f"walk {name}: {sys.exc_info()[0].__name__}: {sys.exc_info()[1]}")

    for info in pkgutil.walk_packages(privlib.__path__, "privlib.", onerror=onerror):
        if any(part.startswith("_") for part in info.name.split(".")[1:]):
            continue
        try:
            yield importlib.import_module(info.name)
        except Exception as exc:
            ERRORS.append(f"import {info.name}: {type(exc).__name__}: {exc}")


def _public_callables():
    """(qualified name, callable) of every public function / method of privlib: the public names
    of every public module (its ``__all__``, else its names without a leading underscore) that
    privlib defines, wherever they are defined (a package's private submodule included)."""
    seen, ids = {}, set()
    for mod in _public_modules():
        names = getattr(mod, "__all__", None)
        if names is None:
            names = [n for n in vars(mod) if not n.startswith("_")]
        for name in names:
            try:
                obj = getattr(mod, name)
            except Exception as exc:
                ERRORS.append(f"{mod.__name__}.{name}: {type(exc).__name__}: {exc}")
                continue
            if name.startswith("_") or not getattr(obj, "__module__", "").startswith("privlib"):
                continue
            if id(obj) in ids:
                continue                  # re-exported by a package: counted once
            ids.add(id(obj))
            qual = f"{mod.__name__}.{name}"
            if inspect.isfunction(obj):
                seen[qual] = obj
            elif inspect.isclass(obj):
                for mname, meth in vars(obj).items():
                    if mname.startswith("_") and mname != "__call__":
                        continue
                    fn = meth.__func__ if isinstance(meth, (classmethod, staticmethod)) else meth
                    if inspect.isfunction(fn):
                        seen[f"{qual}.{mname}"] = fn
    return seen


def _randomized():
    return {q: f for q, f in _public_callables().items() if "rng" in inspect.signature(f).parameters}


RANDOMIZED = _randomized()


def test_every_module_and_case_file_imports():
    assert not ERRORS, "\n".join(ERRORS)


def test_some_randomized_functions_are_found():
    assert len(RANDOMIZED) >= 20, sorted(RANDOMIZED)


@pytest.mark.parametrize("qualname", sorted(RANDOMIZED))
def test_rng_is_required_and_keyword_only(qualname):
    p = inspect.signature(RANDOMIZED[qualname]).parameters["rng"]
    assert p.kind is inspect.Parameter.KEYWORD_ONLY, f"{qualname}: rng must be keyword-only"
    assert p.default is inspect.Parameter.empty, f"{qualname}: rng has a default ({p.default!r})"


def _underlying(fn):
    fn = getattr(fn, "__func__", fn)
    return inspect.unwrap(fn)


@pytest.mark.parametrize("qualname", sorted(RANDOMIZED))
def test_every_randomized_callable_has_a_contract_case(qualname):
    covered = {_underlying(c.fn) for c in CASES}
    assert _underlying(RANDOMIZED[qualname]) in covered, f"{qualname}: no Case in tests/rng_cases_*.py"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_missing_rng_is_a_type_error_naming_rng(case):
    with pytest.raises(TypeError, match="rng"):
        case.fn(*case.args, **case.kwargs)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_none_rng_draws_fresh_entropy(case):
    # rng=None, passed explicitly, is operating-system entropy: two calls differ (a real release)
    # (a low-resolution output may coincide by chance: up to ten calls, not all equal)
    first = case.call(None)
    assert any(not equal(first, case.call(None)) for _ in range(9))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_equal_seeds_give_equal_outputs(case):
    assert equal(case.call(12345), case.call(12345))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_shared_generator_gives_different_draws(case):
    gen = np.random.default_rng(2026)
    assert not equal(case.call(gen), case.call(gen))


_HIDDEN_SEED = __import__("re").compile(
    r"default_rng\(\s*\d|random_state\s*=\s*\d|np\.random\.seed\(|RandomState\(\s*\d"
    r"|np\.random\.(rand|randn|randint|random|choice|normal|uniform|laplace|permutation|shuffle)\(")


@pytest.mark.parametrize("path", sorted((HERE.parent / "privlib").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(HERE.parent)))
def test_no_hidden_seed_or_global_generator_in_privlib(path):
    # randomness comes from the caller's rng only: no literal seed, no numpy global state (a
    # docstring example, ">>> " / "... ", is the caller's code: it seeds its generator)
    bad = [f"line {i}: {line.strip()}" for i, line in enumerate(path.read_text().splitlines(), 1)
           if _HIDDEN_SEED.search(line) and not line.lstrip().startswith((">>>", "..."))]
    assert not bad, "\n".join(bad)
