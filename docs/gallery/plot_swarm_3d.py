"""
A 3D swarm through a window
===========================

Two swarms of drones cross through one window in a wall (``scenarios.swarm_gate``);
``plot.projections`` shows the top view and both side views.
"""

from vosim import plot, scenarios

scene = scenarios.swarm_gate(8)
sim = scene.build()
traj = sim.run(scene.max_steps, until_arrived=True)
fig = plot.projections(traj, obstacles=sim, title="swarm_gate, 2 x 8 drones (ORCA-3D)")
