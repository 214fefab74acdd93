"""Shared pieces of docstrings: a parameter, a section or an example written once.

A docstring names a piece on a line of its own, ``{{name}}``; :func:`shared_doc` replaces that
line with the piece, indented as the placeholder is.  The result is an ordinary docstring
(``help``, Sphinx and the doctests read ``__doc__``).
"""
from __future__ import annotations

import textwrap
from collections.abc import Callable

__all__ = ["shared_doc", "fill_doc"]


def fill_doc(doc: str, /, **pieces: str) -> str:
    """``doc`` with every ``{{name}}`` line replaced by ``pieces[name]``, indented as the line.

    Parameters
    ----------
    doc : str
        A docstring.
    **pieces : str
        The pieces by name (dedented before use).

    Returns
    -------
    str

    Raises
    ------
    KeyError
        For a placeholder without a piece.

    Examples
    --------
    >>> print(fill_doc("Parameters\\n    ----------\\n    {{x}}", x="x : int\\n    The value."))
    Parameters
        ----------
        x : int
            The value.
    """
    out = []
    for line in doc.split("\n"):
        body = line.strip()
        if body.startswith("{{") and body.endswith("}}"):
            indent = line[: len(line) - len(line.lstrip())]
            piece = textwrap.dedent(pieces[body[2:-2].strip()]).strip("\n")
            out.extend((indent + p) if p else p for p in piece.split("\n"))
        else:
            out.append(line)
    return "\n".join(out)


def shared_doc(**pieces: str) -> Callable:
    """Decorator: fill the ``{{name}}`` lines of a function's or class's docstring (:func:`fill_doc`).

    Parameters
    ----------
    **pieces : str
        The pieces by name.

    Returns
    -------
    callable
        The decorator (it returns the object, its ``__doc__`` filled).

    Examples
    --------
    >>> @shared_doc(returns="Returns\\n-------\\nint")
    ... def one() -> int:
    ...     '''One.
    ...
    ...     {{returns}}
    ...     '''
    ...     return 1
    >>> print(one.__doc__.strip())
    One.
    <BLANKLINE>
        Returns
        -------
        int
    """
    def fill(obj):
        obj.__doc__ = fill_doc(obj.__doc__ or "", **pieces)
        return obj
    return fill
