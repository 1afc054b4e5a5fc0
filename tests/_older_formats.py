"""Files as older vosim versions wrote them, made from a current one.

Tests of backward compatibility drop arrays that older versions did not
have; the file must then also look old in full: the format version before
checksums, and no checksum (a current file missing an array is corrupt).
"""

from __future__ import annotations

import json

import numpy as np

# The last format version of each kind of file without a checksum.
BEFORE_CHECKSUMS = {"vosim-state": 2, "vosim-trajectory": 1}


def as_older_file(arrays: dict) -> dict:
    """The arrays of a state or trajectory file with its metadata made that of an older format."""
    metadata = json.loads(str(arrays["metadata"]))
    metadata.pop("checksum")
    metadata["format_version"] = BEFORE_CHECKSUMS[metadata["format"]]
    return {**arrays, "metadata": np.array(json.dumps(metadata))}


def as_older_payload(state: dict) -> dict:
    """A pickled state (``__getstate__()``) as an older format made it."""
    state = dict(state)
    state.pop("checksum")
    state["format_version"] = BEFORE_CHECKSUMS["vosim-state"]
    return state
