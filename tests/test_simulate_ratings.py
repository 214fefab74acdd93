"""Tests of privlib.simulate.ratings (the Netflix-like stand-in population)."""
import pytest

from privlib import reident as R
from privlib.simulate.ratings import NETFLIX_CATEGORIES, simulate_ratings


@pytest.fixture(scope="module")
def pop():
    return simulate_ratings(n_users=300, n_ratings=400, rng=7)


def test_shape_and_columns(pop):
    r = pop.ratings
    assert list(r.columns) == ["user", "movie", "genres", "rating", "order"]
    assert len(r) == 300 * 400
    assert r["user"].nunique() == 300
    assert (r.groupby("user").size() == 400).all()
    assert r["order"].to_numpy()[:400].tolist() == list(range(400))
    assert set(r["rating"].unique()) <= {1, 2, 3, 4, 5}
    assert r["movie"].between(1, 17_770).all()


def test_categories_and_combinations(pop):
    assert len(NETFLIX_CATEGORIES) == 27
    assert "Film-Noir" in NETFLIX_CATEGORIES and "Talk-Show" in NETFLIX_CATEGORIES
    combos = pop.combinations
    assert len(combos) == 1_211 and combos["genres"].is_unique
    assert combos["popularity"].sum() == pytest.approx(1.0)
    used = set("|".join(pop.ratings["genres"].unique()).split("|"))
    assert used <= set(NETFLIX_CATEGORIES)
    # concentration (Figure 5): the ten most popular combinations hold a large share
    share = pop.ratings["genres"].value_counts(normalize=True)
    assert share.iloc[:10].sum() > 0.3
    assert share.index.nunique() > 500


def test_seeded_and_reproducible():
    a = simulate_ratings(n_users=20, n_ratings=50, rng=3).ratings
    b = simulate_ratings(n_users=20, n_ratings=50, rng=3).ratings
    c = simulate_ratings(n_users=20, n_ratings=50, rng=4).ratings
    assert a.equals(b)
    assert not a.equals(c)


def test_heterogeneous_users(pop):
    r = pop.ratings
    means = r.groupby("user")["rating"].mean()
    assert means.std() > 0.2  # grading behaviour differs between users
    assert pop.users["choosiness"].std() > 0
    # preferences differ: the users' favourite combinations are not all the same
    fav = r.groupby("user")["genres"].agg(lambda s: s.value_counts().index[0])
    assert fav.nunique() > 1
    # ratings are Netflix-like: mean near 3.6, every grade used
    assert 3.2 < r["rating"].mean() < 4.0
    assert r["rating"].nunique() == 5


def test_pipeline_information_is_positive(pop):
    obs = R.rating_observations(pop.ratings, granularity="5-star", categories=NETFLIX_CATEGORIES)
    assert obs.shape == (300 * 400, 28)
    hi = R.hypothetical_information(obs, model=R.first_order(), n_obs=800)
    assert hi.n_users == 300 and hi.bits > 0


def test_bad_input():
    with pytest.raises(ValueError, match="n_users: expected an integer >= 2, got 1"):
        simulate_ratings(n_users=1, n_ratings=10, rng=0)
    with pytest.raises(ValueError, match="n_combinations: expected at most"):
        simulate_ratings(n_users=5, n_ratings=10, categories=("A", "B", "C"), n_combinations=10, n_movies=20, rng=0)
    with pytest.raises(ValueError, match="n_movies: expected an integer >= 1211"):
        simulate_ratings(n_users=5, n_ratings=10, n_movies=100, rng=0)
    with pytest.raises(TypeError, match="rng"):
        simulate_ratings(n_users=5, n_ratings=10, rng="seed")
