"""The viewer's Python side: what a page carries (float32 binary, thinning, geometry), its checks, the
atomic write, the notebook widget and its live frames, ``vosim.view`` without anywidget, the CLI."""

from __future__ import annotations

import base64
import json
import re
import sys

import numpy as np
import pytest

import vosim
from vosim import cli
from vosim.view._scene import NEVER


def read_page(path):
    """The meta and the typed arrays a page carries."""
    text = path.read_text(encoding="utf-8")
    meta = json.loads(re.search(r'<script type="application/json" id="vosim-meta">(.*?)</script>', text, re.S)
                      .group(1).replace("<\\/", "</"))
    blob = base64.b64decode(re.search(r'id="vosim-data">(.*?)</script>', text, re.S).group(1))
    arrays = {name: np.frombuffer(blob, dtype=np.dtype(kind).newbyteorder("<"), count=length, offset=offset)
              for name, (kind, offset, length) in meta["layout"].items()}
    return text, meta, arrays


@pytest.fixture(scope="module")
def run():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_obstacle([[4.0, -0.6], [5.2, -0.6], [5.2, 0.6], [4.0, 0.6]])
    sim.add_agents([[0.0, 0.0], [1.5, 3.0], [-3.0, 1.0], [8.0, -2.0], [9.0, 2.5], [0.0, -3.0]],
                   goals=[[10.0, 0.0], [10.0, 3.0], [10.0, 1.0], [-3.0, -2.0], [-3.0, 2.5], [0.5, -3.0]])
    sim.add_sink([[0.0, -3.5], [1.0, -3.5], [1.0, -2.5], [0.0, -2.5]])
    sim.add_speed_zone([[-4.0, -1.0], [-2.0, -1.0], [-2.0, 2.0], [-4.0, 2.0]], 0.5)
    return sim, sim.run(60)


def test_the_page_carries_the_frames_as_float32_binary_and_fetches_nothing(run, tmp_path):
    sim, traj = run
    text, meta, arrays = read_page(traj.to_html(tmp_path / "run.html", geometry_of=sim))
    assert arrays["positions"].dtype == np.float32
    np.testing.assert_array_equal(arrays["positions"].reshape(traj.positions.shape),
                                  traj.positions.astype(np.float32))
    speeds = np.linalg.norm(traj.velocities, axis=-1)
    np.testing.assert_allclose(arrays["speeds"].reshape(speeds.shape) / 255 * meta["speed_scale"], speeds,
                               atol=meta["speed_scale"] / 255)
    np.testing.assert_array_equal(arrays["ids"], traj.ids)
    # No coordinates in the JSON, no address to fetch anything from.
    assert len(json.dumps(meta)) < 3000 and "https://" not in text and "http://" not in text
    assert " src=" not in text and "import(" not in text
    assert json.dumps(meta["title"]) in text or meta["title"] in text
    # The size the page states is its own.
    stated = re.search(r'pageSize: "([^"]+)"', text).group(1)
    assert stated == vosim.view._scene.size_text(len(text.encode("utf-8")))


def test_the_agent_who_left_through_the_sink_leaves_the_picture_then(run, tmp_path):
    sim, traj = run
    _, meta, arrays = read_page(traj.to_html(tmp_path / "run.html", geometry_of=sim))
    exit_step = traj.metrics["exit_step"]
    assert exit_step[5] > 0  # the agent walking into the sink
    assert arrays["leave"][5] == np.searchsorted(traj.steps, exit_step[5])
    assert (arrays["leave"][:5] == NEVER).all()
    arrived = traj.arrived_per_frame()
    for agent in range(5):
        first = np.argmax(arrived[:, agent]) if arrived[:, agent].any() else NEVER
        assert arrays["arrive"][agent] == first
    assert [o["kind"] for o in meta["obstacles"]] == ["polygon"] and len(meta["sinks"]) == 1
    assert meta["zones"][0]["factor"] == 0.5
    # Without the simulator the page has the obstacles (the trajectory records them) but no sinks or zones.
    _, meta, _ = read_page(traj.to_html(tmp_path / "alone.html"))
    assert len(meta["obstacles"]) == 1 and meta["sinks"] == [] and meta["zones"] == []


