"""A simulator kept running in another thread, for tests of what other
threads may do meanwhile."""

import contextlib
import threading


class StopRun(Exception):
    pass


@contextlib.contextmanager
def running_in_another_thread(sim):
    """Runs ``sim`` in another thread; the block starts once the run is under
    way (the engine busy) and the run stops when the block ends. Yields a
    dict that gets ``"trajectory"``, what the run recorded, once it stopped."""
    inside, release = threading.Event(), threading.Event()
    outcome = {}

    def progress(done, total):  # called from inside run(), with the engine busy
        inside.set()
        if release.is_set():
            raise StopRun()

    def worker():
        try:
            sim.run(10**9, record_every=10**9, progress=progress)
        except StopRun as error:
            outcome["trajectory"] = error.trajectory

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        assert inside.wait(30), "the run did not start within 30 s"
        yield outcome
    finally:
        release.set()
        thread.join(30)
    assert not thread.is_alive(), "the run did not stop within 30 s"
