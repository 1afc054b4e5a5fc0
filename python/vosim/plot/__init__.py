"""Pictures of runs (needs matplotlib: ``pip install "vosim[plot]"``).

- :func:`trajectories`: paths coloured by agent, speed or time, with obstacles, collisions and headings;
- :func:`side_by_side`: several runs (one per method) on one colour scale, with one colour bar and one legend;
- :func:`animate`: an animation (discs with heading ticks), saved as GIF (pillow) or MP4 (ffmpeg);
- :func:`velocity_space`: one agent's velocity space for the active method (from ``sim.inspect``);
- :func:`compare`: the standard figures of a :func:`vosim.compare` table (``figure=``: metrics, collisions, arrivals);
- :func:`obstacles`: obstacles into existing axes;
- :func:`navigation`: a roadmap or navigation mesh and paths planned on it;
- :func:`trajectories3d`, :func:`projections`, :func:`animate3d`: 3D runs in 3D axes, as top and
  side views, and animated, with their obstacle shapes;
- :func:`velocity_space3d`: one agent's 3D velocity space, as three slices through its new velocity.

Every function that draws a picture returns its ``matplotlib.figure.Figure``
(``fig.axes`` are its panels; a function given ``ax=`` draws there and
returns ``ax.figure``); the animations return their
``matplotlib.animation.FuncAnimation``.

matplotlib is imported only when a function draws.
"""

from ._animate import animate
from ._animate3d import animate3d
from ._common import obstacles
from ._compare import compare
from ._navigation import navigation
from ._side_by_side import side_by_side
from ._trajectories import trajectories
from ._trajectories3d import projections, trajectories3d
from ._velocity_space import velocity_space
from ._velocity_space3d import velocity_space3d

__all__ = ["animate", "animate3d", "compare", "navigation", "obstacles", "projections", "side_by_side", "trajectories",
           "trajectories3d", "velocity_space", "velocity_space3d"]

# For vosim's other packages, which import these from here and never from this
# package's private modules (tests/meta/test_private_imports.py); not public: not in __all__.
from ._animate import animation_writer  # noqa: E402, F401
from ._canvas import MAX_DPI, MIN_DPI  # noqa: E402, F401
from ._compare import FIGURES  # noqa: E402, F401
