"""A Netflix-like population of users rating movies (stand-in for the Netflix Prize data).

The Netflix Prize data used by Massart & Standaert (source 002, Section IV) cannot be
redistributed.  This seeded simulator produces a population with the *shape* of their
reduced data set -- 13,141 users, 1,000 rated movies each, movies described by 27
IMDb-like categories, about 1,211 distinct category combinations, grades 1..5 -- so that
the chapter's pipeline runs at the source's scale.  It is a model, not data: numbers
computed on it show how HI and PI behave on such a population, not what the Netflix
data would give.

Generative model (all draws from one ``rng``)
---------------------------------------------
1. **Categories.**  The 27 categories of the source with Zipf-like popularities
   ``w_c ∝ (rank)^-1`` (Drama, Comedy, Action, ... first; Talk-Show, News last).
2. **Combinations.**  ``n_combinations`` distinct combinations: sizes 1..5 drawn with
   probabilities ``size_probs`` (mean about 2.3 categories per movie), members drawn
   without replacement with probabilities ``w_c``.  Each combination gets a popularity
   ``pi_k ∝ rank_k^(-zipf)`` along a random order biased towards combinations of popular
   categories, which concentrates the observations on a few combinations (Figure 5).
3. **Movies.**  ``n_movies`` movies, each with a combination (every combination has at
   least one movie; the others are drawn ∝ ``pi``) and a quality ``q_m ~ N(0, sd_quality)``.
4. **Users** (heterogeneous preference and grading behaviour).  User ``u`` has a taste
   ``a_uc ~ N(0, 1)`` for each category, a choosiness ``beta_u ~ LogNormal(log beta,
   sd_beta)``, a grade bias ``b_u ~ N(0, sd_bias)``, a taste weight ``gamma_u ~
   LogNormal(log gamma, 0.5)`` and a noise level ``s_u ~ LogNormal(log noise, 0.3)``.
5. **What users watch.**  Each of the user's ``n_ratings`` movies has combination ``k``
   with probability ``∝ pi_k exp(beta_u t_uk)`` where ``t_uk`` is the mean taste of the
   user over the categories of ``k``; the movie is uniform among the movies of ``k``.
6. **Grades.**  ``round(mean_grade + b_u + q_m + gamma_u t_uk + s_u eps)`` clipped to 1..5,
   ``eps ~ N(0, 1)``.

Rows are in viewing order (``order``), so "the first N_o observations" is well defined.
Everything is vectorised (inverse-CDF sampling on a users x combinations matrix); the
full scale (13.1 million ratings) takes a few seconds.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import (
    _fmt,
    as_generator,
    check_distribution,
    check_finite,
    check_int,
    check_positive,
)

__all__ = ["NETFLIX_CATEGORIES", "RatingsPopulation", "simulate_ratings"]

#: The 27 categories of the source (Section IV), in alphabetical order.
NETFLIX_CATEGORIES = (
    "Action", "Adventure", "Animation", "Biography", "Comedy", "Crime", "Documentary", "Drama",
    "Family", "Fantasy", "Film-Noir", "Game-Show", "History", "Horror", "Music", "Musical",
    "Mystery", "News", "Reality-TV", "Romance", "Sci-Fi", "Short", "Sport", "Talk-Show",
    "Thriller", "War", "Western",
)
#: Users per block of the inverse-CDF search (a block's CDF slice stays in cache).
_SEARCH_USERS = 256
#: Popularity order used for the category weights (most popular first).
_POPULARITY_ORDER = (
    "Drama", "Comedy", "Action", "Thriller", "Romance", "Crime", "Adventure", "Family", "Sci-Fi",
    "Horror", "Mystery", "Fantasy", "Animation", "Documentary", "Biography", "Music", "History",
    "War", "Musical", "Sport", "Western", "Short", "Film-Noir", "Reality-TV", "Game-Show", "News",
    "Talk-Show",
)


@dataclass(frozen=True)
class RatingsPopulation:
    """A simulated population: ``ratings`` (user, movie, genres, rating, order),
    ``combinations`` (one row per category combination: genres, size, popularity) and
    ``users`` (the latent per-user parameters).

    Attributes
    ----------
    ratings : DataFrame
        One row per rating: user, movie, genres, rating, order.
    combinations : DataFrame
        One row per category combination: genres, size, popularity.
    users : DataFrame
        The latent per-user parameters.

    Examples
    --------
    >>> from privlib.simulate.ratings import simulate_ratings
    >>> pop = simulate_ratings(n_users=2, n_ratings=3, categories=("A", "B"), n_combinations=2,
    ...                        n_movies=3, size_probs=(1.0,), rng=0)
    >>> list(pop.ratings.columns), sorted(pop.combinations["genres"])
    (['user', 'movie', 'genres', 'rating', 'order'], ['A', 'B'])
    """

    ratings: pd.DataFrame
    combinations: pd.DataFrame
    users: pd.DataFrame


def _combinations(gen: np.random.Generator, n_comb: int, weights: np.ndarray, size_probs: np.ndarray) -> np.ndarray:
    n_cat = len(weights)
    sizes_all = np.arange(1, len(size_probs) + 1)
    seen: dict = {}
    while len(seen) < n_comb:  # rejection of duplicates; a handful of vectorised rounds
        m = 2 * (n_comb - len(seen)) + 50
        sizes = gen.choice(sizes_all, size=m, p=size_probs)
        # members without replacement ∝ weights: Gumbel top-k on every row at once
        keys = np.log(weights)[None, :] + gen.gumbel(size=(m, n_cat))
        order = np.argsort(-keys, axis=1)  # sort: unique keys (continuous Gumbel keys)
        mask = np.arange(n_cat)[None, :] < sizes[:, None]
        member = np.zeros((m, n_cat), dtype=bool)
        np.put_along_axis(member, order, mask, axis=1)
        for row in map(tuple, member.astype(np.int8)):  # bounded by n_comb (1,211), not by records
            if len(seen) < n_comb and row not in seen:
                seen[row] = len(seen)
    return np.array(list(seen), dtype=bool)


def simulate_ratings(*, n_users: int = 13_141, n_ratings: int = 1_000, n_combinations: int = 1_211,
                     n_movies: int = 17_770, categories: Sequence[str] = NETFLIX_CATEGORIES,
                     size_probs: Sequence[float] = (0.12, 0.38, 0.34, 0.12, 0.04), zipf: float = 1.1,
                     size_penalty: float = 0.0, beta: float = 0.8, sd_beta: float = 0.3, mean_grade: float = 3.6,
                     sd_bias: float = 0.45, sd_quality: float = 0.5, gamma: float = 0.6, noise: float = 0.8,
                     rng: int | np.random.Generator) -> RatingsPopulation:
    """Simulate a Netflix-like population (see the module docstring for the model).

    Parameters
    ----------
    n_users, n_ratings : int
        The source's 13,141 users with 1,000 movies each (Section IV).
    n_combinations : int
        Distinct category combinations (the source ends with 1,211).
    n_movies : int
        Catalogue size (the Netflix Prize has 17,770 movies).
    categories : sequence of str
        The category names (default: the source's 27): distinct non-empty strings
        without ``|`` (the separator of ``genres``).
    size_probs : sequence of float
        Probabilities of combinations of 1, 2, ... categories (must sum to 1).
    zipf, beta, gamma, noise : float
        Positive finite numbers.
    size_penalty, mean_grade : float
        Finite numbers.
    sd_beta, sd_bias, sd_quality : float
        Finite numbers >= 0.
    rng : int or numpy.random.Generator
        Seed or generator (required, keyword-only).

    Returns
    -------
    RatingsPopulation
        Its ``ratings`` has columns ``user, movie, genres, rating, order`` (``genres``
        ``|``-separated strings held as a pandas Categorical, ``rating`` integer 1..5),
        ``n_users * n_ratings`` rows in (user, viewing order).

    Raises
    ------
    ValueError
        Counts out of range, NaN / infinite / negative parameters, ``size_probs`` not a
        probability vector (or giving sizes larger than the number of categories), more
        combinations than the categories and sizes allow, duplicated or malformed
        category names.

    Examples
    --------
    >>> from privlib.simulate.ratings import simulate_ratings
    >>> pop = simulate_ratings(n_users=3, n_ratings=4, categories=("A", "B", "C"), n_combinations=4,
    ...                        n_movies=6, size_probs=(0.5, 0.5), rng=0)
    >>> pop.ratings.shape, pop.ratings["user"].unique().tolist(), len(pop.combinations)
    ((12, 5), [1, 2, 3], 4)
    """
    gen = as_generator(rng)
    n_users = check_int(n_users, "n_users", minimum=2)
    n_ratings = check_int(n_ratings, "n_ratings", minimum=1)
    if isinstance(categories, str):
        raise TypeError(f"categories: expected a sequence of category names, got the string {_fmt(categories)}")
    categories = tuple(categories)
    n_cat = len(categories)
    if n_cat == 0:
        raise ValueError("categories: expected at least one category, got none")
    bad = [c for c in categories if not isinstance(c, str) or not c or "|" in c]
    if bad:
        raise ValueError(f"categories: expected non-empty strings without '|', got {_fmt(bad[0])}")
    if len(set(categories)) < n_cat:
        dup = sorted({c for c in categories if categories.count(c) > 1})
        raise ValueError(f"categories: duplicated name(s) {dup}")
    n_comb = check_int(n_combinations, "n_combinations", minimum=1)
    n_movies = check_int(n_movies, "n_movies", minimum=n_comb)
    for name, v in (("zipf", zipf), ("beta", beta), ("gamma", gamma), ("noise", noise)):
        check_positive(v, name)
    for name, v in (("sd_beta", sd_beta), ("sd_bias", sd_bias), ("sd_quality", sd_quality)):
        check_positive(v, name, allow_zero=True)
    for name, v in (("size_penalty", size_penalty), ("mean_grade", mean_grade)):
        check_finite(v, name)
    size_probs = check_distribution(size_probs, "size_probs", atol=1e-6)
    if size_probs.ndim != 1:
        raise ValueError(f"size_probs: expected a 1-d probability vector, got shape {size_probs.shape}")
    size_probs = size_probs / size_probs.sum()
    # combinations reachable with the sizes of positive probability (a size of probability 0
    # contributes none: counting it would let the rejection loop below run forever)
    max_comb = sum(int(np.prod(range(n_cat - s + 1, n_cat + 1)) // np.prod(range(1, s + 1)))
                   for s in range(1, min(len(size_probs), n_cat) + 1) if size_probs[s - 1] > 0)
    if n_comb > max_comb:
        raise ValueError(f"n_combinations: expected at most {max_comb} for {n_cat} categories and the sizes "
                         f"of positive probability in size_probs, got {n_comb}")
    if len(size_probs) > n_cat and size_probs[n_cat:].sum() > 0:
        raise ValueError(f"size_probs: gives combinations of more than the {n_cat} categories "
                         f"(sizes up to {len(size_probs)} have a positive probability)")

    rank = {c: i + 1 for i, c in enumerate(_POPULARITY_ORDER)}
    w = np.array([1.0 / rank.get(c, n_cat) for c in categories])
    w = w / w.sum()
    member = _combinations(gen, n_comb, w, size_probs)
    size = member.sum(axis=1)
    # popularity: Zipf along an order favouring combinations of popular categories
    appeal = ((member * np.log(w)[None, :]).sum(axis=1) / size - size_penalty * size
              + gen.normal(0, 0.7, n_comb))
    crank = np.empty(n_comb)
    crank[np.argsort(-appeal, kind="stable")] = np.arange(1, n_comb + 1)
    pop = crank ** -zipf
    pop = pop / pop.sum()

    # movies: one per combination, the rest ∝ popularity
    movie_comb = np.concatenate([np.arange(n_comb), gen.choice(n_comb, n_movies - n_comb, p=pop)])
    movie_comb = movie_comb[gen.permutation(n_movies)]
    quality = gen.normal(0, sd_quality, n_movies)
    by_comb = np.argsort(movie_comb, kind="stable")
    comb_count = np.bincount(movie_comb, minlength=n_comb)
    comb_start = np.concatenate([[0], np.cumsum(comb_count)[:-1]])

    # users
    taste = gen.normal(0, 1, (n_users, n_cat))
    choos = np.exp(np.log(beta) + sd_beta * gen.normal(size=n_users))
    bias = gen.normal(0, sd_bias, n_users)
    tw = np.exp(np.log(gamma) + 0.5 * gen.normal(size=n_users))
    noise_u = np.exp(np.log(noise) + 0.3 * gen.normal(size=n_users))
    comb_taste = (taste @ member.T.astype(float)) / size[None, :]          # users x combinations

    # what users watch: inverse CDF per user, vectorised through a global offset
    logit = np.log(pop)[None, :] + choos[:, None] * comb_taste
    logit -= logit.max(axis=1, keepdims=True)
    p = np.exp(logit)
    cdf = np.cumsum(p, axis=1)
    cdf /= cdf[:, -1:]
    cdf[:, -1] = 1.0
    flat = (cdf + np.arange(n_users)[:, None]).ravel()
    user = np.repeat(np.arange(n_users), n_ratings)
    query = user + gen.random(len(user)) * (1 - 1e-12)
    comb = np.empty(len(user), dtype=np.int64)
    step = _SEARCH_USERS
    for a in range(0, n_users, step):  # blocks of users: each search stays within a cached slice
        b = min(a + step, n_users)     # (same indices as one search over the whole of flat, once clipped)
        rows = slice(a * n_ratings, b * n_ratings)
        comb[rows] = np.searchsorted(flat[a * n_comb:b * n_comb], query[rows], side="right") - (user[rows] - a) * n_comb
    comb = np.minimum(comb, n_comb - 1)
    del flat, cdf, p, logit
    movie = by_comb[comb_start[comb] + np.floor(gen.random(len(comb)) * comb_count[comb]).astype(np.int64)]
    latent = (mean_grade + bias[user] + quality[movie] + tw[user] * comb_taste[user, comb]
              + noise_u[user] * gen.normal(size=len(user)))
    grade = np.clip(np.rint(latent), 1, 5).astype(np.int8)

    names = np.array(categories, dtype=object)
    comb_names = np.array(["|".join(names[row]) for row in member], dtype=object)  # n_comb strings
    ratings = pd.DataFrame({
        "user": user + 1,
        "movie": movie + 1,
        # categorical: the n_comb strings held once, one small integer code per rating
        "genres": pd.Categorical.from_codes(comb, categories=pd.Index(comb_names, dtype=object)),
        "rating": grade,
        "order": np.tile(np.arange(n_ratings), n_users),
    })
    combos = pd.DataFrame({"genres": comb_names, "size": size, "popularity": pop})
    users = pd.DataFrame({"user": np.arange(1, n_users + 1), "choosiness": choos, "bias": bias,
                          "taste_weight": tw, "noise": noise_u})
    return RatingsPopulation(ratings, combos, users)
