"""The viewer's pictures in docs/images/ (pages written by Trajectory.to_html, shot in headless Chromium)
and the page the guide embeds, docs/_static/viewer_bottleneck.html.

    python docs/viewer_screenshots.py

Needs chromium and websocket-client (see tests/_headless_chromium.py) and
pillow. Each picture is the viewer at one frame of a scenario's run.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from _headless_chromium import Chromium  # noqa: E402

import vosim  # noqa: E402

# picture, scenario, steps, record every, colour, frame shown (share of the run), seek code
PICTURES = [
    ("viewer_crowd_obstacles.png", "blocks", 400, 4, "speed", 0.35),
    ("viewer_bottleneck_density.png", "bottleneck", 400, 4, "density", 0.3),
    ("viewer_swarm3d.png", "swarm_gate", 300, 3, "agent", 0.5),
]


def main() -> int:
    out = HERE / "images"
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, Chromium(width=900, height=900) as browser:
        for picture, name, steps, every, color_by, share in PICTURES:
            scene = vosim.scenarios.ALL_SCENARIOS[name]()
            sim = scene.build(scene.method_for(None))
            traj = sim.run(steps, record_every=every)
            page = traj.to_html(Path(folder) / f"{name}.html", geometry_of=sim, color_by=color_by,
                                title=f"{name}: {sim.method.name}, {scene.num_agents} agents")
            browser.open(page)
            frame = int(share * (len(traj.times) - 1))
            browser.evaluate(f"window.vosimViewers[0].seek({frame})")
            image = browser.screenshot(".vosim-viewer")
            image.quantize(colors=96).save(out / picture, optimize=True)
            if name == "bottleneck":  # the page the guide embeds
                static = HERE / "_static"
                static.mkdir(exist_ok=True)
                traj.to_html(static / "viewer_bottleneck.html", geometry_of=sim, color_by=color_by,
                             title=f"{name}: {sim.method.name}, {scene.num_agents} agents")
            print(f"{out / picture}: frame {frame + 1} of {len(traj.times)}, {(out / picture).stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
