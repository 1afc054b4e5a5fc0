"""Checkpoints with moving and removed obstacles resume bit-identically.

A checkpoint keeps every obstacle id (removed ones stay removed), and each
moving obstacle's velocity and how far it has moved: N steps, a checkpoint,
M more steps must equal N + M steps without one, on 1 and 2 threads.
"""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

import vosim
from vosim import _checkpoint

from test_checkpoints import FIRST_STEPS, MORE_STEPS, _assert_same, _round_trips, threads

SQUARE = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])


def _scene(method, scenes: int | None = None, agents: int = 24, seed: int = 1):
    """Agents crossing a field where obstacles move and some were removed."""
    rng = np.random.default_rng(seed)
    shape = (agents, 2) if scenes is None else (scenes, agents, 2)
    extent = 9.0 * max(1.0, np.sqrt(agents / 24))
    starts = rng.uniform(-extent, extent, shape)
    sim = vosim.Simulator(time_step=0.1, method=method) if scenes is None else vosim.Batch(
        scenes, time_step=0.1, method=method)
    gone = sim.add_obstacle(SQUARE * 2 + (extent + 5, 0.0))
    sim.add_obstacle(SQUARE * 1.5 - (extent + 5, 0.0), velocity=(0.7, 0.13))
    sim.add_wall([[0.0, extent + 5], [2.0, extent + 6], [4.0, extent + 5]], velocity=(-0.3, -0.9))
    sim.add_obstacle(SQUARE * 3 + (0.0, -extent - 8), velocity=(0.0, 0.6))
    sim.add_obstacle([[-1.0, -1.0], [1.0, -1.0], [0.0, 1.0]], strict=False)  # a static one amid the agents
    if scenes is not None:  # each scene's own, one of them moving, one removed
        sim.add_obstacle(SQUARE + (3.0, 3.0), scene=scenes - 1, strict=False)
        sim.add_obstacle(SQUARE - (extent + 4, extent + 4), scene=scenes - 1, velocity=(0.5, 0.5))
        sim.remove_obstacle(sim.add_obstacle(SQUARE + (40.0, 40.0), scene=0), scene=0)
    sim.remove_obstacle(gone)
    sim.add_agents(starts, goals=-starts, radius=0.3, neighbor_dist=4.0, max_neighbors=8, time_horizon=2.0,
                   time_horizon_obst=1.5, strict=False)
    sim.run(3)
    sim.set_obstacle_velocity(3, (0.2, 0.8))  # from now on
    return sim


def _obstacles(sim) -> tuple:
    return repr(sim.obstacles), repr(sim.moving_obstacles)


def _after_checkpoint(sim) -> None:
    """What happens after the checkpoint: an obstacle removed, one added."""
    sim.remove_obstacle(1)
    assert sim.add_obstacle(SQUARE + (60.0, 60.0), velocity=(-1.0, 0.0)) == 5


@pytest.mark.parametrize("threads_", threads, ids=lambda t: f"{t} threads")
@pytest.mark.parametrize("method", [lambda: vosim.ORCA(perturbation=0.01, seed=5), lambda: vosim.HRVO(),
                                    lambda: vosim.ForceBased(perturbation=0.05, seed=8)],
                         ids=["ORCA", "HRVO", "ForceBased"])
@pytest.mark.parametrize("scenes", [None, 3], ids=["simulator", "batch"])
def test_resuming_with_moving_and_removed_obstacles_is_bit_identical(method, scenes, threads_, tmp_path):
    agents = 600 if scenes is None else 200  # enough that steps run in parallel on 2 threads
    vosim.set_num_threads(1)
    reference = _scene(method(), scenes, agents)
    reference.run(FIRST_STEPS)
    _after_checkpoint(reference)
    reference.run(MORE_STEPS)

    vosim.set_num_threads(threads_)
    sim = _scene(method(), scenes, agents)
    sim.run(FIRST_STEPS)
    for how, resumed in _round_trips(sim, tmp_path):
        assert _obstacles(resumed) == _obstacles(sim), how
        _assert_same(resumed, sim)
        _after_checkpoint(resumed)
        resumed.run(MORE_STEPS)
        _assert_same(resumed, reference)
        assert _obstacles(resumed) == _obstacles(reference), how
        for a, b in zip(resumed.moving_obstacles, reference.moving_obstacles):
            assert np.array_equal(a.vertices, b.vertices), how


