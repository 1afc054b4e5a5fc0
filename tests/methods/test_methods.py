"""Every avoidance method on the same engine: behaviour as its paper says
(measured), obstacles, batches, determinism, switching, inspection, bad
configurations."""

import numpy as np
import pytest

import vosim
from vosim import scenarios

ALL_METHODS = [
    vosim.ORCA(), vosim.VO(), vosim.RVO(), vosim.HRVO(), vosim.VO(selection="geometric"),
    vosim.RVO(selection="geometric"), vosim.HRVO(selection="sampling"), vosim.AdaptiveSampling(),
    vosim.GridSampling(grid_size=17), vosim.ForceBased(),
]


def label(method):
    selection = getattr(method, "selection", None)
    return method.name + (f"-{selection}" if selection else "")


def with_options(method, **options):
    return type(method)(**{**{k: v for k, v in method.to_dict().items() if k != "method"}, **options})


def pair(method, start, goal, **kwargs):
    sim = vosim.Simulator(time_step=0.1, method=method)
    params = dict(radius=0.5, max_speed=1.0, pref_speed=1.0, neighbor_dist=10.0, time_horizon=2.0)
    params.update(kwargs)
    sim.add_agents(start, goals=goal, **params)
    return sim


def lattice_crowd(method, seed, n=3, spacing=4.0):
    rng = np.random.default_rng(seed)
    grid = np.stack(np.meshgrid(np.arange(n), np.arange(n)), -1).reshape(-1, 2) * spacing
    start = grid + rng.uniform(-0.5, 0.5, grid.shape)
    goal = rng.permutation(grid) + rng.uniform(-0.5, 0.5, grid.shape)
    sim = vosim.Simulator(time_step=0.1, method=method)
    sim.add_agents(start, goals=goal, radius=0.5, max_speed=1.0, time_horizon=2.0, neighbor_dist=10.0)
    return sim


PAIRS = {
    "head-on": ([[-5, 0.05], [5, -0.05]], [[5, 0.05], [-5, -0.05]]),
    "crossing": ([[-5, 0], [0, -6]], [[5, 0], [0, 5]]),
    "oblique": ([[-5, -5], [5, -4]], [[5, 5], [-5, 4]]),
}


class TestGuarantees:
    """ORCA and HRVO (geometric, the paper's apex) avoid collisions when the
    time horizon is at least the time step."""

    @pytest.mark.parametrize("method", [vosim.ORCA(), vosim.HRVO()], ids=label)
    @pytest.mark.parametrize("case", PAIRS)
    def test_two_agents(self, method, case):
        traj = pair(method, *PAIRS[case]).run(600, until_arrived=True)
        assert traj.all_arrived
        assert traj.min_clearance_per_frame().min() > -1e-9

    @pytest.mark.parametrize("method", [vosim.ORCA(), vosim.HRVO()], ids=label)
    def test_small_crowd(self, method):
        for seed in range(5):
            traj = lattice_crowd(method, seed).run(3000, until_arrived=True)
            assert traj.all_arrived
            assert traj.min_clearance_per_frame().min() > -1e-6, seed

    def test_hrvo_library_apex_loses_the_guarantee(self):
        """The HRVO library's apex (kept for replaying its data) lets agents
        overlap in the same crowds."""
        worst = min(lattice_crowd(vosim.HRVO(hrvo_apex="library"), seed).run(3000).min_clearance_per_frame().min()
                    for seed in range(5))
        assert worst < -0.05


class TestReciprocity:
    """VO treats the neighbour as if it never reacted: in a reciprocal
    encounter both agents dodge, find the way free, come back, and so on.
    RVO shares the avoidance and does not oscillate (van den Berg et al.
    2008). Geometric selection shows it cleanly; sampling adds its own noise."""

    @staticmethod
    def wobble(method):
        traj = pair(method, *PAIRS["head-on"]).run(400, until_arrived=True)
        lateral = traj.velocities[:, 0, 1]
        moving = lateral[np.abs(lateral) > 1e-3]
        return int(np.sum(np.diff(np.sign(moving)) != 0)), traj

    def test_vo_oscillates_and_rvo_does_not(self):
        vo, vo_traj = self.wobble(vosim.VO(selection="geometric"))
        rvo, rvo_traj = self.wobble(vosim.RVO(selection="geometric"))
        assert vo >= 10 and rvo <= 2, (vo, rvo)
        assert vo_traj.all_arrived and rvo_traj.all_arrived

    def test_orca_priority_shares_the_avoidance(self):
        """Agent 0 has priority 3, agent 1 priority 1: agent 0 takes a quarter
        of the first avoidance, agent 1 three quarters."""
        sim = pair(vosim.ORCA(), *PAIRS["head-on"], priority=[3.0, 1.0])
        for _ in range(40):
            sim.step()
            dodge = np.abs(sim.velocities[:, 1])
            if dodge.max() > 1e-3:
                break
        assert dodge[1] / dodge[0] == pytest.approx(3.0, rel=1e-6)

    def test_equal_priorities_are_rvo2(self):
        base = pair(vosim.ORCA(), *PAIRS["crossing"]).run(200).positions
        scaled = pair(vosim.ORCA(), *PAIRS["crossing"], priority=7.0).run(200).positions
        np.testing.assert_array_equal(base, scaled)


