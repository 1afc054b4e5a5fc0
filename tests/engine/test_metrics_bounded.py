"""Metrics keep memory linear in the agents however many of them overlap:
distinct overlapping pairs are told apart up to a cap (16 per agent), past
which the count is flagged as a lower bound, the same for any thread count."""

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import vosim

PAIRS_PER_AGENT = 16


def brute_force_pairs(traj) -> tuple[set, list]:
    """Distinct overlapping id pairs over the frames, and each frame's count."""
    seen, per_frame = set(), []
    for positions in traj.positions:
        gaps = np.linalg.norm(positions[:, None] - positions[None], axis=-1)
        radius = traj.radius if np.ndim(traj.radius) == 1 else traj.radius[0]
        gaps -= radius[:, None] + radius[None]
        a, b = np.nonzero(np.triu(gaps < 0.0, 1))
        per_frame.append(len(a))
        seen.update(zip(a.tolist(), b.tolist()))
    return seen, per_frame


def test_pairs_below_the_cap_are_exact():
    rng = np.random.default_rng(4)
    sim = vosim.Simulator(0.1)
    sim.add_agents(rng.uniform(0.0, 4.0, (40, 2)), goals=rng.uniform(0.0, 4.0, (40, 2)), radius=0.4)
    traj = sim.run(20)
    m = traj.metrics
    seen, per_frame = brute_force_pairs(traj)
    assert 0 < len(seen) <= PAIRS_PER_AGENT * 40
    assert not m["collision_pairs_capped"]
    assert m["collision_pairs"] == len(seen)
    np.testing.assert_array_equal(m["collisions_series"], per_frame)


@pytest.mark.parametrize("mixed_radii", [False, True])
def test_a_crowd_on_one_spot_is_capped_the_same_for_any_thread_count(mixed_radii):
    n = 1500  # enough for several threads' blocks
    results, before = [], vosim.get_num_threads()
    for threads in (1, 2):
        vosim.set_num_threads(threads)
        try:
            sim = vosim.Simulator(0.1)
            radius = np.where(np.arange(n) % 3 == 0, 0.3, 0.5) if mixed_radii else 0.5
            sim.add_agents(np.zeros((n, 2)), goals=np.ones((n, 2)), radius=radius)
            results.append(sim.run(3).metrics)
        finally:
            vosim.set_num_threads(before)
    one, two = results
    for name in ("collision_pairs", "collision_pairs_capped", "collisions_series", "collision_agent_steps",
                 "max_penetration", "min_clearance", "min_clearance_series"):
        np.testing.assert_array_equal(one[name], two[name], err_msg=name)
    assert one["collision_pairs_capped"] and one["collision_pairs"] == PAIRS_PER_AGENT * n + 1
    np.testing.assert_array_equal(one["collisions_series"][0], PAIRS_PER_AGENT * n + 1)
    assert one["collision_agent_steps"] == 4 * n  # every agent overlaps in the start and 3 steps
    assert one["max_penetration"] == 1.0  # two radius-0.5 agents on one point
    assert one["min_clearance_series"][0] == -1.0


MEMORY_PROBE = textwrap.dedent("""
    import json, resource, time
    import numpy as np, vosim
    sim = vosim.Simulator(0.1)
    sim.add_agents(np.zeros((100_000, 2)), goals=np.ones((100_000, 2)), radius=0.5)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    m = sim.run(3).metrics
    print(json.dumps(dict(seconds=time.perf_counter() - started, peak_kib=resource.getrusage(
        resource.RUSAGE_SELF).ru_maxrss, before_kib=before, pairs=int(m["collision_pairs"]),
        capped=bool(m["collision_pairs_capped"]), agent_steps=int(m["collision_agent_steps"]))))
""")


@pytest.mark.skipif(sys.platform != "linux", reason="peak resident memory in KiB is Linux's")
@pytest.mark.skipif(vosim._core.SANITIZED, reason="AddressSanitizer's shadow memory inflates resident memory")
def test_100000_agents_on_one_point_stay_under_1_gib():
    """Was 23 GB and killed (every distinct pair of 100,000 overlapping agents kept)."""
    done = subprocess.run([sys.executable, "-c", MEMORY_PROBE], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["peak_kib"] < 1024 * 1024, result
    assert result["capped"] and result["pairs"] == PAIRS_PER_AGENT * 100_000 + 1
    assert result["agent_steps"] == 4 * 100_000
