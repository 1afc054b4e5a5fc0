"""Inside a Dask worker's task thread, steps default to that thread's share of the cores."""

import os
import threading

import numpy as np
import pytest

import vosim

distributed = pytest.importorskip("distributed")


def cores() -> int:
    return max(1, len(os.sched_getaffinity(0)))


def threads_used_by_a_step() -> int:
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents(np.zeros((1, 2)), goals=[[1.0, 0.0]])
    sim.step()
    return vosim.get_num_threads()


@pytest.fixture
def default_threads(monkeypatch):
    """No count set process-wide, no OMP_NUM_THREADS: the defaults apply."""
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    vosim.set_num_threads(None)
    yield
    vosim.set_num_threads(None)


def in_fresh_thread(function):
    """Run function on a new thread (the share is decided once per thread)."""
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("value", function()))
    thread.start()
    thread.join()
    return out["value"]


class FakeWorker:
    class state:
        nthreads = 4


def test_a_worker_thread_takes_its_share(default_threads, monkeypatch):
    monkeypatch.setattr(distributed, "get_worker", lambda: FakeWorker())
    assert in_fresh_thread(threads_used_by_a_step) == max(1, cores() // 4)


def test_outside_a_worker_the_default_is_unchanged(default_threads, monkeypatch):
    def not_a_worker():
        raise ValueError("No worker found")

    monkeypatch.setattr(distributed, "get_worker", not_a_worker)
    before = in_fresh_thread(vosim.get_num_threads)
    assert in_fresh_thread(threads_used_by_a_step) == before


def test_omp_num_threads_wins_over_the_share(default_threads, monkeypatch):
    monkeypatch.setattr(distributed, "get_worker", lambda: FakeWorker())
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    before = in_fresh_thread(vosim.get_num_threads)  # read once, at the first step
    assert in_fresh_thread(threads_used_by_a_step) == before


def test_set_num_threads_wins_over_the_share(default_threads, monkeypatch):
    monkeypatch.setattr(distributed, "get_worker", lambda: FakeWorker())
    vosim.set_num_threads(3)
    assert in_fresh_thread(threads_used_by_a_step) == 3
    vosim.set_num_threads(None)
    # The share was still taken by that thread; the process-wide count hid it.
    assert vosim.get_num_threads() == in_fresh_thread(vosim.get_num_threads)


def test_a_real_threaded_worker(default_threads):
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        inside = client.submit(threads_used_by_a_step, pure=False).result()
    assert inside == max(1, cores() // 2)


def test_set_num_threads_none_goes_back_to_the_default(default_threads):
    default = vosim.get_num_threads()
    vosim.set_num_threads(1)
    assert vosim.get_num_threads() == 1
    vosim.set_num_threads(None)
    assert vosim.get_num_threads() == default


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2"])
def test_set_num_threads_refuses_bad_counts(bad):
    with pytest.raises((ValueError, TypeError), match="num_threads"):
        vosim.set_num_threads(bad)
