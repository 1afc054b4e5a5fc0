"""
What ORCA sees: velocity space
==============================

``plot.velocity_space`` draws, for one agent, the half-planes ORCA built
from its neighbours, the speed disc and the velocity it chose.
"""

import vosim
from vosim import plot, scenarios

scene = scenarios.crossing(4, seed=0)
sim = scene.build(vosim.ORCA())
sim.run(40)
fig = plot.velocity_space(sim, 0)
