"""Line-of-sight helpers of the roadmap scenario; they live in :mod:`vosim.navigation`."""

from ..navigation import obstacle_edges, visible

__all__ = ["obstacle_edges", "visible"]
