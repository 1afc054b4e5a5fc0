"""
Velocity obstacles: HRVO's cones
================================

The same agent and moment as in the ORCA example, seen by HRVO: a cone per
neighbour and the velocity nearest the preferred one outside them all.
"""

import vosim
from vosim import plot, scenarios

scene = scenarios.crossing(4, seed=0)
sim = scene.build(vosim.HRVO())
sim.run(40)
fig = plot.velocity_space(sim, 0)
