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
fig, axes = plt.subplots(1, 3, figsize=(12, 4.8))
for ax, method in zip(axes, [vosim.ORCA(), vosim.HRVO(), vosim.SocialForce()]):
    sim = scene.build(method)
    traj = sim.run(scene.max_steps, until_arrived=True)
    plot.trajectories(traj, ax=ax, color_by="speed", clim=(0.0, 1.5), colorbar=False,
                      legend=ax is axes[0], title=type(method).__name__)
fig.subplots_adjust(left=0.05, right=0.9, top=0.93, bottom=0.27, wspace=0.3)   # room for the legend below
# One colour bar for the three panels, which share the speed scale (clim).
paths = next(c for c in axes[-1].collections if c.get_array() is not None)
fig.colorbar(paths, cax=fig.add_axes((0.92, 0.27, 0.012, 0.66)), label="speed [m/s]")
