"""Writing files atomically: a reader sees the whole old file or the whole new one, never a part.

A writer killed half way (SIGKILL, a power cut) cannot remove its
temporary file, so the temporary files are named so that a later writer can
recognise them: ``.<name>.vosim-<host>-<pid>-<random>.tmp<suffix>``, with
``<host>`` a short digest of the machine's name and ``<pid>`` the writing
process. The first atomic write of a process into a folder removes the
temporary files there whose writer was a process of this machine that no
longer runs and that are older than ``STALE_SECONDS`` (the age guards
against a process of the same name in another PID namespace).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import socket
import time
import uuid
from pathlib import Path

#: A temporary file left by a dead writer is removed once it is this old (seconds).
STALE_SECONDS = 600.0
_HOST = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]
_TEMPORARY = re.compile(r"^\..+\.vosim-(?P<host>[0-9a-f]{8})-(?P<pid>[0-9]+)-[0-9a-f]{12}\.tmp")
_swept: set[str] = set()  # folders this process has already cleaned (only a dead process leaves files)


def temporary_name(path: Path) -> Path:
    """A new temporary path next to ``path``, recognisable as this process's (see the module's notes)."""
    return path.with_name(f".{path.name}.vosim-{_HOST}-{os.getpid()}-{uuid.uuid4().hex[:12]}.tmp{path.suffix}")


def _writer_gone(pid: int) -> bool:
    """Whether no process ``pid`` runs on this machine (never True where that cannot be told)."""
    if os.name != "posix" or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)  # signal 0: nothing is sent, only whether the process exists is checked
    except ProcessLookupError:
        return True
    except OSError:  # it exists and belongs to someone else
        return False
    return False


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Remove the temporary files in ``folder`` left by dead writers of this machine; return them.

    Only names made by :func:`temporary_name` are touched, only this
    machine's, only those whose process no longer runs and whose last change
    is older than ``STALE_SECONDS``. Errors (a folder that cannot be listed,
    a file removed meanwhile) leave things as they are.
    """
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _TEMPORARY.match(entry.name)
        if not match or match["host"] != _HOST or not _writer_gone(int(match["pid"])):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and now - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


@contextlib.contextmanager
def atomic_path(path):
    """A temporary path next to ``path`` to write to, moved onto ``path`` when the block ends without error.

    On an error the temporary file is removed and ``path`` is left as it was.
    The temporary file lies in the same folder (``os.replace`` is atomic only
    within one file system), starts with a dot (hidden, and not part of a
    Parquet dataset) and keeps ``path``'s suffix, so that writers choosing a
    format or compression from it (matplotlib, pandas) choose the same. The
    writer creates it, so it gets the usual permissions (the umask's). The
    first write of a process into a folder removes what killed writers left
    there (see the module's notes).
    """
    path = Path(path)
    folder = os.path.abspath(path.parent)
    if folder not in _swept:
        _swept.add(folder)
        remove_stale_temporaries(Path(folder))
    temporary = temporary_name(path)
    try:
        yield temporary
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def writable_folder(folder, argument: str, *, create: bool = False) -> Path:
    """``folder``, checked to be a folder a file can be written into (made first with ``create``).

    Raises
    ------
    ValueError
        Naming ``argument``: ``folder`` is a file, does not exist (without
        ``create``), cannot be made, or refuses a new file.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{argument}: {str(folder)!r} is a file, not a folder")
    if create:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ValueError(f"{argument}: cannot make the folder {str(folder)!r}: "
                             f"{error.strerror or error}") from None
    elif not folder.is_dir():
        raise ValueError(f"{argument}: the folder {str(folder)!r} does not exist")
    probe = temporary_name(folder / "write-test")
    try:
        with open(probe, "xb"):
            pass
        probe.unlink()
    except OSError as error:
        raise ValueError(f"{argument}: cannot write into the folder {str(folder)!r}: "
                         f"{error.strerror or error}") from None
    return folder
