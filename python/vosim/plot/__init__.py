"""Pictures of runs (needs matplotlib: ``pip install "vosim[plot]"``).

- :func:`trajectories`: paths coloured by agent, speed or time, with obstacles and collisions;
- :func:`animate`: an animation, saved as GIF (pillow) or MP4 (ffmpeg);
- :func:`velocity_space`: one agent's velocity space for the active method (from ``sim.inspect``);
- :func:`compare`: the standard figures of a :func:`vosim.compare` table;
- :func:`obstacles`: obstacles into existing axes;
- :func:`navigation`: a roadmap or navigation mesh and paths planned on it.

matplotlib is imported only when a function draws.
"""

from ._animate import animate
from ._common import obstacles
from ._compare import compare
from ._navigation import navigation
from ._trajectories import trajectories
from ._velocity_space import velocity_space

__all__ = ["animate", "compare", "navigation", "obstacles", "trajectories", "velocity_space"]
