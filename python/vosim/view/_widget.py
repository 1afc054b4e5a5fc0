"""The notebook widget: the viewer's module on ``anywidget``, fed a Trajectory or a running Simulator."""

from __future__ import annotations

try:
    import anywidget
    import traitlets
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError('vosim.view needs anywidget: pip install "vosim[view]"') from error

from ._page import module_source, pack
from ._scene import from_runs, from_simulator, from_trajectory, live_frame


class RunViewer(anywidget.AnyWidget):
    """A run in a notebook: play, pause, scrub, zoom, pan, click and follow agents.

    Made by :func:`vosim.view`. For a Simulator it starts at the current
    state and follows a run given :meth:`follow` as its progress callback
    (or run through :meth:`run`): each report sends the state then as a new
    frame (float32 positions, uint8 speeds, bytes of flags).
    """

    _esm = module_source()
    meta = traitlets.Dict().tag(sync=True)
    data = traitlets.Bytes().tag(sync=True)

    def __init__(self, scene, *, simulator=None, scene_index=None, **kwargs):
        meta, blob = pack(scene)
        super().__init__(meta=meta, data=blob, **kwargs)
        self._simulator = simulator
        self._scene_index = scene_index
        self._slots = None
        if simulator is not None:
            import numpy as np

            ids = np.asarray(simulator.ids if scene_index is None else simulator.ids[scene_index])
            self._slots = np.flatnonzero(ids >= 0)
        self.frames_sent = 0
        self._last_frame = None  # (content, buffers) of the newest frame sent
        self.on_msg(self._answer_view)

    def follow(self, done: int, total: int) -> None:
        """A ``progress`` callback for ``sim.run``: sends the simulator's state now as a new frame."""
        if self._simulator is None:
            raise TypeError("follow: this viewer shows a recorded trajectory; view a Simulator to follow a run")
        frame = live_frame(self._simulator, self._scene_index, self._slots, self.meta["speed_scale"])
        self._last_frame = ({"type": "frame", "time": frame["time"], "done": int(done), "total": int(total)},
                            [frame["positions"].tobytes(), frame["speeds"].tobytes(), frame["flags"].tobytes()])
        self.send(*self._last_frame)
        self.frames_sent += 1

    def _answer_view(self, widget, content, buffers) -> None:
        """A view drawn after frames were sent (they reach only the views already there) asks for the state:
        the newest frame goes again (views that have it ignore it)."""
        if isinstance(content, dict) and content.get("type") == "ready" and self._last_frame is not None:
            self.send(*self._last_frame)

    def run(self, steps: int, **arguments):
        """``sim.run(steps, progress=self.follow, **arguments)``, then the final state as the last frame."""
        if self._simulator is None:
            raise TypeError("run: this viewer shows a recorded trajectory; view a Simulator to follow a run")
        if "progress" in arguments:
            raise TypeError("run: progress is this viewer's own (it follows the run through it)")
        trajectory = self._simulator.run(steps, progress=self.follow, **arguments)
        self.follow(steps, steps)
        return trajectory


def viewer_for(obj, *, scene: int = 0, every: int = 1, max_agents=None, color_by: str | None = None,
               title=None, geometry_of=None, places=None) -> RunViewer:
    if isinstance(obj, (dict, list, tuple)):
        return RunViewer(from_runs(obj, every=every, max_agents=max_agents, title=title,
                                   color_by=color_by or "method", places=places))
    color_by = color_by or "speed"
    if hasattr(obj, "positions") and hasattr(obj, "times") and hasattr(obj, "subsample"):
        return RunViewer(from_trajectory(obj, scene=scene, every=every, max_agents=max_agents, title=title,
                                         color_by=color_by, geometry_of=geometry_of, places=places))
    if hasattr(obj, "run") and hasattr(obj, "add_agents"):
        if every != 1 or max_agents is not None:
            raise ValueError("every, max_agents: a live view of a Simulator shows every agent and report")
        built = from_simulator(obj, scene=scene, title=title, color_by=color_by, places=places)
        index = None if not hasattr(obj, "scenes") else scene
        return RunViewer(built, simulator=obj, scene_index=index)
    raise TypeError(f"obj: expected a vosim.Trajectory, Simulator or Batch, got {type(obj).__name__}")
