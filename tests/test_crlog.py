"""The correctly rounded logarithm behind the textbook sampler: the same bits on every CPU.

Mironov's attack decides from the last bits of the textbook Laplace sampler's floats; numpy's
``log`` gives different last bits on AVX-512, AVX2 and baseline code, and so did the book's
attack demonstration.  These tests pin the routine to the exact answer (``decimal``) and run
it, and the attack, under each of numpy's dispatch levels.
"""
from __future__ import annotations

import decimal
import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

from privlib import attacks
from privlib import mechanisms as mech
from privlib.mechanisms import correctly_rounded_log as crlog

DISPATCH = {"default": "", "AVX2": "X86_V4 AVX512_ICL AVX512_SPR",
            "baseline": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR"}


def _exact(x: float) -> float:
    with decimal.localcontext(decimal.Context(prec=80)):
        return float(decimal.Decimal(x).ln())


def _cases(n):
    rng = np.random.default_rng(11)
    u = rng.integers(1, 1 << 53, n) * 2.0 ** -53
    return np.concatenate([u + u, 2.0 - u - u, rng.random(200) * 1e300 + 1e-300,
                           [1.0, 0.5, 2.0, 1 - 2 ** -53, 1 + 2 ** -52, 2 ** -1074, 1.7976931348623157e308,
                            0.7071067811865476, 0.7071067811865475, 1.4142135623730951, np.e, 10.0]])


def test_log_is_correctly_rounded():
    x = _cases(4000)
    got = crlog(x)
    want = np.array([_exact(float(v)) for v in x])
    assert np.array_equal(got, want)


def test_log_is_monotone_on_the_samplers_grid():
    k = np.arange(1, 100_001, dtype=np.int64) * 2.0 ** -53
    assert np.all(np.diff(crlog(k + k)) >= 0)
    assert np.all(np.diff(crlog(1.0 - k[:5000] * 2.0 ** 40)) <= 0)


def test_log_keeps_shape_and_refuses_non_positive():
    assert crlog(np.ones((2, 3))).shape == (2, 3)
    assert crlog(1.0).shape == ()
    for bad in (0.0, -1.0, np.inf, np.nan):
        with pytest.raises(ValueError, match="x: expected positive finite"):
            crlog([1.0, bad])


_PROBE = """
import hashlib, numpy as np
from privlib import attacks, mechanisms as mech
from privlib.mechanisms import correctly_rounded_log as log
u = np.random.default_rng(5).integers(1, 1 << 53, 50_000) * 2.0 ** -53
y = mech.textbook_laplace(np.zeros(3000), eps=1.0, rng=7)
d = attacks.float_laplace_attack(y, x0=0.0, x1=1.0, eps=1.0)
print(hashlib.sha256(log(u + u).tobytes() + y.tobytes() + d.tobytes()).hexdigest())
"""


def test_sampler_and_attack_identical_under_every_numpy_dispatch_level():
    digests = {}
    for name, disabled in DISPATCH.items():
        env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": disabled}
        out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True,
                             check=True)
        digests[name] = out.stdout.strip()
    assert len(set(digests.values())) == 1, digests


def test_attack_decisions_are_never_wrong_and_mostly_made():
    y = mech.textbook_laplace(np.zeros(2000), eps=0.5, rng=3)
    d = attacks.float_laplace_attack(y, x0=0.0, x1=1.0, eps=0.5)
    assert not (d == 1).any()
    assert (d == 0).mean() > 0.6
    y1 = mech.textbook_laplace(np.ones(2000), eps=0.5, rng=4)
    d1 = attacks.float_laplace_attack(y1, x0=0.0, x1=1.0, eps=0.5)
    assert not (d1 == 0).any()
    assert hashlib.sha256(d.tobytes()).hexdigest() != hashlib.sha256(d1.tobytes()).hexdigest()
