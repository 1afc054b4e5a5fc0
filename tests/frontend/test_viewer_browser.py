"""The viewer in a real browser: headless Chromium opens exported pages (and the widget's front end),
its own controls are pressed, and screenshots are checked where the data puts agents and obstacles.

Skipped where no chromium is installed, except in CI (CI=true), where a
missing browser fails: ``.ci/run`` installs Debian's ``chromium``.
"""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

import vosim
from vosim.view._page import module_source, pack
from vosim.view._scene import from_simulator, live_frame

from _headless_chromium import Chromium, find_chromium, in_ci

if find_chromium() is None:
    if in_ci():
        pytest.fail("CI=true but no chromium on PATH: .ci/run installs it (apt-get install chromium)",
                    pytrace=False)
    pytest.skip("no chromium on PATH (apt-get install chromium); the browser tests need it",
                allow_module_level=True)
pytest.importorskip("websocket", reason="the browser tests drive Chromium with websocket-client")
pytest.importorskip("PIL")

BACKGROUND = (250, 250, 250)
OBSTACLE = (153, 153, 153)
# Five agents placed so that a mirrored or swapped axis puts them where nothing is.
STARTS = np.array([[0.0, 0.0], [1.5, 3.0], [-3.0, 1.0], [8.0, -2.0], [9.0, 2.5]])
GOALS = np.array([[10.0, 0.0], [10.0, 3.0], [10.0, 1.0], [-3.0, -2.0], [-3.0, 2.5]])
SQUARE = np.array([[4.0, -0.6], [5.2, -0.6], [5.2, 0.6], [4.0, 0.6]])


@pytest.fixture(scope="module")
def browser():
    with Chromium(width=1100, height=900) as chromium:
        yield chromium


@pytest.fixture(scope="module")
def run():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_obstacle(SQUARE)
    sim.add_agents(STARTS, goals=GOALS, radius=0.4)
    return sim, sim.run(80)


@pytest.fixture(scope="module")
def page(run, tmp_path_factory):
    sim, traj = run
    return traj.to_html(tmp_path_factory.mktemp("view") / "run.html", geometry_of=sim)


def stage_box(browser) -> dict:
    return browser.evaluate("(() => { const r = document.querySelector('.vv-agents').getBoundingClientRect();"
                            " return {left: r.left, top: r.top, width: r.width, height: r.height}; })()")


def fitted(meta: dict, box: dict):
    """Where the page must put a world point: the bounds fitted to the stage (computed here, not by the page)."""
    lo, hi = np.array(meta["bounds"][0]), np.array(meta["bounds"][1])
    scale = min(box["width"] / (hi[0] - lo[0]), box["height"] / (hi[1] - lo[1]))
    centre = (lo + hi) / 2

    def at(x, y):
        return (box["left"] + box["width"] / 2 + (x - centre[0]) * scale,
                box["top"] + box["height"] / 2 - (y - centre[1]) * scale)
    return at, scale


def pixel(image, x, y):
    return image.getpixel((int(round(x)), int(round(y))))


def near(color, expected, tolerance=12):
    return all(abs(int(a) - int(b)) <= tolerance for a, b in zip(color, expected))


def meta_of(browser) -> dict:
    return browser.evaluate("window.vosimViewers[0].meta")


@pytest.mark.parametrize("renderer", ["webgl", "2d"])
def test_agents_and_obstacles_are_drawn_where_the_data_puts_them(browser, page, run, renderer):
    _, traj = run
    browser.open(page, fragment=f"renderer={renderer}" if renderer == "2d" else "")
    assert browser.evaluate("window.vosimViewers[0].state.renderer") == renderer
    at, scale = fitted(meta_of(browser), stage_box(browser))
    image = browser.screenshot()
    for x, y in traj.positions[0]:
        assert not near(pixel(image, *at(x, y)), BACKGROUND), (x, y)
        assert not near(pixel(image, *at(x, -y)), pixel(image, *at(x, y)), 2) or y == 0  # not mirrored
    # The obstacle's middle is obstacle grey, the free space beside it background.
    assert near(pixel(image, *at(4.6, 0.0)), OBSTACLE)
    assert near(pixel(image, *at(4.6, -1.6)), BACKGROUND)
    # An agent's disc is as wide as its radius says: inside at 0.7 r, outside at 1.5 r.
    x, y = traj.positions[0, 2]
    assert not near(pixel(image, *at(x + 0.7 * 0.4, y)), BACKGROUND)
    assert near(pixel(image, *at(x + 1.5 * 0.4, y)), BACKGROUND)
    assert browser.console == [] or not any("exception" in line for line in browser.console)


