"""Write the small subset of the DetourCrowd sampling oracle that the tests need.

Run from the repository root when ../shared/reference/detour/ is present
(or VOSIM_REFERENCE_DIR points to the reference directory):

    python tests/data/make_detour_subset.py

It keeps, with all their runs, levels and debug samples:
- the hand-made cases (ids 0-28) and the first 20 random ones (29-48), which
  are the cases with per-sample debug data;
- every ``--every``-th further random case;
- every case where some run has a near tie (``min_gap`` < 1e-4), where
  float32 and float64 arithmetic may pick different winners;
- a few cases a float64 re-implementation singles out (CASES_OF_NOTE).
The result goes to tests/data/detour/subset.npz.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import _reference  # noqa: E402

# Cases where the winner hinges on float rounding in a way min_gap does not show:
# a candidate that is zero up to rounding decides against a touching wall.
CASES_OF_NOTE = (251, 1366)
NEAR_TIE = 1e-4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--every", type=int, default=9)
    args = parser.parse_args()
    if not _reference.detour_full_available():
        sys.exit(f"no DetourCrowd reference data under {_reference.FULL / 'detour'}")
    data = _reference.load_detour(full=True)

    chosen = set(range(49)) | set(range(49, int(data.case_id.max()) + 1, args.every)) | set(CASES_OF_NOTE)
    for name in ("results_adaptive", "results_grid"):
        table = data.tables[name]
        chosen |= set(table["case_id"][table["min_gap"] < NEAR_TIE].tolist())

    out = HERE / "detour"
    out.mkdir(exist_ok=True)
    path = out / "subset.npz"
    data.subset(sorted(chosen)).to_npz(path)
    print(f"{len(chosen)} cases, {path.stat().st_size / 1024:.0f} KiB -> {path.relative_to(HERE.parents[1])}")


if __name__ == "__main__":
    main()