class TestEveryMethod:
    @pytest.mark.parametrize("method", ALL_METHODS, ids=label)
    def test_circle_of_20_arrives(self, method):
        circle = scenarios.circle(20, radius=10.0)
        sim = vosim.Simulator(time_step=0.1, method=with_options(method, perturbation=0.1))
        sim.add_agents(circle.positions, goals=circle.goals, radius=0.5, max_speed=1.5, pref_speed=1.0,
                       time_horizon=2.0, time_horizon_obst=2.0, neighbor_dist=6.0)
        assert sim.run(3000, until_arrived=True).all_arrived

    # Obstacle penetration each method allows (measured in the block case
    # below; sampling methods only penalise colliding velocities).
    TOLERANCE = {"ORCA": 1e-5, "ForceBased": 1e-9}

    @pytest.mark.parametrize("method", ALL_METHODS, ids=label)
    def test_obstacles_are_not_penetrated(self, method):
        worst = np.inf
        for seed in range(3):
            sim = vosim.Simulator(time_step=0.1, method=with_options(method, seed=seed))
            sim.add_obstacle([[-1, -1.5], [1, -1.5], [1, 1.5], [-1, 1.5]])
            sim.add_wall([[-8, 4.0], [8, 4.0]])
            start = np.column_stack([np.full(6, -6.0), np.linspace(-2.5, 2.5, 6)])
            start += np.random.default_rng(seed).uniform(-0.05, 0.05, start.shape)
            sim.add_agents(start, goals=start * [-1, 1], radius=0.4, max_speed=1.2, pref_speed=1.0,
                           time_horizon=2.0, time_horizon_obst=2.0, neighbor_dist=5.0)
            worst = min(worst, sim.run(1500).min_obstacle_clearance_per_frame().min())
        assert worst > -self.TOLERANCE.get(method.name, 1e-3), worst

    @pytest.mark.parametrize("method", [m for m in ALL_METHODS if getattr(m, "selection", "") != "sampling"],
                             ids=label)
    def test_batch_equals_separate_simulators(self, method):
        rng = np.random.default_rng(3)
        starts, goals = rng.uniform(-6, 6, (3, 12, 2)), rng.uniform(-6, 6, (3, 12, 2))
        batch = vosim.Batch(scenes=3, time_step=0.1, method=method)
        batch.add_wall([[-7, 0.5], [7, 0.5]], scene=1)
        batch.add_agents(starts, goals=goals, radius=0.3, time_horizon=2.0, strict=False)
        traj = batch.run(60)
        for b in range(3):
            sim = vosim.Simulator(time_step=0.1, method=method)
            if b == 1:
                sim.add_wall([[-7, 0.5], [7, 0.5]])
            sim.add_agents(starts[b], goals=goals[b], radius=0.3, time_horizon=2.0, strict=False)
            np.testing.assert_array_equal(sim.run(60).positions, traj.positions[:, b])

    @pytest.mark.parametrize("method", [vosim.VO(), vosim.RVO(), vosim.HRVO(selection="sampling")], ids=label)
    def test_sampling_draws_differ_between_scenes(self, method):
        """Draws depend on (seed, agent id, step), and ids are unique across a
        batch: identical scenes sample independently."""
        starts = np.random.default_rng(4).uniform(-6, 6, (12, 2))
        batch = vosim.Batch(scenes=2, time_step=0.1, method=method)
        batch.add_agents(starts, goals=-starts, radius=0.3, time_horizon=2.0)
        traj = batch.run(30)
        assert not np.array_equal(traj.positions[:, 0], traj.positions[:, 1])

    @pytest.mark.skipif(not vosim.have_threads(), reason="built without threads")
    @pytest.mark.parametrize("method", ALL_METHODS, ids=label)
    def test_same_result_on_one_and_two_threads(self, method):
        def run(threads):
            vosim.set_num_threads(threads)
            sim = scenarios.blocks().build(with_options(method, perturbation=1e-3, seed=5))
            return sim.run(150).positions
        np.testing.assert_array_equal(run(1), run(2))

    @pytest.mark.parametrize("method", ALL_METHODS, ids=label)
    def test_inspect_predicts_the_next_step(self, method):
        sim = lattice_crowd(method, seed=1)
        sim.add_obstacle([[3.0, 9.5], [5.0, 9.5], [5.0, 10.5]])
        sim.run(20)
        seen = [sim.inspect(int(i)) for i in sim.ids]
        sim.step()
        for k, diagnostics in enumerate(seen):
            assert diagnostics["method"] == method.name
            np.testing.assert_array_equal(diagnostics["new_velocity"], sim.velocities[k])

    @pytest.mark.parametrize("method", ALL_METHODS, ids=label)
    def test_switching_methods_between_steps(self, method):
        sim = lattice_crowd(vosim.ORCA(), seed=2)
        sim.run(10)
        sim.method = method
        assert sim.method is method
        sim.run(10)
        assert np.isfinite(sim.positions).all()


