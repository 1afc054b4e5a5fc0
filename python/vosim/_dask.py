"""Getting a Dask client: the active one, one given, one to a scheduler's address, or a local cluster."""

from __future__ import annotations

import contextlib
import os
import sys

from ._checks import integer
from ._main_guard import require_guard

LOCAL = "local"


def distributed_module():
    try:
        import distributed
    except ImportError as error:
        raise ImportError('running on Dask needs dask.distributed: pip install "vosim[dask]"') from error
    return distributed


def usable_cores() -> int:
    """Cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def local_layout(workers: int | None, threads: int | None) -> tuple[int, int]:
    """Worker processes and OpenMP threads per worker for a cluster on this machine.

    By default one single-threaded worker per core: cells are independent, so
    processes use the cores fully without sharing anything; ``threads`` then
    defaults to the cores left per worker.
    """
    cores = usable_cores()
    workers = cores if workers is None else integer(workers, "workers", minimum=1)
    threads = max(1, cores // workers) if threads is None else integer(threads, "threads", minimum=1)
    return workers, threads


def active_client():
    """The Dask client this process already uses (``distributed.Client.current()``), or None.

    Without importing Dask: a process that has not imported it has no client.
    """
    distributed = sys.modules.get("distributed")
    if distributed is None:
        return None
    try:
        return distributed.Client.current()
    except ValueError:
        return None


def chosen_client(client):
    """Where a sweep or comparison runs: None for here, else the client (or address) to run on.

    ``client`` None means the Dask client this process already uses, if there
    is one, else here (on one machine, in-process is the fastest); False means
    here even when a client is active; anything else is passed on as given.
    """
    if client is None:
        return active_client()
    if client is False:
        return None
    return client


@contextlib.contextmanager
def client_for(client, *, workers: int | None = None, threads: int | None = None):
    """A ``distributed.Client`` for ``client``, closed afterwards if made here.

    ``client`` is a Client (used as is), a scheduler address such as
    ``"tcp://10.0.0.5:8786"``, or ``"local"`` for a new ``LocalCluster`` of
    ``workers`` processes (each running vosim on ``threads`` threads).
    """
    distributed = distributed_module()
    if isinstance(client, distributed.Client):
        yield client
        return
    if client == LOCAL:
        yield from _local_cluster(distributed, workers, threads)
        return
    if not isinstance(client, str):
        raise TypeError(f"client: expected a distributed.Client, a scheduler address, 'local' or None, "
                        f"got {type(client).__name__}")
    with distributed.Client(client) as made:
        yield made


def _local_cluster(distributed, workers, threads):
    require_guard("client='local' (a Dask LocalCluster)")
    workers, _ = local_layout(workers, threads)
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as made:
        yield made
