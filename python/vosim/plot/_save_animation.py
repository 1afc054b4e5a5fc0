"""Writing an animation's frames to a file: one draw per frame, the layout settled once, atomically."""

from __future__ import annotations

from pathlib import Path

from .._atomic import atomic_path


def save_frames(fig, draw, count: int, path: Path, writer: str, *, fps: float, dpi: int) -> Path:
    """Draw frames ``0 .. count-1`` with ``draw(k)`` and write them to ``path`` with matplotlib's ``writer``.

    ``FuncAnimation.save`` draws every frame twice (once to show it, once to
    grab it) and lays the figure out again each time; only the artists
    ``draw`` moves change between frames, so the layout is worked out on the
    first frame and kept (about three times faster with a legend and ticks).
    The file appears whole or not at all (``_atomic.atomic_path``).
    """
    import matplotlib
    from matplotlib import animation

    path.parent.mkdir(parents=True, exist_ok=True)
    engine = fig.get_layout_engine()
    failure = None
    try:
        draw(0)
        fig.canvas.draw()  # the constrained layout, worked out with the first frame's title
        # No layout engine at all (not even "none"'s placeholder, which still costs a text layout pass per frame).
        with matplotlib.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
            fig.set_layout_engine(None)
        movie = animation.writers[writer](fps=fps)
        with atomic_path(path) as temporary, movie.saving(fig, temporary, dpi):
            try:
                for k in range(count):
                    draw(k)
                    movie.grab_frame()
            except BaseException as error:
                failure = error  # the writer's own clean-up may fail on a half-written file: report this one
                raise
    except BaseException as error:
        if failure is not None and error is not failure:
            raise failure from None
        raise
    finally:
        fig.set_layout_engine(engine)
    return path