def test_play_pause_and_scrub_are_the_pages_own_controls(browser, page, run):
    _, traj = run
    browser.open(page)
    frame = "window.vosimViewers[0].state.frame"
    assert browser.evaluate(frame) == 0
    browser.click(*browser.center_of("[data-role=play]"))
    browser.wait_for(f"{frame} > 3", timeout=10)
    assert browser.evaluate("window.vosimViewers[0].state.playing") is True
    browser.click(*browser.center_of("[data-role=play]"))  # now the pause button
    paused = browser.evaluate(frame)
    time.sleep(0.4)
    assert browser.evaluate(frame) == paused and browser.evaluate("window.vosimViewers[0].state.playing") is False
    assert browser.evaluate("document.querySelector('[data-role=play]').textContent") == "Play"
    # A click three quarters along the slider's track moves to about three quarters of the frames.
    left, top, width = browser.evaluate("(() => { const r = document.querySelector('[data-role=scrub]')"
                                        ".getBoundingClientRect();"
                                        " return [r.left, r.top + r.height / 2, r.width]; })()")
    browser.click(left + 0.75 * width, top)
    last = len(traj.times) - 1
    assert abs(browser.evaluate(frame) - 0.75 * last) <= 0.06 * last
    # The picture moved with it: agent 0 is drawn where that frame has it, and gone from where it started.
    f = browser.evaluate(frame)
    at, _ = fitted(meta_of(browser), stage_box(browser))
    image = browser.screenshot()
    assert not near(pixel(image, *at(*traj.positions[f, 0])), BACKGROUND)
    assert near(pixel(image, *at(*traj.positions[0, 0])), BACKGROUND)
    assert f"frame {f + 1} of {last + 1}" in browser.evaluate("document.querySelector('[data-role=time]').textContent")


def test_clicking_an_agent_shows_its_id_speed_goal_and_neighbours(browser, run, tmp_path):
    sim, traj = run
    # Every second agent kept (slots 0, 2, 4): the page's third agent is slot 4, whose id is 4, not 2.
    browser.open(traj.to_html(tmp_path / "thin.html", max_agents=3, geometry_of=sim))
    browser.evaluate("window.vosimViewers[0].seek(30)")
    at, _ = fitted(meta_of(browser), stage_box(browser))
    browser.click(*at(*traj.positions[30, 4]))
    text = browser.evaluate("document.querySelector('[data-role=agent]').textContent")
    speed = np.linalg.norm(traj.velocities[30, 4])
    assert text.startswith(f"agent {traj.ids[4]}:") and "goal (-3.00, 2.50)" in text
    assert abs(float(text.split("speed ")[1].split()[0]) - speed) <= traj.velocities.max() / 255 + 0.005
    assert "nearest: " in text and text.count("m)") == 2
    assert browser.evaluate("window.vosimViewers[0].state.selected") == 2


def test_density_colours_a_crowded_agent_hotter_than_a_lone_one(browser, tmp_path):
    sim = vosim.Simulator()
    cluster = np.array([[x, y] for x in np.arange(0, 2.4, 0.5) for y in np.arange(0, 2.4, 0.5)])
    sim.add_agents(np.vstack([cluster, [[12.0, 1.0]]]), radius=0.2)
    traj = sim.run(2)
    browser.open(traj.to_html(tmp_path / "density.html", color_by="density"))
    at, _ = fitted(meta_of(browser), stage_box(browser))
    image = browser.screenshot()
    crowded, lone = pixel(image, *at(1.0, 1.0)), pixel(image, *at(12.0, 1.0))
    # The ramp runs from pale yellow to dark red: blue and green fall as density rises.
    assert sum(crowded[1:]) < sum(lone[1:]) - 60, (crowded, lone)
    assert browser.evaluate("document.querySelector('[data-role=legend]').textContent").startswith("colour: density")


