"""Memory: no growth over many simulators' lives, and views that outlive
their simulator (or the columns they were taken from) stay valid memory.

The sanitizer lane (.ci/sanitize.sh) runs these under AddressSanitizer,
which turns any use of freed memory by a view into an error report.
"""

import gc
import os

import numpy as np
import pytest

import vosim

FIELDS = ["positions", "velocities", "pref_velocities", "goals", "radius", "max_speed", "pref_speed",
          "neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst", "arrival_radius", "ids",
          "active", "has_goal"]


def resident_bytes() -> int | None:
    """This process's resident memory, or None where the platform does not say."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        pass
    try:
        import resource
    except ImportError:
        return None
    # Peak resident memory (kilobytes on Linux, bytes on macOS): a leak
    # raises it just the same.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if os.uname().sysname == "Darwin" else peak * 1024


def life_of_a_simulator(rng: np.random.Generator) -> None:
    """Create, fill, step and delete a 1,000-agent simulator, taking views
    and a trajectory on the way."""
    sim = vosim.Simulator(time_step=0.1)
    positions = rng.uniform(0.0, 60.0, (1000, 2))
    sim.add_agents(positions, goals=positions[::-1], radius=0.5, neighbor_dist=5.0, time_horizon=2.0)
    view = sim.positions
    sim.step()
    traj = sim.run(2)
    sim.remove_agents(sim.ids[:10])
    view += traj.positions[-1].sum() * 0.0
    del sim, view, traj


@pytest.mark.skipif(resident_bytes() is None, reason="this platform reports no resident memory "
                                                      "(/proc/self/statm or resource)")
@pytest.mark.skipif(vosim._core.SANITIZED, reason="AddressSanitizer keeps freed memory in quarantine, "
                                                  "so resident memory grows without any leak")
def test_resident_memory_stays_flat_over_1000_simulators():
    rng = np.random.default_rng(0)
    for _ in range(100):  # let the allocators reach their steady state
        life_of_a_simulator(rng)
    gc.collect()
    before = resident_bytes()
    for _ in range(1000):
        life_of_a_simulator(rng)
    gc.collect()
    after = resident_bytes()
    print(f"resident memory: {before / 2**20:.1f} MiB before, {after / 2**20:.1f} MiB after 1000 simulators")
    # One leaked simulator per cycle would add about 150 MB.
    assert after <= 1.05 * before, (before, after)


def test_views_outlive_their_simulator():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents(np.arange(20.0).reshape(10, 2) * 10, goals=np.zeros((10, 2)))
    sim.step()
    views = {name: getattr(sim, name) for name in FIELDS}
    expected = {name: view.copy() for name, view in views.items()}
    del sim
    gc.collect()
    for name, view in views.items():
        np.testing.assert_array_equal(view, expected[name], err_msg=name)
        if view.flags.writeable:
            view[...] = view[::-1]  # still owned memory: writing is harmless
    del views
    gc.collect()


def test_views_outlive_the_columns_they_were_taken_from():
    """Growth and compaction replace the columns; old views keep the old memory."""
    batch = vosim.Batch(scenes=3, time_step=0.1)
    batch.add_agents(np.random.default_rng(1).uniform(0, 50, (3, 8, 2)))
    old = {name: getattr(batch, name) for name in FIELDS}
    snapshot = {name: view.copy() for name, view in old.items()}
    batch.add_agents(np.random.default_rng(2).uniform(0, 50, (3, 500, 2)))  # reallocates
    middle = batch.positions
    batch.remove_agents(batch.ids[:, :300].reshape(-1))  # compacts
    batch.run(3)
    del batch
    gc.collect()
    for name, view in old.items():
        np.testing.assert_array_equal(view, snapshot[name], err_msg=name)
    assert middle.shape == (3, 508, 2) and np.isfinite(middle).all()
    middle[:] = 0.0


def test_view_of_a_view_and_a_trajectory_outlive_everything():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [50.0, 0.0]], pref_velocities=(1.0, 0.0), radius=0.5)
    column = sim.positions[:, 0]
    traj = sim.run(5)
    del sim
    gc.collect()
    np.testing.assert_allclose(column, [0.5, 50.5])
    np.testing.assert_allclose(traj.positions[-1, :, 0], [0.5, 50.5])
