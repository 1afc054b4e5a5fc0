"""Every scene feature travels in checkpoints: a run resumed from a state
file, a pickle or a deep copy is bit-identical to the uninterrupted one.

One scene per feature (obstacles, moving obstacles, waypoints, sinks, exits
and their choice, speed zones, periodic corridors, start times, re-planning
of stalled agents, waiting stages); each is run, checkpointed half way three ways, and run
on; positions, velocities and the feature's own record must equal the
uninterrupted run's bit for bit.
"""

import copy
import pickle

import numpy as np
import pytest

import vosim

shapely = pytest.importorskip("shapely")
HAVE_NAVIGATION = hasattr(shapely, "constrained_delaunay_triangles")
needs_navigation = pytest.mark.skipif(not HAVE_NAVIGATION, reason="vosim.navigation needs shapely >= 2.1")

ROOM = [[0.0, 0.0], [20.0, 0.0], [20.0, 10.0], [0.0, 10.0]]
LEFT = [[0.0, 4.0], [0.5, 4.0], [0.5, 6.0], [0.0, 6.0]]
RIGHT = [[19.5, 4.0], [20.0, 4.0], [20.0, 6.0], [19.5, 6.0]]


def crowd(sim, count=40, seed=1, goals=True):
    rng = np.random.default_rng(seed)
    # Clear of the middle, x 8 to 12, where some scenes have an obstacle.
    x = rng.uniform(2.0, 8.0, count) + np.where(rng.random(count) < 0.5, 0.0, 10.0)
    starts = np.column_stack([x, rng.uniform(1.0, 9.0, count)])
    extra = {"goals": starts[::-1].copy()} if goals else {}
    return sim.add_agents(starts, radius=0.25, pref_speed=1.3, max_speed=1.5, **extra)


def obstacles():
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
    sim.add_boundary(ROOM)
    sim.add_obstacle([[9.0, 3.0], [11.0, 3.0], [11.0, 7.0], [9.0, 7.0]])
    crowd(sim)
    return sim


def moving_obstacles():
    sim = vosim.Simulator(time_step=0.1, method=vosim.HRVO())
    sim.add_obstacle([[9.0, 3.0], [11.0, 3.0], [11.0, 5.0], [9.0, 5.0]], velocity=[0.0, 0.3])
    sim.add_wall([[2.0, 9.5], [6.0, 9.5]], velocity=[0.2, 0.0])
    crowd(sim)
    return sim


def waypoints():
    sim = vosim.Simulator(time_step=0.1, method=vosim.SocialForce())
    ids = crowd(sim, goals=False)
    tracks = [np.array([[10.0, 5.0], [18.0, 9.0 - 0.1 * k]]) for k in range(len(ids))]
    sim.set_waypoints(ids, tracks, waypoint_radius=0.5)
    return sim


def sinks():
    sim = vosim.Simulator(time_step=0.1, method=vosim.CollisionFreeSpeed())
    sim.add_boundary(ROOM)
    sim.add_sink(RIGHT, opens_at=3.0)
    ids = crowd(sim, goals=False)
    sim.set_goals(ids, np.tile([19.8, 5.0], (len(ids), 1)))
    return sim


def exits():
    """The nearer exit closes mid-run and re-evaluations every 2 s: the choice and its schedule matter."""
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
    sim.add_boundary(ROOM)
    ids = [sim.add_sink(LEFT, closes_at=6.0), sim.add_sink(RIGHT)]
    crowd(sim, count=60, goals=False)
    sim.set_exits(ids, choice="quickest", reevaluate=2.0)
    return sim


def speed_zones():
    sim = vosim.Simulator(time_step=0.1, method=vosim.AdaptiveSampling())
    sim.add_speed_zone([[5.0, 0.0], [15.0, 0.0], [15.0, 10.0], [5.0, 10.0]], 0.5)
    sim.add_speed_zone([[8.0, 0.0], [12.0, 0.0], [12.0, 10.0], [8.0, 10.0]], 1.5)
    crowd(sim)
    return sim


def periodic():
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
    sim.set_periodic(x=(0.0, 20.0))
    ids = crowd(sim, goals=False)
    sim.pref_velocities = np.tile([1.2, 0.0], (len(ids), 1))
    return sim


def start_times():
    sim = vosim.Simulator(time_step=0.1, method=vosim.RVO())
    crowd(sim)
    sim.start_time = np.linspace(0.0, 8.0, sim.num_agents)
    return sim


