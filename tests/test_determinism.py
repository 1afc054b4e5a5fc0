"""Results do not depend on the thread count or on the process."""

import subprocess
import sys

import numpy as np
import pytest

import vosim
from vosim import scenarios

threads_available = vosim.have_openmp()


def run_crowd(threads):
    vosim.set_num_threads(threads)
    rng = np.random.default_rng(7)
    starts = rng.uniform(-20, 20, (3, 300, 2))
    goals = -starts
    batch = vosim.Batch(scenes=3, time_step=0.1)
    batch.add_agents(starts, goals=goals, radius=0.5, neighbor_dist=5.0, time_horizon=2.0)
    return batch.run(200)


@pytest.mark.skipif(not threads_available, reason="built without OpenMP")
def test_bit_identical_for_one_and_two_threads():
    one, two = run_crowd(1), run_crowd(2)
    np.testing.assert_array_equal(one.positions, two.positions)
    np.testing.assert_array_equal(one.velocities, two.velocities)


def test_same_result_in_a_fresh_process():
    code = (
        "import numpy as np, vosim; from vosim import scenarios;"
        "s = scenarios.circle(40, radius=30.0).build(); t = s.run(300);"
        "print(t.positions.tobytes().hex()[:64], float(np.abs(t.positions).sum()).hex())"
    )
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    first = output.splitlines()[-1] + "\n"
    sim = scenarios.circle(40, radius=30.0).build()
    traj = sim.run(300)
    here = f"{traj.positions.tobytes().hex()[:64]} {float(np.abs(traj.positions).sum()).hex()}\n"
    assert first == here
