"""Tests of privlib.reident (Massart & Standaert, HI / PI re-identification bounds)."""
from collections import Counter, defaultdict

import numpy as np
import pandas as pd
import pytest

from privlib import reident as R


def table(users_to_values, col="x"):
    """Long table from {user: [values...]} with one characteristic column."""
    rows = [(u, v) for u, vals in users_to_values.items() for v in vals]
    return pd.DataFrame(rows, columns=["user", col])


def h2(p):
    return -(p * np.log2(p) + (1 - p) * np.log2(1 - p))


# ------------------------------------------------------------------ hand-worked HI
def test_hi_hand_worked_two_users():
    # u1: a a a b, u2: a b b b  ->  Pr~[u1|a] = 3/4, Pr~[u1|b] = 1/4
    # HI = 1 + 1/2 * 2 * (3/4 log2 3/4 + 1/4 log2 1/4) = 1 - h(1/4)
    obs = table({1: "aaab", 2: "abbb"})
    hi = R.hypothetical_information(obs, model=R.exhaustive())
    assert hi.bits == pytest.approx(1 - h2(0.25), abs=1e-12)
    assert hi.entropy == pytest.approx(1.0)
    assert hi.n_users == 2 and hi.n_obs == 4
    assert np.allclose(hi.per_user.to_numpy(), 1 - h2(0.25))


def test_hi_extremes():
    separate = table({1: "aaaa", 2: "bbbb", 3: "cccc", 4: "dddd"})
    assert R.hypothetical_information(separate, model=R.exhaustive()).bits == pytest.approx(2.0)
    same = table({1: "abab", 2: "abab", 3: "baba"})
    assert R.hypothetical_information(same, model=R.exhaustive()).bits == pytest.approx(0.0, abs=1e-12)


def test_pi_separable_users_is_log2_nu():
    obs = table({1: "aaaaaa", 2: "bbbbbb", 3: "cccccc", 4: "dddddd"})
    pi = R.perceived_information(obs, model=R.exhaustive(), folds=3, rng=0)
    assert pi.bits == pytest.approx(2.0)
    assert pi.outlier_fraction == 0.0
    assert len(pi.per_fold) == 3


def test_pi_outliers_drop_and_floor():
    # u1: a b -> with 2 folds, each test observation is unseen in training: all outliers
    obs = table({1: "ab", 2: "cd"})
    pi = R.perceived_information(obs, model=R.exhaustive(), folds=2, rng=0)
    assert pi.outlier_fraction == 1.0
    assert np.isnan(pi.bits)
    fl = R.perceived_information(obs, model=R.exhaustive(), folds=2, rng=0, outliers="floor", floor=0.25)
    assert fl.bits == pytest.approx(1 + np.log2(0.25))  # H[U] + log2(floor)


# ------------------------------------------------------------------ first-order split
def wide():
    # two category columns; 0 = absent, else grade
    return pd.DataFrame({
        "user": [1, 1, 1, 2, 2, 2],
        "A": [5, 0, 4, 5, 5, 0],
        "B": [5, 3, 0, 0, 1, 1],
    })


def test_first_order_splits_rows_into_simplified_observations():
    rec = R.encode_records(wide(), model=R.first_order())
    # user 1: (A,5) (B,5) (B,3) (A,4); user 2: (A,5) (A,5) (B,1) (B,1)
    assert rec.counts.tolist() == [4, 4]
    assert rec.n_symbols == 5  # (A,4) (A,5) (B,1) (B,3) (B,5); (A,5) is shared by both users
    assert rec.n_categories == 2
    counts = R.observation_counts(wide(), model=R.first_order())
    assert counts.tolist() == [4, 4]


def test_first_order_hi_by_hand():
    obs = wide()
    hi = R.hypothetical_information(obs, model=R.first_order())
    # f(.|u1): (A,5)=(B,5)=(B,3)=(A,4)=1/4; f(.|u2): (A,5)=1/2, (B,1)=1/2
    # Pr[u1|(A,5)] = (1/4)/(3/4) = 1/3, the others of u1 are 1; u2: Pr[u2|(A,5)] = 2/3, (B,1): 1
    u1 = 1 + 0.25 * np.log2(1 / 3)
    u2 = 1 + 0.5 * np.log2(2 / 3)
    assert hi.bits == pytest.approx((u1 + u2) / 2, abs=1e-12)


