"""Saving an animation: progress frame by frame, and a GIF with one palette made from frames across the run."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

import vosim  # noqa: E402
from vosim import plot  # noqa: E402
from vosim.plot._save_animation import GIF_COLORS, save_frames  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def traj():
    sim = vosim.Simulator(time_step=0.25)
    sim.add_agents([[0.0, 0.0], [6.0, 0.1], [3.0, 3.0]], goals=[[6.0, 0.0], [0.0, 0.0], [3.0, -3.0]])
    return sim.run(40)


def test_a_progress_callable_hears_every_frame_once_in_order(traj, tmp_path):
    heard = []
    plot.animate(traj, path=tmp_path / "run.gif", max_frames=12, progress=lambda done, total: heard.append((done, total)))
    total = heard[0][1]
    assert 10 <= total <= 12  # evenly spaced recorded frames, at most max_frames
    assert heard == [(done, total) for done in range(1, total + 1)] + [(total, total)]


def test_a_label_shows_a_bar_counting_frames_and_the_default_stays_quiet_off_a_terminal(traj, tmp_path, capsys):
    plot.animate(traj, path=tmp_path / "a.gif", max_frames=60)  # None: standard error here is not a terminal
    assert capsys.readouterr().err == ""
    plot.animate(traj, path=tmp_path / "b.gif", max_frames=5, progress="saving b")
    err = capsys.readouterr().err
    assert "saving b" in err and "5/5" in err and "frame" in err


def test_a_bad_progress_is_refused_by_name(traj, tmp_path):
    with pytest.raises(TypeError, match="progress: expected True, False, a label or a callable, got int"):
        plot.animate(traj, path=tmp_path / "c.gif", max_frames=3, progress=3)
    assert not (tmp_path / "c.gif").exists()


def test_the_gif_has_every_frame_at_the_rate_and_one_small_palette(traj, tmp_path):
    path = tmp_path / "run.gif"
    totals = []
    plot.animate(traj, path=path, max_frames=20, fps=10, progress=lambda done, total: totals.append(total))
    with Image.open(path) as gif:
        assert gif.info["loop"] == 0
        durations = []
        for k in range(gif.n_frames):  # Pillow merges repeated frames (agents at rest), adding their durations
            gif.seek(k)
            durations.append(gif.info["duration"])
            assert len(gif.convert("RGB").getcolors(maxcolors=4096)) <= GIF_COLORS
    assert sum(durations) == totals[0] * 100  # the whole run's time, however many frames were merged


def test_a_colour_that_appears_only_late_keeps_its_hue(tmp_path):
    # The first frames are grey; a pure red square appears in the last frame only. A palette made from the
    # first frame alone turns it grey.
    fig = plt.figure(figsize=(2, 2), dpi=50)
    ax = fig.add_axes([0, 0, 1, 1])
    ax.set_axis_off()
    square = ax.add_patch(plt.Rectangle((0.25, 0.25), 0.5, 0.5, color="0.5"))

    def draw(k):
        square.set_color((1.0, 0.0, 0.0) if k == 9 else (0.5, 0.5, 0.5))

    path = save_frames(fig, draw, 10, tmp_path / "late.gif", "pillow", fps=5, dpi=50, progress=False)
    with Image.open(path) as gif:
        gif.seek(gif.n_frames - 1)  # frames 1 to 8 repeat frame 0: Pillow merges them into it
        red = np.asarray(gif.convert("RGB"))[50, 50]
        gif.seek(0)
        grey = np.asarray(gif.convert("RGB"))[50, 50]
    assert red[0] > 200 and red[1] < 40 and red[2] < 40
    assert abs(int(grey[0]) - 128) < 10 and grey[0] == grey[1] == grey[2]
