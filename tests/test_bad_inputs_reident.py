"""Bad and extreme inputs for privlib.reident and privlib.simulate.ratings.

Every case either checks the correct result (against a hand computation or an independent
method) or expects a ``ValueError`` / ``TypeError`` whose message names the argument.  The
regression tests of the probe findings are at the end (each failed on the earlier code).
"""
import inspect
import typing

import numpy as np
import pandas as pd
import pytest

from privlib import reident as R
from privlib.simulate.ratings import simulate_ratings

EXH, FO = R.exhaustive(), R.first_order()


def table(users_to_values, col="x"):
    rows = [(u, v) for u, vals in users_to_values.items() for v in vals]
    return pd.DataFrame(rows, columns=["user", col])


OK = table({1: "aab", 2: "abb"})
GEN = np.random.default_rng(0)
OBS = pd.DataFrame({"user": np.repeat(np.arange(6), 24), "A": GEN.integers(0, 3, 144), "B": GEN.integers(0, 3, 144)})
DUP = pd.DataFrame([[1, 1, 2], [2, 1, 2], [1, 2, 2], [2, 2, 1]], columns=["user", "x", "x"])
ALL_ABSENT = pd.DataFrame({"user": [1, 1, 2, 2, 3, 3], "A": [1, 2, 0, 0, 1, 1]})  # user 2: no first-order record
RATINGS = pd.DataFrame({"user": [1, 1, 2], "genres": ["A|B", "B", "A"], "rating": [4.0, 3.5, 0.5]})
SUCCESS = pd.DataFrame({"level": [1, 2, 3, 4], "success": [0.1, 0.2, 0.6, 1.0]})
SMALL_SIM = {"categories": ("A", "B", "C"), "n_combinations": 3, "n_movies": 5, "size_probs": (1.0,)}


def _ratings(**cols):
    d = {"user": [1, 1], "genres": ["A", "B"], "rating": [3.0, 4.0]}
    d.update(cols)
    return pd.DataFrame(d)


