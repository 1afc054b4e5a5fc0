"""SteerBench's composite scores of a run (Singh et al. 2009, as computed by SteerSuite)."""

from __future__ import annotations

import numpy as np

from ._checks import integer, is_instance_of, scalar
from ._edge_index import EdgeIndex

COLLISION_WEIGHT = 50.0
# Discs that reach into each other or into an obstacle by at most this much (metres) only touch.
CONTACT_TOLERANCE = 1e-6


def steerbench(traj, *, scene: int | None = None, tolerance: float = CONTACT_TOLERANCE) -> dict:
    """SteerBench's per-agent measures and composite scores of a trajectory.

    SteerSuite follows each agent while it is enabled (until it reaches its
    goal) and scores, per agent:

    - ``collisions``: collisions it took part in, each counted once however
      long it lasts (an overlap of its disc with another agent's, or its disc
      reaching past an obstacle edge, deeper than ``tolerance``);
    - ``time``: seconds it was enabled (to its arrival at its final goal,
      all its waypoints passed, to the step it left the simulation through a sink, or
      the whole run);
    - ``kinetic_energy``: the sum over frames of ``0.5 |v|^2`` (unit mass);
    - ``acceleration``: the sum over frames of ``|v_k - v_{k-1}| / (t_k - t_{k-1})``.

    The scores average these over the agents:

    - ``composite01 = 50 collisions + time + kinetic_energy`` (SteerBench's
      first composite, of the original paper);
    - ``composite02 = composite01 + acceleration`` (its second, adding
      "second-order" effort).

    Like SteerSuite's, the sums run over frames, so they grow with the frame
    rate: record every step (``run(..., record_every=1)``, the default) and
    compare runs with the same time step. Lower is better.

    Parameters
    ----------
    traj
        A :class:`vosim.Trajectory`.
    scene
        Which scene of a Batch trajectory to score (required for those).
    tolerance
        Overlaps and obstacle penetrations up to this depth (metres) are
        contacts, not collisions: discs that touch, or rest against a wall,
        within round-off.

    Returns
    -------
    dict
        ``composite01``, ``composite02`` (floats) and the per-agent
        ``(N,)`` arrays ``collisions``, ``time``, ``kinetic_energy``,
        ``acceleration``.
    """
    from . import _core

    if not is_instance_of(traj, "vosim.trajectory", "Trajectory"):  # (trajectory imports this module)
        raise TypeError(f"traj: expected a vosim.Trajectory, got {type(traj).__name__}")
    tolerance = scalar(tolerance, "tolerance", minimum=0.0, maximum=1e6)
    positions, velocities, radius = traj.positions, traj.velocities, np.asarray(traj.radius, dtype=np.float64)
    arrived = traj.arrived_per_frame()
    active = traj.took_part()  # agents that left during the run (sinks, remove_at_goal) included
    if traj.is_batch:
        if scene is None:
            raise TypeError("scene: a Batch trajectory needs scene= (which scene to score)")
        scene = integer(scene, "scene", minimum=0, maximum=positions.shape[1] - 1)
        positions, velocities, radius = positions[:, scene], velocities[:, scene], radius[scene]
        arrived = arrived[:, scene]
        active = active[scene]
    elif scene is not None:
        raise TypeError("scene: a Simulator's trajectory has one scene; scene= is for Batch trajectories")
    frames, n = positions.shape[:2]
    if not active.all():  # agents switched off before the run take no part
        positions, velocities, radius = positions[:, active], velocities[:, active], radius[active]
        arrived = arrived[:, active]
        n = int(active.sum())
    if frames == 0 or n == 0:
        zeros = np.zeros(n)
        return dict(composite01=0.0, composite02=0.0, collisions=zeros, time=zeros.copy(),
                    kinetic_energy=zeros.copy(), acceleration=zeros.copy())
    times = np.asarray(traj.times, dtype=np.float64)
    # The last frame each agent is enabled in: its arrival, or the run's end.
    # The run's own arrival steps count only arrivals with every waypoint
    # passed; without them (metrics=False), an agent arrives where it stays
    # at its final goal to the end (a round trip starts on its goal).
    metrics = traj.metrics if isinstance(traj.metrics, dict) else {}
    steps = np.asarray(traj.steps) - traj.steps[0]

    def run_step(name):
        """A per-agent step count of the run's metrics for the agents scored, or None."""
        value = metrics.get(name)
        if value is None:
            return None
        value = np.asarray(value)
        return (value[scene] if traj.is_batch else value)[active]

    arrival_step = run_step("arrival_step")
    if arrival_step is not None:
        frame = np.searchsorted(steps, np.maximum(arrival_step, 0), side="left")
        last = np.where((arrival_step >= 0) & (frame < frames), np.minimum(frame, frames - 1), frames - 1)
    else:
        stays = np.logical_and.accumulate(arrived[::-1], axis=0)[::-1]
        last = np.where(stays[-1], frames - stays.sum(axis=0), frames - 1)
    exit_step = run_step("exit_step")
    # Who is in the scene at each frame: an agent that left (a sink,
    # remove_at_goal) stays recorded where it left, but is gone.
    present = np.ones((frames, n), dtype=np.uint8)
    if exit_step is not None:  # an agent that left is disabled from then on
        frame = np.minimum(np.searchsorted(steps, np.maximum(exit_step, 0), side="left"), frames - 1)
        last = np.where(exit_step >= 0, np.minimum(last, frame), last)
        gone_after = np.where(exit_step >= 0, frame, frames - 1)
        present = (np.arange(frames)[:, None] <= gone_after[None, :]).astype(np.uint8)
    enabled = np.arange(frames)[:, None] <= last[None, :]
    time = times[last] - times[0]
    kinetic_energy = np.where(enabled, 0.5 * np.einsum("tni,tni->tn", velocities, velocities), 0.0).sum(axis=0)
    if frames > 1:
        change = np.linalg.norm(np.diff(velocities, axis=0), axis=2) / np.diff(times)[:, None]
        acceleration = np.where(enabled[1:], change, 0.0).sum(axis=0)
    else:
        acceleration = np.zeros(n)

    collisions = np.zeros(n)
    # Agent pairs: one collision per run of consecutive overlapping frames.
    seam = None if traj.periodic is None else (traj.periodic.index, traj.periodic.low, traj.periodic.high)
    table, depth = _core.overlaps(np.ascontiguousarray(positions, dtype=np.float64), np.ascontiguousarray(radius),
                                  present, 0.0, seam)
    table = table[depth > tolerance]
    if len(table):
        table = table[np.lexsort((table[:, 0], table[:, 2], table[:, 1]))]
        continues = ((table[1:, 1] == table[:-1, 1]) & (table[1:, 2] == table[:-1, 2])
                     & (table[1:, 0] == table[:-1, 0] + 1))
        onsets = table[np.r_[True, ~continues]]
        for side in (1, 2):
            counted = onsets[:, 0] <= last[onsets[:, side]]
            np.add.at(collisions, onsets[counted, side], 1.0)
    # Obstacles: one collision per run of frames with the disc past an edge.
    if traj.obstacles:
        shapes = [("wall" if kind == "segment" else kind, vertices)
                  for kind, vertices, owner in traj.obstacles if owner is None or owner == scene]
        index = EdgeIndex(shapes, float(radius.max()))
        flat = np.broadcast_to(radius, (frames, n)).reshape(-1)
        inside = index.touching(positions.reshape(-1, 2), flat, tolerance).reshape(frames, n) & enabled
        collisions += (inside & ~np.vstack([np.zeros((1, n), bool), inside[:-1]])).sum(axis=0)

    composite01 = float(COLLISION_WEIGHT * collisions.mean() + time.mean() + kinetic_energy.mean())
    return dict(composite01=composite01, composite02=composite01 + float(acceleration.mean()),
                collisions=collisions, time=time, kinetic_energy=kinetic_energy, acceleration=acceleration)
