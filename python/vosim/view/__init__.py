"""Watch a run: an interactive viewer in notebooks and in standalone pages.

``vosim.view(obj)`` is a notebook widget (needs ``anywidget``:
``pip install "vosim[view]"``) for a :class:`~vosim.Trajectory` (any scene
of a Batch's), or a Simulator or Batch to follow live while it runs::

    w = vosim.view(sim)      # shows the current state
    w                        # (display it)
    traj = w.run(500)        # sim.run(500, progress=w.follow): each report is a frame

:meth:`vosim.Trajectory.to_html` writes the same viewer into one
self-contained HTML page (no anywidget needed). Both play, pause, scrub,
change playback speed, zoom and pan (drag and wheel; 3D runs orbit), colour
agents by speed, arrival, local density or agent, show a clicked agent's
id, speed, goal and nearest neighbours, and follow it. Agents are drawn
with WebGL (a 2D canvas where WebGL is missing); positions travel as
float32 binary, never as JSON lists.

This module can be called: ``vosim.view(obj)`` is :func:`vosim.view.view`.
"""

from __future__ import annotations

import sys
import types


def view(obj, *, scene: int = 0, every: int = 1, max_agents: int | None = None, color_by: str | None = None,
         title: str | None = None, geometry_of=None, places=None):
    """An interactive viewer widget of a run for Jupyter (JupyterLab, Notebook 7, VS Code, Colab).

    Parameters
    ----------
    obj
        A :class:`~vosim.Trajectory` (recorded frames), or a Simulator or
        Batch: then the widget shows its current state and follows a run
        given ``widget.follow`` as its ``progress`` callback (or
        ``widget.run(steps, ...)``). Or several runs of one scene, one per
        method: ``{label: Trajectory}`` (a list is labelled by the methods'
        names), shown together and coloured by run (``"method"``), on the
        longest run's clock (each recorded at the same times; a run that
        ended earlier holds its last frame).
    scene
        Which scene of a Batch (or of a Batch's trajectory).
    every, max_agents
        Trajectories only: show every ``every``-th frame and at most
        ``max_agents`` agents (every k-th one); the page says what was kept.
    color_by
        ``"speed"`` (the default for one run), ``"arrival"``, ``"density"``
        (agents per square metre around each agent), ``"agent"``, or, for
        several runs, ``"method"`` (their default); changeable in the widget.
    title
        The line above the picture; by default the method and agent count.
    geometry_of
        With a trajectory: the Simulator or Batch it came from, for its
        sinks, speed zones and 3D obstacle shapes (a trajectory records
        only 2D obstacles).
    places
        Named lines and polygons to draw and label, ``{name: (k, 2)
        points}``: two points make a line, more a polygon; for example a
        scenario's ``geometry`` (its door, room and measurement areas).
        Plane only.

    Returns
    -------
    RunViewer
        The widget (an ``anywidget.AnyWidget``).

    Raises
    ------
    ImportError
        Without anywidget, naming ``pip install "vosim[view]"``.
    """
    from ._widget import viewer_for

    return viewer_for(obj, scene=scene, every=every, max_agents=max_agents, color_by=color_by, title=title,
                      geometry_of=geometry_of, places=places)


def to_html(runs, path, *, every: int = 1, max_agents: int | None = None, color_by: str = "method",
            title: str | None = None, places=None):
    """Write one self-contained page that plays several runs of one scene together, coloured by run.

    As :meth:`vosim.Trajectory.to_html` for one run. ``runs`` is
    ``{label: Trajectory}`` or a list of Trajectories (labelled by their
    methods' names), each recorded at the same times (same time step and
    ``record_every``); a run that ended earlier holds its last frame. The
    obstacles drawn are the first run's; ``max_agents`` applies to each run.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    ValueError
        A bad path, runs recorded at different times, or mixing 2D and 3D.
    TypeError
        ``runs`` not a dict or list of Trajectories.
    """
    from ._scene import from_runs

    check_page_path(path)
    return write_page(from_runs(runs, every=every, max_agents=max_agents, title=title, color_by=color_by,
                                places=places), path)


class _CallableModule(types.ModuleType):
    """``vosim.view`` is both this package and its function: ``vosim.view(obj)``."""

    def __call__(self, obj, **arguments):
        return view(obj, **arguments)


sys.modules[__name__].__class__ = _CallableModule

__all__ = ["view", "to_html"]

# For vosim's other packages, which import these from here and never from this
# package's private modules (tests/meta/test_private_imports.py); not public: not in __all__.
from ._page import check_page_path, write_page  # noqa: E402, F401
from ._scene import from_trajectory, size_text  # noqa: E402, F401
