"""Reinforcement-learning environments: robots among crowds simulated by vosim (needs ``vosim[rl]``).

Importing this module registers ``vosim/CrowdNavigation-v0`` with Gymnasium:

>>> import gymnasium, vosim.envs
>>> env = gymnasium.make("vosim/CrowdNavigation-v0", humans=5)
>>> envs = gymnasium.make_vec("vosim/CrowdNavigation-v0", num_envs=64, vectorization_mode="vector_entry_point")

:class:`MultiRobotCrowdNavigation` is the PettingZoo ``ParallelEnv`` of
several robots (needs pettingzoo).
"""

from ._crowd import OUTCOMES, CrowdConfig, EpisodeTally
from ._gymnasium import gymnasium
from .crowd_navigation import CrowdNavigation, CrowdNavigationVector

ENV_ID = "vosim/CrowdNavigation-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="vosim.envs.crowd_navigation:CrowdNavigation",
        vector_entry_point="vosim.envs.crowd_navigation:CrowdNavigationVector",
    )


def __getattr__(name):
    if name == "MultiRobotCrowdNavigation":  # imports pettingzoo only when asked for
        from .multi_robot import MultiRobotCrowdNavigation

        return MultiRobotCrowdNavigation
    raise AttributeError(f"module 'vosim.envs' has no attribute {name!r}")


__all__ = ["ENV_ID", "OUTCOMES", "CrowdConfig", "CrowdNavigation", "CrowdNavigationVector", "EpisodeTally",
           "MultiRobotCrowdNavigation"]
