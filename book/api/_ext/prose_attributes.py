"""Sphinx extension of privlib-book's API reference: the docstrings of module data, attributes
and properties are prose, kept as written.

napoleon reads the first line of such a docstring as ``type: description`` (Google style), so
``#: Table 1, "Original Patients Table": ZIP code, age, disease`` would become the type
``Table 1, "Original Patients Table"`` -- a broken cross-reference in a nitpicky build.  This
extension saves those docstrings before napoleon runs and puts them back after it.

A dataclass whose docstring already lists its fields (numpydoc ``Parameters`` or ``Attributes``)
does not list them a second time as undocumented members.

It also documents the constants a package re-exports from its private submodules
(``privlib.diffgen.TREE_PARAMS`` is defined in ``privlib/diffgen/_accuracy.py``): autodoc
documents module data only when the module's own source assigns it, so it would skip them;
here every non-callable name of a module's ``__all__`` is documented, with the ``#:`` comment
of the (private) module that defines it.
"""
from __future__ import annotations

import dataclasses
import inspect
import re
import sys

from sphinx.ext.autodoc import DataDocumenter, ModuleDocumenter
from sphinx.pycode import ModuleAnalyzer

_PROSE = ("data", "attribute", "property")
_saved: dict = {}


def _save(app, what, name, obj, options, lines):
    if what in _PROSE:
        _saved[name] = list(lines)


def _restore(app, what, name, obj, options, lines):
    if what in _PROSE and name in _saved:
        lines[:] = _saved.pop(name)


def _is_data(member) -> bool:
    return not (inspect.isclass(member) or inspect.ismodule(member) or callable(member))


class ExportedDataDocumenter(DataDocumenter):
    """Module data: also a name of the module's ``__all__`` defined in a private submodule."""

    @classmethod
    def can_document_member(cls, member, membername, isattr, parent) -> bool:
        if not isinstance(parent, ModuleDocumenter):
            return False
        return isattr or (membername in (getattr(parent.object, "__all__", None) or ()) and _is_data(member))

    def get_module_comment(self, attrname):
        comment = super().get_module_comment(attrname)
        if comment:
            return comment
        top = self.modname.split(".")[0]
        for name in sorted(n for n in sys.modules if n == top or n.startswith(top + ".")):
            if getattr(sys.modules[name], attrname, None) is not self.object:
                continue
            try:
                docs = ModuleAnalyzer.for_module(name).find_attr_docs()
            except Exception:   # pragma: no cover - a module without source
                continue
            if ("", attrname) in docs:
                return list(docs[("", attrname)])
        return None


_current: dict = {}


def _remember_class(app, what, name, obj, options, signature, return_annotation):
    if what in ("class", "exception"):
        _current["cls"] = obj


def _documented_fields(cls) -> set:
    """Field names listed as ``name : type`` (or ``a, b : type``) in the class docstring."""
    names = set()
    for line in (cls.__doc__ or "").splitlines():
        m = re.match(r"^\s*([A-Za-z_][\w, ]*?)\s*:\s*\S", line)
        if m:
            names.update(n.strip() for n in m.group(1).split(","))
    return names


def _skip_listed_fields(app, what, name, obj, skip, options):
    cls = _current.get("cls")
    if what == "class" and cls is not None and dataclasses.is_dataclass(cls) \
            and name in {f.name for f in dataclasses.fields(cls)} and name in _documented_fields(cls):
        return True
    return None


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")
    app.add_autodocumenter(ExportedDataDocumenter, override=True)
    app.setup_extension("sphinx.ext.napoleon")
    app.connect("autodoc-process-docstring", _save, priority=400)      # napoleon: priority 500
    app.connect("autodoc-process-docstring", _restore, priority=600)
    app.connect("autodoc-process-signature", _remember_class)
    app.connect("autodoc-skip-member", _skip_listed_fields)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
