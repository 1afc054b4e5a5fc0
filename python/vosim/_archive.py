"""vosim's ``.npz`` files (state files, trajectories): checked reading and the checksum of their contents.

A file may come from someone else, so :func:`read_arrays` trusts nothing in
it: every member's declared sizes are compared with what the archive can
hold before anything is allocated, data is read in pieces (memory follows
the bytes actually decompressed, never a count written in a header), no
member is unpickled, and every way a damaged archive can fail (a truncated
or overwritten zip, an unknown compression method, encryption, a bad
checksum, a malformed array header) comes out as :class:`Unreadable`, a
ValueError that the loaders complete with the file's name.

:func:`digest` is the checksum both formats carry in their metadata: it
covers every array (name, type, shape and bytes) and the metadata itself,
so a flipped byte, a renamed or dropped member or an edited number is
caught on load.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import struct
import zipfile
import zlib
from pathlib import Path

import numpy as np

# Deflate expands at most about 1032-fold (a 258-byte match per 2 bits);
# a member declaring more than that cannot hold what it says.
_DEFLATE_RATIO = 1032
_PIECE = 1 << 20  # bytes read at a time
# What the zip and zlib modules raise for damaged archives.
_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError,
               struct.error, OverflowError, UnicodeDecodeError, ValueError)


class Unreadable(ValueError):
    """The archive is damaged or not one of vosim's; the message says how (without the file's name)."""


class Foreign(Unreadable):
    """A readable file that is not one of vosim's archives (a single array, no metadata)."""


def read_arrays(path) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` archive at ``path``, by name (``.npy`` dropped), checked.

    Raises
    ------
    FileNotFoundError
        No such file.
    Unreadable
        Anything else that keeps it from being read in full.
    """
    path = Path(path)
    if not path.is_file():  # a directory or a pipe (which opening would wait on)
        if not path.exists():
            raise FileNotFoundError(path)
        raise Unreadable("not a regular file")
    try:
        stream = open(path, "rb")
    except OSError as error:  # no permission
        raise Unreadable(f"{type(error).__name__}: {error.strerror or error}") from None
    with stream:
        size = os.fstat(stream.fileno()).st_size
        if stream.read(6) == b"\x93NUMPY":
            raise Foreign("a single array, not an archive")
        stream.seek(0)
        try:
            with zipfile.ZipFile(stream) as archive:
                members = archive.infolist()
                names = [_name(info) for info in members]
                if len(set(names)) != len(names):
                    raise Unreadable("two members have the same name")
                # Members cannot share bytes (a zip bomb's trick) nor hold more than the file.
                if sum(info.compress_size for info in members) > size:
                    raise Unreadable("its members claim more bytes than the file has")
                return {name: _read_member(archive, info) for name, info in zip(names, members)}
        except Unreadable:
            raise
        except _ZIP_ERRORS as error:
            raise Unreadable(f"{type(error).__name__}: {error}") from None


def _name(info: zipfile.ZipInfo) -> str:
    return info.filename[:-4] if info.filename.endswith(".npy") else info.filename


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> np.ndarray:
    name = _name(info)
    if info.flag_bits & 0x1:
        raise Unreadable(f"member {name!r} is encrypted")
    if info.compress_type == zipfile.ZIP_STORED:
        most = info.compress_size
    elif info.compress_type == zipfile.ZIP_DEFLATED:
        most = info.compress_size * _DEFLATE_RATIO + 64
    else:
        raise Unreadable(f"member {name!r} uses compression method {info.compress_type}, not stored or deflated")
    if info.file_size > most:
        raise Unreadable(f"member {name!r} declares {info.file_size} bytes, more than its "
                         f"{info.compress_size} compressed bytes can hold")
    with archive.open(info) as member:
        version = np.lib.format.read_magic(member)
        if version == (1, 0):
            shape, fortran_order, dtype = np.lib.format.read_array_header_1_0(member)
        elif version in ((2, 0), (3, 0)):
            shape, fortran_order, dtype = np.lib.format.read_array_header_2_0(member)
        else:
            raise Unreadable(f"member {name!r} has array format version {version}")
        if dtype.hasobject:
            raise Unreadable(f"member {name!r} holds Python objects, which vosim never writes")
        if dtype.itemsize == 0:
            raise Unreadable(f"member {name!r} has a type of zero size ({dtype})")
        count = math.prod(shape)
        header = member.tell()
        if count * dtype.itemsize != info.file_size - header:
            raise Unreadable(f"member {name!r}: its header says {count} values of {dtype}, "
                             f"but it holds {info.file_size - header} bytes")
        data = bytearray()
        while len(data) < count * dtype.itemsize:
            piece = member.read(min(_PIECE, count * dtype.itemsize - len(data)))
            if not piece:
                raise Unreadable(f"member {name!r} is truncated")
            data += piece
        member.read(1)  # reaches the end, where the zip's own checksum is compared
    array = np.frombuffer(data, dtype=dtype, count=count)
    return array.reshape(shape[::-1]).T if fortran_order else array.reshape(shape)


def digest(arrays: dict[str, np.ndarray], metadata: dict) -> str:
    """The checksum of a file's contents: ``arrays`` (name, type, shape, bytes) and its JSON ``metadata``."""
    check = hashlib.sha256()
    check.update(json.dumps(metadata, sort_keys=True, default=_number).encode())
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        check.update(json.dumps([name, array.dtype.str, list(array.shape)]).encode())
        check.update(array.reshape(-1).view(np.uint8))
    return "sha256:" + check.hexdigest()


def _number(value):
    """NumPy scalars in metadata (a method's settings given as np.float64) as Python numbers."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON")


def parse_metadata(arrays: dict[str, np.ndarray]) -> dict:
    """The JSON ``metadata`` entry of a file's arrays (Unreadable when missing or not a JSON object)."""
    if "metadata" not in arrays:
        raise Foreign("no metadata")
    entry = arrays["metadata"]
    if entry.shape != () or entry.dtype.kind != "U":
        raise Unreadable("its metadata is not text")
    try:
        metadata = json.loads(str(entry))
    except (ValueError, RecursionError):
        raise Unreadable("its metadata is not JSON") from None
    if not isinstance(metadata, dict):
        raise Unreadable("its metadata is not a JSON object")
    return metadata
