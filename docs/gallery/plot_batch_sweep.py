"""
A Batch sweep over the time horizon
===================================

One ``Batch`` runs eight scenes at once, each with its own time horizon;
the makespan and the smallest clearance per scene come back as arrays.
"""

import matplotlib.pyplot as plt
import numpy as np

import vosim

angles = np.linspace(0, 2 * np.pi, 20, endpoint=False)
start = 8 * np.column_stack([np.cos(angles), np.sin(angles)])
taus = np.linspace(0.5, 6.0, 8)
batch = vosim.Batch(scenes=8, time_step=0.1, method=vosim.ORCA(deadlock="sidestep"))
starts = np.broadcast_to(start, (8, 20, 2))
batch.add_agents(starts, goals=-starts, time_horizon=taus[:, None])
traj = batch.run(1500, until_arrived=True)

fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.3), layout="constrained")
left.plot(taus, traj.metrics["makespan"], "o-")
left.set(xlabel="time horizon (s)", ylabel="makespan (s)")
right.plot(taus, traj.metrics["min_clearance"], "o-")
right.set(xlabel="time horizon (s)", ylabel="smallest clearance (m)")
fig.suptitle("20 walkers on a circle, one scene per time horizon (ORCA)")
