"""Write the small subset of the AVO2 reference data that the tests need.

Run from the repository root when ../shared/reference/avo2/ is present:

    python tests/data/make_avo2_subset.py

For each scenario it keeps a few dumped rows (states, counts, neighbour
lists and lines, the last two only exist for steps 0..49) in a compressed
.npz next to the scenario's JSON description. avo_headon is kept whole; for
the others the first rows (the first step from rest, where AVO2's branch
tests are most sensitive) and, for avo_circle, the rows of the central
pile-up, where agents overlap.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCE = HERE.parents[1].parent / "shared" / "reference" / "avo2"
# Rows (indices into the dumped rows) kept per scenario; None keeps all.
ROWS = {
    "avo_headon": None,
    "avo_crossing": list(range(0, 12)) + list(range(200, 215)),
    "avo_circle": list(range(0, 6)) + list(range(398, 406)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    args = parser.parse_args()
    out = HERE / "avo2"
    out.mkdir(exist_ok=True)
    for name, rows in ROWS.items():
        meta = json.loads((args.source / f"{name}.json").read_text())
        arrays = {kind: np.load(args.source / f"{name}.{kind}.npy")
                  for kind in ("states", "steps", "counts", "neighbors", "lines")}
        keep = np.arange(len(arrays["steps"])) if rows is None else np.asarray(rows)
        early = keep[keep < len(arrays["neighbors"])]  # rows with neighbour lists and lines
        subset = {
            "states": arrays["states"][keep], "steps": arrays["steps"][keep], "counts": arrays["counts"][keep],
            "neighbors": arrays["neighbors"][early], "lines": arrays["lines"][early],
        }
        np.savez_compressed(out / f"{name}.npz", **subset)
        meta["dumped_steps"] = {"count": len(keep), "rule": "a subset of the full data's rows (see "
                                "tests/data/make_avo2_subset.py); neighbors and lines for its rows below 50"}
        (out / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n")
        print(f"{name}: {len(keep)} rows, {(out / f'{name}.npz').stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
