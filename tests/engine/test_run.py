"""run(): recording, stopping rules, progress, the GIL, Ctrl-C and concurrent use."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import vosim
from vosim import scenarios

from _run_elsewhere import running_in_another_thread


def crowd(n=400, seed=0, time_step=0.1):
    rng = np.random.default_rng(seed)
    side = int(np.ceil(np.sqrt(n)))
    k = np.arange(n)
    positions = np.column_stack([2.0 * (k % side), 2.0 * (k // side)]) + rng.uniform(-0.4, 0.4, (n, 2))
    angle = rng.uniform(0, 2 * np.pi, n)
    sim = vosim.Simulator(time_step=time_step)
    sim.add_agents(positions, goals=positions + 50 * np.column_stack([np.cos(angle), np.sin(angle)]),
                   radius=0.5, max_speed=1.5, pref_speed=1.0, neighbor_dist=3.5, time_horizon=2.0,
                   time_horizon_obst=2.0)
    return sim


def test_frames_and_times():
    sim = crowd(50)
    traj = sim.run(10, record_every=3)
    np.testing.assert_array_equal(traj.steps, [0, 3, 6, 9, 10])
    np.testing.assert_allclose(traj.times, traj.steps * 0.1)
    assert traj.positions.shape == (5, 50, 2) and traj.velocities.shape == (5, 50, 2)
    np.testing.assert_array_equal(traj.positions[-1], sim.positions)
    assert traj.steps_run == 10 and sim.step_count == 10 and len(traj) == 5


def test_run_equals_repeated_steps():
    a, b = crowd(100), crowd(100)
    traj = a.run(20)
    frames = [b.positions.copy()]
    for _ in range(20):
        b.step()
        frames.append(b.positions.copy())
    np.testing.assert_array_equal(traj.positions, np.array(frames))


def test_recording_is_a_copy():
    sim = crowd(10)
    traj = sim.run(2)
    assert not np.shares_memory(traj.positions, sim.positions)


def test_until_arrived_stops_at_the_first_step_all_are_in():
    sim = vosim.Simulator(time_step=0.5)
    sim.add_agents([[0.0, 0.0]], goals=[[10.0, 0.0]], radius=0.5, max_speed=1.0)
    traj = sim.run(1000, until_arrived=True, record_every=7)
    # 10 m at 1 m/s in 0.5 s steps: within 0.5 of the goal after 19 steps.
    assert traj.steps_run == 19 and traj.all_arrived
    assert traj.steps[-1] == 19
    assert sim.arrived.all()


def test_zero_steps_records_the_start():
    sim = crowd(5)
    traj = sim.run(0)
    assert len(traj) == 1 and traj.steps_run == 0


def test_progress_callback_and_bar(capsys):
    calls = []
    sim = crowd(2000)
    sim.run(60, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (60, 60)
    assert all(total == 60 for _, total in calls)
    sim.run(3, progress=True)
    captured = capsys.readouterr()
    assert "3/3" in captured.err


def test_gil_is_released_during_run():
    sim = crowd(3000)
    counter = {"ticks": 0, "running": True}

    def count():
        while counter["running"]:
            counter["ticks"] += 1
            time.sleep(0.001)

    thread = threading.Thread(target=count)
    thread.start()
    started = time.perf_counter()
    sim.run(80, record_every=80)
    elapsed = time.perf_counter() - started
    counter["running"] = False
    thread.join()
    # The counter thread needs the GIL for every tick; with the GIL held by
    # run() it would barely move.
    assert counter["ticks"] > 0.3 * elapsed / 0.0012


def test_concurrent_calls_are_refused():
    """While one thread runs a simulator, every call that would change it or
    step it from another thread raises a clear RuntimeError; afterwards the
    simulator is consistent and usable."""
    sim = crowd(500)
    calls = {
        "step": sim.step,
        "run": lambda: sim.run(1),
        "add_agents": lambda: sim.add_agents([[500.0, 500.0]]),
        "remove_agents": lambda: sim.remove_agents([0]),
        "neighbors": sim.neighbors,
        "time_step": lambda: setattr(sim, "time_step", 0.2),
        "method": lambda: setattr(sim, "method", vosim.ORCA()),
        "radius": lambda: setattr(sim, "radius", 0.4),
    }
    errors = {}
    with running_in_another_thread(sim) as outcome:
        for name, call in calls.items():
            with pytest.raises(RuntimeError, match="busy") as raised:
                call()
            errors[name] = str(raised.value)
    traj = outcome["trajectory"]
    assert traj.steps_run == sim.step_count > 0
    np.testing.assert_array_equal(traj.positions[-1], sim.positions)
    assert sim.num_agents == 500 and sim.time_step == 0.1 and np.all(sim.radius == 0.5)
    sim.step()  # usable again afterwards


def interrupt_after(seconds: float) -> tuple[threading.Timer, dict]:
    """Sends SIGINT to this process after `seconds`, noting when it was sent."""
    sent = {}

    def fire():
        sent["at"] = time.perf_counter()
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, fire)
    timer.start()
    return timer, sent


def slow_crowd(n: int = 40_000) -> vosim.Simulator:
    """A crowd whose steps take about a second on one thread (of a 2-core
    machine of 2024): 200 neighbours each."""
    rng = np.random.default_rng(0)
    side = np.sqrt(n)
    positions = rng.uniform(0.0, side, (n, 2))
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents(positions, goals=positions[::-1], radius=0.3, max_neighbors=200, neighbor_dist=20.0,
                   time_horizon=5.0)
    return sim


@pytest.mark.skipif(os.name == "nt" or signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
                    reason="sends SIGINT to itself (not on Windows, nor where SIGINT is ignored, e.g. a background job)")
def test_ctrl_c_stops_the_run_and_keeps_the_partial_trajectory():
    sim = crowd(2000)
    timer, sent = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt) as raised:
        sim.run(100_000, record_every=10)
    latency = time.perf_counter() - sent["at"]
    timer.join()
    print(f"Ctrl-C latency between steps: {latency * 1000:.1f} ms")
    assert latency < 0.25
    traj = raised.value.trajectory
    assert 0 < traj.steps_run < 100_000
    assert traj.steps[-1] == sim.step_count == traj.steps_run
    np.testing.assert_array_equal(traj.positions[-1], sim.positions)
    # Consistent: carrying on gives exactly what an uninterrupted run gives.
    sim.run(20)
    reference = crowd(2000)
    reference.run(traj.steps_run + 20, record_every=10**6)
    np.testing.assert_array_equal(sim.positions, reference.positions)
    np.testing.assert_array_equal(sim.velocities, reference.velocities)


@pytest.mark.skipif(os.name == "nt" or signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
                    reason="sends SIGINT to itself (not on Windows, nor where SIGINT is ignored, e.g. a background job)")
def test_ctrl_c_stops_a_long_step_within_a_quarter_second():
    """A step of a huge crowd takes longer than the check interval: the
    engine checks for Ctrl-C between blocks of agents inside the step too,
    and abandons the step (advancing nothing)."""
    vosim.set_num_threads(1)  # the same work per step on any machine
    # A busy machine (or a sanitizer build) may still be setting the run up when the
    # interrupt comes, before the engine's loop: then wait longer and try again.
    for delay in (0.2, 0.6, 1.5):
        sim = slow_crowd()
        before = sim.positions.copy()
        timer, sent = interrupt_after(delay)
        started = time.perf_counter()
        with pytest.raises(KeyboardInterrupt) as raised:
            sim.run(1000)
        latency = time.perf_counter() - sent["at"]
        timer.join()
        if hasattr(raised.value, "trajectory"):
            break
    else:
        pytest.fail("the interrupt never came while the engine was running")
    print(f"Ctrl-C latency inside a step: {latency * 1000:.1f} ms "
          f"(after {sent['at'] - started:.2f} s of the run)")
    assert latency < 0.25
    traj = raised.value.trajectory
    assert traj.steps_run == sim.step_count
    np.testing.assert_array_equal(traj.positions[-1], sim.positions)
    if traj.steps_run == 0:
        np.testing.assert_array_equal(sim.positions, before)
    sim.max_neighbors = 10  # cheap steps from here on
    sim.step()
    assert np.isfinite(sim.positions).all()


@pytest.mark.skipif(os.name == "nt" or signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
                    reason="sends SIGINT to itself (not on Windows, nor where SIGINT is ignored, e.g. a background job)")
def test_ctrl_c_abandons_a_long_single_step():
    vosim.set_num_threads(1)
    sim = slow_crowd()
    before = {name: getattr(sim, name).copy() for name in ("positions", "velocities")}
    timer, sent = interrupt_after(0.2)
    with pytest.raises(KeyboardInterrupt):
        sim.step()
    latency = time.perf_counter() - sent["at"]
    timer.join()
    assert latency < 0.25
    assert sim.step_count == 0 and sim.time == 0.0
    for name, values in before.items():
        np.testing.assert_array_equal(getattr(sim, name), values)
    # Nothing of the abandoned step remains: the next one is the first one.
    sim.step()
    reference = slow_crowd()
    reference.step()
    np.testing.assert_array_equal(sim.positions, reference.positions)


def test_exception_in_progress_callback_stops_the_run():
    sim = crowd(2000)

    def fail(done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here") as raised:
        sim.run(10_000, progress=fail)
    assert raised.value.trajectory.steps_run == sim.step_count < 10_000


def test_circle_scenario_arrives():
    sim = scenarios.circle(100, radius=100.0).build()
    traj = sim.run(3000, until_arrived=True)
    assert traj.all_arrived and sim.arrived.all()


def test_step_time_is_the_part_of_the_wall_time_spent_stepping():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents(np.random.default_rng(1).uniform(-5, 5, (50, 2)), radius=0.2)
    traj = sim.run(20, metrics=False)
    assert 0 < traj.step_time <= traj.wall_time
    assert sim.run(0).step_time == 0.0
