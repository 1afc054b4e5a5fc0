"""Writing an animation's frames to a file: one draw per frame, the layout settled once, atomically."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

from .._atomic import atomic_path
from .._progress import make_progress

#: Colours of a GIF's one palette, shared by every frame (GIF allows 256).
GIF_COLORS = 128
#: Frames, evenly spaced over the animation, whose colours make that palette.
GIF_PALETTE_FRAMES = 4

#: With ``progress=None``, saves of at least this many frames show a bar where someone watches (a terminal, a notebook).
PROGRESS_FROM_FRAMES = 50


def save_frames(fig, draw, count: int, path: Path, writer: str, *, fps: float, dpi: int, progress=None) -> Path:
    """Draw frames ``0 .. count-1`` with ``draw(k)`` and write them to ``path`` with matplotlib's ``writer``.

    ``FuncAnimation.save`` draws every frame twice (once to show it, once to
    grab it) and lays the figure out again each time; only the artists
    ``draw`` moves change between frames, so the layout is worked out on the
    first frame and kept (about three times faster with a legend and ticks).
    The file appears whole or not at all (``_atomic.atomic_path``).
    ``progress`` is as for ``animate``.
    """
    import matplotlib
    from matplotlib import animation

    path.parent.mkdir(parents=True, exist_ok=True)
    if progress is None:
        watched = "ipykernel" in sys.modules or (hasattr(sys.stderr, "isatty") and sys.stderr.isatty())
        progress = f"saving {path.name}" if watched and count >= PROGRESS_FROM_FRAMES else False
    reporter = make_progress(progress, count, unit="frame")
    engine = fig.get_layout_engine()
    failure = None
    done = 0
    try:
        draw(0)
        fig.canvas.draw()  # the constrained layout, worked out with the first frame's title
        # No layout engine at all (not even "none"'s placeholder, which still costs a text layout pass per frame).
        with matplotlib.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
            fig.set_layout_engine(None)
        movie = QuantizedGif(fig, draw, count, fps) if writer == "pillow" else animation.writers[writer](fps=fps)
        with atomic_path(path) as temporary, movie.saving(fig, temporary, dpi):
            try:
                for k in range(count):
                    draw(k)
                    movie.grab_frame()
                    done = k + 1
                    if reporter is not None:
                        reporter.update(done)
            except BaseException as error:
                failure = error  # the writer's own clean-up may fail on a half-written file: report this one
                raise
    except BaseException as error:
        if failure is not None and error is not failure:
            raise failure from None
        raise
    finally:
        fig.set_layout_engine(engine)
        if reporter is not None:
            reporter.close(done, failed=done < count)
    return path


class QuantizedGif:
    """A GIF writer with matplotlib's ``saving``/``grab_frame`` interface: every frame is reduced to one palette
    as it is drawn, without dithering.

    matplotlib's pillow writer keeps every frame as RGBA and leaves Pillow to
    find a palette for each frame when the file is written: with 200 agents,
    half of the time of a save and about 4 MB for 60 frames. One palette,
    made once from a few frames spread over the animation (so that colours
    appearing late, such as fast agents, are in it), is quick to apply; flat
    areas without dither noise compress to about half the size. Frames are
    held as one byte a pixel.
    """

    def __init__(self, fig, draw, count: int, fps: float):
        self.fig, self.fps = fig, fps
        self.draw, self.count = draw, count
        self.frames = []
        self.palette = None

    def _rgb(self):
        import numpy as np
        from PIL import Image

        self.fig.canvas.draw()
        return Image.fromarray(np.array(self.fig.canvas.buffer_rgba())[..., :3])

    @contextmanager
    def saving(self, fig, path, dpi):
        import numpy as np
        from PIL import Image

        dpi_before = fig.dpi
        fig.set_dpi(dpi)
        try:
            samples = np.unique(np.linspace(0, self.count - 1, min(GIF_PALETTE_FRAMES, self.count)).round().astype(int))
            images = []
            for k in samples:
                self.draw(int(k))
                images.append(self._rgb())
            sheet = Image.new("RGB", (images[0].width, images[0].height * len(images)))
            for row, image in enumerate(images):
                sheet.paste(image, (0, row * image.height))
            self.palette = sheet.quantize(colors=GIF_COLORS, method=Image.Quantize.MEDIANCUT,
                                          dither=Image.Dither.NONE)
            yield self
            # One duration per frame: Pillow then merges a repeated frame (agents at rest) into the one before by
            # adding up their durations; with a single duration it drops it, and the rest plays too fast.
            self.frames[0].save(path, format="GIF", save_all=True, append_images=self.frames[1:],
                                duration=[1000.0 / self.fps] * len(self.frames), loop=0)
        finally:
            fig.set_dpi(dpi_before)
            self.frames = []

    def grab_frame(self):
        from PIL import Image

        self.frames.append(self._rgb().quantize(palette=self.palette, dither=Image.Dither.NONE))