def test_a_3d_swarm_is_drawn_with_webgl_where_the_camera_puts_it(browser, tmp_path):
    rng = np.random.default_rng(1)
    sim = vosim.Simulator(dimensions=3)
    sim.add_agents(rng.uniform(-5, 5, (40, 3)), goals=rng.uniform(-5, 5, (40, 3)), radius=0.3)
    sim.add_obstacle(vosim.Sphere(center=(0.0, 0.0, 8.0), radius=1.5))
    traj = sim.run(5)
    browser.open(traj.to_html(tmp_path / "swarm.html", geometry_of=sim))
    assert browser.evaluate("window.vosimViewers[0].state.renderer") == "webgl"
    assert len(meta_of(browser)["shapes"]) == 1
    box = stage_box(browser)
    image = browser.screenshot()
    points = browser.evaluate("(() => { const v = window.vosimViewers[0], p = v.frames.positions(0);"
                              " return Array.from({length: 40},"
                              " (_, i) => v.worldToScreen(p[3*i], p[3*i+1], p[3*i+2])); })()")
    drawn = [not near(pixel(image, box["left"] + x, box["top"] + y), BACKGROUND) for x, y in points]
    assert sum(drawn) >= 36  # (a few may hide behind others, whose colour also counts)
    # Orbiting (a drag on the stage) moves them.
    browser.call("Input.dispatchMouseEvent", type="mousePressed", x=box["left"] + 300, y=box["top"] + 300,
                 button="left", clickCount=1, buttons=1)
    browser.call("Input.dispatchMouseEvent", type="mouseMoved", x=box["left"] + 420, y=box["top"] + 320,
                 button="left", buttons=1)
    browser.call("Input.dispatchMouseEvent", type="mouseReleased", x=box["left"] + 420, y=box["top"] + 320,
                 button="left", clickCount=1, buttons=0)
    moved = browser.evaluate("(() => { const v = window.vosimViewers[0], p = v.frames.positions(0);"
                             " return v.worldToScreen(p[0], p[1], p[2]); })()")
    assert np.hypot(moved[0] - points[0][0], moved[1] - points[0][1]) > 5


def test_the_widget_front_end_follows_a_live_run(browser, tmp_path):
    """viewer.js's anywidget entry point with a stand-in model: the kernel's frames arrive as messages."""
    sim = vosim.Simulator()
    sim.add_agents(STARTS, goals=GOALS, radius=0.4)
    meta, blob = pack(from_simulator(sim))
    slots = np.arange(len(STARTS))
    sim.run(30)
    frame = live_frame(sim, None, slots, meta["speed_scale"])
    buffers = [list(frame[name].tobytes()) for name in ("positions", "speeds", "flags")]
    page = tmp_path / "widget.html"
    page.write_text(
        "<!DOCTYPE html><html><body><div id='el'></div><script type='module'>\n" + module_source() + "\n"
        f"const meta = {json.dumps(meta)}; const blob = new Uint8Array({list(blob)});\n"
        "const handlers = {};\n"
        "window.sent = [];\n"
        "const model = { get: (k) => k === 'meta' ? meta : new DataView(blob.buffer),"
        " on: (name, f) => { handlers[name] = f; }, send: (m) => window.sent.push(m) };\n"
        "renderWidget({ model, el: document.getElementById('el') });\n"
        f"window.sendFrame = () => handlers['msg:custom']({{type: 'frame', time: {frame['time']}}},"
        f" {json.dumps(buffers)}.map((b) => new DataView(new Uint8Array(b).buffer)));\n"
        "</script></body></html>\n")
    browser.open(page)
    viewer = "window.vosimViewers[0]"
    assert browser.evaluate(f"{viewer}.frames.count") == 1
    assert browser.evaluate("window.sent") == [{"type": "ready"}]  # a view drawn late asks for the newest frame
    browser.evaluate("window.sendFrame()")
    assert browser.evaluate(f"{viewer}.frames.count") == 2
    browser.evaluate("window.sendFrame()")  # the same frame again (the answer to "ready"): kept once
    assert browser.evaluate(f"{viewer}.frames.count") == 2
    assert browser.evaluate(f"{viewer}.state.frame") == 1  # at the newest frame: it follows
    at, _ = fitted(meta_of(browser), stage_box(browser))
    image = browser.screenshot()
    moved = sim.positions[3]
    assert np.linalg.norm(moved - STARTS[3]) > 1.0
    assert not near(pixel(image, *at(*moved)), BACKGROUND)
    assert near(pixel(image, *at(*STARTS[3])), BACKGROUND)


