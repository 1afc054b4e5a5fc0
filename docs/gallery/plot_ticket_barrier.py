"""
Queues at ticket barriers
=========================

Forty-five passengers walk up to a row of three ticket barriers, fifteen to
each gate, and join its queue (``add_queue``): the queue fills from the gate
in the order people arrive. The person at the front waits 2.5 s at the
barrier (``release_after``), then walks on to the platform, and everyone
behind moves up one place (0.7 m). A queue has twelve places; the last
arrivals wait at its tail until places free. Each gate passes one person
per 2.5 s plus the time the next one takes to move up.
"""

import matplotlib.pyplot as plt
import numpy as np

import vosim

GATES_Y = np.array([-2.0, 0.0, 2.0])  # the gaps in the barrier line at x = 0
GAP = 0.9                             # each gate's clear width (m)
SERVICE = 2.5                         # seconds at the front before the barrier opens
PLACES, SPACING = 12, 0.7             # a queue's places, front first, from 0.6 m before the gate

sim = vosim.Simulator(time_step=0.1)
# The barrier line: 0.2 m thick blocks between the gates, and a wall past each end.
edges = np.concatenate([[-6.0], np.ravel(np.column_stack([GATES_Y - GAP / 2, GATES_Y + GAP / 2])), [6.0]])
for low, high in edges.reshape(-1, 2):
    sim.add_obstacle([[-0.1, low], [0.1, low], [0.1, high], [-0.1, high]])

rng = np.random.default_rng(1)
n = 45
starts = np.column_stack([rng.uniform(-24.0, -12.0, n), rng.uniform(-5.0, 5.0, n)])
starts = starts[np.argsort(starts[:, 0])[::-1]]  # nearest the barriers first (ids 0, 1, ...)
nearest_gate = np.empty(n, int)  # a third each, by height: the gate in front of them
nearest_gate[np.argsort(starts[:, 1], kind="stable")] = np.repeat(np.arange(3), n // 3)
platform = np.column_stack([np.full(n, 12.0), GATES_Y[nearest_gate] + rng.uniform(-1.5, 1.5, n)])
ids = sim.add_agents(starts, goals=platform, radius=0.25, pref_speed=1.3, max_speed=1.8)

queues = []
for gate, y in enumerate(GATES_Y):
    places = np.column_stack([-0.6 - SPACING * np.arange(PLACES), np.full(PLACES, y)])
    queues.append(sim.add_queue(places, agents=ids[nearest_gate == gate], release_after=SERVICE))

snapshot_time = 14.0
traj = sim.run(int(round(snapshot_time / sim.time_step)), record_every=10)
waiting = np.concatenate([q.waiting for q in queues])
on_their_way = np.concatenate([q.approaching for q in queues])
positions = sim.positions.copy()
sim.run(1200, record_every=10)

fig, (scene, counts) = plt.subplots(1, 2, figsize=(10, 4.2), layout="constrained",
                                    gridspec_kw={"width_ratios": [1.35, 1]})
for obstacle in sim.obstacles:
    scene.fill(*np.asarray(obstacle.vertices).T, color="0.35")
for q in queues:
    scene.plot(*q.slots.T, "o", ms=4, mfc="none", mec="0.6", zorder=1)
groups = [(waiting, "C0", "waiting in a queue"), (on_their_way, "C1", "on the way to a queue")]
released = np.setdiff1d(ids, np.concatenate([waiting, on_their_way]))
groups.append((released, "C2", "through the barrier"))
for members, color, label in groups:
    where = positions[np.isin(ids, members)]
    scene.scatter(*where.T, s=30, color=color, label=f"{label} ({len(members)})", zorder=2)
scene.set(aspect="equal", xlim=(-12, 12.5), ylim=(-6.5, 6.5), xlabel="x (m)", ylabel="y (m)",
          title=f"t = {snapshot_time:g} s; open circles: queue places")
scene.legend(loc="lower left", fontsize=8)

for gate, q in enumerate(queues):
    times = np.sort(q.released_times)
    counts.step(np.concatenate([[0.0], times]), np.arange(len(times) + 1), where="post",
                label=f"gate {gate + 1} ({len(times)} through)")
intervals = np.concatenate([np.diff(np.sort(q.released_times)) for q in queues])
counts.axvline(snapshot_time, color="0.7", lw=1)
counts.set(xlabel="time (s)", ylabel="passengers through the gate",
           title=f"one through every {np.median(intervals):.1f} s per gate\n"
                 f"({SERVICE:g} s at the barrier + moving up; median)")
counts.legend(loc="upper left", fontsize=8)
