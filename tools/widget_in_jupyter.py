"""The viewer widget in a real JupyterLab or Notebook 7, driven in headless Chromium: a check run by hand.

    pip install jupyterlab notebook anywidget websocket-client
    python tools/widget_in_jupyter.py lab          # or: notebook

Writes a notebook to a temporary folder (a recorded bottleneck run shown with
its named places; a Simulator's live view followed by ``sim.run`` in the
next cell), starts the server on it with the app exposed to the page, runs
every cell from the page ("Run all"), presses the recorded view's Play, and
prints what the page's viewers hold. Exits 1 when a view is missing, Play
does not move it, or the live view did not get the run's last frame.
``--screenshot PATH`` also saves the page.

The suite cannot run this (it needs the Jupyter front ends, which the test
extras leave out); ``tests/frontend/test_viewer_browser.py`` drives the same
front-end module with a stand-in model.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from _headless_chromium import Chromium  # noqa: E402

CELLS = [
    "import vosim\n"
    "scenario = vosim.scenarios.bottleneck(40, seed=3)\n"
    "traj = scenario.build().run(300, record_every=3)\n"
    "vosim.view(traj, color_by=\"density\", places=scenario.geometry)",
    "sim = vosim.scenarios.crossing(8, seed=1).build()\n"
    "live = vosim.view(sim)\n"
    "live",
    "traj2 = sim.run(150, progress=live.follow)\n"
    "sim.time, live.frames_sent",
]


def notebook() -> dict:
    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}
             for source in CELLS]
    return {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("app", choices=["lab", "notebook"])
    parser.add_argument("--port", type=int, default=8891)
    parser.add_argument("--screenshot", type=Path)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="vosim-widget-"))
    (folder / "widget.ipynb").write_text(json.dumps(notebook()), encoding="utf-8")
    expose = "LabApp" if args.app == "lab" else "JupyterNotebookApp"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "python"), os.environ.get("PYTHONPATH")])))
    log = open(folder / "server.log", "w")
    server = subprocess.Popen([sys.executable, "-m", "jupyter", args.app, "--no-browser", f"--port={args.port}",
                               "--IdentityProvider.token=vosim", f"--ServerApp.root_dir={folder}", "--allow-root",
                               f"--{expose}.expose_app_in_browser=True"], env=env, stdout=log, stderr=subprocess.STDOUT)
    failures = []
    try:
        base = f"http://127.0.0.1:{args.port}"
        for _ in range(240):
            try:
                urllib.request.urlopen(f"{base}/api?token=vosim", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        path = "lab/tree/widget.ipynb" if args.app == "lab" else "notebooks/widget.ipynb"
        with Chromium(width=1300, height=1000, timeout=120) as page:
            page.call("Page.navigate", url=f"{base}/{path}?token=vosim")
            page.wait_for("window.jupyterapp && document.querySelector('.jp-Notebook .jp-Cell')")
            time.sleep(5)  # the kernel starts
            page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
            page.wait_for("window.vosimViewers && window.vosimViewers.length >= 2", timeout=240)
            page.wait_for("Array.from(document.querySelectorAll('.jp-OutputArea-output'))"
                          ".some((e) => /^\\(1[45]\\.\\d*, \\d+\\)$/.test(e.textContent.trim()))", timeout=240)
            time.sleep(2)
            viewers = page.evaluate("window.vosimViewers.map((v) => ({title: v.meta.title, live: v.meta.live,"
                                    " frames: v.frames.count, renderer: v.state.renderer,"
                                    " places: (v.meta.places || []).map((p) => p.name)}))")
            for viewer in viewers:
                print(json.dumps(viewer))
            page.evaluate("document.querySelector('.vv-agents').closest('.jp-OutputArea-output')"
                          ".querySelector('button').click()")
            time.sleep(2)
            played = page.evaluate("window.vosimViewers[0].state.frame")
            print(f"recorded view, frame after 2 s of Play: {played}")
            if args.screenshot:
                page.screenshot().save(args.screenshot)
            if played < 1:
                failures.append("Play did not move the recorded view")
            if len(viewers) < 2 or viewers[1]["frames"] < 2:
                failures.append("the live view did not get the run's last frame")
    finally:
        server.terminate()
        server.wait(10)
    for failure in failures:
        print("FAILED:", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