def test_thinning_keeps_every_kth_frame_and_agent_and_says_so(run, tmp_path):
    _, traj = run
    _, meta, arrays = read_page(traj.to_html(tmp_path / "thin.html", every=7, max_agents=2))
    frames = np.unique(np.r_[np.arange(0, len(traj.times), 7), len(traj.times) - 1])
    assert (meta["frames"], meta["frame_every"], meta["total_frames"]) == (len(frames), 7, len(traj.times))
    assert (meta["agents"], meta["agent_every"], meta["total_agents"]) == (2, 3, 6)
    np.testing.assert_array_equal(arrays["positions"].reshape(len(frames), 2, 2),
                                  traj.positions[frames][:, [0, 3]].astype(np.float32))
    assert meta["times"] == traj.times[frames].tolist()


def test_one_scene_of_a_batch(tmp_path):
    batch = vosim.Batch(scenes=2)
    batch.add_agents([[[0.0, 0.0], [2.0, 0.0]], [[5.0, 5.0], [7.0, 5.0]]],
                     goals=[[[2.0, 0.0], [0.0, 0.0]], [[7.0, 5.0], [5.0, 5.0]]])
    traj = batch.run(5)
    _, meta, arrays = read_page(traj.to_html(tmp_path / "one.html", scene=1))
    np.testing.assert_array_equal(arrays["positions"].reshape(-1, 2, 2), traj.positions[:, 1].astype(np.float32))
    with pytest.raises(ValueError, match="scene is 2; must be <= 1"):
        traj.to_html(tmp_path / "bad.html", scene=2)


@pytest.mark.parametrize("arguments, error, match", [
    (dict(path="run.png"), ValueError, r"path is '.*run\.png'; expected a file name ending in \.html or \.htm"),
    (dict(path="missing/run.html"), ValueError, "its folder .*missing' does not exist"),
    (dict(path=3), TypeError, "path: expected a str or pathlib.Path, got int"),
    (dict(every=0), ValueError, "every is 0; must be >= 1"),
    (dict(max_agents=0), ValueError, "max_agents is 0; must be >= 1"),
    (dict(color_by="heat"), ValueError, "color_by is 'heat'; expected one of 'speed', 'arrival'"),
    (dict(title=5), TypeError, "title: expected a str, got int"),
])
def test_bad_arguments_are_refused_naming_them_and_write_nothing(run, tmp_path, monkeypatch, arguments, error, match):
    monkeypatch.chdir(tmp_path)
    _, traj = run
    arguments = {"path": "run.html", **arguments}
    with pytest.raises(error, match=match):
        traj.to_html(**arguments)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_the_old_page_and_no_temporary(run, tmp_path, monkeypatch):
    _, traj = run
    page = tmp_path / "run.html"
    page.write_text("an earlier page")

    def half_written(self, text, **options):
        with open(self, "w") as stream:
            stream.write(text[:100])
        raise OSError("No space left on device")

    monkeypatch.setattr(type(page), "write_text", half_written)
    with pytest.raises(OSError, match="No space left"):
        traj.to_html(page)
    monkeypatch.undo()
    assert page.read_text() == "an earlier page" and [p.name for p in tmp_path.iterdir()] == ["run.html"]


