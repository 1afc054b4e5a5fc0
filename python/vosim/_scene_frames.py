"""One scene of a recorded run as plain arrays, and which agents are in it at each frame.

Shared by the pictures (:mod:`vosim.plot`) and the interactive viewer
(:mod:`vosim.view`); it takes a Trajectory without importing its module, so
that the Trajectory's own exports can use it.
"""

from __future__ import annotations

import numpy as np

from ._checks import integer


def scene_arrays(traj, scene: int) -> dict:
    """One scene of a trajectory: positions ``(T, N, 2)``, velocities, headings ``(T, N)`` (None when not
    recorded), kinematics (names; None when not recorded), goals, has_goal, radius, ids, active (at the end;
    None when not recorded) and took_part (also those that left during the run: ``Trajectory.took_part``)."""
    if traj.is_batch:
        scene = integer(scene, "scene", minimum=0, maximum=traj.positions.shape[1] - 1)

        def pick(a):
            return None if a is None else np.asarray(a)[scene]

        headings = getattr(traj, "headings", None)
        return dict(positions=traj.positions[:, scene], velocities=traj.velocities[:, scene],
                    headings=None if headings is None else headings[:, scene],
                    goals=pick(traj.goals), has_goal=pick(traj.has_goal), radius=pick(traj.radius),
                    ids=pick(traj.ids), active=pick(traj.active), took_part=pick(traj.took_part()),
                    kinematics=pick(traj.kinematics), scene=scene)
    return dict(positions=traj.positions, velocities=traj.velocities, headings=getattr(traj, "headings", None),
                kinematics=traj.kinematics,
                goals=traj.goals, has_goal=traj.has_goal, radius=traj.radius, ids=traj.ids, active=traj.active,
                took_part=traj.took_part(), scene=None)


def in_scene(traj, data: dict) -> np.ndarray:
    """Whether each agent of the scene ``data`` is in it at each recorded frame, bool ``(T, N)``.

    An agent that took part is in the scene from the first frame until the
    step it left in (``exit_step`` of the run metrics: through a sink or at
    its goal), that frame excluded; empty slots and agents switched off
    before the run never are.
    """
    frames = len(traj.times)
    present = np.broadcast_to((np.asarray(data["ids"]) >= 0) & np.asarray(data["took_part"], bool),
                              (frames, len(data["ids"]))).copy()
    exit_step = traj.metrics.get("exit_step") if isinstance(traj.metrics, dict) else None
    if exit_step is not None:
        exit_step = np.asarray(exit_step)
        exit_step = exit_step[data["scene"]] if data["scene"] is not None else exit_step
        if exit_step.shape == present.shape[1:]:
            steps = np.asarray(traj.steps) - traj.steps[0]
            present &= (exit_step < 0) | (steps[:, None] < exit_step)
    return present