def test_exhaustive_rows_as_bins():
    rec = R.encode_records(wide(), model=R.exhaustive())
    assert rec.counts.tolist() == [3, 3]
    assert rec.n_symbols == 6  # the six rows are six distinct combinations
    # categories: patterns {A,B}, {B}, {A} | {A}, {A,B}, {B}
    assert rec.n_categories == 3
    assert rec.category.tolist() == [2, 0, 1, 1, 2, 0]  # codes: {B}=0, {A}=1, {A,B}=2


def test_n_obs_cut_keeps_first_records_and_drops_short_users():
    obs = table({1: "abcde", 2: "abc", 3: "aab"})
    rec = R.encode_records(obs, model=R.exhaustive(), n_obs=3)
    assert rec.n_users == 3 and rec.counts.tolist() == [3, 3, 3]
    rec = R.encode_records(obs, model=R.exhaustive(), n_obs=2)
    assert rec.symbol.tolist() == [0, 1, 0, 1, 0, 0]  # a b | a b | a a
    with pytest.raises(ValueError, match="n_obs: only 1 user"):
        R.encode_records(obs, model=R.exhaustive(), n_obs=4)


# ------------------------------------------------------------------ independent PI
def brute_pi(rec, fold, K):
    """PI by explicit dictionaries, following the PI^(j) equation term by term."""
    n_u = rec.n_users
    out = []
    for j in range(K):
        g = defaultdict(dict)
        for u in range(n_u):
            train = [s for s, f in zip(rec.symbol[rec.user == u], fold[rec.user == u]) if f != j]
            for s, c in Counter(train).items():
                g[u][s] = c / len(train)
        terms = []
        for u in range(n_u):
            test = [s for s, f in zip(rec.symbol[rec.user == u], fold[rec.user == u]) if f == j]
            logs = []
            for s in test:
                num = g[u].get(s, 0.0)
                if num > 0:
                    logs.append(np.log2(num / sum(g[v].get(s, 0.0) for v in range(n_u))))
            if logs:
                terms.append(np.log2(n_u) + np.mean(logs))
        out.append(np.mean(terms))
    return float(np.mean(out))


def brute_hi(rec):
    n_u = rec.n_users
    g = [Counter(rec.symbol[rec.user == u].tolist()) for u in range(n_u)]
    tot = 0.0
    for u in range(n_u):
        n = sum(g[u].values())
        for s, c in g[u].items():
            f = c / n
            tot += f * np.log2(f / sum(g[v].get(s, 0) / sum(g[v].values()) for v in range(n_u)))
    return np.log2(n_u) + tot / n_u


@pytest.mark.parametrize("model", [R.first_order(), R.exhaustive()])
def test_hi_pi_match_brute_force(model):
    gen = np.random.default_rng(3)
    obs = pd.DataFrame({"user": np.repeat(np.arange(6), 30),
                        "A": gen.integers(0, 3, 180), "B": gen.integers(0, 3, 180)})
    rec = R.encode_records(obs, model=model, n_obs=20)
    assert R.hypothetical_information(rec).bits == pytest.approx(brute_hi(rec), abs=1e-10)
    fold = R.draw_folds(rec, folds=4, rng=11)
    assert np.bincount(fold).tolist() == [30, 30, 30, 30]
    pi = R.perceived_information(rec, folds=4, rng=11)
    assert pi.bits == pytest.approx(brute_pi(rec, fold, 4), abs=1e-10)


def test_hi_at_least_pi_on_simulated_population():
    from privlib.simulate.ratings import simulate_ratings
    pop = simulate_ratings(n_users=150, n_ratings=200, n_combinations=150, n_movies=600, rng=5)
    obs = R.rating_observations(pop.ratings, granularity="5-star")
    for model, n in ((R.first_order(), 400), (R.exhaustive(), 200)):
        hi = R.hypothetical_information(obs, model=model, n_obs=n)
        pi = R.perceived_information(obs, model=model, folds=5, rng=1, n_obs=n)
        assert hi.bits >= pi.bits
        assert 0 <= pi.outlier_fraction < 1


def test_source_numbers_module_matches_the_arithmetic():
    # the source's printed numbers are typed once, in privlib.sources.reident
    from privlib.sources import reident as SRC
    assert np.log2(SRC.N_USERS) == pytest.approx(float(SRC.SECTION_VA_LOG2_USERS), abs=5e-3)
    assert [str(round(R.leakages_needed(b, n_users=SRC.N_USERS))) for b in SRC.SECTION_VA_BITS] == list(
        SRC.SECTION_VA_LEAKAGES)
    assert SRC.table1().shape == (6, 3) and SRC.table1(printed=True).loc[(900, "PI (1st-order)"), "like-dislike"] == "0.090"


