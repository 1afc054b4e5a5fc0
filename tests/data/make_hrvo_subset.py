"""Write the small subset of the HRVO reference data that the tests need.

Run from the repository root when ../shared/reference/hrvo/ is present (or
VOSIM_REFERENCE_DIR points to the reference directory):

    python tests/data/make_hrvo_subset.py

For each scenario of the ``orig`` version it copies the agents table and the
meta data, and keeps the rows of a few dumped steps of ``<name>_steps.csv``
verbatim (gzip-compressed, with a fixed header time so that the output is
reproducible). A step's rows hold every agent, so each kept row can be
replayed with its neighbours. The steps kept:

- ``headon_pair``: all of them;
- ``random40``: the first 20, every 25th, and the steps whose single-step
  replay lands near a float32 tie (48, 49: two agents 4e-8 from contact;
  197, 302: agents standing at their goals);
- ``circle``: steps 0, 1, 10, 20, 27 and 47 (1 to 47: float32 ties in crowded
  parallel streams) and 800 and 900 (hundreds of overlapping pairs).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFERENCE = Path(os.environ.get("VOSIM_REFERENCE_DIR", HERE.parents[1].parent / "shared" / "reference"))
DEFAULT_SOURCE = REFERENCE / "hrvo" / "orig"

STEPS = {
    "headon_pair": None,  # all
    "random40": sorted(set(range(20)) | set(range(0, 350, 25)) | {48, 49, 197, 302}),
    "circle": [0, 1, 10, 20, 27, 47, 800, 900],
}


def write_subset(source: Path, out: Path, name: str, steps: list[int] | None) -> int:
    shutil.copyfile(source / f"{name}_agents.csv", out / f"{name}_agents.csv")
    meta = json.loads((source / f"{name}_meta.json").read_text())
    lines = (source / f"{name}_steps.csv").read_text().splitlines(keepends=True)
    header, rows = lines[0], lines[1:]
    if steps is not None:
        wanted = set(steps)
        rows = [row for row in rows if int(row.split(",", 1)[0]) in wanted]
    kept = sorted({int(row.split(",", 1)[0]) for row in rows})
    meta["subset"] = {"steps": kept, "rows": len(rows),
                      "rule": "rows of these dumped steps of the full orig data, verbatim"}
    (out / f"{name}_meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    with open(out / f"{name}_steps.csv.gz", "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            gz.write((header + "".join(rows)).encode())
    return len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("names", nargs="*", default=list(STEPS))
    args = parser.parse_args()
    out = HERE / "hrvo"
    out.mkdir(exist_ok=True)
    for name in args.names:
        rows = write_subset(args.source, out, name, STEPS[name])
        print(f"{name}: {rows} rows")


if __name__ == "__main__":
    main()
