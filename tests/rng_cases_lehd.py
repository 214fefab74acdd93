"""Randomness-contract cases: privlib.noise, privlib.synth, privlib.simulate.commuting and
privlib.simulate.establishments (see tests/contract.py)."""
import numpy as np

from contract import Case
from privlib import noise, synth
from privlib.simulate import simulate_commuting, simulate_establishments, simulate_geography

RAMP = noise.RampDistribution(1.05, 1.15)
GEO = simulate_geography(n_spumas=3, pumas_per_spuma=2, tracts_per_puma=3, blocks_per_tract=3, rng=1)
DATA = simulate_commuting(GEO, n_workplaces=20, rng=2)
DOMAINS = synth.build_domains(DATA, rng=3)
PANEL = simulate_establishments(n_establishments=40, n_quarters=3, n_counties=2, n_industries=2, rng=4)
CELLS = noise.aggregate(noise.distort(PANEL, noise.draw_factors(PANEL["estab"], dist=RAMP, rng=5)), min_establishments=50)
assert (CELLS["B_flag"] == noise.SUPPRESSED).sum() >= 3  # replace_suppressed has cells to draw

CASES = [
    Case(RAMP.rvs, (50,), id="noise.RampDistribution.rvs"),
    Case(noise.RampDistribution.rvs, (RAMP, 50), id="noise.RampDistribution.rvs (unbound)"),
    Case(noise.draw_factors, (np.arange(30),), {"dist": RAMP}, id="noise.draw_factors"),
    Case(noise.replace_suppressed, (CELLS, "B"), id="noise.replace_suppressed"),
    Case(synth.build_domains, (DATA,), id="synth.build_domains", view=lambda d: (d.rep_block, d.eliminated)),
    Case(synth.synthesize, (DATA, DOMAINS), id="synth.synthesize", view=lambda s: s.synthetic),
    Case(simulate_geography, (), {"n_spumas": 2, "pumas_per_spuma": 2, "tracts_per_puma": 2, "blocks_per_tract": 2},
         id="simulate_geography", view=lambda g: g.blocks),
    Case(simulate_commuting, (GEO,), {"n_workplaces": 10}, id="simulate_commuting",
         view=lambda d: (d.workplaces, d.jobs, d.prior)),
    Case(simulate_establishments, (), {"n_establishments": 20, "n_quarters": 2, "n_counties": 2, "n_industries": 2},
         id="simulate_establishments"),
]

CASES.append(Case(synth.synthesize_table, (np.array([[30, 5, 0], [2, 20, 9]]),),
                  {"eps": 1.0, "totals": [35, 31]}, view=lambda r: r.counts))
