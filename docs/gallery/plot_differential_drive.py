"""
Differential-drive robots
=========================

Twelve two-wheeled robots swap across a ring with ORCA-DD; the arrows show
where they face along their paths.
"""

import numpy as np

import vosim
from vosim import plot

robots = vosim.Simulator(time_step=0.1, method=vosim.ORCA(deadlock="sidestep"))
angles = np.linspace(0, 2 * np.pi, 12, endpoint=False)
ring = 4 * np.column_stack([np.cos(angles), np.sin(angles)])
robots.add_agents(ring, goals=-ring, radius=0.3, max_speed=1.0, wheel_track=0.4, max_angular_speed=3.0,
                  time_horizon=2.0, kinematics="differential_drive")
traj = robots.run(500, until_arrived=True)
fig = plot.trajectories(traj, color_by="speed", title="12 differential-drive robots (ORCA-DD)")