def test_leakages_needed_source_arithmetic():
    # Section V-A: log2(13,141) ~ 13.68; 13.68/0.346 ~ 40, 13.68/0.19 ~ 72, 13.68/1.56 ~ 9
    assert np.log2(13_141) == pytest.approx(13.68, abs=5e-3)
    assert round(R.leakages_needed(0.346, n_users=13_141)) == 40
    assert round(R.leakages_needed(0.19, n_users=13_141)) == 72
    assert round(R.leakages_needed(1.56, n_users=13_141)) == 9
    assert R.leakages_needed(0.0, n_users=10) == float("inf")


# ------------------------------------------------------------------ attacks and utility
def test_success_rate_separable_and_indistinguishable():
    sep = table({u: [chr(97 + u)] * 10 for u in range(5)})
    sr = R.success_rate(sep, model=R.exhaustive(), leakages=1, levels=[1, 5], rng=0, folds=5)
    assert sr["success"].tolist() == [1.0, 1.0]
    assert sr["random"].tolist() == [0.2, 1.0]
    same = table({u: ["a"] * 10 for u in range(40)})
    sr = R.success_rate(same, model=R.exhaustive(), leakages=2, levels=[1, 10, 20, 40], rng=0, folds=5)
    # all candidates tie exactly: uniform rank, success ~ l / n_u
    assert np.allclose(sr["success"], sr["random"], atol=0.06)
    assert sr["success"].iloc[-1] == 1.0


def test_success_rate_grows_with_leakages():
    gen = np.random.default_rng(0)
    probs = gen.dirichlet(np.ones(8) * 0.5, size=30)
    sym = np.concatenate([gen.choice(8, 60, p=p) for p in probs])
    obs = pd.DataFrame({"user": np.repeat(np.arange(30), 60), "x": sym})
    s1 = R.success_rate(obs, model=R.exhaustive(), leakages=1, levels=[1, 3], rng=1, folds=5)["success"]
    s5 = R.success_rate(obs, model=R.exhaustive(), leakages=8, levels=[1, 3], rng=1, folds=5)["success"]
    assert (s5.to_numpy() > s1.to_numpy()).all()


def test_category_prediction_and_density():
    # user 1 watches A only, user 2 B only: the category is always predicted at level 1
    obs = pd.DataFrame({"user": [1] * 6 + [2] * 6, "A": [3] * 6 + [0] * 6, "B": [0] * 6 + [2] * 6})
    cp = R.category_prediction(obs, model=R.first_order(), levels=[1, 2], rng=0, folds=3)
    assert cp["success"].tolist() == [1.0, 1.0]
    assert cp["random"].tolist() == [0.5, 1.0]
    dens = R.category_density(wide(), model=R.exhaustive())
    assert dens.tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3])
    assert R.category_density(obs, model=R.exhaustive()).tolist() == [0.5, 0.5]
    assert R.category_density(wide(), model=R.first_order()).sum() == pytest.approx(1.0)


# ------------------------------------------------------------------ swapping
def test_swap_keeps_first_order_histograms_and_hi():
    gen = np.random.default_rng(1)
    n = 400
    a = gen.integers(1, 4, n)
    obs = pd.DataFrame({"user": np.repeat(np.arange(8), 50), "A": a, "B": np.where(a > 1, a, 1),
                        "C": gen.integers(1, 3, n)})
    sw = R.swap(obs, ["A", "B", "C"], rng=7)
    assert sw["user"].equals(obs["user"]) and sw.index.equals(obs.index)
    for c in "ABC":
        assert (obs.groupby("user")[c].value_counts().sort_index()
                .equals(sw.groupby("user")[c].value_counts().sort_index()))
    assert not sw[["A", "B"]].equals(obs[["A", "B"]])
    # correlation between A and B (B = A when A > 1) is broken
    assert (sw["A"] == sw["B"]).mean() < (obs["A"] == obs["B"]).mean()
    hi0 = R.hypothetical_information(obs, model=R.first_order()).bits
    # first-order records per user are unchanged in number and histogram -> same HI
    assert R.hypothetical_information(sw, model=R.first_order()).bits == pytest.approx(hi0, abs=1e-12)


def test_swap_seeded():
    obs = wide()
    assert R.swap(obs, ["A", "B"], rng=3).equals(R.swap(obs, ["A", "B"], rng=3))


