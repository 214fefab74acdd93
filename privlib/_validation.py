"""Input validation shared by every privlib module (private: tested through the public API).

One helper family, so that every error reads the same way: the message names the
argument, the value received and what was expected.  All helpers raise
``ValueError`` (bad value) or ``TypeError`` (bad type) and return the cleaned value.

Examples
--------
>>> check_int(3.0, "k", minimum=1)
3
>>> check_in("c", "split", ("all", "train", "test"))
Traceback (most recent call last):
...
ValueError: split: expected one of ['all', 'train', 'test'], got 'c'
"""
from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._docs import shared_doc
from ._rng import _DEMONSTRATION, _RELEASE_SEEDS, demonstration

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike, DTypeLike

__all__ = [
    "PrivacyLeakWarning",
    "warn_privacy_leak",
    "as_generator",
    "SeedReuseWarning",
    "demonstration",
    "check_epsilon",
    "check_delta",
    "check_probability",
    "check_positive",
    "check_int",
    "check_distribution",
    "check_columns",
    "check_no_nan",
    "check_in",
    "check_nonempty",
    "check_finite",
    "check_array",
    "check_unique_columns",
    "check_has_order",
]


def _fmt(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


class PrivacyLeakWarning(RuntimeWarning):
    """A DP function fell back to something derived from the data (a domain, min/max, the set
    of class labels) that it publishes outside its privacy budget.

    As diffprivlib's ``PrivacyLeakWarning``: the result is still computed, but its guarantee no
    longer holds as stated; pass the public value the warning names to silence it.  privlib
    shows it at every call (``import privlib`` installs an ``"always"`` filter, appended after
    the user's own filters).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_privacy_leak("domain: taken from the data")
    >>> caught[0].category.__name__
    'PrivacyLeakWarning'
    """


def warn_privacy_leak(message: str, *, stacklevel: int = 3) -> None:
    """Warn with :class:`PrivacyLeakWarning` (every time: the leak happens at every call).

    Parameters
    ----------
    message : str
        What was derived from the data, and the public value that would avoid it.
    stacklevel : int
        As :func:`warnings.warn` (3: the caller of the DP function).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error")
    ...     warn_privacy_leak("domain: taken from the data")
    Traceback (most recent call last):
    ...
    privlib._validation.PrivacyLeakWarning: domain: taken from the data
    """
    import warnings

    warnings.warn(message, PrivacyLeakWarning, stacklevel=stacklevel)


class SeedReuseWarning(PrivacyLeakWarning):
    """One int seed drove two DP releases in this process: they share their noise (their
    difference cancels it), and whoever guesses the seed knows it.  A seeded release is a
    demonstration, not a private release: pass ``rng=None`` (fresh entropy) for a real one;
    mark reproducible demonstrations with :func:`demonstration`.

    Examples
    --------
    >>> issubclass(SeedReuseWarning, PrivacyLeakWarning)
    True
    """


def as_generator(rng: int | np.random.Generator | None, *, release: bool = False) -> np.random.Generator:
    """Normalise ``rng`` to a Generator: every random function of privlib calls this once.

    ``None``: fresh operating-system entropy (a 128-bit ``SeedSequence``), the choice for a real
    release; an int: a seed, for reproducible demonstrations (whoever knows the seed knows the
    noise: not a private release); a Generator: used as is (it advances).  ``rng`` stays a
    required argument of every public function.  With ``release=True`` (a DP mechanism or
    algorithm), an int seed that already drove a release in this process warns
    (:class:`SeedReuseWarning`) unless inside :func:`demonstration`.

    Raises
    ------
    TypeError
        A bool, a float, anything but None, an int or a Generator.
    ValueError
        A negative seed.

    Examples
    --------
    >>> as_generator(7).random() == as_generator(7).random()
    True
    >>> as_generator(None).random() == as_generator(None).random()      # fresh entropy
    False
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng(np.random.SeedSequence())
    if isinstance(rng, (numbers.Integral, np.integer)) and not isinstance(rng, bool):
        if rng < 0:
            raise ValueError(f"rng: expected a non-negative int seed, None or a numpy Generator, got {_fmt(rng)}")
        seed = int(rng)
        if release and not (_DEMONSTRATION["on"] or _DEMONSTRATION["depth"]):
            if seed in _RELEASE_SEEDS:
                import warnings
                warnings.warn(f"rng: the int seed {seed} already drove a differentially private release in this "
                              "process; the two releases share their noise (their difference cancels it). A seeded "
                              "release is a demonstration, not a private release: pass rng=None (fresh entropy) "
                              "for a real release, or run reproducible demonstrations inside "
                              "privlib.demonstration()", SeedReuseWarning, stacklevel=3)
            _RELEASE_SEEDS.add(seed)
        return np.random.default_rng(seed)
    raise TypeError(f"rng: expected None (fresh entropy), an int seed or a numpy.random.Generator, got "
                    f"{type(rng).__name__} {_fmt(rng)}")


#: The ``name`` argument of every check (filled into the docstrings at the end of the module).
NAME_DOC = """
name : str
    The argument's name, used in the error message.
"""


def _check_real(value: object, name: str) -> None:
    """Raise TypeError unless ``value`` is a real number (a bool is not)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"{name}: expected a real number, got {type(value).__name__} {_fmt(value)}")


