"""Tests of the LEHD-like simulators (privlib.simulate.establishments / commuting)."""
import pytest

from privlib.simulate import simulate_commuting, simulate_establishments, simulate_geography
from privlib.synth import tract_distances


def test_establishment_identities():
    p = simulate_establishments(n_establishments=200, n_quarters=6, rng=1)
    assert len(p) == 1200
    assert (p["A"] == p["H"] + p["R"]).all()
    assert (p["E"] == p["B"] + p["A"] - p["S"]).all()
    assert (p["M"] == p["B"] + p["A"]).all()
    assert (p[["B", "E", "H", "R", "S", "F"]] >= 0).all().all()
    # E_t = B_{t+1} within an establishment
    g = p.sort_values(["estab", "quarter"])
    nxt = g.groupby("estab")["B"].shift(-1)
    sel = nxt.notna()
    assert (g.loc[sel, "E"] == nxt[sel]).all()
    assert (p["weight"] >= 1).all()
    # one county / industry / weight per establishment
    assert (p.groupby("estab")[["county", "industry", "weight"]].nunique() == 1).all().all()


def test_establishments_heavy_tailed_and_seeded():
    p = simulate_establishments(n_establishments=2000, n_quarters=2, rng=7)
    b = p.loc[p.quarter == 0, "B"]
    assert b.median() <= 3 and b.max() > 50 * max(b.median(), 1)
    q = simulate_establishments(n_establishments=2000, n_quarters=2, rng=7)
    assert p.equals(q)


def test_geography_nesting_and_commuting():
    g = simulate_geography(n_spumas=5, pumas_per_spuma=2, tracts_per_puma=3, blocks_per_tract=4, rng=1)
    assert g.n_tracts == 30 and len(g.blocks) == 120 and g.n_pumas == 10 and g.n_spumas == 5
    b = g.blocks
    assert (b["tract"] == b["block"] // 4).all()
    assert (g.tracts.loc[b["tract"], "puma"].to_numpy() == b["puma"].to_numpy()).all()
    d = simulate_commuting(g, n_workplaces=20, rng=2)
    assert len(d.jobs) == d.workplaces["n"].sum()
    assert (d.jobs["home_block"] // 4 == d.jobs["home_tract"]).all()
    assert d.workplaces["block"].is_unique
    D = tract_distances(g, [0, 1])
    assert D.shape == (2, 30) and D[0, 0] == 0


def test_simulator_bad_input():
    with pytest.raises(ValueError, match="n_quarters: expected an integer >= 2"):
        simulate_establishments(n_quarters=1, rng=0)
    with pytest.raises(ValueError, match="n_establishments: expected an integer >= 1"):
        simulate_establishments(n_establishments=0, rng=0)
    g = simulate_geography(n_spumas=2, pumas_per_spuma=1, tracts_per_puma=2, blocks_per_tract=2, rng=0)
    with pytest.raises(ValueError, match="n_workplaces: expected at most 8"):
        simulate_commuting(g, n_workplaces=9, rng=0)
    with pytest.raises(ValueError, match="same_block: expected a probability"):
        simulate_commuting(g, n_workplaces=2, same_block=1.5, rng=0)
    with pytest.raises(TypeError, match="geo: expected a Geography"):
        simulate_commuting("map", rng=0)