# ------------------------------------------------------------------ ratings reduction
def test_rating_observations_granularities():
    ratings = pd.DataFrame({"user": [1, 1, 2], "genres": ["Comedy|Drama", "Drama", "Action"],
                            "rating": [4.0, 3.5, 0.5]})
    ng = R.rating_observations(ratings, granularity="no-grade")
    assert list(ng.columns) == ["user", "Action", "Comedy", "Drama"]
    assert ng[["Action", "Comedy", "Drama"]].to_numpy().tolist() == [[0, 1, 1], [0, 0, 1], [1, 0, 0]]
    ld = R.rating_observations(ratings, granularity="like-dislike")
    assert ld[["Action", "Comedy", "Drama"]].to_numpy().tolist() == [[0, 2, 2], [0, 0, 1], [1, 0, 0]]
    st = R.rating_observations(ratings, granularity="5-star")
    assert st[["Action", "Comedy", "Drama"]].to_numpy().tolist() == [[0, 4, 4], [0, 0, 3], [1, 0, 0]]
    fixed = R.rating_observations(ratings, granularity="5-star", categories=["Drama", "Comedy", "Action", "War"])
    assert list(fixed.columns) == ["user", "Drama", "Comedy", "Action", "War"]


# ------------------------------------------------------------------ bad input
def test_bad_input_fewer_than_two_users():
    with pytest.raises(ValueError, match="at least two users, got 1"):
        R.hypothetical_information(table({1: "abc"}), model=R.exhaustive())


def test_bad_input_folds():
    obs = table({1: "aab", 2: "abb"})
    with pytest.raises(ValueError, match="folds: expected an integer >= 2, got 1"):
        R.perceived_information(obs, model=R.exhaustive(), folds=1, rng=0)
    with pytest.raises(ValueError, match="folds: expected at most N_o = 3"):
        R.perceived_information(obs, model=R.exhaustive(), folds=4, rng=0)


def test_bad_input_unequal_n_obs():
    obs = table({1: "aab", 2: "abbb"})
    with pytest.raises(ValueError, match="unequal numbers of exhaustive observations per user .* pass n_obs="):
        R.hypothetical_information(obs, model=R.exhaustive())
    with pytest.raises(ValueError, match="unequal"):
        R.perceived_information(obs, model=R.exhaustive(), folds=2, rng=0)
    assert R.hypothetical_information(obs, model=R.exhaustive(), n_obs=3).n_obs == 3


def test_bad_input_missing_values():
    obs = wide().astype({"A": float})
    obs.loc[2, "A"] = np.nan
    with pytest.raises(ValueError, match=r"missing values \(NaN\) in column\(s\) \['A'\]"):
        R.hypothetical_information(obs, model=R.first_order())
    with pytest.raises(ValueError, match="missing values"):
        R.swap(obs, ["A"], rng=0)


def test_bad_input_leakages():
    obs = table({u: "ab" * 10 for u in range(3)})
    with pytest.raises(ValueError, match="leakages: expected an integer >= 1, got 0"):
        R.success_rate(obs, model=R.exhaustive(), leakages=0, levels=[1], rng=0, folds=5)
    with pytest.raises(ValueError, match="leakages: expected at most 4"):
        R.success_rate(obs, model=R.exhaustive(), leakages=5, levels=[1], rng=0, folds=5)
    with pytest.raises(ValueError, match="levels: expected an integer >= 1, got 0"):
        R.success_rate(obs, model=R.exhaustive(), leakages=1, levels=[0], rng=0, folds=5)


def test_bad_input_other():
    obs = table({1: "ab", 2: "ab"})
    with pytest.raises(TypeError, match="model: expected first_order"):
        R.hypothetical_information(obs, model="first-order")
    with pytest.raises(ValueError, match="kind: expected one of"):
        R.Model("second-order")
    with pytest.raises(ValueError, match="outliers: expected one of"):
        R.perceived_information(obs, model=R.exhaustive(), folds=2, rng=0, outliers="ignore")
    with pytest.raises(ValueError, match="characteristics: unknown column"):
        R.hypothetical_information(obs, model=R.exhaustive(), characteristics=["y"])
    with pytest.raises(ValueError, match="user: unknown column"):
        R.hypothetical_information(obs, model=R.exhaustive(), user="uid")
    with pytest.raises(TypeError, match="obs: expected a pandas DataFrame"):
        R.hypothetical_information(obs.to_numpy(), model=R.exhaustive())
    with pytest.raises(ValueError, match="granularity: expected one of"):
        R.rating_observations(pd.DataFrame({"user": [1], "genres": ["A"], "rating": [3.0]}), granularity="10-star")
    with pytest.raises(ValueError, match="genre\\(s\\) \\['B'\\] are not among"):
        R.rating_observations(pd.DataFrame({"user": [1], "genres": ["A|B"], "rating": [3.0]}), granularity="5-star",
                              categories=["A"])
    with pytest.raises(TypeError, match="rng: expected None .fresh entropy., an int seed"):
        R.swap(obs, ["x"], rng="0")


