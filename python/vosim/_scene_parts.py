"""The scene features a simulator owns, one line each: their parts' methods and properties become
the simulator's (``_parts.install``), and their ``add_agents`` hooks run in this order."""

from __future__ import annotations

from ._obstacles import Obstacles
from ._periodic import PeriodicAxis
from ._sinks import Sinks
from ._speed_zones import SpeedZones
from ._waiting import WaitingStages
from ._waypoints import Waypoints

SCENE_PARTS = (Obstacles, Sinks, SpeedZones, WaitingStages, PeriodicAxis, Waypoints)
