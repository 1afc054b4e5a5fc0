"""Write the small subset of the RVO2 reference data that the tests need.

Run from the repository root when ../shared/reference/rvo2/ is present:

    python tests/data/make_rvo2_subset.py

For each scenario it keeps the first ``--steps`` dumped steps (all of them
for scenarios small enough; states, neighbour lists, counts) in a compressed .npz next to the scenario's JSON
description without its bulky parts.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCE = HERE.parents[1].parent / "shared" / "reference" / "rvo2"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("names", nargs="*", default=["circle250", "headon_pair"])
    args = parser.parse_args()
    out = HERE / "rvo2"
    out.mkdir(exist_ok=True)
    for name in args.names:
        meta = json.loads((args.source / f"{name}.json").read_text())
        total = len(np.load(args.source / f"{name}.steps.npy"))
        small = total * meta["num_agents"] <= 20_000
        rows = total if small else min(args.steps, total)
        arrays = {
            kind: np.load(args.source / f"{name}.{kind}.npy")[:rows]
            for kind in ("states", "steps", "counts", "neighbors")
        }
        np.savez_compressed(out / f"{name}.npz", **arrays)
        meta["dumped_steps"] = {"count": rows, "rule": f"first {rows} dumped steps of the full data"}
        (out / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n")
        print(f"{name}: {rows} steps")


if __name__ == "__main__":
    main()
