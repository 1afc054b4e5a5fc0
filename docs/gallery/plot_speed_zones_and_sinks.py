"""
Stairs and an exit: speed zones and sinks
=========================================

A speed zone halves the walkers' preferred speed on a stretch of corridor
(stairs); a sink at the far end takes them out of the simulation.
"""

import matplotlib.pyplot as plt
import numpy as np

import vosim

sim = vosim.Simulator(time_step=0.1)
sim.add_wall([[0, 0], [20, 0]])
sim.add_wall([[0, 3], [20, 3]])
starts = np.column_stack([np.full(4, 1.0), np.linspace(0.6, 2.4, 4)])   # 0.6 m apart: no overlap at the start
sim.add_agents(starts, goals=starts + [25.0, 0.0], pref_speed=1.3)
sim.add_speed_zone([[8, 0], [12, 0], [12, 3], [8, 3]], 0.5)
sim.add_sink([[18, 0], [20, 0], [20, 3], [18, 3]])
traj = sim.run(400, until_arrived=True)

speed = np.linalg.norm(np.diff(traj.positions, axis=0), axis=-1) / 0.1
x = traj.positions[1:, :, 0]
fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
ax.axvspan(8, 12, color="0.9", label="speed zone (x 0.5)")
ax.axvspan(18, 20, color="C2", alpha=0.2, label="sink")
for k in range(4):
    moving = speed[:, k] > 0
    ax.plot(x[moving, k], speed[moving, k], lw=1)
ax.set(xlabel="x (m)", ylabel="speed (m/s)", ylim=(0, 1.5), title="4 walkers over stairs to an exit (the lines coincide)")
ax.legend(loc="lower left")