# (id, callable, expected exception, regex naming the argument)
ERRORS = [
    # encode / HI / PI: tables
    ("encode-empty", lambda: R.encode_records(OK.iloc[:0], model=EXH), ValueError, "obs"),
    ("encode-not-frame", lambda: R.encode_records(OK.to_numpy(), model=EXH), TypeError, "obs"),
    ("encode-duplicated-columns", lambda: R.encode_records(DUP, model=EXH), ValueError, r"obs: duplicated column"),
    ("encode-duplicated-characteristics", lambda: R.encode_records(OK, model=EXH, characteristics=["x", "x"]), ValueError,
     "characteristics"),
    ("encode-missing-column", lambda: R.encode_records(OK, model=EXH, characteristics=["y"]), ValueError, "characteristics"),
    ("encode-missing-user", lambda: R.encode_records(OK, model=EXH, user="uid"), ValueError, "user"),
    ("encode-nan-user", lambda: R.encode_records(pd.DataFrame({"user": [1, np.nan, 2, 2], "x": [1, 1, 2, 1]}), model=EXH),
     ValueError, "missing values"),
    ("encode-nan-value", lambda: R.encode_records(pd.DataFrame({"user": [1, 1, 2, 2], "x": [1, np.nan, 2, 1]}), model=EXH),
     ValueError, r"missing values .*'x'"),
    ("encode-one-user", lambda: R.encode_records(table({1: "ab"}), model=EXH), ValueError, "obs: expected at least two users"),
    ("encode-n_obs-0", lambda: R.encode_records(OK, model=EXH, n_obs=0), ValueError, "n_obs"),
    ("encode-n_obs-negative", lambda: R.encode_records(OK, model=EXH, n_obs=-3), ValueError, "n_obs"),
    ("encode-n_obs-nan", lambda: R.encode_records(OK, model=EXH, n_obs=float("nan")), ValueError, "n_obs"),
    ("encode-n_obs-string", lambda: R.encode_records(OK, model=EXH, n_obs="3"), TypeError, "n_obs"),
    ("encode-n_obs-too-large", lambda: R.encode_records(OK, model=EXH, n_obs=10**12), ValueError, "n_obs"),
    ("encode-model-string", lambda: R.encode_records(OK, model="exhaustive"), TypeError, "model"),
    ("hi-users-without-observations", lambda: R.hypothetical_information(ALL_ABSENT, model=FO), ValueError,
     r"obs: 1 user\(s\) have no first-order observation"),
    ("hi-records-with-n_obs", lambda: R.hypothetical_information(R.encode_records(OK, model=EXH), n_obs=2), ValueError, "n_obs"),
    ("hi-records-with-characteristics", lambda: R.hypothetical_information(R.encode_records(OK, model=EXH), characteristics=["x"]),
     ValueError, "characteristics"),
    ("pi-folds-1", lambda: R.perceived_information(OK, model=EXH, folds=1, rng=0), ValueError, "folds"),
    ("pi-folds-above-n_o", lambda: R.perceived_information(OK, model=EXH, folds=4, rng=0), ValueError, "folds"),
    ("pi-folds-float", lambda: R.perceived_information(OK, model=EXH, folds=2.5, rng=0), TypeError, "folds"),
    ("pi-folds-nan", lambda: R.perceived_information(OK, model=EXH, folds=float("nan"), rng=0), ValueError, "folds"),
    ("pi-protect-folds-above-rows", lambda: R.perceived_information(OK, model=EXH, folds=4, rng=0, protect=lambda d: d),
     ValueError, "folds"),
    ("pi-floor-above-1", lambda: R.perceived_information(OK, model=EXH, folds=2, rng=0, outliers="floor", floor=2.0),
     ValueError, "floor"),
    ("pi-floor-nan", lambda: R.perceived_information(OK, model=EXH, folds=2, rng=0, outliers="floor", floor=np.nan),
     ValueError, "floor"),
    ("pi-floor-zero", lambda: R.perceived_information(OK, model=EXH, folds=2, rng=0, outliers="floor", floor=0.0),
     ValueError, "floor"),
    ("pi-outliers-empty", lambda: R.perceived_information(OK, model=EXH, folds=2, rng=0, outliers=()), ValueError, "outliers"),
    ("pi-outliers-int", lambda: R.perceived_information(OK, model=EXH, folds=2, rng=0, outliers=5), TypeError, "outliers"),
    ("pi-outliers-unknown", lambda: R.perceived_information(OK, model=EXH, folds=2, rng=0, outliers=("drop", "x")),
     ValueError, "outliers"),
    ("pi-rng-negative", lambda: R.perceived_information(OK, model=EXH, folds=2, rng=-1), ValueError, "rng"),
    ("pi-rng-float", lambda: R.perceived_information(OK, model=EXH, folds=2, rng=1.5), TypeError, "rng"),
    # attacks and utility
    ("success-leakages-0", lambda: R.success_rate(OBS, model=EXH, leakages=0, levels=[1], rng=0, folds=4), ValueError, "leakages"),
    ("success-leakages-nan", lambda: R.success_rate(OBS, model=EXH, leakages=np.nan, levels=[1], rng=0, folds=4), ValueError, "leakages"),
    ("success-leakages-above-fold", lambda: R.success_rate(OBS, model=EXH, leakages=7, levels=[1], rng=0, folds=4), ValueError, "leakages"),
    ("success-levels-0", lambda: R.success_rate(OBS, model=EXH, leakages=1, levels=[0], rng=0, folds=4), ValueError, "levels"),
    ("success-levels-nan", lambda: R.success_rate(OBS, model=EXH, leakages=1, levels=[np.nan], rng=0, folds=4), ValueError, "levels"),
    ("success-levels-string", lambda: R.success_rate(OBS, model=EXH, leakages=1, levels=["1"], rng=0, folds=4), TypeError, "levels"),
    ("success-levels-empty", lambda: R.success_rate(OBS, model=EXH, leakages=1, levels=[], rng=0, folds=4), ValueError, "levels"),
    ("success-chunk-0", lambda: R.success_rate(OBS, model=EXH, leakages=1, levels=[1], rng=0, folds=4, chunk=0), ValueError, "chunk"),
    ("success-chunk-negative", lambda: R.success_rate(OBS, model=EXH, leakages=1, levels=[1], rng=0, folds=4, chunk=-5), ValueError,
     "chunk"),
    ("success-folds-1", lambda: R.success_rate(OBS, model=EXH, leakages=1, levels=[1], rng=0, folds=1), ValueError, "folds"),
    ("category-levels-negative", lambda: R.category_prediction(OBS, model=EXH, levels=[-1], rng=0, folds=4), ValueError, "levels"),
    ("category-levels-empty", lambda: R.category_prediction(OBS, model=EXH, levels=[], rng=0, folds=4), ValueError, "levels"),
    ("category-folds-above-n_o", lambda: R.category_prediction(OBS, model=EXH, levels=[1], rng=0, folds=25), ValueError, "folds"),
    ("category-protect-not-callable", lambda: R.category_prediction(OBS, model=EXH, levels=[1], rng=0, protect=OBS), TypeError,
     "protect"),
    ("density-missing-user", lambda: R.category_density(OK, model=EXH, user="u"), ValueError, "user"),
    ("density-empty", lambda: R.category_density(OK.iloc[:0], model=EXH), ValueError, "obs"),
    ("density-model-none", lambda: R.category_density(OK, model=None), TypeError, "model"),
    ("counts-duplicated-columns", lambda: R.observation_counts(DUP, model=EXH), ValueError, "obs"),
    # swap
    ("swap-duplicated-columns", lambda: R.swap(DUP, ["x"], rng=0), ValueError, "obs"),
    ("swap-duplicated-characteristics", lambda: R.swap(OK, ["x", "x"], rng=0), ValueError, "characteristics"),
    ("swap-user-column", lambda: R.swap(OK, ["user"], rng=0), ValueError, "characteristics"),
    ("swap-missing-column", lambda: R.swap(OK, ["y"], rng=0), ValueError, "characteristics"),
    ("swap-empty", lambda: R.swap(OK.iloc[:0], ["x"], rng=0), ValueError, "obs"),
    # bounds and summaries
    ("leakages-bits-nan", lambda: R.leakages_needed(float("nan"), n_users=10), ValueError, "bits"),
    ("leakages-bits-inf", lambda: R.leakages_needed(float("inf"), n_users=10), ValueError, "bits"),
    ("leakages-bits-string", lambda: R.leakages_needed("1", n_users=10), TypeError, "bits"),
    ("leakages-n_users-1", lambda: R.leakages_needed(1.0, n_users=1), ValueError, "n_users"),
    ("leakages-c-nan", lambda: R.leakages_needed(1.0, n_users=10, c=np.nan), ValueError, "c"),
    ("leakages-c-negative", lambda: R.leakages_needed(1.0, n_users=10, c=-1.0), ValueError, "c"),
    ("step-bins-1", lambda: R.largest_step(SUCCESS, bins=1), ValueError, "bins"),
    ("step-nan", lambda: R.largest_step(SUCCESS.assign(success=[np.nan, 0.2, 0.6, 1.0])), ValueError, "success"),
    ("step-empty", lambda: R.largest_step(SUCCESS.iloc[:0]), ValueError, "success"),
    ("step-missing-column", lambda: R.largest_step(SUCCESS.drop(columns="level")), ValueError, "success"),
    ("step-rate-above-1", lambda: R.largest_step(SUCCESS.assign(success=[0.1, 0.2, 0.6, 1.5])), ValueError,
     "success"),
    ("step-not-frame", lambda: R.largest_step([0.1, 0.2]), TypeError, "success"),
    ("table-empty-dict", lambda: R.information_table({}, n_obs=(2, 3), folds=2, rng=0), ValueError, "observations"),
    ("table-n_obs-three", lambda: R.information_table({"g": OK}, n_obs=(2, 3, 4), folds=2, rng=0), ValueError, "n_obs"),
    ("table-n_obs-zero", lambda: R.information_table({"g": OK}, n_obs=(0, 3), folds=2, rng=0), ValueError, "n_obs"),
    ("table-outliers-empty", lambda: R.information_table({"g": OK}, n_obs=(2, 3), folds=2, rng=0, outliers=()), ValueError,
     "outliers"),
    ("curve-grid-empty", lambda: R.information_curve(OK, model=EXH, n_obs_grid=[], folds=2, rng=0), ValueError, "n_obs_grid"),
    ("curve-grid-zero", lambda: R.information_curve(OK, model=EXH, n_obs_grid=[0, 3], folds=2, rng=0), ValueError, "n_obs_grid"),
    ("curve-quantile-2", lambda: R.information_curve(OK, model=EXH, n_obs_grid=[3], folds=2, rng=0, quantiles=(2,)), ValueError,
     "quantiles"),
    ("curve-quantile-nan", lambda: R.information_curve(OK, model=EXH, n_obs_grid=[3], folds=2, rng=0, quantiles=(np.nan,)), ValueError,
     "quantiles"),
    # ratings reduction
    ("ratings-above-5", lambda: R.rating_observations(_ratings(rating=[3.0, 6.0]), granularity="5-star"), ValueError,
     r"rating: .*\[0.5, 5\].*6\.0"),
    ("ratings-zero", lambda: R.rating_observations(_ratings(rating=[0.0, 4.0]), granularity="no-grade"), ValueError, "rating"),
    ("ratings-negative", lambda: R.rating_observations(_ratings(rating=[-1, 4]), granularity="like-dislike"), ValueError,
     "rating"),
    ("ratings-inf", lambda: R.rating_observations(_ratings(rating=[np.inf, 4.0]), granularity="5-star"), ValueError, "rating"),
    ("ratings-huge", lambda: R.rating_observations(_ratings(rating=[1e308, 4.0]), granularity="5-star"), ValueError, "rating"),
    ("ratings-nan", lambda: R.rating_observations(_ratings(rating=[np.nan, 4.0]), granularity="5-star"), ValueError,
     "missing values"),
    ("ratings-strings", lambda: R.rating_observations(_ratings(rating=["3", "4"]), granularity="5-star"), TypeError, "rating"),
    ("ratings-bool", lambda: R.rating_observations(_ratings(rating=[True, False]), granularity="5-star"), TypeError, "rating"),
    ("ratings-genre-int", lambda: R.rating_observations(_ratings(genres=["A", 5]), granularity="5-star"), TypeError, "genres"),
    ("ratings-genre-empty", lambda: R.rating_observations(_ratings(genres=["A", ""]), granularity="5-star"), ValueError,
     "genres"),
    ("ratings-empty", lambda: R.rating_observations(_ratings().iloc[:0], granularity="5-star"), ValueError, "ratings"),
    ("ratings-duplicated-columns", lambda: R.rating_observations(
        pd.DataFrame([[1, "A", 3, 4]], columns=["user", "genres", "rating", "rating"]), granularity="5-star"), ValueError,
     "ratings: duplicated column"),
    ("ratings-missing-column", lambda: R.rating_observations(_ratings().drop(columns="genres"), granularity="5-star"),
     ValueError, "ratings"),
    ("ratings-duplicated-categories", lambda: R.rating_observations(_ratings(), granularity="5-star", categories=["A", "A", "B"]),
     ValueError, "categories"),
    ("ratings-category-named-user", lambda: R.rating_observations(_ratings(genres=["user", "A"]), granularity="5-star"),
     ValueError, "categories"),
    ("ratings-granularity", lambda: R.rating_observations(_ratings(), granularity="10-star"), ValueError, "granularity"),
    # simulator
    ("sim-n_users-negative", lambda: simulate_ratings(n_users=-3, n_ratings=5, rng=0), ValueError, "n_users"),
    ("sim-n_ratings-0", lambda: simulate_ratings(n_users=5, n_ratings=0, rng=0), ValueError, "n_ratings"),
    ("sim-n_users-float", lambda: simulate_ratings(n_users=5.5, n_ratings=5, rng=0), TypeError, "n_users"),
    ("sim-mean_grade-nan", lambda: simulate_ratings(n_users=5, n_ratings=5, mean_grade=np.nan, rng=0, **SMALL_SIM), ValueError,
     "mean_grade"),
    ("sim-size_penalty-inf", lambda: simulate_ratings(n_users=5, n_ratings=5, size_penalty=np.inf, rng=0, **SMALL_SIM), ValueError,
     "size_penalty"),
    ("sim-sd_bias-negative", lambda: simulate_ratings(n_users=5, n_ratings=5, sd_bias=-1, rng=0, **SMALL_SIM), ValueError, "sd_bias"),
    ("sim-sd_quality-nan", lambda: simulate_ratings(n_users=5, n_ratings=5, sd_quality=np.nan, rng=0, **SMALL_SIM), ValueError,
     "sd_quality"),
    ("sim-sd_beta-negative", lambda: simulate_ratings(n_users=5, n_ratings=5, sd_beta=-0.1, rng=0, **SMALL_SIM), ValueError, "sd_beta"),
    ("sim-zipf-nan", lambda: simulate_ratings(n_users=5, n_ratings=5, zipf=np.nan, rng=0, **SMALL_SIM), ValueError, "zipf"),
    ("sim-beta-zero", lambda: simulate_ratings(n_users=5, n_ratings=5, beta=0.0, rng=0, **SMALL_SIM), ValueError, "beta"),
    ("sim-noise-inf", lambda: simulate_ratings(n_users=5, n_ratings=5, noise=np.inf, rng=0, **SMALL_SIM), ValueError, "noise"),
    ("sim-size_probs-sum", lambda: simulate_ratings(n_users=5, n_ratings=5, size_probs=(0.5, 0.2), rng=0), ValueError,
     "size_probs: expected probabilities summing to 1"),
    ("sim-size_probs-nan", lambda: simulate_ratings(n_users=5, n_ratings=5, size_probs=(np.nan, 1.0), rng=0), ValueError, "size_probs"),
    ("sim-size_probs-negative", lambda: simulate_ratings(n_users=5, n_ratings=5, size_probs=(1.5, -0.5), rng=0), ValueError,
     "size_probs"),
    ("sim-size_probs-empty", lambda: simulate_ratings(n_users=5, n_ratings=5, size_probs=(), rng=0), ValueError, "size_probs"),
    ("sim-size_probs-larger-than-categories", lambda: simulate_ratings(
        n_users=5, n_ratings=5, categories=("A", "B"), n_combinations=3, n_movies=5, size_probs=(0.5, 0.3, 0.2), rng=0), ValueError,
     "size_probs"),
    ("sim-categories-empty", lambda: simulate_ratings(n_users=5, n_ratings=5, categories=(), rng=0), ValueError, "categories"),
    ("sim-categories-string", lambda: simulate_ratings(n_users=5, n_ratings=5, categories="ABC", rng=0), TypeError, "categories"),
    ("sim-categories-duplicated", lambda: simulate_ratings(
        n_users=5, n_ratings=5, categories=("A", "A", "B"), n_combinations=3, n_movies=5, rng=0), ValueError, "categories"),
    ("sim-categories-separator", lambda: simulate_ratings(
        n_users=5, n_ratings=5, categories=("A|B", "C"), n_combinations=2, n_movies=5, size_probs=(1.0,), rng=0), ValueError,
     "categories"),
    ("sim-n_movies-below-combinations", lambda: simulate_ratings(n_users=5, n_ratings=5, n_movies=10, rng=0), ValueError, "n_movies"),
    # cut / encoded Records in information_table
    ("cut-not-records", lambda: R.cut(OBS, n_obs=5), TypeError, "records"),
    ("cut-n_obs-too-large", lambda: R.cut(R.encode_records(OBS, model=EXH), n_obs=25), ValueError, "n_obs"),
    ("cut-n_obs-zero", lambda: R.cut(R.encode_records(OBS, model=EXH), n_obs=0), ValueError, "n_obs"),
    ("cut-n_obs-string", lambda: R.cut(R.encode_records(OBS, model=EXH), n_obs="5"), TypeError, "n_obs"),
    ("table-records-missing-model",
     lambda: R.information_table({"g": {"exhaustive": R.encode_records(OBS, model=EXH)}}, n_obs=(10, 20), folds=4, rng=0),
     ValueError, "observations"),
    ("table-records-wrong-model",
     lambda: R.information_table({"g": {"exhaustive": R.encode_records(OBS, model=FO), "first-order": R.encode_records(OBS, model=FO)}},
                                 n_obs=(10, 20), folds=4, rng=0), ValueError, "observations"),
    ("curve-records-too-short", lambda: R.information_curve(R.encode_records(OBS, model=EXH), n_obs_grid=[30], folds=4, rng=0),
     ValueError, "n_obs"),
    ("success-one-leakage-level-zero", lambda: R.success_rate(OBS, model=EXH, leakages=1, levels=[0], rng=0, folds=4), ValueError,
     "levels"),
]