def test_category_prediction_matches_expected_ranks():
    gen = np.random.default_rng(8)
    obs = pd.DataFrame({"user": np.repeat(np.arange(10), 40), "A": gen.integers(0, 2, 400),
                        "B": gen.integers(0, 2, 400), "C": gen.integers(0, 3, 400)})
    model = R.exhaustive()
    rec = R.encode_records(obs, model=model)
    fold = R.draw_folds(rec, folds=4, rng=np.random.default_rng(21))
    C = rec.n_categories
    expected = np.zeros(3)
    levels = np.array([1, 2, 4])
    for j in range(4):
        H = np.zeros((rec.n_users, C))
        np.add.at(H, (rec.user[fold != j], rec.category[fold != j]), 1)
        for u, c in zip(rec.user[fold == j], rec.category[fold == j]):
            g = (H[u] > H[u, c]).sum()
            t = (H[u] == H[u, c]).sum() - 1
            expected += np.clip((levels - g) / (t + 1), 0, 1)
    expected /= len(rec.user)
    got = R.category_prediction(obs, model=model, levels=levels, rng=21, folds=4)["success"].to_numpy()
    assert np.allclose(got, expected, atol=0.04)


def test_protect_trains_on_protected_rows_only():
    sep = table({u: [chr(97 + u)] * 10 for u in range(4)})
    same = R.perceived_information(sep, model=R.exhaustive(), folds=5, rng=0, protect=lambda d: d)
    assert same.bits == pytest.approx(2.0) and same.outlier_fraction == 0.0
    # two perfectly correlated characteristics; swapping breaks the pairs the model sees
    gen = np.random.default_rng(2)
    a = gen.integers(1, 6, 600)
    obs = pd.DataFrame({"user": np.repeat(np.arange(6), 100), "A": a, "B": a})
    seen = []

    def protect(d):
        seen.append(len(d))
        return R.swap(d, ["A", "B"], rng=len(seen))

    real = R.perceived_information(obs, model=R.exhaustive(), folds=5, rng=0, protect=lambda d: d)
    prot = R.perceived_information(obs, model=R.exhaustive(), folds=5, rng=0, protect=protect)
    assert seen == [480] * 5  # applied to the 4/5 training rows of each fold
    assert prot.outlier_fraction > real.outlier_fraction
    # first-order histograms survive swapping: same utility up to random tie-breaking
    fo_real = R.category_prediction(obs, model=R.first_order(), levels=[1], rng=0, protect=lambda d: d)["success"].iloc[0]
    fo_prot = R.category_prediction(obs, model=R.first_order(), levels=[1], rng=0, protect=protect)["success"].iloc[0]
    assert fo_real == pytest.approx(0.5, abs=0.06) and fo_prot == pytest.approx(0.5, abs=0.06)
    with pytest.raises(ValueError, match="protect: expected a DataFrame with the same rows"):
        R.perceived_information(obs, model=R.exhaustive(), folds=5, rng=0, protect=lambda d: d.iloc[:10])
    with pytest.raises(TypeError, match="protect: expected a function"):
        R.perceived_information(obs, model=R.exhaustive(), folds=5, rng=0, protect=obs)
    with pytest.raises(ValueError, match="n_obs: cut obs before protecting"):
        R.perceived_information(obs, model=R.exhaustive(), folds=5, rng=0, protect=protect, n_obs=50)


def test_swap_fast_path_equal_counts_keeps_histograms():
    gen = np.random.default_rng(4)
    obs = pd.DataFrame({"user": np.repeat([3, 5, 9], 20), "A": gen.integers(0, 4, 60), "B": gen.integers(0, 4, 60)})
    sw = R.swap(obs, ["A", "B"], rng=0)
    for c in "AB":
        for u in (3, 5, 9):
            assert sorted(sw.loc[sw.user == u, c]) == sorted(obs.loc[obs.user == u, c])
    assert not sw.equals(obs)


def test_pi_both_rules_in_one_pass():
    gen = np.random.default_rng(5)
    obs = pd.DataFrame({"user": np.repeat(np.arange(8), 30), "A": gen.integers(0, 4, 240), "B": gen.integers(0, 3, 240)})
    both = R.perceived_information(obs, model=R.exhaustive(), folds=5, rng=9, outliers=("drop", "floor"))
    for rule in ("drop", "floor"):
        one = R.perceived_information(obs, model=R.exhaustive(), folds=5, rng=9, outliers=rule)
        assert both[rule].bits == pytest.approx(one.bits, abs=1e-12)
        assert both[rule].outlier_rule == rule
    tab = R.information_table({"g": obs}, n_obs=(20, 30), folds=5, rng=1, outliers=("drop", "floor"))
    assert set(tab) == {"drop", "floor"}
    assert tab["drop"].xs("HI (exh.)", level="metric").equals(tab["floor"].xs("HI (exh.)", level="metric"))