def test_a_3d_page_carries_xyz_and_the_obstacle_shapes(tmp_path):
    sim = vosim.Simulator(dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0], [3.0, 0.0, 1.0]], goals=[[3.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    sim.add_obstacle(vosim.Sphere(center=(1.5, 4.0, 0.5), radius=0.5))
    sim.add_obstacle(vosim.Box(center=(1.5, -4.0, 0.5), half_extents=(1.0, 0.5, 0.5)))
    traj = sim.run(10)
    _, meta, arrays = read_page(traj.to_html(tmp_path / "space.html", geometry_of=sim))
    assert meta["dims"] == 3
    np.testing.assert_array_equal(arrays["positions"].reshape(traj.positions.shape), traj.positions.astype(np.float32))
    assert [s["kind"] for s in meta["shapes"]] == ["sphere", "box"]
    assert np.array(meta["shapes"][1]["corners"]).shape == (8, 3)
    # The bounds hold the shapes.
    assert meta["bounds"][1][1] >= 4.5 and meta["bounds"][0][1] <= -4.5


def test_vosim_view_is_the_module_and_its_function():
    import vosim.view as module

    assert vosim.view is module and callable(vosim.view) and "view" in vosim.__all__
    assert vosim.view.view.__doc__.startswith("An interactive viewer widget")


def test_without_anywidget_view_says_how_to_install_it_and_to_html_still_works(run, tmp_path, monkeypatch):
    _, traj = run
    monkeypatch.setitem(sys.modules, "anywidget", None)  # import anywidget now fails
    monkeypatch.delitem(sys.modules, "vosim.view._widget", raising=False)
    with pytest.raises(ImportError, match=r'pip install "vosim\[view\]"'):
        vosim.view(traj)
    assert traj.to_html(tmp_path / "still.html").stat().st_size > 1000


def test_the_widget_carries_the_scene_and_sends_a_live_run_frame_by_frame(run, monkeypatch):
    pytest.importorskip("anywidget")
    _, traj = run
    widget = vosim.view(traj, every=2)
    assert widget.meta["frames"] == len(traj.subsample(2).times) and len(widget.data) > 0
    assert "export default" in widget._esm
    with pytest.raises(TypeError, match="this viewer shows a recorded trajectory"):
        widget.follow(1, 2)

    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0], [0.0, 2.0]], goals=[[30.0, 0.0], [30.0, 2.0]])
    live = vosim.view(sim)
    sent = []
    monkeypatch.setattr(live, "send", lambda content, buffers=None: sent.append((content, buffers)))
    live.run(50)
    assert live.frames_sent == len(sent) >= 1
    content, buffers = sent[-1]
    assert content["type"] == "frame" and content["time"] == pytest.approx(sim.time)
    np.testing.assert_array_equal(np.frombuffer(buffers[0], np.float32).reshape(2, 2),
                                  sim.positions.astype(np.float32))
    assert list(np.frombuffer(buffers[2], np.uint8)) == [1, 1]  # active, not arrived
    with pytest.raises(ValueError, match="a live view of a Simulator shows every agent"):
        vosim.view(sim, every=2)
    with pytest.raises(TypeError, match="obj: expected a vosim.Trajectory, Simulator or Batch, got int"):
        vosim.view(3)
    with pytest.raises(TypeError, match=r"runs\[1\]: expected a vosim.Trajectory, got int"):
        vosim.view([traj, 2])  # a list is several runs


def test_a_view_drawn_after_the_frames_were_sent_asks_and_gets_the_newest(monkeypatch):
    # In a notebook run with "Run all", the run in the next cell sends its frames before the widget's view is
    # drawn; the view then asks ("ready") and the kernel sends its newest frame again.
    pytest.importorskip("anywidget")
    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0]], goals=[[30.0, 0.0]])
    live = vosim.view(sim)
    sent = []
    monkeypatch.setattr(live, "send", lambda content, buffers=None: sent.append((content, buffers)))
    live._handle_custom_msg({"type": "ready"}, [])
    assert sent == []  # nothing run yet: the view has the state it was made with
    live.run(20)
    newest = sent[-1]
    live._handle_custom_msg({"type": "ready"}, [])
    assert len(sent) == live.frames_sent + 1 and sent[-1] == newest
    live._handle_custom_msg({"type": "something else"}, [])
    assert len(sent) == live.frames_sent + 1


def test_the_widget_follows_one_scene_of_a_batch(monkeypatch):
    pytest.importorskip("anywidget")
    batch = vosim.Batch(scenes=2)
    batch.add_agents([[[0.0, 0.0]], [[5.0, 5.0]]], goals=[[[9.0, 0.0]], [[5.0, 9.0]]])
    live = vosim.view(batch, scene=1)
    sent = []
    monkeypatch.setattr(live, "send", lambda content, buffers=None: sent.append(buffers))
    live.run(10)
    np.testing.assert_array_equal(np.frombuffer(sent[-1][0], np.float32), batch.positions[1, 0].astype(np.float32))
    with pytest.raises(ValueError, match="scene is 2; must be <= 1"):
        vosim.view(batch, scene=2)


