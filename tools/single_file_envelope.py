"""Derive the measured single-file speed envelope that RiMEA 16 compares against.

Reads PedPy's single-file demo trajectories (``n34_cam2.csv`` and
``n56_cam1.csv``: columns ID, Frame, x, y, v_x, v_y in m and m/s, 25 frames
a second, one row every 10 frames) from the folder given, and writes
``python/vosim/validation/data/single_file_envelope.csv``: for each bin of
1D density, the 10th, 50th and 90th percentile of the measured speeds.

Measure (the one :func:`vosim.validation.rimea_16` applies to simulated
rings): in every frame, each person whose predecessor (the next person
ahead in the walking direction) is in view gets the individual density
``1 / headway`` (persons/m, the headway measured along the corridor's axis)
and its speed ``|v|``. Bins are ``bin_width`` wide; bins with fewer than
``min_samples`` samples are left out.

Not run by the tests: the derived table is committed (provenance in
``python/vosim/validation/data/README.md``).

    python tools/single_file_envelope.py DIR [--bin-width 0.25] [--min-samples 30]
"""

from __future__ import annotations

import argparse
import csv
import os
import tempfile
from pathlib import Path

import numpy as np

FILES = ("n34_cam2.csv", "n56_cam1.csv")
OUT = Path(__file__).resolve().parents[1] / "python" / "vosim" / "validation" / "data" / "single_file_envelope.csv"


def headway_samples(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """(density 1/headway in persons/m, speed in m/s) of every person whose predecessor is in view, every frame."""
    table = np.loadtxt(path, delimiter=",", skiprows=1)
    frame, x, vx, vy = table[:, 1], table[:, 2], table[:, 4], table[:, 5]
    direction = np.sign(np.sum(vx))  # the file's walking direction along x
    densities, speeds = [], []
    for f in np.unique(frame):
        here = np.flatnonzero(frame == f)
        order = here[np.argsort(direction * x[here])]  # rearmost first
        headway = direction * np.diff(x[order])
        follower = order[:-1]
        ok = headway > 0.0
        densities.append(1.0 / headway[ok])
        speeds.append(np.hypot(vx[follower[ok]], vy[follower[ok]]))
    return np.concatenate(densities), np.concatenate(speeds)


def envelope(density: np.ndarray, speed: np.ndarray, bin_width: float, min_samples: int) -> list[tuple]:
    """Rows (low, high, samples, p10, p50, p90) for the bins ``(low, high]`` holding enough samples."""
    bins = np.ceil(density / bin_width).astype(np.int64)
    rows = []
    for k in np.unique(bins):
        mine = speed[bins == k]
        if mine.size >= min_samples:
            p10, p50, p90 = np.percentile(mine, [10, 50, 90])
            rows.append(((k - 1) * bin_width, k * bin_width, int(mine.size), p10, p50, p90))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="folder holding " + " and ".join(FILES))
    parser.add_argument("--bin-width", type=float, default=0.25)
    parser.add_argument("--min-samples", type=int, default=30)
    args = parser.parse_args()
    parts = [headway_samples(args.folder / name) for name in FILES]
    density = np.concatenate([p[0] for p in parts])
    speed = np.concatenate([p[1] for p in parts])
    rows = envelope(density, speed, args.bin_width, args.min_samples)
    # Written atomically: a temporary file in the same folder, then renamed over the table.
    handle, temporary = tempfile.mkstemp(dir=OUT.parent, suffix=".csv")
    with os.fdopen(handle, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["density_low_per_m", "density_high_per_m", "samples", "speed_p10_m_per_s",
                         "speed_p50_m_per_s", "speed_p90_m_per_s"])
        for low, high, n, p10, p50, p90 in rows:
            writer.writerow([f"{low:.2f}", f"{high:.2f}", n, f"{p10:.3f}", f"{p50:.3f}", f"{p90:.3f}"])
    os.replace(temporary, OUT)
    print(f"{len(rows)} bins from {density.size} samples written to {OUT}")


if __name__ == "__main__":
    main()