def test_blocked_encoding_and_folds_match_one_block(monkeypatch):
    # encode (first-order) and the fold draw work in blocks of _BLOCK_ROWS rows to bound
    # memory: tiny blocks (many boundaries, users split across blocks) must give exactly
    # the records, folds, HI and PI of a single block
    from privlib.simulate.ratings import NETFLIX_CATEGORIES, simulate_ratings
    pop = simulate_ratings(n_users=30, n_ratings=60, rng=3)
    obs = R.rating_observations(pop.ratings, granularity="5-star", categories=NETFLIX_CATEGORIES)
    obs.loc[obs.index[::7], "Drama"] = 0          # rows with other category patterns
    one = R.encode_records(obs, model=R.first_order(), n_obs=100)
    f_one = R.draw_folds(one, folds=10, rng=5)
    pi_one = R.perceived_information(one, folds=10, rng=5, outliers=("drop", "floor"))
    monkeypatch.setattr("privlib.reident._folds._BLOCK_ROWS", 37)  # private knob: blocks of the fold draw
    many = R.encode_records(obs, model=R.first_order(), n_obs=100)
    for name in ("user", "symbol", "category", "row", "counts", "users"):
        assert np.array_equal(getattr(one, name), getattr(many, name)), name
    assert (one.n_symbols, one.n_categories) == (many.n_symbols, many.n_categories)
    assert one.user.dtype == np.int32 and one.symbol.dtype == np.int32
    assert np.array_equal(f_one, R.draw_folds(many, folds=10, rng=5))
    pi_many = R.perceived_information(many, folds=10, rng=5, outliers=("drop", "floor"))
    for r in ("drop", "floor"):
        assert pi_many[r].bits == pi_one[r].bits
    assert R.hypothetical_information(many).bits == R.hypothetical_information(one).bits


# ------------------------------------------------------------------ full-scale rewrite (sparse ranking, pattern encoding)
# (the M_o = 1 ranking against the dense users x users comparison is a doctest of the private helper)


def test_success_rate_one_leakage_expected_by_hand():
    # three users: u0 and u1 share one symbol, u2 has its own; with one leakage u2 is always
    # rank 1, u0 and u1 tie (rank 1 or 2 at random): level-1 success (1 + 1/2 + 1/2) / 3
    obs = table({0: ["a"] * 20, 1: ["a"] * 20, 2: ["b"] * 20})
    sr = R.success_rate(obs, model=R.exhaustive(), leakages=1, levels=[1, 2, 3, 10], rng=0, folds=5)
    assert sr["success"].iloc[0] == pytest.approx(2 / 3, abs=0.2)
    assert sr["success"].iloc[1:].tolist() == [1.0, 1.0, 1.0]


def test_success_rate_all_levels_is_cumulative_and_reaches_one():
    gen = np.random.default_rng(1)
    obs = pd.DataFrame({"user": np.repeat(np.arange(25), 40), "x": gen.integers(0, 6, 1000)})
    lv = np.arange(1, 26)
    sr = R.success_rate(obs, model=R.exhaustive(), leakages=1, levels=lv, rng=3, folds=4)["success"].to_numpy()
    assert (np.diff(sr) >= 0).all() and sr[-1] == 1.0


@pytest.mark.parametrize("model", [R.first_order(), R.exhaustive()], ids=["first-order", "exhaustive"])
def test_cut_matches_encode_with_n_obs(model):
    gen = np.random.default_rng(4)
    obs = pd.DataFrame({"user": np.repeat(np.arange(7), 30), "A": gen.integers(0, 3, 210),
                        "B": gen.integers(0, 4, 210)})
    obs = obs[~((obs["user"] == 3) & (obs.index % 30 > 12))]        # one short user
    full = R.encode_records(obs, model=model)
    for n in (5, 12, 20):
        a, b = R.cut(full, n_obs=n), R.encode_records(obs, model=model, n_obs=n)
        for name in ("user", "symbol", "category", "row", "counts", "users"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), (n, name)
        assert (a.n_symbols, a.n_categories) == (b.n_symbols, b.n_categories)