def test_cli_run_view_writes_the_page_and_refuses_a_bad_path_before_running(tmp_path, capsys):
    out = tmp_path / "run.html"
    cli.main(["run", "--scenario", "headon_pair", "--quiet", "--view", str(out)])
    assert f"page written to {out}" in capsys.readouterr().out
    _, meta, _ = read_page(out)
    assert meta["agents"] == 2 and meta["title"].startswith("headon_pair")
    assert cli.main(["run", "--scenario", "headon_pair", "--quiet", "--view", str(tmp_path / "run.gif")]) == 2
    printed = capsys.readouterr()
    assert "--view: path is" in printed.err and "vosim run:" not in printed.out  # refused before the run


def _two_runs(steps_orca=60, steps_rvo=40, record_every=2):
    scenario = vosim.scenarios.crossing(4, seed=1)
    return {"ORCA": scenario.build(vosim.ORCA()).run(steps_orca, record_every=record_every),
            "RVO": scenario.build(vosim.RVO()).run(steps_rvo, record_every=record_every)}


def test_runs_side_by_side_in_one_page_each_agent_tagged_with_its_run(tmp_path):
    from vosim.view._scene import from_runs

    runs = _two_runs()
    scene = from_runs(runs)
    orca, rvo = (len(t.ids) for t in runs.values())
    assert scene.meta["groups"] == ["ORCA", "RVO"] and scene.meta["agents"] == orca + rvo
    assert scene.meta["color_by"] == "method" and scene.meta["times"] == runs["ORCA"].times.tolist()
    assert list(scene.buffers["group"]) == [0] * orca + [1] * rvo
    frames = len(runs["ORCA"].times)
    positions = scene.buffers["positions"].reshape(frames, orca + rvo, 2)
    np.testing.assert_array_equal(positions[:, :orca], runs["ORCA"].positions.astype(np.float32))
    # The shorter run holds its last frame on the longer run's clock.
    held = len(runs["RVO"].times)
    np.testing.assert_array_equal(positions[:held, orca:], runs["RVO"].positions.astype(np.float32))
    np.testing.assert_array_equal(positions[held:, orca:], np.broadcast_to(positions[held - 1, orca:],
                                                                           (frames - held, rvo, 2)))
    speeds = scene.buffers["speeds"].reshape(frames, -1)
    assert not speeds[held:, orca:].any() and speeds[:held].any()
    path = vosim.view.to_html(list(runs.values()), tmp_path / "both.html")
    assert path.stat().st_size > 0 and '"groups":["ORCA","RVO"]' in path.read_text()


def test_runs_that_cannot_share_a_clock_are_refused_by_name(tmp_path):
    runs = _two_runs()
    runs["RVO"] = vosim.scenarios.crossing(4, seed=1).build(vosim.RVO()).run(40, record_every=3)
    with pytest.raises(ValueError, match=r"runs\['RVO'\]: its frames were recorded at other times"):
        vosim.view.to_html(runs, tmp_path / "x.html")
    with pytest.raises(TypeError, match=r"runs\['b'\]: expected a vosim.Trajectory, got int"):
        vosim.view.to_html({"a": runs["ORCA"], "b": 3}, tmp_path / "x.html")
    with pytest.raises(TypeError, match="runs: expected a dict of label to Trajectory or a list"):
        vosim.view.to_html(runs["ORCA"], tmp_path / "x.html")
    with pytest.raises(ValueError, match="color_by is 'runs'"):
        vosim.view.to_html({"ORCA": runs["ORCA"]}, tmp_path / "x.html", color_by="runs")
    assert not (tmp_path / "x.html").exists()
    same = vosim.view._scene._labelled_runs([runs["ORCA"], runs["ORCA"]])
    assert list(same) == ["ORCA", "ORCA 2"]


def test_the_widget_shows_several_runs_coloured_by_run():
    pytest.importorskip("anywidget")
    widget = vosim.view(_two_runs(), every=2)
    assert widget.meta["groups"] == ["ORCA", "RVO"] and widget.meta["color_by"] == "method"
    assert vosim.view(_two_runs(), color_by="speed").meta["color_by"] == "speed"
    with pytest.raises(TypeError, match="follow: this viewer shows a recorded trajectory"):
        widget.follow(1, 2)