def test_the_viewer_benchmark_runs(tmp_path):
    """benchmarks/bench_viewer.py end to end at a tiny size, so that it cannot rot."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_viewer.py"
    done = subprocess.run([sys.executable, str(script), "--sizes", "300", "--frames", "3", "--seconds", "0.3"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    row = next(line for line in done.stdout.splitlines() if line.startswith("| 300 |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[1] == "3" and cells[2].endswith("kB") and cells[-1] == "webgl, once"
    assert all(float(cell) >= 0 for cell in cells[3:-1])


PLACE = (204, 121, 167)


def test_named_places_are_drawn_where_the_data_puts_them_with_their_names(browser, run, tmp_path):
    _, traj = run
    places = {"measurement area": [[-9.0, -3.0], [-6.0, -3.0], [-6.0, -1.0], [-9.0, -1.0]],
              "door": [[2.5, -4.0], [2.5, -2.5]]}
    browser.open(traj.to_html(tmp_path / "places.html", places=places))
    meta = meta_of(browser)
    assert [place["name"] for place in meta["places"]] == ["measurement area", "door"]
    assert meta["bounds"][0][0] < -9.0  # the view takes in a place away from every agent
    at, _ = fitted(meta, stage_box(browser))
    image = browser.screenshot()
    inside = pixel(image, *at(-7.5, -2.0))  # the area's faint fill, reddish purple over the background
    assert not near(inside, BACKGROUND, 3) and inside[0] > inside[1] + 5, inside
    assert near(pixel(image, *at(-7.5, 0.5)), BACKGROUND)  # outside it, nothing
    # The door's dashed line: most points along it are in the places' colour.
    along = [pixel(image, *at(2.5, y)) for y in np.linspace(-3.9, -2.6, 25)]
    assert sum(near(colour, PLACE, 40) for colour in along) >= 10, along


def test_places_are_checked_by_name_before_a_page_is_written(run, tmp_path):
    _, traj = run
    with pytest.raises(ValueError, match=r"places\['door'\]: expected 2 points"):
        traj.to_html(tmp_path / "bad.html", places={"door": [[0.0, 0.0]]})
    with pytest.raises(TypeError, match="places: expected a dict"):
        traj.to_html(tmp_path / "bad.html", places=[[0.0, 0.0], [1.0, 0.0]])
    assert not (tmp_path / "bad.html").exists()


def _drawn_near(image, x, y, reach=2):
    return any(not near(pixel(image, x + dx, y + dy), BACKGROUND, 6)
               for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1))


def test_a_polyhedron_and_a_ground_plane_are_drawn_in_3d(browser, tmp_path):
    sim = vosim.Simulator(dimensions=3)
    sim.add_agents([[-4.0, -4.0, 0.0], [4.0, 4.0, 0.0]], goals=[[4.0, 4.0, 0.0], [-4.0, -4.0, 0.0]], radius=0.3)
    # The cube 6 <= x <= 8, -1 <= y <= 1, 2 <= z <= 4 as six half-spaces (normals @ x <= offsets).
    normals = np.vstack([np.eye(3), -np.eye(3)])
    sim.add_obstacle(vosim.ConvexPolyhedron(normals, [8.0, 1.0, 4.0, -6.0, 1.0, -2.0]))
    sim.add_obstacle(vosim.HalfSpace(point=(0.0, 0.0, -3.0), normal=(0.0, 0.0, 1.0)))
    traj = sim.run(3)
    browser.open(traj.to_html(tmp_path / "solids.html", geometry_of=sim))
    shapes = meta_of(browser)["shapes"]
    assert sorted(shape["kind"] for shape in shapes) == ["faces", "plane"]
    faces = next(shape for shape in shapes if shape["kind"] == "faces")["faces"]
    assert len(faces) == 6 and all(len(face) == 4 for face in faces)
    ground = next(shape for shape in shapes if shape["kind"] == "plane")
    assert ground["lines"] and all(a[2] == b[2] == -3.0 for a, b in ground["lines"])
    box = stage_box(browser)
    image = browser.screenshot()
    # The midpoint of each of the cube's twelve edges is on a drawn line.
    edges = {tuple(sorted((tuple(p), tuple(face[(k + 1) % 4])))) for face in faces for k, p in enumerate(face)}
    assert len(edges) == 12
    mids = [((np.array(a) + np.array(b)) / 2).tolist() for a, b in edges]
    screen = browser.evaluate(f"(() => {{ const v = window.vosimViewers[0];"
                              f" return {json.dumps(mids)}.map((m) => v.worldToScreen(m[0], m[1], m[2])); }})()")
    drawn = [_drawn_near(image, box["left"] + x, box["top"] + y) for x, y in screen]
    assert sum(drawn) >= 11, drawn  # (one may hide behind an agent or the bounds' box)
    # ... and the middle of a face is not: a solid is drawn by its edges only.
    centre = browser.evaluate("window.vosimViewers[0].worldToScreen(8.0, 0.0, 3.0)")
    assert near(pixel(image, box["left"] + centre[0], box["top"] + centre[1]), BACKGROUND, 6)


@pytest.mark.parametrize("renderer", ["webgl", "2d"])
def test_runs_together_are_coloured_by_run_where_the_data_puts_them(browser, tmp_path, renderer):
    orca = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
    orca.add_agents([[0.0, 0.0]], goals=[[0.0, 0.0]], radius=0.6)
    rvo = vosim.Simulator(time_step=0.1, method=vosim.RVO())
    rvo.add_agents([[5.0, 2.0]], goals=[[5.0, 2.0]], radius=0.6)
    page = vosim.view.to_html({"ORCA": orca.run(5), "RVO": rvo.run(5)}, tmp_path / "runs.html")
    browser.open(page, fragment="renderer=2d" if renderer == "2d" else "")
    assert browser.evaluate("window.vosimViewers[0].state.colorBy") == "method"
    at, _ = fitted(meta_of(browser), stage_box(browser))
    image = browser.screenshot()
    first, second = pixel(image, *at(0.0, 0.0)), pixel(image, *at(5.0, 2.0))
    assert first[2] > first[0] + 60, first    # the first run blue
    assert second[0] > second[2] + 60, second  # the second orange
    legend = browser.evaluate("document.querySelector('[data-role=legend]').textContent")
    assert "ORCA" in legend and "RVO" in legend


STAGE = (140, 81, 10)


def test_queues_and_waiting_areas_are_drawn_at_their_places(browser, tmp_path):
    sim = vosim.Simulator(time_step=0.1)
    ids = sim.add_agents(STARTS[:2], goals=GOALS[:2], radius=0.3)
    queue = np.array([[-6.0, -3.0], [-7.0, -3.0], [-8.0, -3.0]])
    sim.add_queue(queue, agents=ids[:1])
    sim.add_waiting_area([[-6.0, 3.0], [-8.0, 3.0]])
    traj = sim.run(5)
    browser.open(traj.to_html(tmp_path / "stages.html", geometry_of=sim))
    meta = meta_of(browser)
    assert [stage["kind"] for stage in meta["stages"]] == ["queue", "area"]
    at, scale = fitted(meta, stage_box(browser))
    image = browser.screenshot()
    r = max(3.0, 0.2 * scale)
    # The queue's front filled, its other places and the area's open: their rims in the stages' colour.
    assert near(pixel(image, *at(-6.0, -3.0)), STAGE, 40)
    for x, y in [(-7.0, -3.0), (-8.0, -3.0), (-6.0, 3.0), (-8.0, 3.0)]:
        cx, cy = at(x, y)
        assert near(pixel(image, cx, cy), BACKGROUND, 6), (x, y)
        rim = [pixel(image, cx + r * np.cos(a), cy + r * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 16, False)]
        assert sum(near(colour, STAGE, 60) for colour in rim) >= 8, ((x, y), rim)
    # Between two queue places the dotted line runs; between the area's two places nothing.
    between = [pixel(image, *at(x, -3.0)) for x in np.linspace(-6.6, -6.4, 9)]
    assert any(near(colour, STAGE, 60) for colour in between), between
    assert all(near(pixel(image, *at(x, 3.0)), BACKGROUND, 6) for x in np.linspace(-7.3, -6.7, 7))
