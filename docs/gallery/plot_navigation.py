"""
Global planning round a pillar
==============================

A navigation mesh of the walkable area plans the way round a pillar; ORCA
walks it (needs shapely: ``pip install "vosim[navigation]"``).
"""

from shapely.geometry import Polygon

from vosim import plot
from vosim.navigation import NavMesh

walkable = Polygon([(0, 0), (20, 0), (20, 10), (0, 10)], holes=[[(8, 2), (12, 2), (12, 8), (8, 8)]])
mesh = NavMesh.from_polygon(walkable, radius=0.3)
starts = [[2.0, 4.0], [2.0, 6.0], [2.0, 5.0]]
paths = mesh.plan(starts, [[18.0, 6.0], [18.0, 4.0], [18.0, 5.0]])
fig = plot.navigation(mesh, paths=paths, starts=starts, title="NavMesh: three paths round a pillar")
