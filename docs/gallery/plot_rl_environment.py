"""
A learning environment: crowd navigation
========================================

``vosim/CrowdNavigation-v0`` is CrowdNav's task on vosim's engine (needs
Gymnasium: ``pip install "vosim[rl]"``). A hand-written policy heads
straight for the goal and ignores the humans, so it collides: the plot shows
the robot's path among the humans' and where the episode ended, the baseline
a learned policy has to beat.
"""

import gymnasium
import matplotlib.pyplot as plt
import numpy as np

import vosim.envs  # noqa: F401  (registers the environment)

env = gymnasium.make("vosim/CrowdNavigation-v0", humans=5)
obs, info = env.reset(seed=3)
robot, humans = [], []
for _ in range(250):
    positions = env.unwrapped.batch.positions[0]  # the engine's scene: the robot is agent 0
    robot.append(positions[0].copy())
    humans.append(positions[1:].copy())
    to_goal = np.array([0.0, 4.0]) - positions[0]  # CrowdNav's goal
    action = to_goal / max(np.linalg.norm(to_goal), 1e-9)
    obs, reward, terminated, truncated, info = env.step(action.astype(np.float32))
    if terminated or truncated:
        break
robot, humans = np.array(robot), np.array(humans)

fig, ax = plt.subplots(figsize=(6.5, 4.5), layout="constrained")
for k in range(humans.shape[1]):
    ax.plot(humans[:, k, 0], humans[:, k, 1], color="0.6", lw=1, label="humans" if k == 0 else None)
ax.scatter(humans[-1, :, 0], humans[-1, :, 1], s=60, facecolors="none", edgecolors="0.4", label="humans at the end")
ax.plot(robot[:, 0], robot[:, 1], color="C3", lw=2, label="robot")
ax.scatter(*robot[-1], s=60, color="C3", marker="x", label="robot at the end")
ax.set(aspect="equal", title=f"CrowdNavigation-v0: {info.get('outcome', '')}")
ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0))
