"""The book configuration keeps the properties the toolchain's known pitfalls depend on."""
import re

import yaml

from conftest import ROOT


def config():
    return yaml.safe_load((ROOT / "_config.yml").read_text())


def test_notebooks_are_always_re_executed_and_errors_fail():
    ex = config()["execute"]
    assert ex["execute_notebooks"] == "force"
    assert ex["allow_errors"] is False
    assert ex["timeout"] > 0


def test_excluded_paths():
    pats = set(config()["exclude_patterns"])
    for p in (".venv", ".pytest_cache", "_build", "tests", "benchmarks", "README.md"):
        assert p in pats


def test_math_is_served_locally():
    assert "sphinx-mathjax-offline" in config()["sphinx"]["extra_extensions"]
    built = ROOT / "_build" / "html" / "book" / "intro.html"
    if built.exists():  # after a build: MathJax comes from _static, not from a CDN
        html = built.read_text()
        scripts = re.findall(r'<script[^>]*src="([^"]*mathjax[^"]*)"', html, flags=re.I)
        assert scripts and all(s.startswith("../_static/mathjax/") for s in scripts), scripts


def test_pytest_never_collects_build_copies():
    import tomllib
    opts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "_build" in opts["norecursedirs"]
    assert "--nbval" in opts["addopts"]


def test_bibliography_has_the_five_sources():
    bib = (ROOT / "references.bib").read_text()
    for key in ("cormode2013empirical", "abowd2011slides", "massart2019longterm", "li2007tcloseness",
                "mohammed2011diffgen"):
        assert "{" + key + "," in bib


def test_readme_commands_are_what_ci_runs():
    readme = (ROOT / "README.md").read_text()
    assert "<!-- build-command -->" in readme and "<!-- test-command -->" in readme
    assert "jupyter-book build . -W -n --keep-going" in readme
    assert "README.md" in (ROOT / ".ci" / "run").read_text()
