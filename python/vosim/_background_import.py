"""Importing a module on a background thread while the calling thread works.

``vosim.compare`` returns a pandas DataFrame, and importing pandas takes a
fifth of a second or more; the runs before the table is made spend most of
their time in the engine, with the GIL released. Starting the import on a
thread as the call begins lets the two overlap. The calling thread's own
``import`` later waits for the thread's import to finish (Python takes one
lock per module being imported) and finds the module loaded; if the thread's
import failed, the calling thread's import runs again and raises the error
itself.
"""

from __future__ import annotations

import importlib
import sys
import threading


def _import_quietly(name: str) -> None:
    try:
        importlib.import_module(name)
    except BaseException:  # noqa: BLE001 - the calling thread's import reports it
        pass


def import_soon(name: str) -> threading.Thread | None:
    """Start importing module ``name`` on a daemon thread; None when it is imported already."""
    if name in sys.modules:
        return None
    thread = threading.Thread(target=_import_quietly, args=(name,), name=f"vosim-import-{name}", daemon=True)
    thread.start()
    return thread
