"""The second round of bad-input probes: each case is a clear error naming the argument (and
what was expected), or the right answer.  (The DP-safety cases are in tests/test_safety_dp.py.)"""
from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

from privlib import mechanisms as m
from privlib.experiments import glue_num, round_sig
from privlib.hierarchy import Hierarchy, HierarchyError
from privlib.scorecard import Scorecard, Seeds, load_readings, status, write_readings

BIG = sys.float_info.max


# ------------------------------------------------------------------ exponential mechanism
def test_exponential_overflowing_utility_with_zero_weight_is_excluded():
    p = m.exponential_probabilities([1e308, 0.0], eps=10.0, base_measure=[0.0, 1.0])
    assert np.array_equal(p, [0.0, 1.0])
    picks = m.exponential_rows(np.tile([1e308, 0.0], (200, 1)), eps=10.0, base_measure=[0.0, 1.0], rng=0)
    assert (picks == 1).all()
    assert m.exponential([1e308, 0.0], eps=10.0, base_measure=[0.0, 1.0], rng=0) == 1


def test_exponential_overflow_limit_is_the_base_measure_among_the_top():
    assert np.array_equal(m.exponential_probabilities([1e308, 0.0], eps=10.0), [1.0, 0.0])
    p = m.exponential_probabilities([1e308, 1e308, 0.0], eps=10.0, base_measure=[1.0, 3.0, 1.0])
    assert np.allclose(p, [0.25, 0.75, 0.0]) and np.isfinite(p).all()


# ------------------------------------------------------------------ huge budgets and sensitivities
@pytest.mark.parametrize("call,match", [
    (lambda: m.discrete_laplace(1, eps=1e300, rng=0), "eps"),
    (lambda: m.discrete_laplace(1, eps=10 ** 400, rng=0), "eps"),
    (lambda: m.geometric(1, eps=1e300, rng=0), "eps"),
    (lambda: m.geometric(1, eps=10 ** 400, rng=0), "eps"),
    (lambda: m.laplace_scale(eps=10 ** 400), "eps"),
    (lambda: m.laplace(1.0, eps=1.0, sensitivity=1e308, rng=0), "sensitivity"),
    (lambda: m.laplace(1.0, eps=1e300, rng=0), "eps"),
], ids=["dl-1e300", "dl-10**400", "geo-1e300", "geo-10**400", "laplace_scale", "laplace-sens", "laplace-eps"])
def test_huge_budgets_are_named_value_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ------------------------------------------------------------------ numeric strings
@pytest.mark.parametrize("call", [lambda: m.laplace(["1", "2"], eps=1.0, rng=0),
                                  lambda: m.snapping("3", eps=1.0, bound=10.0, rng=0),
                                  lambda: m.laplace(np.array([b"1"]), eps=1.0, rng=0)])
def test_numeric_strings_are_type_errors(call):
    with pytest.raises(TypeError, match="value"):
        call()


# ------------------------------------------------------------------ round_sig / glue_num
def test_round_sig_never_rounds_to_infinity():
    assert round_sig(BIG) <= BIG and np.isfinite(round_sig(BIG))
    assert round_sig(-BIG, 3) == -1.79e308
    assert round_sig(BIG, 12) == float("1.79769313486e308")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -np.inf, np.float64("nan")])
def test_glue_num_refuses_nan_and_inf(value):
    with pytest.raises(ValueError, match="value"):
        glue_num("probe", value)


def test_glue_num_names_a_bad_key():
    with pytest.raises(TypeError, match="name"):
        glue_num(3, 1.0)


@pytest.mark.parametrize("value", [0.1 + 0.2, 7, True, "text", np.float64(2 / 3)])
def test_glue_num_sends_myst_nbs_glue_message(monkeypatch, value):
    # glue_num writes myst_nb's hidden glue itself (no import of nbformat in the kernel): the same message
    import IPython.display
    import myst_nb
    import myst_nb.ext.glue
    sent = []
    record = lambda *objs, **kw: sent.append((objs, kw))   # noqa: E731
    monkeypatch.setattr(IPython.display, "display", record)
    monkeypatch.setattr(myst_nb.ext.glue, "ipy_display", record)
    glue_num("probe", value)
    myst_nb.glue("probe", round_sig(value), display=False)
    assert len(sent) == 2 and sent[0] == sent[1]
    assert list(sent[0][0][0]) == ["application/papermill.record/text/plain"]


# ------------------------------------------------------------------ Hierarchy.from_csv
def test_from_csv_strips_the_byte_order_mark_with_plain_utf8(tmp_path):
    f = tmp_path / "h.csv"
    f.write_bytes("\ufeffa;*\nb;*\n".encode("utf-8"))
    for enc in ("utf-8", "utf-8-sig", "UTF8"):
        assert Hierarchy.from_csv(f, encoding=enc).leaves[0] == "a"


@pytest.mark.parametrize("encoding,exc", [(None, TypeError), (8, TypeError), (b"utf-8", TypeError),
                                          ("no-such-codec", ValueError), ("ascii", HierarchyError)])