def check_positive(value: float, name: str, *, allow_zero: bool = False, finite: bool = True) -> float:
    """Return ``value`` as float, requiring value > 0 (or >= 0 with ``allow_zero``).

    Parameters
    ----------
    value : float
        The number.
    {{name}}
    allow_zero : bool
        Accept 0.
    finite : bool
        Refuse +inf.

    Returns
    -------
    float
        ``value``.

    Raises
    ------
    TypeError
        Not a real number (bools included).
    ValueError
        NaN, inf (with ``finite``) or out of range.

    Examples
    --------
    >>> check_positive(0, "tolerance", allow_zero=True)
    0.0
    """
    _check_real(value, name)
    try:
        v = float(value)
    except OverflowError:                     # an int beyond the float range (10**400)
        raise ValueError(f"{name}: expected a finite number, got an int of {len(str(abs(int(value))))} digits "
                         "(beyond the float range)") from None
    if np.isnan(v) or (finite and not np.isfinite(v)):
        raise ValueError(f"{name}: expected a finite number, got {_fmt(value)}")
    if v < 0 or (v == 0 and not allow_zero):
        cmp = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name}: expected a number {cmp}, got {_fmt(value)}")
    return v


def check_epsilon(eps: float, name: str = "eps") -> float:
    """Privacy budget: a finite real number > 0.

    Parameters
    ----------
    eps : float
        The budget.
    {{name}}

    Returns
    -------
    float
        ``eps``.

    Raises
    ------
    TypeError, ValueError
        As :func:`check_positive`.

    Examples
    --------
    >>> check_epsilon(0.5)
    0.5
    """
    return check_positive(eps, name)


def check_probability(p: float, name: str, *, low_open: bool = False, high_open: bool = False) -> float:
    """A probability in [0, 1]; ``low_open``/``high_open`` exclude 0 / 1.

    Parameters
    ----------
    p : float
        The probability.
    {{name}}
    low_open, high_open : bool
        Exclude 0, exclude 1.

    Returns
    -------
    float
        ``p``.

    Raises
    ------
    TypeError
        Not a real number.
    ValueError
        Outside the interval.

    Examples
    --------
    >>> check_probability(1, "p")
    1.0
    """
    _check_real(p, name)
    v = float(p)
    lo = "(" if low_open else "["
    hi = ")" if high_open else "]"
    bad = np.isnan(v) or v < 0 or v > 1 or (low_open and v == 0) or (high_open and v == 1)
    if bad:
        raise ValueError(f"{name}: expected a probability in {lo}0, 1{hi}, got {_fmt(p)}")
    return v


