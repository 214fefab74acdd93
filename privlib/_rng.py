"""Process-wide state of seeded releases (private; public through :mod:`privlib`).

:func:`privlib._validation.as_generator` records every int seed that drives a differentially
private release; :class:`demonstration` marks code whose releases are reproducible
demonstrations, where reusing a seed on purpose does not warn.
"""
from __future__ import annotations

__all__ = ["demonstration"]

_RELEASE_SEEDS: set = set()                     # int seeds that drove a DP release in this process
_DEMONSTRATION = {"depth": 0, "on": False}      # demonstration() contexts / process-wide switch


class demonstration:  # noqa: N801 - used as a function and as a context manager
    """Mark code as a reproducible demonstration: int seeds may drive several DP releases.

    ``with demonstration(): ...`` silences :class:`~privlib.SeedReuseWarning` in the block;
    ``demonstration(True)`` for the rest of the process (a notebook reproducing a chapter with
    fixed seeds), ``demonstration(False)`` switches the check back on.  The releases do not
    change: they are demonstrations, not private releases.

    Examples
    --------
    >>> import warnings
    >>> from privlib._validation import as_generator
    >>> with demonstration(), warnings.catch_warnings():
    ...     warnings.simplefilter("error")
    ...     a = as_generator(11, release=True).integers(10)
    ...     b = as_generator(11, release=True).integers(10)
    >>> bool(a == b)
    True
    """

    def __init__(self, on: bool | None = None):
        if on is not None:
            if not isinstance(on, bool):
                raise TypeError(f"on: expected True or False, got {type(on).__name__} {on!r}")
            _DEMONSTRATION["on"] = on

    def __enter__(self):
        _DEMONSTRATION["depth"] += 1
        return self

    def __exit__(self, *exc):
        _DEMONSTRATION["depth"] -= 1
        return False