@pytest.mark.parametrize("fn, exc, match", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_bad_input_is_a_clear_error(fn, exc, match):
    with pytest.raises(exc, match=match):
        fn()


# ------------------------------------------------------------------ extreme inputs with a correct result
def test_levels_beyond_the_number_of_users_are_certain_success():
    sr = R.success_rate(OBS, model=EXH, leakages=1, levels=[1, 6, 100], rng=0, folds=4)
    assert sr["success"].iloc[1:].tolist() == [1.0, 1.0] and sr["random"].iloc[1:].tolist() == [1.0, 1.0]


def test_infinite_characteristic_value_is_a_value():
    # inf is a category like any other: same HI as with a finite stand-in
    a = pd.DataFrame({"user": [1, 1, 2, 2], "x": [1.0, np.inf, 2.0, 1.0]})
    b = a.replace(np.inf, 99.0)
    assert R.hypothetical_information(a, model=EXH).bits == R.hypothetical_information(b, model=EXH).bits == pytest.approx(0.5)


def test_require_equal_false_leaves_users_without_observations_out():
    hi = R.hypothetical_information(ALL_ABSENT, model=FO, require_equal=False)
    assert hi.n_users == 2 and list(hi.per_user.index) == [1, 3]
    # n_obs keeps the users with enough records: same database
    assert R.hypothetical_information(ALL_ABSENT, model=FO, n_obs=2).bits == pytest.approx(hi.bits)


def test_observation_counts_lists_users_without_observations():
    counts = R.observation_counts(ALL_ABSENT, model=FO)
    assert counts.to_dict() == {1: 2, 2: 0, 3: 2}


def test_largest_step_by_hand():
    # levels 1..4, two bins of 2 levels: shares 0.2 then 0.8 -> step 0.6
    assert R.largest_step(SUCCESS, bins=2) == pytest.approx(0.6)
    assert R.largest_step(SUCCESS.assign(success=[0.5, 0.8, 0.95, 1.0]), bins=2) == 0.0


def test_leakages_needed_extremes():
    assert R.leakages_needed(0.0, n_users=10) == float("inf")
    assert R.leakages_needed(-1.0, n_users=10) == float("inf")
    assert R.leakages_needed(1e-300, n_users=2) == pytest.approx(1e300)


def test_half_and_boundary_ratings():
    out = R.rating_observations(_ratings(rating=[0.5, 5.0]), granularity="5-star")
    assert out[["A", "B"]].to_numpy().tolist() == [[1, 0], [0, 5]]


def test_simulator_degenerate_parameters_still_valid():
    pop = simulate_ratings(n_users=3, n_ratings=4, sd_beta=0.0, sd_bias=0.0, sd_quality=0.0, rng=1, **SMALL_SIM)
    assert pop.ratings["rating"].between(1, 5).all() and len(pop.ratings) == 12


# ------------------------------------------------------------------ regression tests of the probe findings
def test_regression_out_of_range_ratings_are_not_clipped():
    # earlier: 7.0 and 0.0 were silently clipped to 5 and 1 stars
    for bad in (7.0, 0.0, 0.49, 5.01):
        with pytest.raises(ValueError, match=r"rating: expected ratings in \[0.5, 5\]"):
            R.rating_observations(_ratings(rating=[bad, 4.0]), granularity="5-star")


def test_regression_leakages_needed_nan_is_an_error():
    # earlier: leakages_needed(nan) returned inf
    with pytest.raises(ValueError, match="bits: expected a finite number, got nan"):
        R.leakages_needed(float("nan"), n_users=13_141)


def test_regression_perceived_information_annotation_is_truthful():
    hint = typing.get_type_hints(R.perceived_information)["return"]
    assert set(typing.get_args(hint)) == {R.Information, dict[str, R.Information]}
    assert isinstance(R.perceived_information(OBS, model=EXH, folds=4, rng=0), R.Information)
    both = R.perceived_information(OBS, model=EXH, folds=4, rng=0, outliers=("drop", "floor"))
    assert isinstance(both, dict) and all(isinstance(v, R.Information) for v in both.values())


@pytest.mark.parametrize("fn", [R.perceived_information, R.success_rate, R.category_prediction,
                                R.information_table, R.information_curve, R.swap, simulate_ratings])
def test_regression_rng_is_required_keyword_only(fn):
    p = inspect.signature(fn).parameters["rng"]
    assert p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is inspect.Parameter.empty


def test_regression_simulator_zero_probability_sizes_do_not_hang():
    # earlier: sizes of probability 0 counted as reachable combinations -> endless rejection loop
    with pytest.raises(ValueError, match="n_combinations: expected at most 3"):
        simulate_ratings(n_users=3, n_ratings=4, categories=("A", "B", "C"), n_combinations=4, n_movies=5, size_probs=(1.0, 0.0, 0.0),
                         rng=0)


def test_regression_simulator_nan_parameters_are_errors():
    # earlier: mean_grade=nan gave garbage int8 grades without an error
    with pytest.raises(ValueError, match="mean_grade"):
        simulate_ratings(n_users=3, n_ratings=4, mean_grade=float("nan"), rng=0, **SMALL_SIM)


def test_regression_duplicated_column_names():
    # earlier: obs[c] returned a frame and the codes were silently wrong or a numpy error
    with pytest.raises(ValueError, match="obs: duplicated column name"):
        R.hypothetical_information(DUP, model=EXH, require_equal=False)


def test_regression_users_without_observations_are_not_silently_dropped():
    # earlier: a user whose rows were all absent vanished from the first-order database, and
    # the HI (with require_equal=True) was computed over the other users without a word
    with pytest.raises(ValueError, match="have no first-order observation"):
        R.hypothetical_information(ALL_ABSENT, model=FO)
    assert R.observation_counts(ALL_ABSENT, model=FO).loc[2] == 0


def test_regression_n_obs_with_records_is_not_ignored():
    rec = R.encode_records(OBS, model=EXH)
    with pytest.raises(ValueError, match="n_obs: obs is already encoded"):
        R.perceived_information(rec, folds=4, rng=0, n_obs=10)


def test_regression_empty_outlier_rules():
    # earlier: outliers=() returned an empty dict
    with pytest.raises(ValueError, match="outliers"):
        R.perceived_information(OBS, model=EXH, folds=4, rng=0, outliers=())


# ------------------------------------------------------------------ integer keys near the int64 limits
def _relabel(obs):
    """The same table with every non-zero characteristic value replaced by a small code
    1, 2, ... (0, the absent value, stays 0): an independent coding of the same data."""
    out = obs.copy()
    for c in obs.columns[1:]:
        v = obs[c].to_numpy()
        nz = v != 0
        out[c] = 0
        out.loc[nz, c] = pd.factorize(v[nz], sort=True)[0] + 1
    return out


HUGE = pd.DataFrame({
    "user": np.repeat([1, 2, 3], 4),
    "A": np.array([-2**62, 2**62, 2**62, 5, 0, 0, -2**62, 7, 2**62, 5, 5, -2**62], dtype=np.int64),
    "B": np.array([2**63 - 1, -2**63, 0, 1, 1, 2**63 - 1, 0, -2**63, 1, 1, 0, 0], dtype=np.int64),
})


@pytest.mark.parametrize("model", [FO, EXH], ids=["first-order", "exhaustive"])
def test_values_near_int64_limits_give_the_results_of_small_codes(model):
    # earlier: v - min overflowed int64 (2**62 - (-2**62)), and the first-order key
    # c * max(cards) + code wrapped around, mixing up symbols
    small = _relabel(HUGE)
    assert small[["A", "B"]].abs().max().max() < 10
    a = R.encode_records(HUGE, model=model, n_obs=3)
    b = R.encode_records(small, model=model, n_obs=3)
    # the same partition of the records into symbols (codes up to renaming), same users
    assert np.array_equal(pd.factorize(a.symbol)[0], pd.factorize(b.symbol)[0])
    assert np.array_equal(a.user, b.user) and a.n_symbols == b.n_symbols
    hi_a = R.hypothetical_information(HUGE, model=model, n_obs=3).bits
    assert hi_a == pytest.approx(R.hypothetical_information(small, model=model, n_obs=3).bits, abs=1e-12)
    pi_a = R.perceived_information(HUGE, model=model, folds=3, rng=1, n_obs=3, outliers="floor").bits
    assert pi_a == pytest.approx(R.perceived_information(small, model=model, folds=3, rng=1, n_obs=3, outliers="floor").bits,
                                 abs=1e-12)


def test_uint64_values_above_int64():
    big = pd.DataFrame({"user": [1, 1, 2, 2], "x": np.array([2**64 - 1, 2**64 - 2, 2**64 - 1, 1], dtype=np.uint64)})
    small = pd.DataFrame({"user": [1, 1, 2, 2], "x": [3, 2, 3, 1]})
    for model in (FO, EXH):
        assert R.hypothetical_information(big, model=model).bits == R.hypothetical_information(small, model=model).bits


def test_combined_keys_fall_back_past_the_bound(monkeypatch):
    # the (user, symbol), (user, category) and (user, count) keys use a safe grouping past the
    # int64 bound; lowering the bound must give exactly the same results
    n = {"n_obs": 20}

    def run(m):
        return (R.perceived_information(OBS, model=m, folds=4, rng=3, outliers=("drop", "floor"), **n),
                R.category_prediction(OBS, model=m, levels=[1, 2, 3], rng=3, folds=4, **n),
                R.success_rate(OBS, model=m, leakages=2, levels=[1, 2, 3], rng=3, folds=4, **n),
                R.hypothetical_information(OBS, model=m, **n).bits, R.encode_records(OBS, model=m))

    full = {m.kind: run(m) for m in (FO, EXH)}
    monkeypatch.setattr("privlib.reident._codes._KEY_LIMIT", 7)
    for m in (FO, EXH):
        (pi, cp, sr, hi, rec), (pi2, cp2, sr2, hi2, rec2) = full[m.kind], run(m)
        assert all(pi2[r].bits == pi[r].bits for r in pi)
        assert cp2.equals(cp) and sr2.equals(sr) and hi2 == hi
        # exhaustive: mixed-radix combination of the columns past the bound
        assert np.array_equal(rec2.symbol, rec.symbol) and np.array_equal(rec2.category, rec.category)


# the private helpers _pair_keys / _pair_codes / _shuffle_within are checked by doctests in
# privlib/reident/_codes.py and _folds.py (public names only here)


def test_regression_nullable_integer_missing_value_is_an_error():
    # integer columns skip the NaN scan (they cannot hold NaN); pandas' nullable Int64 can
    obs = pd.DataFrame({"user": [1, 1, 2, 2], "x": pd.array([1, None, 2, 3], dtype="Int64")})
    with pytest.raises(ValueError, match="missing values"):
        R.hypothetical_information(obs, model=EXH)


def test_one_leakage_success_with_huge_user_codes_and_levels():
    # user ids near the int64 limit and levels far beyond n_u: exact shares, no overflow
    obs = OBS.assign(user=OBS["user"].astype(np.int64) + (2**62))
    sr = R.success_rate(obs, model=EXH, leakages=1, levels=[1, 6, 10**12], rng=0, folds=4)
    assert sr["success"].iloc[1:].tolist() == [1.0, 1.0]
    assert 0 <= sr["success"].iloc[0] <= 1
