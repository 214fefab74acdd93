"""The one budget ledger (privlib.accounting)."""
import math

import pandas as pd
import pytest

from privlib.accounting import BudgetExceededError, Ledger, LedgerEntry, total_epsilon


def E(eps, composition="sequential", **kw):
    if composition == "parallel":
        kw.setdefault("group", "g")
    if composition == "path":
        kw.setdefault("path", (0,))
    return LedgerEntry("laplace", eps, composition, **kw)


def test_sequential_entries_add_up():
    assert Ledger([E(0.1), E(0.2), E(0.3)]).total() == pytest.approx(0.6)


def test_a_parallel_group_costs_its_largest_entry_and_groups_add():
    led = Ledger([E(0.2, "parallel", group="a"), E(0.5, "parallel", group="a"),
                  E(0.1, "parallel", group="b"), E(0.25)])
    assert led.parallel() == {"a": 0.5, "b": 0.1}
    assert led.total() == pytest.approx(0.85)


def test_a_tree_costs_its_most_expensive_root_to_node_path():
    # root 0 (0.1) -> 1 (0.2) -> 3 (0.4);  root -> 2 (0.6)
    led = Ledger([E(0.1, "path", path=(0,)), E(0.2, "path", path=(0, 1)),
                  E(0.4, "path", path=(0, 1, 3)), E(0.6, "path", path=(0, 2))])
    assert led.path_costs()[(0, 1, 3)] == pytest.approx(0.7)
    assert led.tree() == pytest.approx(0.7)
    # two entries on one node add up
    assert (led + Ledger([E(0.3, "path", path=(0, 2))])).tree() == pytest.approx(1.0)


def test_the_three_compositions_add_up():
    led = Ledger([E(0.1), E(0.2, "parallel"), E(0.3, "path")])
    assert led.total() == pytest.approx(0.6)


def test_check_returns_the_ledger_within_budget_and_raises_beyond():
    led = Ledger([E(0.5), E(0.5)])
    assert led.check(1.0) is led
    with pytest.raises(BudgetExceededError, match="spent eps = 1.0"):
        led.check(0.9)


def test_check_tolerates_floating_point_sums_of_fractions():
    led = Ledger([E(0.1)] * 10)  # 0.1 * 10 != 1.0 in binary
    assert led.check(1.0) is led


@pytest.mark.parametrize("eps", [-0.1, math.nan, math.inf, -math.inf])
def test_negative_nan_and_infinite_entries_are_refused(eps):
    with pytest.raises(ValueError, match="eps"):
        E(eps)


@pytest.mark.parametrize("eps", ["0.1", None, True])
def test_non_numeric_entries_are_refused(eps):
    with pytest.raises(TypeError, match="eps"):
        E(eps)


def test_unknown_composition_is_refused():
    with pytest.raises(ValueError, match="composition"):
        LedgerEntry("laplace", 0.1, "parralel")


def test_parallel_without_group_and_path_without_path_are_refused():
    with pytest.raises(ValueError, match="group"):
        LedgerEntry("laplace", 0.1, "parallel")
    with pytest.raises(ValueError, match="path"):
        LedgerEntry("laplace", 0.1, "path")


def test_a_ledger_holds_entries_only():
    with pytest.raises(TypeError, match=r"entries\[1\]"):
        Ledger([E(0.1), ("laplace", 0.1, "sequential")])
    with pytest.raises(TypeError, match=r"entries\[0\]"):
        total_epsilon([("laplace", -1.0, "sequential")])


@pytest.mark.parametrize("eps", [0, -1, math.nan])
def test_check_validates_the_budget(eps):
    with pytest.raises(ValueError, match="eps"):
        Ledger([E(0.1)]).check(eps)


def test_the_frame_view_has_one_row_per_entry():
    led = Ledger([E(0.1, detail="x"), E(0.2, "parallel", group="leaves")])
    df = led.to_frame()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["mechanism", "eps", "composition", "group", "path", "detail"]
    assert df["eps"].tolist() == [0.1, 0.2]


def test_an_empty_ledger_costs_nothing_and_ledgers_compare_by_entries():
    assert Ledger().total() == 0.0
    assert Ledger([E(0.1)]) == Ledger([E(0.1)])
    assert len(Ledger([E(0.1), E(0.2)])[1:]) == 1


def test_from_calls_equals_the_entry_by_entry_ledger():
    paths = [(0,), (0, 1), (0, 2), (0, 1, 3)]
    eps = [0.1, 0.2, 0.3, 0.15]
    bulk = Ledger.from_calls("exponential", eps, "path", paths=paths, detail="median")
    one = Ledger([LedgerEntry("exponential", e, "path", path=p, detail="median") for e, p in zip(eps, paths)])
    assert bulk == one and bulk.total() == pytest.approx(one.total()) == pytest.approx(0.45)
    assert list(bulk) == list(one)
    both = bulk + Ledger.from_calls("laplace", [0.5, 0.5], "parallel", group="leaves")
    assert len(both) == 6 and both.total() == pytest.approx(0.95)
    assert both.to_frame()["mechanism"].tolist()[-1] == "laplace"


@pytest.mark.parametrize("kw, exc, match", [
    (dict(eps=[0.1, -0.1], composition="sequential"), ValueError, "eps"),
    (dict(eps=[0.1, float("nan")], composition="sequential"), ValueError, "eps"),
    (dict(eps=[0.1], composition="path"), ValueError, "paths"),
    (dict(eps=[0.1, 0.2], composition="path", paths=[(0,)]), ValueError, "paths"),
    (dict(eps=[0.1], composition="path", paths=[()]), ValueError, "path"),
    (dict(eps=[0.1], composition="parallel"), ValueError, "group"),
    (dict(eps=[0.1], composition="tree"), ValueError, "composition"),
])
def test_from_calls_validates_every_call(kw, exc, match):
    with pytest.raises(exc, match=match):
        Ledger.from_calls("laplace", **kw)
