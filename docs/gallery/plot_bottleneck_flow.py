"""
Flow through a bottleneck
=========================

Forty pedestrians leave a room through a 1.2 m door. A measurement line just
past the door counts them: the cumulative count ``N(t)`` rises with the flow.
"""

import matplotlib.pyplot as plt
import numpy as np

from vosim import measurement, scenarios

scene = scenarios.bottleneck(40, door_width=1.2, seed=0)
sim = scene.build()
traj = sim.run(scene.max_steps, until_arrived=True)
# The door: the obstacles' vertices nearest the corridor's axis mark its x.
vertices = np.concatenate([np.asarray(o.vertices) for o in sim.obstacles])
door_x = float(np.median(vertices[np.abs(vertices[:, 1]) < 1.0, 0]))
line = measurement.MeasurementLine([door_x + 0.5, -3.0], [door_x + 0.5, 3.0])
count = measurement.cumulative_crossings(traj, line)

fig, ax = plt.subplots(figsize=(5, 3.5), layout="constrained")
ax.plot(traj.times, count)
ax.set(xlabel="time (s)", ylabel="persons past the door", title="bottleneck, 40 persons, 1.2 m door (ORCA)")
