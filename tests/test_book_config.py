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


def test_no_button_points_at_a_placeholder_address():
    cfg = config()
    assert "repository" not in cfg, "no public repository exists: no repository address in the book"
    html = cfg["html"]
    assert not html["use_repository_button"] and not html["use_issues_button"] and not html["use_edit_page_button"]
    assert html["use_download_button"]
    launch = cfg.get("launch_buttons", {})
    assert not launch.get("binderhub_url") and not launch.get("colab_url") and not launch.get("thebe")


def test_citation_file_cites_the_compendium_and_its_sources():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"].startswith("1.2") and cff["title"].startswith("privlib-book")
    assert cff["license"] == "MIT"
    titles = " ".join(r["title"] for r in cff["references"])
    for word in ("t-Closeness", "Empirical privacy", "Differentially private data release",
                 "Long-Term Privacy Bounds", "Confidentiality Protection"):
        assert word in titles


def test_api_reference_part_documents_every_public_module():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    captions = [p["caption"] for p in toc["parts"]]
    # the concepts first, then the reproductions, using the library, teaching aids (the answer keys
    # only in the instructor edition: scripts/build_edition.py), the reference
    assert captions == ["Foundations", "Chapters", "Using privlib", "For teachers and readers",
                        "Answer keys (instructor edition)", "API reference", "Back matter"]
    api = toc["parts"][captions.index("API reference")]["chapters"][0]
    assert api["file"] == "book/api/index"
    pages = [s["file"] for s in api["sections"]]
    import privlib
    modules = [n for n in privlib.__all__ if n[0].islower() and not n.startswith("__")
               and n != "demonstration"]                         # modules, not the one function
    assert pages == [f"book/api/{m}" for m in modules]          # the face's order: by layer
    for m in modules:
        text = (ROOT / f"book/api/{m}.md").read_text()
        assert f".. automodule:: privlib.{m}\n   :members:" in text
    ext = config()["sphinx"]["extra_extensions"]
    assert "sphinx.ext.autodoc" in ext and "sphinx.ext.napoleon" in ext
    for name, folder in config()["sphinx"]["local_extensions"].items():
        assert (ROOT / folder / f"{name}.py").exists()
    # nitpicky builds: only external libraries' types are exempt
    for _, pattern in config()["sphinx"]["config"]["nitpick_ignore_regex"]:
        assert "privlib" not in pattern


def test_every_public_module_is_in_the_api_reference():
    """A public submodule is documented on its package's page, unless the package re-exports
    every name of its ``__all__`` (then the package's page documents them)."""
    import importlib

    pages = "\n".join(p.read_text() for p in (ROOT / "book" / "api").glob("*.md"))
    missing = []
    for path in sorted((ROOT / "privlib").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if len(parts) < 2 or any(p.startswith("_") for p in parts[1:]):
            continue
        name = ".".join(parts)
        if f".. automodule:: {name}\n" in pages:
            continue
        if len(parts) > 2:
            sub = importlib.import_module(name)
            package = importlib.import_module(".".join(parts[:-1]))
            if set(getattr(sub, "__all__", ())) <= set(getattr(package, "__all__", ())):
                continue
        missing.append(name)
    assert not missing, f"not in book/api/: {missing}"
