"""privlib.reident.fresh_success_rate: fresh external leakages against a database model."""
import numpy as np
import pandas as pd
import pytest

from privlib import reident as R


def _population(seed, n_u=30, n=40, k=5):
    g = np.random.default_rng(seed)
    prefs = g.dirichlet(np.full(k, 0.5), n_u)
    rows = [g.choice(k, n, p=prefs[u]) for u in range(n_u)]
    return pd.DataFrame({"user": np.repeat(np.arange(n_u), n), "x": np.concatenate(rows)})


def _brute(obs, n_train, m):
    """Candidates strictly better than, and tied with, the correct user (explicit loops)."""
    users = obs["user"].unique()
    G = {u: obs[obs["user"] == u]["x"].to_numpy()[:n_train] for u in users}
    L = {u: obs[obs["user"] == u]["x"].to_numpy()[n_train:n_train + m] for u in users}
    better, ties = [], []
    for u in users:
        def score(v):
            p = np.array([np.mean(G[v] == o) for o in L[u]])
            return (int((p > 0).sum()), float(np.log(p[p > 0]).sum()))
        own = score(u)
        b = t = 0
        for v in users:
            if v == u:
                continue
            h, lg = score(v)
            close = np.isclose(lg, own[1], rtol=1e-12, atol=1e-9)
            b += (h > own[0]) or (h == own[0] and lg > own[1] and not close)
            t += h == own[0] and close
        better.append(b)
        ties.append(t)
    return np.array(better), np.array(ties)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_against_explicit_ranking(seed):
    obs = _population(seed)
    rec = R.encode_records(obs, model=R.exhaustive())
    levels = np.arange(1, 31)
    got = R.fresh_success_rate(rec, n_train=30, leakages=6, levels=levels, rng=seed, chunk=7)
    better, ties = _brute(obs, 30, 6)
    lo = [(1 + better <= l).mean() for l in levels]          # every tie ranked after the user
    hi = [(1 + better + ties <= l).mean() for l in levels]   # ... or none
    # the rank is 1 + better + a uniform share of the ties: success lies between the two
    assert np.all(got["success"].to_numpy() >= np.array(hi) - 1e-12)
    assert np.all(got["success"].to_numpy() <= np.array(lo) + 1e-12)
    assert got["success"].iloc[-1] == 1.0
    np.testing.assert_allclose(got["random"], levels / 30)


def test_hand_case_and_more_leakages_help():
    obs = pd.DataFrame({"user": np.repeat([1, 2, 3], 12),
                        "x": list("aaaaaabbb" "aab" "bbbbbbccc" "bbc" "ccccccaaa" "cca")})
    rec = R.encode_records(obs, model=R.exhaustive())
    out = R.fresh_success_rate(rec, n_train=9, leakages=3, levels=[1], rng=0)
    assert out["success"].iloc[0] == 1.0
    obs = _population(5, n_u=40, n=80)
    rec = R.encode_records(obs, model=R.exhaustive())
    s1 = R.fresh_success_rate(rec, n_train=40, leakages=1, levels=[1], rng=0)["success"].iloc[0]
    s40 = R.fresh_success_rate(rec, n_train=40, leakages=40, levels=[1], rng=0)["success"].iloc[0]
    assert s40 > s1


def test_errors():
    obs = _population(0, n_u=4, n=10)
    rec = R.encode_records(obs, model=R.exhaustive())
    with pytest.raises(TypeError, match="records"):
        R.fresh_success_rate(obs, n_train=5, leakages=2, levels=[1], rng=0)
    with pytest.raises(ValueError, match="leakages"):
        R.fresh_success_rate(rec, n_train=9, leakages=2, levels=[1], rng=0)
    with pytest.raises(ValueError, match="leakages"):
        R.fresh_success_rate(rec, n_train=5, leakages=0, levels=[1], rng=0)
    with pytest.raises(ValueError, match="n_train"):
        R.fresh_success_rate(rec, n_train=0, leakages=2, levels=[1], rng=0)
    with pytest.raises(ValueError, match="levels"):
        R.fresh_success_rate(rec, n_train=5, leakages=2, levels=[0], rng=0)
    uneven = pd.DataFrame({"user": [1, 1, 1, 2, 2], "x": list("abcab")})
    rec_u = R.encode_records(uneven, model=R.first_order(), n_obs=2)
    object.__setattr__(rec_u, "counts", np.array([2, 1]))
    with pytest.raises(ValueError, match="same number of records"):
        R.fresh_success_rate(rec_u, n_train=1, leakages=1, levels=[1], rng=0)
    with pytest.raises(TypeError):
        R.fresh_success_rate(rec, n_train=5, leakages=2, levels=[1])   # rng is required


def test_smoothing_ranks_by_the_product_alone_and_refuses_bad_values():
    import numpy as np
    import pandas as pd
    import privlib.reident as R
    # user 1's leakage "c" is unseen in its database: without smoothing it ranks behind user 3
    obs = pd.DataFrame({"user": np.repeat([1, 2, 3], 5),
                        "x": list("aaaac" "bbbbb" "cccca")})
    rec = R.encode_records(obs, model=R.exhaustive())
    plain = R.fresh_success_rate(rec, n_train=4, leakages=1, levels=[1], rng=0)["success"].iloc[0]
    smooth = R.fresh_success_rate(rec, n_train=4, leakages=1, levels=[1], rng=0, smoothing=0.5)["success"].iloc[0]
    # by hand: user 2's leakage "b" ranks it first; users 1 and 3 are beaten (leakages "c" and "a")
    assert plain == pytest.approx(1 / 3) and smooth == pytest.approx(1 / 3)
    # two leakages, one unseen: smoothing lets the right user win on the product
    obs2 = pd.DataFrame({"user": np.repeat([1, 2], 6), "x": list("aaaaac" "ccccca")})
    rec2 = R.encode_records(obs2, model=R.exhaustive())
    # each user's leakage is the other's bin: both attacks fail
    assert R.fresh_success_rate(rec2, n_train=5, leakages=1, levels=[1], rng=0,
                                smoothing=0.5)["success"].iloc[0] == pytest.approx(0.0)
    for bad in (-0.5, float("nan"), float("inf"), True, "0.5"):
        with pytest.raises(ValueError, match="smoothing"):
            R.fresh_success_rate(rec, n_train=4, leakages=1, levels=[1], rng=0, smoothing=bad)


@pytest.mark.parametrize("seed", [0, 3])
def test_dense_and_sparse_paths_agree(seed):
    """The dense histograms (small users x bins models) and the sparse products give the same
    ranks, draw for draw: the dense model adds the same float 1/n_train as often as the sparse sum."""
    rec = R.encode_records(_population(seed, n_u=60, n=50, k=9), model=R.exhaustive())
    dense = R.fresh_success_rate(rec, n_train=35, leakages=8, levels=np.arange(1, 61), rng=seed, chunk=11)
    sparse = R.fresh_success_rate(rec, n_train=35, leakages=8, levels=np.arange(1, 61), rng=seed, chunk=11,
                                  dense=False)
    pd.testing.assert_frame_equal(dense, sparse)


def test_dense_argument_errors():
    rec = R.encode_records(_population(0), model=R.exhaustive())
    with pytest.raises(TypeError, match="dense"):
        R.fresh_success_rate(rec, n_train=30, leakages=6, levels=[1], rng=0, dense="yes")
    with pytest.raises(ValueError, match="smoothing"):
        R.fresh_success_rate(rec, n_train=30, leakages=6, levels=[1], rng=0, dense=False, smoothing=0.5)
