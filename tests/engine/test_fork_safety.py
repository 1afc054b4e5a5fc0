"""A process forked after any parallel entry point works in the child.

Every parallel loop runs on the engine's own pool, which a child made by
fork() replaces with one of its own (a thread library's pool would leave the
child waiting for threads it does not have). Each entry point runs in the
parent on two threads, then again in a child made by os.fork and in a
multiprocessing "fork" pool; the child must finish within a deadline.
"""

import multiprocessing
import os
import signal
import sys
import time

import numpy as np
import pytest

import vosim

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork() on this platform")

shapely = pytest.importorskip("shapely")
HAVE_NAVIGATION = hasattr(shapely, "constrained_delaunay_triangles")

DEADLINE = 60.0  # seconds; each child takes well under one


def crowd_sim(count=600):
    """More agents than the engine's threshold for parallel loops (512)."""
    rng = np.random.default_rng(3)
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents(rng.uniform(0.0, 60.0, (count, 2)), goals=rng.uniform(0.0, 60.0, (count, 2)))
    return sim


def room_sim(count=600):
    """A room with a wall in it and two exits: planning has something to do."""
    rng = np.random.default_rng(4)
    sim = vosim.Simulator(time_step=0.1)
    sim.add_boundary([[0.0, 0.0], [40.0, 0.0], [40.0, 20.0], [0.0, 20.0]])
    sim.add_obstacle([[10.0, 0.0], [10.5, 0.0], [10.5, 15.0], [10.0, 15.0]], strict=False)
    starts = np.column_stack([rng.uniform(12.0, 38.0, count), rng.uniform(1.0, 19.0, count)])
    sim.add_agents(starts, radius=0.2)
    return sim


def do_run():
    crowd_sim().run(3)


def do_metrics():
    traj = crowd_sim().run(3)
    assert np.isfinite(traj.metrics["min_clearance"])


def do_roadmap():
    sim = room_sim()
    sim.set_goals(sim.ids, np.tile([[2.0, 2.0]], (sim.num_agents, 1)), plan="roadmap")
    sim.run(2)


def do_navmesh():
    sim = room_sim()
    sim.set_goals(sim.ids, np.tile([[2.0, 2.0]], (sim.num_agents, 1)), plan="navmesh")
    sim.run(2)


def do_exits():
    sim = room_sim()
    sinks = [sim.add_sink([[0.0, 8.0], [0.5, 8.0], [0.5, 12.0], [0.0, 12.0]]),
             sim.add_sink([[39.5, 8.0], [40.0, 8.0], [40.0, 12.0], [39.5, 12.0]])]
    sim.set_exits(sinks, choice="quickest")
    sim.run(2)


ENTRY_POINTS = {"run": do_run, "metrics": do_metrics, "roadmap": do_roadmap, "navmesh": do_navmesh,
                "exits": do_exits}
NEEDS_NAVIGATION = {"roadmap", "navmesh", "exits"}


@pytest.fixture
def two_threads():
    vosim.set_num_threads(2)
    yield
    vosim.set_num_threads(None)


def entry_point(name):
    if name in NEEDS_NAVIGATION and not HAVE_NAVIGATION:
        pytest.skip("vosim.navigation needs shapely >= 2.1")
    return ENTRY_POINTS[name]


def wait_or_kill(pid):
    """The child's exit status, or None when it outlived the deadline (then it is killed)."""
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_os_fork_after_the_entry_point(name, two_threads):
    work = entry_point(name)
    work()  # the parent's pool is now running
    pid = os.fork()
    if pid == 0:  # the child: the same work, then leave without pytest's clean-up
        code = 1
        try:
            work()
            code = 0
        finally:
            sys.stdout.flush()
            os._exit(code)
    status = wait_or_kill(pid)
    assert status is not None, f"the child hung in {name} after the parent's"
    assert os.waitstatus_to_exitcode(status) == 0


def _in_pool(name):
    ENTRY_POINTS[name]()
    return name


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_multiprocessing_fork_pool_after_the_entry_point(name, two_threads):
    work = entry_point(name)
    work()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        result = pool.map_async(_in_pool, [name, name])
        assert result.get(timeout=DEADLINE) == [name, name]