def test_cut_errors():
    rec = R.encode_records(table({0: list("ab") * 5, 1: list("bc") * 5}), model=R.exhaustive())
    with pytest.raises(TypeError, match="records"):
        R.cut(table({0: ["a"]}), n_obs=2)
    with pytest.raises(ValueError, match="n_obs"):
        R.cut(rec, n_obs=11)
    with pytest.raises(ValueError, match="n_obs"):
        R.cut(rec, n_obs=0)


def _reference_codes(obs, chars, model):
    """Reference encoding: row tuples ranked lexicographically (exhaustive) or
    (characteristic, value) pairs ranked (first-order), with plain Python."""
    vals = [tuple(r) for r in obs[chars].itertuples(index=False)]
    if model.kind == "exhaustive":
        ranks = {v: i for i, v in enumerate(sorted(set(vals)))}
        return [ranks[v] for v in vals]
    pairs = [(j, v[j]) for v in vals for j in range(len(chars)) if v[j] != model.absent]
    ranks = {p: i for i, p in enumerate(sorted(set(pairs)))}
    return [ranks[p] for p in pairs]


@pytest.mark.parametrize("model", [R.first_order(), R.exhaustive()], ids=["first-order", "exhaustive"])
def test_pattern_encoding_matches_reference(model, monkeypatch):
    # rows are coded once as patterns and both models read off the distinct patterns; the
    # codes must be the plain lexicographic ranks, whatever the column types and radix groups
    gen = np.random.default_rng(6)
    n = 300
    obs = pd.DataFrame({"user": np.repeat(np.arange(10), 30)})
    for j in range(9):
        obs[f"c{j}"] = gen.integers(0, 4 + j, n)
    obs["w"] = gen.integers(-2**40, 2**40, n) * (gen.random(n) < 0.5)     # wide range, shifted
    obs["s"] = gen.choice(["x", "y", "z"], n)                              # factorized strings
    chars = [c for c in obs.columns if c != "user"]
    rec = R.encode_records(obs, model=model)
    assert rec.symbol.tolist() == _reference_codes(obs, chars, model)
    monkeypatch.setattr("privlib.reident._codes._KEY_LIMIT", 2**20)                            # force the safe paths
    again = R.encode_records(obs, model=model)
    assert np.array_equal(again.symbol, rec.symbol) and np.array_equal(again.category, rec.category)


def test_information_table_accepts_encoded_records():
    gen = np.random.default_rng(2)
    obs = pd.DataFrame({"user": np.repeat(np.arange(8), 40), "A": gen.integers(0, 3, 320),
                        "B": gen.integers(0, 3, 320)})
    enc = {"first-order": R.encode_records(obs, model=R.first_order()), "exhaustive": R.encode_records(obs, model=R.exhaustive())}
    a = R.information_table({"g": obs}, n_obs=(20, 30), folds=5, rng=1, outliers=("drop", "floor"))
    b = R.information_table({"g": enc}, n_obs=(20, 30), folds=5, rng=1, outliers=("drop", "floor"))
    for rule in ("drop", "floor"):
        pd.testing.assert_frame_equal(a[rule], b[rule])
    with pytest.raises(ValueError, match="observations"):
        R.information_table({"g": {"first-order": enc["first-order"]}}, n_obs=(20, 30), folds=5, rng=1)
    c = R.information_curve(enc["exhaustive"], n_obs_grid=[10, 30], folds=5, rng=1)
    d = R.information_curve(obs, model=R.exhaustive(), n_obs_grid=[10, 30], folds=5, rng=1)
    pd.testing.assert_frame_equal(c, d)


def test_nullable_integer_column_with_missing_value_is_refused():
    obs = pd.DataFrame({"user": [1, 1, 2, 2], "x": pd.array([1, None, 2, 3], dtype="Int64")})
    with pytest.raises(ValueError, match="missing values"):
        R.encode_records(obs, model=R.exhaustive())


def test_rating_observations_columns_are_contiguous():
    r = pd.DataFrame({"user": [1, 1, 2], "genres": ["A|B", "B", "A"], "rating": [4.0, 2.0, 5.0]})
    o = R.rating_observations(r, granularity="5-star")
    assert o[["A", "B"]].to_numpy().tolist() == [[4, 4], [0, 2], [5, 0]]
    assert o["A"].to_numpy().flags["C_CONTIGUOUS"]


