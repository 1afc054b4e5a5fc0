"""Writing files atomically: a reader sees the whole old file or the whole new one, never a part."""

from __future__ import annotations

import contextlib
import os
import uuid
from pathlib import Path


@contextlib.contextmanager
def atomic_path(path):
    """A temporary path next to ``path`` to write to, moved onto ``path`` when the block ends without error.

    On an error the temporary file is removed and ``path`` is left as it was.
    The temporary file lies in the same folder (``os.replace`` is atomic only
    within one file system), starts with a dot (hidden, and not part of a
    Parquet dataset) and keeps ``path``'s suffix, so that writers choosing a
    format or compression from it (matplotlib, pandas) choose the same. The
    writer creates it, so it gets the usual permissions (the umask's).
    """
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}.tmp{path.suffix}")
    try:
        yield temporary
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
