"""
A circle of walkers swapping sides
==================================

Sixteen walkers on a circle head for the opposite point with ORCA (the
default method); the paths are coloured by speed, so the slowing at the
centre shows.
"""

import numpy as np

import vosim
from vosim import plot

sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(perturbation=0.05))  # breaks the exact symmetry
angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
start = 6 * np.column_stack([np.cos(angles), np.sin(angles)])
sim.add_agents(start, goals=-start)
traj = sim.run(600, until_arrived=True)
print(traj.summary())
fig = plot.trajectories(traj, color_by="speed", title="16 walkers, ORCA")
