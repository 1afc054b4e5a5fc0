"""The run viewer against agent count: page size, the page's own work per frame, frames per second.

For each crowd size a synthetic run (agents on a square at one per square
metre, walking at random; ``--frames`` frames) is written with
``Trajectory.to_html`` and opened in headless Chromium. There the page is
made to draw a new frame on every animation frame for ``--seconds``, and
reports:

- work per frame: the median milliseconds, measured inside the page with
  ``performance.now()``, to compute the colour values (density only),
  upload the frame's buffers and issue the draw calls (WebGL: one for every
  agent); the GPU's own work runs after it, elsewhere;
- a frame drawn to the end: milliseconds for the page's work plus the
  renderer's, each frame waited for by reading a pixel back; 1000 over it is
  the frames per second the renderer sustains. Headless Chromium here has
  no GPU: WebGL runs on SwiftShader, a software renderer on the CPU, far
  slower than a desktop GPU;
- animation frames per second: frames the page drew per second on the
  browser's own schedule (``requestAnimationFrame``, at most 60; headless
  Chromium paces them itself, and on a loaded machine far below 60 even
  for an empty page).

Usage::

    python benchmarks/bench_viewer.py --sizes 1000 10000 100000 --frames 10

Needs chromium and websocket-client (see tests/_headless_chromium.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _headless_chromium import Chromium  # noqa: E402

import vosim  # noqa: E402
from vosim.view._scene import size_text  # noqa: E402


def synthetic_run(agents: int, frames: int, seed: int = 0) -> vosim.Trajectory:
    """Agents at one per square metre, each walking its own random heading at 1.2 m/s, ``frames`` frames."""
    rng = np.random.default_rng(seed)
    side = np.sqrt(agents)
    start = rng.uniform(0, side, (agents, 2))
    heading = rng.uniform(-np.pi, np.pi, agents)
    velocity = 1.2 * np.stack([np.cos(heading), np.sin(heading)], axis=1)
    times = np.arange(frames) * 0.1
    positions = start[None] + times[:, None, None] * velocity[None]
    return vosim.Trajectory(
        positions=positions, velocities=np.broadcast_to(velocity, positions.shape).copy(), times=times,
        steps=np.arange(frames), ids=np.arange(agents), radius=np.full(agents, 0.25),
        goals=start + 100 * velocity, has_goal=np.ones(agents, bool), time_step=0.1, steps_run=frames - 1,
        all_arrived=False, wall_time=0.0, method={"method": "synthetic"})


LOOP = """
(async () => {
  const v = window.vosimViewers[0];
  v.setColor(%(mode)s);
  const frames = v.frames.count;
  let k = 0, drawn = 0;
  const work = [];
  const started = performance.now();
  await new Promise((resolve) => {
    function loop() {
      v.seek(k++ %% frames);
      drawn++;
      work.push(v.state.lastWorkMs);
      if (performance.now() - started < %(ms)d) requestAnimationFrame(loop); else resolve();
    }
    requestAnimationFrame(loop);
  });
  const elapsed = performance.now() - started;
  // Then frames drawn to the end: each one's work and the renderer's (reading a pixel back waits for it).
  const gl = document.querySelector(".vv-agents").getContext("webgl");
  const pixel = new Uint8Array(4);
  const finishStarted = performance.now();
  let finished = 0;
  while (performance.now() - finishStarted < %(ms)d / 2) {
    v.seek(k++ %% frames);
    if (gl) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    finished++;
  }
  const finishMs = (performance.now() - finishStarted) / finished;
  work.sort((a, b) => a - b);
  return { finishMs, median: work[work.length >> 1], fps: drawn * 1000 / elapsed,
           renderer: v.state.renderer, uploads: v.state.uploads };
})()
"""


def measure(browser: Chromium, page: Path, seconds: float) -> dict:
    started = time.perf_counter()
    browser.open(page)
    loaded = time.perf_counter() - started
    speed = browser.evaluate(LOOP % {"mode": '"speed"', "ms": seconds * 1000})
    density = browser.evaluate(LOOP % {"mode": '"density"', "ms": seconds * 1000})
    return {"load": loaded, "speed": speed, "density": density}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=3.0, help="drawing time per measurement")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a page may take to open")
    args = parser.parse_args(argv)

    print(f"load: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores; WebGL on SwiftShader (software)")
    print("| agents | frames | page size | bytes / agent-frame | write (s) | load (s) | work / frame, speed (ms) "
          "| work / frame, density (ms) | frame drawn to the end (ms) | frames / s sustained "
          "| animation frames / s | renderer, frames uploaded |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as folder, Chromium(width=1000, height=800, timeout=args.timeout) as browser:
        for agents in args.sizes:
            traj = synthetic_run(agents, args.frames)
            started = time.perf_counter()
            page = traj.to_html(Path(folder) / f"crowd_{agents}.html")
            written = time.perf_counter() - started
            size = page.stat().st_size
            del traj
            result = measure(browser, page, args.seconds)
            print(f"| {agents:,} | {args.frames} | {size_text(size)} | {size / agents / args.frames:.1f} "
                  f"| {written:.2f} | {result['load']:.1f} | {result['speed']['median']:.2f} "
                  f"| {result['density']['median']:.2f} | {result['speed']['finishMs']:.1f} "
                  f"| {1000 / result['speed']['finishMs']:.1f} | {result['speed']['fps']:.1f} "
                  f"| {result['speed']['renderer']}, {result['speed']['uploads']} |", flush=True)
            page.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