class TestInspect:
    def crowd(self, method):
        sim = lattice_crowd(method, seed=0)
        sim.add_obstacle([[3.5, 3.5], [4.5, 3.5], [4.5, 4.5], [3.5, 4.5]], strict=False)
        sim.run(15)
        return sim, sim.inspect(4)  # the agent in the middle

    def test_orca_lines(self):
        sim, d = self.crowd(vosim.ORCA())
        lines = d["lines"]
        assert len(lines["point"]) == len(d["neighbors"]) + lines["obstacle"].sum()
        assert lines["obstacle"][: lines["obstacle"].sum()].all()  # obstacle lines first
        np.testing.assert_allclose(np.linalg.norm(lines["direction"], axis=1), 1.0)
        if not d["used_fallback"]:  # the chosen velocity is admissible for every line
            v = d["new_velocity"]
            d, q = lines["direction"], lines["point"] - v
            side = d[:, 0] * q[:, 1] - d[:, 1] * q[:, 0]
            assert np.all(side <= 1e-9)

    @pytest.mark.parametrize("method", [vosim.VO(), vosim.RVO(), vosim.HRVO()], ids=label)
    def test_cones(self, method):
        sim, d = self.crowd(method)
        cones = d["cones"]
        assert len(cones["apex"]) == len(d["neighbors"]) + len(d["obstacle_edges"])
        assert set(cones["kind"]) <= {"agent", "agent_overlap", "segment", "segment_overlap"}
        assert 0 <= d["chosen"] < len(d["candidates"])
        np.testing.assert_array_equal(d["candidates"][d["chosen"]], d["new_velocity"])

    def test_sampling_candidates(self):
        sim, d = self.crowd(vosim.VO(samples=40))
        assert len(d["candidates"]) == 41  # the preferred velocity and 40 draws
        assert d["penalties"][d["chosen"]] == d["penalties"].min()

    def test_adaptive_levels(self):
        sim, d = self.crowd(vosim.AdaptiveSampling(divs=5, rings=2, depth=3))
        assert set(d["levels"]) == {0, 1, 2}
        assert len(d["candidates"]) <= 3 * (1 + 2 * 5)
        np.testing.assert_array_equal(d["candidates"][d["chosen"]], d["new_velocity"])

    def test_forces(self):
        sim, d = self.crowd(vosim.ForceBased())
        assert set(d["forces"]) == {"steering", "separation", "avoidance", "obstacles", "total"}
        total = sum(d["forces"][k] for k in ("steering", "separation", "avoidance", "obstacles"))
        np.testing.assert_allclose(total, d["forces"]["total"])

    def test_unknown_agent(self):
        sim, _ = self.crowd(vosim.ORCA())
        with pytest.raises(ValueError, match="agent_id: no agent with id 99"):
            sim.inspect(99)


