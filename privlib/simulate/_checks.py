"""Parameter checks shared by the simulators."""
from __future__ import annotations

from .._validation import check_finite, check_positive


def check_lognormal_size(size_logmean: float, size_logsd: float) -> tuple[float, float]:
    """The log-mean and log-sd of a lognormal establishment size, within sane ranges."""
    mu = check_finite(size_logmean, "size_logmean")
    if not -20.0 <= mu <= 12.0:
        raise ValueError(f"size_logmean: expected a log-employment in [-20, 12], got {size_logmean!r}")
    sd = check_positive(size_logsd, "size_logsd")
    if sd > 5.0:
        raise ValueError(f"size_logsd: expected a log-sd in (0, 5], got {size_logsd!r}")
    return mu, sd