def check_delta(delta: float, name: str = "delta") -> float:
    """The delta of (eps, delta) guarantees: strictly inside (0, 1).

    Parameters
    ----------
    delta : float
        The delta.
    {{name}}

    Returns
    -------
    float
        ``delta``.

    Raises
    ------
    TypeError, ValueError
        As :func:`check_probability`.

    Examples
    --------
    >>> check_delta(1e-6)
    1e-06
    """
    return check_probability(delta, name, low_open=True, high_open=True)


def check_int(value: int, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer (Python or numpy) within the optional bounds, inclusive (a float with an integer value is accepted).

    Parameters
    ----------
    value : int
        The integer.
    {{name}}
    minimum, maximum : int, optional
        Inclusive bounds.

    Returns
    -------
    int
        ``value``.

    Raises
    ------
    TypeError
        Not an integer (a float with a fractional part included).
    ValueError
        Out of bounds, or a float NaN or inf (a number, but no integer).

    Examples
    --------
    >>> check_int(11, "k", maximum=10)
    Traceback (most recent call last):
    ...
    ValueError: k: expected an integer <= 10, got 11
    """
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        if isinstance(value, (float, np.floating)) and not np.isfinite(value):
            raise ValueError(f"{name}: expected a finite integer, got {_fmt(value)}")
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            value = int(value)
        else:
            raise TypeError(f"{name}: expected an integer, got {type(value).__name__} {_fmt(value)}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name}: expected an integer >= {minimum}, got {v}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name}: expected an integer <= {maximum}, got {v}")
    return v


def check_distribution(p: ArrayLike, name: str, *, atol: float = 1e-9, axis: int = -1) -> np.ndarray:
    """A probability vector (or a stack of them along ``axis``).

    Requires finite, non-negative entries summing to 1 within ``atol`` (scaled by the
    length of the vector).  Returns a float array.

    Parameters
    ----------
    p : array_like
        The probabilities.
    {{name}}
    atol : float
        Tolerance of the sum, per entry.
    axis : int
        The axis of a stack of vectors.

    Returns
    -------
    numpy.ndarray
        ``p`` as floats, tiny negative rounding errors clipped to 0.

    Raises
    ------
    TypeError
        Non-numeric entries.
    ValueError
        Empty, NaN or inf, negative entries, or a sum other than 1.

    Examples
    --------
    >>> check_distribution([[0.5, 0.5], [1.0, 0.0]], "P").shape
    (2, 2)
    >>> check_distribution([0.2, 0.7], "p")
    Traceback (most recent call last):
    ...
    ValueError: p: expected probabilities summing to 1, got a sum of 0.9
    """
    try:
        arr = np.asarray(p, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected probabilities (numbers), got {_fmt(p)}") from None
    if arr.ndim == 0 or arr.shape[axis] == 0:
        raise ValueError(f"{name}: expected a non-empty probability vector, got {_fmt(p)}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}: expected finite probabilities, got NaN or inf in {_fmt(p)}")
    if np.any(arr < -atol):
        raise ValueError(f"{name}: expected non-negative probabilities, got a minimum of {arr.min():.6g}")
    sums = arr.sum(axis=axis)
    tol = atol * max(arr.shape[axis], 1) + 1e-12
    if np.any(np.abs(sums - 1.0) > tol):
        worst = np.asarray(sums).ravel()[np.argmax(np.abs(np.asarray(sums).ravel() - 1.0))]
        raise ValueError(f"{name}: expected probabilities summing to 1, got a sum of {worst:.9g}")
    return np.clip(arr, 0.0, None)


def check_columns(df: pd.DataFrame, columns: Any, name: str = "columns") -> list:
    """All ``columns`` are columns of the DataFrame ``df``; returns them as a list.

    Parameters
    ----------
    df : pandas.DataFrame
        The table.
    columns : str or iterable of str
        One column name or several.
    {{name}}

    Returns
    -------
    list
        The column names.

    Raises
    ------
    ValueError
        An unknown column (the message lists the table's columns).

    Examples
    --------
    >>> import pandas as pd
    >>> check_columns(pd.DataFrame({"a": [1]}), "a")
    ['a']
    """
    if isinstance(columns, str) or not isinstance(columns, Iterable):
        columns = [columns]
    columns = list(columns)
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(
            f"{name}: unknown column(s) {missing}; the data has columns {list(df.columns)}"
        )
    return columns


def check_no_nan(df_or_array: pd.DataFrame | ArrayLike, name: str, columns: Sequence | None = None) -> None:
    """Raise if the data (restricted to ``columns``) contains NaN / missing values.

    Parameters
    ----------
    df_or_array : pandas.DataFrame or array_like
        The data.
    {{name}}
    columns : sequence, optional
        The columns to check (default: all).

    Raises
    ------
    ValueError
        A missing value (the message names the columns).

    Examples
    --------
    >>> import numpy as np
    >>> check_no_nan(np.array([1.0, np.nan]), "x")
    Traceback (most recent call last):
    ...
    ValueError: x: contains NaN values (1 of 2)
    """
    if hasattr(df_or_array, "isna"):
        sub = df_or_array if columns is None else df_or_array[list(columns)]
        bad = sub.isna()
        if hasattr(bad, "any") and bad.values.any():
            cols = list(sub.columns[bad.any(axis=0).values]) if hasattr(sub, "columns") else [name]
            raise ValueError(f"{name}: missing values (NaN) in column(s) {cols}; drop or impute them first")
    else:
        arr = np.asarray(df_or_array, dtype=float)
        if np.isnan(arr).any():
            raise ValueError(f"{name}: contains NaN values ({int(np.isnan(arr).sum())} of {arr.size})")


def check_in(value: Any, name: str, allowed: Iterable) -> Any:
    """``value`` is one of ``allowed``.

    Parameters
    ----------
    value : object
        The value.
    {{name}}
    allowed : iterable
        The accepted values.

    Returns
    -------
    object
        ``value``.

    Raises
    ------
    ValueError
        ``value`` is not allowed.

    Examples
    --------
    >>> check_in("a", "kind", ["a", "b"])
    'a'
    """
    allowed = tuple(allowed)
    if value not in allowed:
        raise ValueError(f"{name}: expected one of {list(allowed)}, got {_fmt(value)}")
    return value


def check_nonempty(df: Any, name: str = "df") -> None:
    """A DataFrame or array with at least one row.

    Parameters
    ----------
    df : pandas.DataFrame or array_like
        The data.
    {{name}}

    Raises
    ------
    ValueError
        No row.

    Examples
    --------
    >>> check_nonempty([1, 2])
    """
    if len(df) == 0:
        raise ValueError(f"{name}: expected at least one row, got an empty table")


def check_finite(value: float, name: str) -> float:
    """A finite real number (not NaN, not +-inf); returns it as float.

    Parameters
    ----------
    value : float
        The number.
    {{name}}

    Returns
    -------
    float
        ``value``.

    Raises
    ------
    TypeError
        Not a real number.
    ValueError
        NaN or inf.

    Examples
    --------
    >>> check_finite(-2, "shift")
    -2.0
    """
    _check_real(value, name)
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"{name}: expected a finite number, got {_fmt(value)}")
    return v


def check_array(values: ArrayLike, name: str, *, ndim: int | None = None, finite: bool = True,
                minimum: float | None = None, maximum: float | None = None, dtype: DTypeLike = float) -> np.ndarray:
    """An array of numbers (cast to ``dtype``) with optional shape and range requirements.

    Raises ``TypeError`` when the values are not numeric, ``ValueError`` for the wrong number
    of dimensions, NaN / inf (with ``finite``, or always for an integer ``dtype``) or values
    outside ``[minimum, maximum]``; the
    message names the argument, the offending value and what was expected.

    Parameters
    ----------
    values : array_like
        The numbers.
    {{name}}
    ndim : int, optional
        Required number of dimensions.
    finite : bool
        Refuse NaN and inf (float arrays).
    minimum, maximum : float, optional
        Inclusive bounds.
    dtype : data-type
        The dtype of the result.

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> check_array([[1, 2]], "u", ndim=2, minimum=0).dtype
    dtype('float64')
    >>> check_array([1, float("nan")], "codes", dtype=np.int64)
    Traceback (most recent call last):
    ...
    ValueError: codes: expected finite numbers, got np.float64(nan) (1 of 2 values)
    """
    try:
        arr = np.asarray(values, dtype=dtype)
    except (TypeError, ValueError) as exc:
        try:   # NaN or inf cast to integers: numbers with a bad value, not values of a bad type
            as_float = np.asarray(values, dtype=float)
        except (TypeError, ValueError):
            as_float = None
        if as_float is not None and not np.all(np.isfinite(as_float)):
            bad = as_float[~np.isfinite(as_float)].ravel()[0]
            raise ValueError(f"{name}: expected finite numbers, got {bad!r} "
                             f"({int((~np.isfinite(as_float)).sum())} of {as_float.size} values)") from None
        raise TypeError(f"{name}: expected numbers, got {_fmt(values)} ({exc})") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name}: expected a {ndim}-d array, got shape {arr.shape}")
    if arr.dtype.kind == "f" and finite and arr.size and not np.all(np.isfinite(arr)):
        bad = arr[~np.isfinite(arr)].ravel()[0]
        raise ValueError(f"{name}: expected finite numbers, got {bad!r} "
                         f"({int((~np.isfinite(arr)).sum())} of {arr.size} values)")
    if minimum is not None and arr.size and np.nanmin(arr) < minimum:
        raise ValueError(f"{name}: expected values >= {minimum}, got a minimum of {np.nanmin(arr)!r}")
    if maximum is not None and arr.size and np.nanmax(arr) > maximum:
        raise ValueError(f"{name}: expected values <= {maximum}, got a maximum of {np.nanmax(arr)!r}")
    return arr


def check_unique_columns(df: pd.DataFrame, name: str = "df") -> None:
    """A pandas DataFrame whose column names are unique (a duplicated name makes ``df[c]`` a frame).

    Parameters
    ----------
    df : pandas.DataFrame
        The table.
    {{name}}

    Raises
    ------
    TypeError
        Not a pandas DataFrame.
    ValueError
        A duplicated column name.

    Examples
    --------
    >>> import pandas as pd
    >>> check_unique_columns(pd.DataFrame({"a": [1], "b": [2]}))
    """
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name}: expected a pandas DataFrame, got {type(df).__name__}")
    dup = df.columns[df.columns.duplicated()]
    if len(dup):
        raise ValueError(f"{name}: duplicated column name(s) {sorted(set(map(str, dup)))}; "
                         "rename them so that every column has one name")


def check_has_order(column: pd.Series, argument: str) -> None:
    """An attribute used with an ordered ground distance must carry its order.

    Numbers and ordered categoricals do; text does not (sorting text is not an order:
    ``'11K' < '3K'``), so the caller must pass the values in order as ``argument``.

    Parameters
    ----------
    column : pandas.Series
        The attribute's values.
    argument : str
        The argument through which the caller can give the order (named in the error).

    Raises
    ------
    ValueError
        A column of text that is not an ordered categorical.

    Examples
    --------
    >>> import pandas as pd
    >>> check_has_order(pd.Series([3, 1, 2], name="age"), "order")
    """
    import pandas as pd

    ordered_cat = isinstance(column.dtype, pd.CategoricalDtype) and column.dtype.ordered
    if not ordered_cat and not pd.api.types.is_numeric_dtype(column):
        raise ValueError(
            f"{argument}: the ordered distance on the non-numeric column {column.name!r} needs its values in "
            f"order, as {argument}=[...] (or an ordered categorical); sorting them as text is not an order "
            f"(e.g. '11K' < '3K'). Values: {list(pd.unique(column))[:6]}")


for _check in (check_positive, check_epsilon, check_probability, check_delta, check_int, check_distribution, check_columns,
               check_no_nan, check_in, check_nonempty, check_finite, check_array, check_unique_columns):
    shared_doc(name=NAME_DOC)(_check)