class TestAgentOptions:
    def test_max_acceleration_limits_each_change(self):
        sim = pair(vosim.HRVO(), *PAIRS["crossing"], max_acceleration=0.5)
        traj = sim.run(200)
        change = np.linalg.norm(np.diff(traj.velocities, axis=0), axis=-1)
        assert change.max() <= 0.5 * 0.1 + 1e-12

    def test_uncertainty_offset_widens_hrvo_cones(self):
        plain = pair(vosim.HRVO(), *PAIRS["head-on"]).run(300).min_clearance_per_frame().min()
        wide = pair(vosim.HRVO(), *PAIRS["head-on"], uncertainty_offset=0.2).run(300).min_clearance_per_frame().min()
        assert wide > plain + 0.05

    def test_option_views_and_bad_values(self):
        sim = vosim.Simulator()
        sim.add_agents([[0.0, 0.0], [9.0, 9.0]], priority=[1.0, 2.0], uncertainty_offset=0.1)
        assert sim.max_acceleration[0] == np.inf and sim.priority[1] == 2.0 and sim.uncertainty_offset[0] == 0.1
        with pytest.raises(ValueError, match=r"priority\[0\] is -1.0"):
            sim.add_agents([[20.0, 0.0], [30.0, 0.0]], priority=[-1.0, 1.0])
        with pytest.raises(ValueError, match="max_acceleration is nan"):
            sim.add_agents([[20.0, 0.0]], max_acceleration=np.nan)
        sim.priority[0] = np.nan
        with pytest.raises(ValueError, match="agent id 0 .*: priority is nan"):
            sim.step()


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: vosim.VO(samples=-1), "samples is -1"),
        (lambda: vosim.RVO(safety_factor=np.nan), "safety_factor is nan"),
        (lambda: vosim.HRVO(selection="nearest"), "selection is 'nearest'"),
        (lambda: vosim.HRVO(hrvo_apex="left"), "hrvo_apex is 'left'"),
        (lambda: vosim.VO(truncate=1), "truncate: expected True or False"),
        (lambda: vosim.AdaptiveSampling(divs=0), "divs is 0"),
        (lambda: vosim.AdaptiveSampling(vel_bias=1.5), "vel_bias is 1.5; must be <= 1"),
        (lambda: vosim.AdaptiveSampling(weight_side=-0.1), "weight_side is -0.1"),
        (lambda: vosim.GridSampling(grid_size=1), "grid_size is 1"),
        (lambda: vosim.GridSampling(horiz_time=0), "horiz_time is 0"),
        (lambda: vosim.ForceBased(steering_time=0), "steering_time is 0"),
        (lambda: vosim.ForceBased(avoidance_stiffness=np.inf), "avoidance_stiffness is inf"),
        (lambda: vosim.ORCA(bisector_weight=0), "bisector_weight is 0"),
    ],
)
def test_bad_configurations(make, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make()


def test_bisector_weight_changes_only_the_infeasible_case():
    """The weight of linear program 3's projected lines matters only where
    ORCA's half-planes leave no room; obstacle lines stay hard whatever it is."""
    def jam(weight):
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(bisector_weight=weight))
        sim.add_wall([[-3.0, -1.0], [3.0, -1.0]])
        angles = np.linspace(0, 2 * np.pi, 7, endpoint=False)
        ring = np.column_stack([np.cos(angles), np.sin(angles)]) * 1.05 + [0.0, 0.2]
        sim.add_agents(np.vstack([[0.0, 0.2], ring]), radius=0.5, max_speed=1.0, time_horizon=2.0,
                       time_horizon_obst=2.0, velocities=np.vstack([[0.0, 0.0], -ring * 0.8]), strict=False)
        return sim
    decisions = {w: jam(w).inspect(0) for w in (0.2, 1.0, 5.0)}
    assert all(d["used_fallback"] for d in decisions.values())
    assert not np.allclose(decisions[0.2]["new_velocity"], decisions[5.0]["new_velocity"])
    for weight, d in decisions.items():
        lines = d["lines"]
        hard = lines["obstacle"]
        q = lines["point"][hard] - d["new_velocity"]
        side = lines["direction"][hard][:, 0] * q[:, 1] - lines["direction"][hard][:, 1] * q[:, 0]
        assert np.all(side <= 1e-9), weight
    free = [pair(vosim.ORCA(bisector_weight=w), *PAIRS["crossing"]).run(100).positions for w in (0.2, 1.0)]
    np.testing.assert_array_equal(*free)  # no infeasible step: identical