def test_from_csv_encoding_errors_name_encoding(tmp_path, encoding, exc):
    f = tmp_path / "h.csv"
    f.write_bytes("Zürich;*\nBern;*\n".encode("utf-8"))
    with pytest.raises(exc, match="encoding"):
        Hierarchy.from_csv(f, encoding=encoding)


# ------------------------------------------------------------------ scorecard values
def test_status_refuses_decimal_commas_and_non_numbers():
    with pytest.raises(ValueError, match="printed"):
        status("0,5", 5.0)
    with pytest.raises(ValueError, match="printed"):
        status("0,375", 375.0, tolerance=0.5)
    assert status("1,005", 1005.0) == "agrees"                     # a thousands separator is fine
    with pytest.raises(TypeError, match="ours"):
        status(1.0, True)                                          # a bool is not the number 1
    with pytest.raises(TypeError, match="ours"):
        status(1.0, "1.0")
    with pytest.raises(ValueError, match="ours"):
        status(0.8, np.inf, compare="at_least")                    # inf does not agree with "at least 0.8"
    assert status(0.8, float("nan"), compare="at_least") == "not computed"


def _registry(tmp_path, **over):
    row = {"id": "r1", "where": "Table 1", "quote": "q", "claim": "at least 0.8", "kind": "reproduction",
           "reading": "r", "compare": "at_least", "source": "0.8", "tolerance": "0", "seeds": ""}
    row.update(over)
    return pd.DataFrame([row])


def test_record_refuses_nan_seeds_inf_and_bools(tmp_path):
    write_readings("probe", _registry(tmp_path, seeds="20"), directory=tmp_path)
    card = Scorecard.from_readings("probe", directory=tmp_path)
    with pytest.raises(ValueError, match="ours.*seed"):
        card.record("r1", Seeds([np.nan] * 20))
    with pytest.raises(ValueError, match="ours.*seed"):
        card.record("r1", Seeds([0.9, 0.9, np.inf] + [0.9] * 17))
    with pytest.raises(ValueError, match="without a value"):
        card.check_complete()                                      # still missing: refused
    write_readings("probe2", _registry(tmp_path), directory=tmp_path)
    card = Scorecard.from_readings("probe2", directory=tmp_path)
    with pytest.raises(ValueError, match="ours"):
        card.record("r1", float("inf"))
    with pytest.raises(TypeError, match="ours"):
        card.record("r1", True)


def test_registry_refuses_decimal_comma_sources(tmp_path):
    with pytest.raises(ValueError, match="source"):
        write_readings("probe", _registry(tmp_path, compare="abs", source="0,375", tolerance="printed"),
                       directory=tmp_path)


def test_scorecard_built_with_readings_applies_the_registry_rules(tmp_path):
    bad = _registry(tmp_path, seeds="3", kind="bogus")
    with pytest.raises(ValueError, match="seeds|kind"):
        Scorecard("probe", readings=bad)
    with pytest.raises(TypeError, match="readings"):
        Scorecard("probe", readings=[1, 2])


@pytest.mark.parametrize("seeds", ["⁵", "٥", "5.0", "five"])
def test_registry_seeds_must_be_ascii_digits(tmp_path, seeds):
    path = tmp_path / "probe.csv"
    frame = _registry(tmp_path)
    frame["seeds"] = seeds
    frame.to_csv(path, index=False, encoding="utf-8")
    with pytest.raises(ValueError, match="seeds"):
        load_readings("probe", directory=tmp_path)


def test_latin1_registry_is_a_named_error(tmp_path):
    frame = _registry(tmp_path, claim="Zürich at least 0.8")
    (tmp_path / "probe.csv").write_bytes(frame.to_csv(index=False).encode("latin-1"))
    with pytest.raises(ValueError, match="chapter: .*not UTF-8"):
        load_readings("probe", directory=tmp_path)


def test_record_table_with_a_string_cell_names_ours(tmp_path):
    write_readings("probe", _registry(tmp_path, compare="table", source="0.1; 0.2", tolerance="printed"),
                   directory=tmp_path)
    card = Scorecard.from_readings("probe", directory=tmp_path)
    with pytest.raises(TypeError, match="ours"):
        card.record_table("r1", [0.1, "0.2"])
    assert card.record_table("r1", [0.1, 0.2]).status == "agrees"


def test_an_infinite_value_only_makes_a_claim_differ():
    # "no point gets there" (inf) differs from "about 60"; it may never agree with "at least 0.8"
    from privlib.scorecard import status
    assert status(60, float("inf"), compare="abs", tolerance=5) == "differs"
    assert status(0.8, float("inf"), compare="at_most") == "differs"
    assert status(0.8, float("-inf"), compare="at_least") == "differs"
    with pytest.raises(ValueError, match="ours"):
        status(0.8, float("inf"), compare="at_least")
    with pytest.raises(ValueError, match="ours"):
        status(0.8, float("-inf"), compare="at_most")