# ------------------------------------------------------------------ package API (issue 13) and speed (issue 16)
@pytest.mark.parametrize("n_obs", [None, 15, {"first-order": 25}], ids=["no-cut", "one-cut", "per-model"])
def test_encode_models_matches_encode_records(n_obs):
    gen = np.random.default_rng(9)
    obs = pd.DataFrame({"user": np.repeat(np.arange(6), 30), "A": gen.integers(0, 3, 180),
                        "B": gen.integers(0, 4, 180)})
    models = {"exhaustive": R.exhaustive(), "first-order": R.first_order()}
    both = R.encode_models(obs, models=models, n_obs=n_obs)
    assert list(both) == list(models)
    for name, model in models.items():
        n = n_obs.get(name) if isinstance(n_obs, dict) else n_obs
        one = R.encode_records(obs, model=model, n_obs=n)
        for f in ("user", "symbol", "category", "row", "counts", "users"):
            a, b = getattr(one, f), getattr(both[name], f)
            assert np.array_equal(a, b) and a.dtype == b.dtype, (name, f)
        assert (one.n_symbols, one.n_categories, one.n_empty) == (both[name].n_symbols, both[name].n_categories,
                                                                  both[name].n_empty)


def test_encode_models_errors():
    obs = table({0: list("ab") * 5, 1: list("bc") * 5})
    with pytest.raises(ValueError, match="models"):
        R.encode_models(obs, models={})
    with pytest.raises(TypeError, match="model"):
        R.encode_models(obs, models={"x": "exhaustive"})
    with pytest.raises(ValueError, match="n_obs: names"):
        R.encode_models(obs, models={"x": R.exhaustive()}, n_obs={"y": 3})


def test_first_order_cut_of_unsorted_rows_matches_the_grouped_table():
    # rows grouped by user take the fast cut (only the kept records expanded); interleaved
    # users (same order within each user) take the general path: the same records
    gen = np.random.default_rng(12)
    obs = pd.DataFrame({"user": np.repeat(np.arange(8), 25), "A": gen.integers(0, 3, 200),
                        "B": gen.integers(0, 3, 200)})
    obs.loc[obs["user"] == 5, ["A", "B"]] = 0           # a user with no first-order record
    obs.loc[obs["user"] == 6, "B"] = 0                  # a user with fewer records than N_o
    inter = obs.assign(k=np.tile(np.arange(25), 8)).sort_values(["k", "user"], kind="stable")
    inter = inter.drop(columns="k")
    assert not inter["user"].is_monotonic_increasing
    grouped = R.encode_records(obs, model=R.first_order(), n_obs=20)
    general = R.encode_records(inter, model=R.first_order(), n_obs=20)
    for f in ("user", "symbol", "category", "counts", "users"):
        assert np.array_equal(getattr(grouped, f), getattr(general, f)), f
    assert np.array_equal(obs.index[grouped.row], inter.index[general.row])
    assert (grouped.n_symbols, grouped.n_categories) == (general.n_symbols, general.n_categories)
    assert 5 not in grouped.users and grouped.counts.tolist() == [20] * len(grouped.users)


def test_protected_evaluations_see_a_changed_training_table():
    # the fold tables of protect= are encoded once per distinct content: a release that differs
    # from an earlier one in a single value must not be served the earlier encoding
    gen = np.random.default_rng(13)
    obs = pd.DataFrame({"user": np.repeat(np.arange(5), 40), "A": gen.integers(1, 4, 200),
                        "B": gen.integers(1, 4, 200)})

    def changed(d):
        d = d.copy()
        d.iloc[len(d) // 2 + 1, d.columns.get_loc("A")] = 99
        return d
    for model in (R.exhaustive(), R.first_order()):
        same = R.perceived_information(obs, model=model, folds=4, rng=3, protect=lambda d: d, outliers="floor")
        plain = R.perceived_information(obs, model=model, folds=4, rng=3, outliers="floor",
                                        require_equal=False)
        other = R.perceived_information(obs, model=model, folds=4, rng=3, protect=changed, outliers="floor")
        again = R.perceived_information(obs, model=model, folds=4, rng=3, protect=changed, outliers="floor")
        assert other.bits != same.bits and again.bits == other.bits
        assert np.isfinite(plain.bits)


def test_fold_draw_is_public_and_balanced():
    gen = np.random.default_rng(14)
    obs = pd.DataFrame({"user": np.repeat(np.arange(4), 23), "x": gen.integers(0, 3, 92)})
    rec = R.encode_records(obs, model=R.exhaustive())
    fold = R.draw_folds(rec, folds=5, rng=2)
    per_user = np.array([np.bincount(fold[rec.user == u], minlength=5) for u in range(4)])
    assert per_user.max() - per_user.min() <= 1 and fold.dtype == np.int32
    with pytest.raises(TypeError, match="records"):
        R.draw_folds(obs, folds=5, rng=2)
    with pytest.raises(ValueError, match="folds"):
        R.draw_folds(rec, folds=24, rng=2)
