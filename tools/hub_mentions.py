"""How often the engine's hub files name a scene feature (sinks, speed zones, periodic corridors,
waypoints): the measure of how far scene features are units of their own.

    python tools/hub_mentions.py [--files PATH ...]

Counts, per file, the case-insensitive occurrences of ``sink``, ``speed_zone``/``speed zone``/``SpeedZone``,
``periodic`` and ``waypoint`` as parts of words (``sinks_``, ``add_sink``, ``Periodic``, ``waypoints_``
count once each), and prints them with the total.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

HUBS = ["cpp/core/engine/engine.hpp", "cpp/core/engine/engine.cpp", "cpp/core/engine/engine_state.cpp",
        "cpp/bindings/bind_state.cpp", "python/vosim/_simulation.py", "cpp/core/method.hpp"]
FEATURE = re.compile(r"sink|speed[_ ]?zone|periodic|waypoint", re.IGNORECASE)


def mentions(path: Path) -> int:
    return len(FEATURE.findall(path.read_text(encoding="utf-8")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", nargs="*", default=HUBS, help="files to count (default: the hubs)")
    args = parser.parse_args()
    root = Path(__file__).resolve().parents[1]
    total = 0
    for name in args.files:
        count = mentions(root / name)
        total += count
        print(f"{name:<40} {count:5d}")
    print(f"{'total':<40} {total:5d}")


if __name__ == "__main__":
    main()