def replanning():
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
    sim.add_boundary(ROOM)
    sim.add_obstacle([[9.0, 0.0], [9.5, 0.0], [9.5, 8.0], [9.0, 8.0]], strict=False)
    ids = crowd(sim, goals=False)
    sim.set_goals(ids, np.tile([18.0, 2.0], (len(ids), 1)), plan="navmesh")
    return sim


def waiting_stages():
    """A queue served every 1.5 s and an area released in threes: mid-run, members wait, move up and go on."""
    sim = vosim.Simulator(time_step=0.1, method=vosim.SocialForce())
    ids = crowd(sim)
    sim.add_queue(np.column_stack([10.0 - 0.7 * np.arange(8), np.full(8, 5.0)]), agents=ids[:15],
                  release_after=1.5)
    sim.add_waiting_area([[14.0, 2.0], [15.0, 2.0], [14.0, 3.0], [15.0, 3.0]], agents=ids[15:25], release_count=3)
    return sim


FEATURES = {"obstacles": (obstacles, {}), "moving obstacles": (moving_obstacles, {}),
            "waypoints": (waypoints, {}), "sinks": (sinks, {}), "exits": (exits, {}),
            "speed zones": (speed_zones, {}), "periodic": (periodic, {}), "start times": (start_times, {}),
            "replanning": (replanning, {"replan_stalled": 1.0}), "waiting stages": (waiting_stages, {})}
NAVIGATION = {"exits", "replanning"}


def through_file(sim, tmp_path):
    return vosim.load_state(sim.save_state(tmp_path / "state"))


WAYS = {"state file": through_file, "pickle": lambda sim, _: pickle.loads(pickle.dumps(sim)),
        "deepcopy": lambda sim, _: copy.deepcopy(sim)}


def record(sim):
    """What must match: the state of every agent, and what the features decided."""
    out = {"positions": sim.positions.copy(), "velocities": sim.velocities.copy(), "active": sim.active.copy(),
           "time": sim.time, "steps": sim.step_count}
    if getattr(sim, "_exits", None) is not None:
        out["chosen"] = sim.chosen_exit.copy()
    for stage in sim.waiting_stages:
        out[f"stage {stage.id}"] = np.concatenate([stage.waiting, [-1], stage.approaching, [-1], stage.released])
        out[f"stage {stage.id} times"] = stage.released_times
    return out


@pytest.mark.parametrize("way", sorted(WAYS))
@pytest.mark.parametrize("feature", sorted(FEATURES))
def test_a_checkpointed_run_equals_the_uninterrupted_one(feature, way, tmp_path):
    if feature in NAVIGATION and not HAVE_NAVIGATION:
        pytest.skip("vosim.navigation needs shapely >= 2.1")
    build, options = FEATURES[feature]
    straight = build()
    straight.run(60, **options)
    half = build()
    half.run(30, **options)
    resumed = WAYS[way](half, tmp_path)
    half.run(30, **options)
    resumed.run(30, **options)
    straight_end, half_end, resumed_end = record(straight), record(half), record(resumed)
    for name, value in straight_end.items():
        assert np.array_equal(half_end[name], value), f"{feature}: two runs of 30 steps differ from one of 60 in {name}"
        assert np.array_equal(resumed_end[name], value), f"{feature} through {way}: {name} differs"


@needs_navigation
def test_exits_resumed_choose_as_the_uninterrupted_run():
    """The exits' choice was lost: every agent then kept going to the exit that closed."""
    sim = exits()
    sim.run(30)
    resumed = pickle.loads(pickle.dumps(sim))
    sim.run(300)
    resumed.run(300)
    left, right = (np.count_nonzero(sim.exit_sink == s.id) for s in sim.sinks)
    assert right > 0 and left < 60
    assert np.array_equal(resumed.exit_sink, sim.exit_sink)


@needs_navigation
def test_a_crafted_exit_state_is_refused_by_name(tmp_path):
    sim = exits()
    state = sim.__getstate__()
    state["navigation"]["exits"]["sinks"] = np.array([0, 99])
    from vosim._checkpoint import checksum

    state["checksum"] = checksum(state)
    with pytest.raises(ValueError, match=r"navigation.*exits\.sinks\[1\]: no sink with id 99"):
        pickle.loads(pickle.dumps(sim)).__setstate__(state)