def test_ids_velocities_and_poses_come_back():
    sim = vosim.Simulator(time_step=0.25)
    a = sim.add_obstacle(SQUARE)
    b = sim.add_obstacle(SQUARE + 5.0, velocity=(1.0, 0.5))
    c = sim.add_wall([[-5.0, 0.0], [-4.0, 1.0]], velocity=(0.0, -1.0))
    sim.remove_obstacle(a)
    sim.remove_obstacle(c)
    sim.run(7)
    copy = pickle.loads(pickle.dumps(sim))
    (moving,) = copy.moving_obstacles
    assert (moving.id, moving.velocity) == (b, (1.0, 0.5))
    assert np.array_equal(moving.vertices, sim.moving_obstacles[0].vertices)
    assert np.allclose(moving.vertices, SQUARE + 5.0 + 7 * 0.25 * np.array([1.0, 0.5]))
    assert copy.obstacles == ()
    # Removed ids stay taken and stay removed.
    with pytest.raises(ValueError, match="obstacle is 0; that obstacle was removed"):
        copy.remove_obstacle(a)
    with pytest.raises(ValueError, match="obstacle is 2; that obstacle was removed"):
        copy.set_obstacle_velocity(c, (1.0, 0.0))
    assert copy.add_obstacle(SQUARE - 9.0) == 3


def test_a_scene_whose_obstacles_were_all_removed_keeps_counting_ids():
    batch = vosim.Batch(2, time_step=0.1)
    batch.remove_obstacle(batch.add_obstacle(SQUARE, scene=1, velocity=(1.0, 0.0)), scene=1)
    copy = pickle.loads(pickle.dumps(batch))
    assert copy.add_obstacle(SQUARE, scene=1) == 1
    assert copy.moving_obstacles == ()


def _state_with_obstacles(tmp_path):
    sim = vosim.Simulator(time_step=0.1)
    sim.add_obstacle(SQUARE, velocity=(1.0, 0.0))
    sim.remove_obstacle(sim.add_obstacle(SQUARE + 3.0))
    return sim.save_state(tmp_path / "state.npz")


def _rewrite(path, target, change):
    with np.load(path) as archive:
        arrays = {name: archive[name] for name in archive.files}
    change(arrays)
    np.savez(target, **arrays)
    return target


@pytest.mark.parametrize("change, message", [
    (lambda a: a.update(obstacle_removed=np.array([0, 2], np.uint8)), "obstacle 1 has flags other than 0 or 1"),
    (lambda a: a.update(obstacle_moving=np.array([1], np.uint8)), "obstacle entries differ in length"),
    (lambda a: a.update(obstacle_removed=np.array([0, 0], np.uint8)),
     "obstacle 1: vertices: a polygon needs at least 3 vertices, got 0"),
    (lambda a: a.update(obstacle_moving=np.array([0, 0], np.uint8)),
     "obstacle 0 is static but has a velocity or displacement"),
    (lambda a: a.update(obstacle_displacements=np.array([[np.nan, 0.0], [0.0, 0.0]])),
     "obstacle 0 has a velocity or displacement out of range"),
    (lambda a: a.pop("obstacle_displacements"), "no entry 'obstacle_displacements'"),
])
def test_inconsistent_obstacle_entries_are_refused(tmp_path, change, message):
    target = _rewrite(_state_with_obstacles(tmp_path), tmp_path / "bad.npz", change)
    with pytest.raises(ValueError, match=r"'.*bad\.npz' is not a usable vosim simulator state .*" + message):
        vosim.load_state(target)


def test_a_state_of_the_first_format_is_refused_clearly(tmp_path):
    def older(arrays):
        metadata = json.loads(str(arrays["metadata"]))
        metadata["format_version"] = 1
        arrays["metadata"] = np.array(json.dumps(metadata))

    target = _rewrite(_state_with_obstacles(tmp_path), tmp_path / "old.npz", older)
    with pytest.raises(ValueError, match=rf"'.*old\.npz' has state format version 1, which this vosim "
                                         rf"\({_checkpoint.FORMAT_VERSION}\) cannot read"):
        vosim.load_state(target)
