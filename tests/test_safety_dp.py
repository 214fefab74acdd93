"""Safe to copy into real work: DiffGen's public split points, fresh entropy, seed reuse,
refusals that reveal nothing, sequential composition of ledgers, accounting notes.

The DiffGen audit: two neighbouring data sets (D, and D plus one record), many end-to-end
releases of each; the distinguishing event of the float attack (a split point that the
floating-point formula ``low + U * (high - low)``, ``U = m / 2**53``, cannot produce from D's
interval ends) and every split value are tested; the Clopper-Pearson lower bound on eps of
the best event must stay below the ledger's eps.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import beta

import privlib
from privlib import diffgen as dg
from privlib import mechanisms as m
from privlib.accounting import Ledger, LedgerEntry

# ------------------------------------------------------------------ DiffGen: public split points
#: D: eight records at x = 8 (classes alternate); D': D plus one record at x = 1 (add/remove
#: neighbours).  The public domain [0, 10).  With the float formula the first interval of
#: split points is (0, 8] under D and (0, 1], (1, 8] under D': many floats of the second are
#: impossible under the first.
D = pd.DataFrame({"x": [8.0] * 8, "class": ["a", "b"] * 4})
D1 = pd.concat([D, pd.DataFrame({"x": [1.0], "class": ["a"]})], ignore_index=True)
DOMAIN = {"x": (0.0, 10.0)}
EPS = 1.0
RUNS = 300


def _splits(df, runs, seed):
    gen = np.random.default_rng(seed)
    out = []
    for _ in range(runs):
        rel = dg.diffgen(df, ["x"], "class", DOMAIN, eps=EPS, h=1, classes=("a", "b"), rng=gen)
        out.append(rel.history[0].split)
    return np.array(out), rel.ledger.total()


def _possible_by_float_formula(s, bounds):
    """Could ``s`` be ``b_j + (m / 2**53) * (b_{j+1} - b_j)`` for some interval of ``bounds``?"""
    for a, b in zip(bounds[:-1], bounds[1:]):
        w = b - a
        if w <= 0 or not a <= s <= b:
            continue
        m0 = math.floor((s - a) / w * 2.0 ** 53)
        if any(0 <= k < 2 ** 53 and a + (k * 2.0 ** -53) * w == s for k in range(m0 - 3, m0 + 4)):
            return True
    return False


@pytest.fixture(scope="module")
def releases():
    s0, eps0 = _splits(D, RUNS, 101)
    s1, eps1 = _splits(D1, RUNS, 202)
    return s0, s1, max(eps0, eps1)


def test_diffgen_neighbours_have_the_same_possible_releases(releases):
    s0, s1, _ = releases
    # every split point is a public grid point (the integers 1..9 of [0, 10)) ...
    grid = set(range(1, 10))
    assert set(s0.tolist()) <= grid and set(s1.tolist()) <= grid
    # ... and each neighbour reaches all of them (eps' = 1/6: near-uniform over 9 points)
    assert set(s0.tolist()) == set(s1.tolist()) == grid
    # the noisy counts' support (discrete Laplace, clipped at 0) is every count >= 0 for both


def test_diffgen_split_points_on_a_dyadic_grid_for_a_real_domain():
    df = pd.DataFrame({"x": [0.3, 0.71, 2.2, 2.4], "class": ["a", "b", "a", "b"]})
    step = 2.0 ** -19                              # 2**(floor(log2 2.5) - 20)
    gen = np.random.default_rng(5)
    for _ in range(20):
        rel = dg.diffgen(df, ["x"], "class", {"x": (0.0, 2.5)}, eps=1.0, h=3, classes=("a", "b"), rng=gen)
        pts = [st.split for st in rel.history]
        assert all(0 < s < 2.5 and (s / step).is_integer() for s in pts)


def _cp_lower(k, n, alpha):
    return 0.0 if k == 0 else float(beta.ppf(alpha, k, n - k + 1))


def _cp_upper(k, n, alpha):
    return 1.0 if k == n else float(beta.ppf(1 - alpha, k + 1, n - k))


def _eps_lower_bound(in0, in1, n_events, alpha=0.05):
    """Clopper-Pearson lower bound on eps from event indicators under D (in0) and D' (in1),
    both directions, Bonferroni over ``n_events`` events."""
    a = alpha / (2 * n_events)
    n0, n1, k0, k1 = len(in0), len(in1), int(in0.sum()), int(in1.sum())
    best = 0.0
    for (ka, na), (kb, nb) in (((k1, n1), (k0, n0)), ((k0, n0), (k1, n1))):
        lo, hi = _cp_lower(ka, na, a), _cp_upper(kb, nb, a)
        if lo > 0:
            best = max(best, math.log(lo / hi))
    return best


def test_diffgen_empirical_privacy_audit(releases):
    s0, s1, ledger_eps = releases
    bounds0 = [0.0, 8.0, 10.0]                     # D's interval ends for the float formula
    attack0 = np.array([not _possible_by_float_formula(s, bounds0) for s in s0])
    attack1 = np.array([not _possible_by_float_formula(s, bounds0) for s in s1])
    values = sorted(set(s0.tolist()) | set(s1.tolist()))[:20]
    events = [(attack0, attack1)] + [(s0 == v, s1 == v) for v in values]
    eps_lb = max(_eps_lower_bound(e0, e1, len(events)) for e0, e1 in events)
    rate = attack1.mean() - attack0.mean()
    assert eps_lb <= ledger_eps, (f"empirical eps lower bound {eps_lb:.3f} > ledger eps {ledger_eps}; "
                                  f"float-attack rate {rate:.3f}")
    assert ledger_eps <= EPS * (1 + 1e-9)


# ------------------------------------------------------------------ fresh entropy, seed reuse
@pytest.fixture
def seed_check():
    """Switch the seed-reuse check on (the test session runs as a demonstration)."""
    privlib.demonstration(False)
    yield
    privlib.demonstration(True)


DP_ENTRY_POINTS = [
    ("laplace", lambda rng: m.laplace(np.zeros(50), eps=1.0, rng=rng)),
    ("discrete_laplace", lambda rng: m.discrete_laplace(np.zeros(50, dtype=np.int64), eps=1.0, rng=rng)),
    ("geometric", lambda rng: m.geometric(np.zeros(50, dtype=np.int64), eps=1.0, rng=rng)),
    ("snapping", lambda rng: m.snapping(np.zeros(50), eps=1.0, bound=100.0, rng=rng)),
    ("exponential_rows", lambda rng: m.exponential_rows(np.zeros((50, 4)), eps=1.0, rng=rng)),
    ("diffgen", lambda rng: dg.diffgen(D1, ["x"], "class", DOMAIN, eps=1.0, h=1, classes=("a", "b"),
                                       rng=rng).counts),
]


@pytest.mark.parametrize("name,call", DP_ENTRY_POINTS, ids=[n for n, _ in DP_ENTRY_POINTS])
def test_none_is_fresh_entropy_in_every_dp_entry_point(name, call):
    first = call(None)
    assert any(not np.array_equal(first, call(None)) for _ in range(5))


def test_rng_stays_required():
    with pytest.raises(TypeError, match="rng"):
        m.laplace(1.0, eps=1.0)


def test_reusing_an_int_seed_for_two_releases_warns(seed_check):
    m.laplace(1.0, eps=1.0, rng=31)
    with pytest.warns(privlib.SeedReuseWarning, match="seed 31"):
        m.laplace(2.0, eps=1.0, rng=31)
    with pytest.warns(privlib.PrivacyLeakWarning):               # a PrivacyLeakWarning
        m.discrete_laplace(2, eps=1.0, rng=31)


def test_seed_reuse_quiet_for_generators_demonstrations_and_non_releases(seed_check):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gen = np.random.default_rng(32)
        m.laplace(1.0, eps=1.0, rng=gen)
        m.laplace(1.0, eps=1.0, rng=gen)                         # a Generator advances: fresh noise
        m.laplace(1.0, eps=1.0, rng=None)
        m.laplace(1.0, eps=1.0, rng=None)
        m.laplace(1.0, eps=1.0, rng=33)
        with privlib.demonstration():
            m.laplace(1.0, eps=1.0, rng=33)                      # declared demonstration
        from privlib.simulate import simulate_ratings
        simulate_ratings(n_users=5, n_ratings=5, rng=34)         # not a DP release
        simulate_ratings(n_users=5, n_ratings=5, rng=34)
    with pytest.warns(privlib.SeedReuseWarning):
        m.laplace(1.0, eps=1.0, rng=33)
    with pytest.raises(TypeError, match="on"):
        privlib.demonstration("yes")


def test_seeded_release_is_called_a_demonstration_in_the_docs():
    for fn in (m.laplace, dg.diffgen):
        assert "demonstration" in fn.__doc__ and "None" in fn.__doc__
    assert "real release" in privlib.__doc__ and "rng=None" in privlib.SeedReuseWarning.__doc__


# ------------------------------------------------------------------ refusals that reveal nothing
def test_laplace_has_no_data_dependent_refusal():
    # 2**42 - 1 and 2**42 (the old limit) are both released, clamped to the public bound 2**41
    a = m.laplace(2.0 ** 42 - 1, eps=1.0, rng=7)
    b = m.laplace(2.0 ** 42, eps=1.0, rng=7)
    assert a == b and abs(a - 2.0 ** 41) < 100


def test_discrete_laplace_messages_print_no_value_or_noise():
    big = np.array([5, 2 ** 63 - 7], dtype=np.int64)
    with pytest.raises(ValueError) as err:
        m.discrete_laplace(big, eps=1.0, rng=0)
    text = str(err.value)
    assert "values" in text and str(2 ** 63 - 7) not in text and "noise" in text and "position" not in text


# ------------------------------------------------------------------ composition
def test_ledger_addition_is_sequential_whatever_the_groups():
    one = Ledger([LedgerEntry("laplace", 1.0, "parallel", group="cells")])
    assert (one + one).total() == 2.0
    tree = Ledger.from_calls("exponential", [0.5, 0.5], "path", paths=[(0,), (0, 1)])
    assert (tree + tree).total() == 2.0 and Ledger.concat(tree, tree).total() == 2.0
    seq = Ledger([LedgerEntry("laplace", 0.25)])
    assert (one + tree + seq).total() == 2.25
    assert (one + one).to_frame()["scope"].tolist() == [0, 1]


def test_two_onthemap_syntheses_add_up():
    from privlib.synth import synthesize_table
    counts = np.array([[3, 1, 0], [0, 2, 5]])
    a = synthesize_table(counts, eps=2.0, rng=1, totals=np.array([4, 7]))
    b = synthesize_table(counts, eps=2.0, rng=2, totals=np.array([4, 7]))
    assert (a.ledger + b.ledger).total() == pytest.approx(a.ledger.total() + b.ledger.total(), rel=1e-12)


@pytest.mark.parametrize("path", [(1.5, 2), (True, False), "01", (0, -1), (np.float64(2.0),)])
def test_ledger_entry_refuses_bad_paths(path):
    with pytest.raises((TypeError, ValueError), match="path"):
        LedgerEntry("exponential", 0.1, "path", path=path)


@pytest.mark.parametrize("kwargs,match", [
    (dict(group=3, composition="parallel"), "group"), (dict(detail=None), "detail"),
    (dict(scope=1.5), "scope"), (dict(scope=-1), "scope"), (dict(composition=["path"]), "composition"),
])
def test_ledger_entry_validates_field_types(kwargs, match):
    with pytest.raises((TypeError, ValueError), match=match):
        LedgerEntry("laplace", 0.1, **kwargs)


# ------------------------------------------------------------------ accounting notes
def test_accounting_differences_are_stated_where_they_are_on_the_safe_side():
    assert "1024 / 1025" in m.laplace.__doc__
    assert "floor(sensitivity)" in m.geometric.__doc__
    assert "binomial sampler" in dg.diffgen.__doc__
