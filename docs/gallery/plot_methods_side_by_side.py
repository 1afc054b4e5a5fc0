"""
The same crossing, three methods
================================

Four groups cross at right angles; the same scene run with ORCA, HRVO and
the social force model, side by side with one speed scale.
"""

import matplotlib.pyplot as plt

import vosim
from vosim import plot, scenarios

scene = scenarios.crossing(6, seed=1)
fig, axes = plt.subplots(1, 3, figsize=(12, 4.2), layout="constrained")
for ax, method in zip(axes, [vosim.ORCA(), vosim.HRVO(), vosim.SocialForce()]):
    sim = scene.build(method)
    traj = sim.run(scene.max_steps, until_arrived=True)
    plot.trajectories(traj, ax=ax, color_by="speed", clim=(0.0, 1.5), colorbar=ax is axes[-1],
                      legend=ax is axes[0], title=type(method).__name__)
