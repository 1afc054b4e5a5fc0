"""Global planning: paths around obstacles, followed by the local methods as waypoints.

- :class:`Roadmap`: a visibility roadmap, points off the obstacles' corners
  joined where they see each other, with A* shortest paths;
- :class:`NavMesh`: a navigation mesh, the walkable area shrunk by the
  agents' radius and triangulated, with A* over the triangles and the funnel
  algorithm for the path;
- ``sim.set_goals(ids, goals, plan="navmesh")`` plans and sets waypoints for
  many agents in one call;
- ``sim.set_exits(sinks, choice=...)`` chooses an exit (sink) per agent:
  nearest by path, quickest (walk plus queue, re-evaluated inside ``run()``)
  or assigned, and plans the way there.

Both need shapely >= 2.1 (``pip install "vosim[navigation]"``), imported
when a planner is built; the searches run in C++ for all agents at once.
"""

from ._exits import CHOICES as EXIT_CHOICES
from ._exits import SPECIFIC_FLOW
from ._navmesh import NavMesh
from ._roadmap import Roadmap

__all__ = ["EXIT_CHOICES", "SPECIFIC_FLOW", "NavMesh", "Roadmap"]

# For vosim's other packages, which import these from here and never from this
# package's private modules (tests/meta/test_private_imports.py); not public: not in __all__.
from ._exits import merge_pausers  # noqa: E402, F401
from ._geometry import obstacle_edges, visible  # noqa: E402, F401
from ._goals import Navigation, PLANNERS  # noqa: E402, F401
from ._planners import builder_of, plan_on_roadmap, warn_off_mesh  # noqa: E402, F401
from ._replanning import stall_replanner  # noqa: E402, F401
from ._state import navigation_state, restore_navigation  # noqa: E402, F401
