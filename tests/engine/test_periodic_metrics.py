"""Pairwise metrics in a periodic corridor: pairs are measured at their nearest image."""

from __future__ import annotations

import numpy as np
import pytest

import vosim
from vosim import _core
from vosim.plot._trajectories import collisions

RADIUS = 0.25


def _seam_pair(axis="x", period=(0.0, 10.0), gap=0.2, **agent_args):
    """Two still agents `gap` apart through the seam (overlapping by 2 * RADIUS - gap)."""
    low, high = period
    sim = vosim.Simulator(time_step=0.1)
    sim.set_periodic(**{axis: period})
    near_low, near_high = low + gap / 2, high - gap / 2
    points = [[near_low, 1.0], [near_high, 1.0]] if axis == "x" else [[1.0, near_low], [1.0, near_high]]
    sim.add_agents(points, radius=RADIUS, **agent_args)
    return sim


@pytest.mark.parametrize("axis", ["x", "y"])
def test_trajectory_min_clearance_sees_a_pair_touching_across_the_seam(axis):
    traj = _seam_pair(axis).run(1)
    np.testing.assert_allclose(traj.min_clearance_per_frame()[0], 0.2 - 2 * RADIUS, atol=1e-12)


@pytest.mark.parametrize("neighbors", [dict(neighbor_dist=0.05), dict(max_neighbors=0), dict()])
def test_run_metrics_count_an_overlap_across_the_seam(neighbors):
    # neighbor_dist below the overlap reach or no neighbours at all: the
    # metrics' own search (the fallback) must look through the seam too.
    m = _seam_pair(**neighbors).run(1).metrics
    assert m["collision_pairs"] == 1
    assert m["collision_agent_steps"] >= 2  # both agents, in the first state at least
    np.testing.assert_allclose(m["min_clearance_series"][0], 0.2 - 2 * RADIUS, atol=1e-12)
    np.testing.assert_allclose(m["max_penetration"], 2 * RADIUS - 0.2, atol=1e-12)


def test_overlaps_across_the_seam_are_marked_there():
    traj = _seam_pair().run(1)
    marks = collisions(traj.positions[:1], traj.radius, traj.active, periodic=traj.periodic)
    assert marks.shape == (1, 2)
    # The pair's midpoint at its nearest image: on the seam, not mid-corridor.
    assert min(abs(marks[0, 0] - 0.0), abs(marks[0, 0] - 10.0)) < 1e-9
    assert len(collisions(traj.positions[:1], traj.radius, traj.active)) == 0  # without the seam: 9.8 m apart


def test_a_period_shorter_than_the_reach_counts_each_pair_once():
    # Period 0.8 with radius 0.25: the two agents overlap at two images; one pair, its nearest image.
    sim = _seam_pair(period=(0.0, 0.8), gap=0.3, neighbor_dist=0.05)
    traj = sim.run(1)
    m = traj.metrics
    assert m["collision_pairs"] == 1
    np.testing.assert_allclose(m["min_clearance_series"][0], 0.3 - 2 * RADIUS, atol=1e-12)
    np.testing.assert_allclose(traj.min_clearance_per_frame()[0], 0.3 - 2 * RADIUS, atol=1e-12)
    table, depth = _core.overlaps(np.ascontiguousarray(traj.positions[:1]), np.asarray(traj.radius, float),
                                  np.ones(2, np.uint8), 0.0, (0, 0.0, 0.8))
    assert table.tolist() == [[0, 0, 1]]
    np.testing.assert_allclose(depth, [2 * RADIUS - 0.3], atol=1e-12)


def test_without_a_seam_the_same_positions_do_not_touch():
    sim = _seam_pair()
    sim.clear_periodic()
    traj = sim.run(1)
    assert traj.metrics["collision_pairs"] == 0
    np.testing.assert_allclose(traj.min_clearance_per_frame()[0], 9.8 - 2 * RADIUS, atol=1e-12)


def test_a_crowd_gives_the_brute_force_minimum_image_clearance():
    rng = np.random.default_rng(3)
    low, high = 0.0, 6.0
    positions = np.column_stack([rng.uniform(low, high, 60), rng.uniform(0.0, 2.0, 60)])
    radius = rng.uniform(0.1, 0.3, 60)
    d = positions[:, None] - positions[None]
    d[..., 0] -= (high - low) * np.round(d[..., 0] / (high - low))
    gaps = np.linalg.norm(d, axis=-1) - radius[:, None] - radius[None]
    np.fill_diagonal(gaps, np.inf)
    result = _core.min_clearance(positions[None, None], radius[None], None, (0, low, high))
    assert result[0, 0] == pytest.approx(gaps.min(), abs=1e-12)
    table, _ = _core.overlaps(positions[None], radius, np.ones(60, np.uint8), 0.0, (0, low, high))
    expected = sorted((a, b) for a, b in zip(*np.nonzero(gaps < 0)) if a < b)
    assert sorted(map(tuple, table[:, 1:].tolist())) == expected


@pytest.mark.parametrize("periodic, message", [
    ((2, 0.0, 1.0), "axis 0 or 1"),
    ((0, 1.0, 1.0), "low < high"),
    ((0, 2.0, 1.0), "low < high"),
    ((0, 0.0, float("nan")), "finite"),
    ((0, float("-inf"), 1.0), "finite"),
    ((0, 0.0), "axis index, low, high"),
])
def test_bad_periodic_arguments_are_refused(periodic, message):
    positions = np.zeros((1, 1, 2, 2))
    with pytest.raises(ValueError, match="periodic") as error:
        _core.min_clearance(positions, np.ones((1, 2)), None, periodic)
    assert message in str(error.value)
    with pytest.raises(ValueError, match="periodic"):
        _core.overlaps(positions[0], np.ones(2), np.ones(2, np.uint8), 0.0, periodic)


def test_a_periodic_axis_needs_plane_positions():
    with pytest.raises(ValueError, match="periodic"):
        _core.min_clearance(np.zeros((1, 1, 2, 3)), np.ones((1, 2)), None, (0, 0.0, 1.0))
