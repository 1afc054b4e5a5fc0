"""
Robots in a warehouse
=====================

Differential-drive robots cross between aisles of shelves, both ways,
through a cross aisle (``scenarios.warehouse``).
"""

from vosim import plot, scenarios

scene = scenarios.warehouse(12, seed=0)
sim = scene.build()
traj = sim.run(scene.max_steps, until_arrived=True)
fig = plot.trajectories(traj, color_by="speed", title="warehouse, 12 robots (ORCA-DD)")
