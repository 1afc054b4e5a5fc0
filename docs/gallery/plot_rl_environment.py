"""
A learning environment: crowd navigation
========================================

``vosim/CrowdNavigation-v0`` is CrowdNav's task on vosim's engine (needs
Gymnasium: ``pip install "vosim[rl]"``). A hand-written policy heads
straight for the goal; the plot shows the robot's path among the humans.
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

fig, ax = plt.subplots(figsize=(4.5, 4.5), layout="constrained")
for k in range(humans.shape[1]):
    ax.plot(humans[:, k, 0], humans[:, k, 1], color="0.6", lw=1)
ax.plot(robot[:, 0], robot[:, 1], color="C3", lw=2, label="robot")
ax.set(aspect="equal", title=f"CrowdNavigation-v0: {info.get('outcome', '')}")
ax.legend()
