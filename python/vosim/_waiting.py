"""Waiting areas and queues: agents wait at places until released, then go on to their goal.

A stage is a list of places (``slots``) in one scene. Agents that join it
walk to a place, wait there, and go on to their own goal (and waypoints)
when released: after ``release_after`` seconds in their place (in a queue:
at its front), all at once when ``release_count`` of them are in their
places, or when :meth:`WaitingStage.release` is called. JuPedSim's waiting
set and notifiable queue are the models.

- A **queue** fills from the front (``slots[0]``) in the order agents
  arrive: those on their way, nearest the queue's tail first, head for the
  tail and the places behind it in turn, so they line up as they come, and
  only the tail can be taken. When the front is released, everyone moves
  up one place. Agents beyond the last place wait at it until a place frees.
- A **waiting area** gives each agent on its way, nearest first, the free
  place nearest to it; a released agent's place is free again.

An agent takes a place when its centre comes within ``reach`` of it while
the place is free. The engine does the work in every step, inside ``run()``
too (``cpp/core/features/waiting/``): the goals phase steers each member to
its place by the goals' own rule, the features phase places arrivals and
releases; the result does not depend on the thread count. Stages are saved
in checkpoints. An agent that leaves the simulation (a sink,
``remove_agents``) leaves its stage.

The simulator owns one :class:`WaitingStages` part, which the public methods
``add_queue``, ``add_waiting_area`` and ``waiting_stages`` delegate to.
"""

from __future__ import annotations

import numpy as np

from ._checks import INT32_MAX, MAX_MAGNITUDE, check_values, ids_array, integer, real_array, scalar
from ._parts import Part

DEFAULT_REACH = 0.3  # metres: about a walker's radius plus a little; a place within it is reached


def _slots(value) -> np.ndarray:
    array = real_array(value, "slots")
    if array.ndim == 1 and array.shape == (2,):
        array = array.reshape(1, 2)
    if array.ndim != 2 or array.shape[1] != 2 or len(array) == 0:
        raise ValueError(f"slots: expected shape (n, 2) with n >= 1 places, got shape {array.shape}")
    check_values(array, "slots", magnitude=MAX_MAGNITUDE)
    return np.ascontiguousarray(array)


def _rules(release_after, release_count) -> tuple[float, int]:
    after = np.inf if release_after is None else scalar(release_after, "release_after", minimum=0.0,
                                                         maximum=MAX_MAGNITUDE)
    count = 0 if release_count is None else integer(release_count, "release_count", minimum=1, maximum=INT32_MAX)
    return after, count


class WaitingStage:
    """One queue or waiting area of a simulator (from ``add_queue`` or ``add_waiting_area``).

    A handle: it reads and changes the simulator's state, so it stays true
    after ``run()``, and a restored simulator's stages are found again in
    ``waiting_stages``.
    """

    def __init__(self, engine, stage_id: int):
        self._core = engine
        self._id = stage_id

    def _description(self) -> dict:
        return self._core.waiting_stages()[self._id]

    def _members(self) -> dict:
        return self._core.waiting_members(self._id)

    @property
    def id(self) -> int:
        """The stage's id: 0, 1, ... in the order added."""
        return self._id

    @property
    def kind(self) -> str:
        """``"queue"`` or ``"area"``."""
        return self._description()["kind"]

    @property
    def slots(self) -> np.ndarray:
        """``(n, 2)`` read-only array: the places, a queue's front first."""
        return self._description()["slots"]

    @property
    def scene(self) -> int:
        """The scene the stage is in (0 in a Simulator)."""
        return int(self._description()["scene"])

    @property
    def reach(self) -> float:
        """Metres: an agent within this of a free place takes it."""
        return float(self._description()["reach"])

    @property
    def release_after(self) -> float | None:
        """Seconds a member waits in its place (in a queue: at the front) before it goes on; None: no such rule."""
        value = float(self._description()["release_after"])
        return None if np.isinf(value) else value

    @property
    def release_count(self) -> int | None:
        """When this many members are in their places, all go on; None: no such rule."""
        value = int(self._description()["release_count"])
        return None if value == 0 else value

    @property
    def waiting(self) -> np.ndarray:
        """Ids of the members in their places, in the order they took them (a queue's front first)."""
        return self._members()["waiting"]

    @property
    def approaching(self) -> np.ndarray:
        """Ids of the members still on their way to a place, in the order they joined."""
        return self._members()["approaching"]

    @property
    def released(self) -> np.ndarray:
        """Ids of the agents released so far, in the order released."""
        return self._members()["released"]

    @property
    def released_times(self) -> np.ndarray:
        """Simulated seconds at which each of :attr:`released` was released."""
        return self._members()["released_times"]

    def join(self, agents) -> None:
        """Send agents to this stage: each walks to a place, waits, and goes on to its goal when released.

        Parameters
        ----------
        agents
            Agent ids: active, goal-seeking (``has_goal``), in the stage's
            scene, and in no stage yet.

        Raises
        ------
        ValueError
            An unknown, inactive or goal-less agent, one in another scene,
            one already in a stage, or an id given twice (named by index).
        """
        ids = ids_array(agents, "agents")
        self._core.join_waiting_stage(self._id, ids)

    def release(self, count: int | None = None) -> int:
        """Release members in their places now, in the order they took them (a queue: from the front).

        Parameters
        ----------
        count
            How many; None (the default): all in their places. Members
            still on their way are not released.

        Returns
        -------
        int
            How many were released (fewer than ``count`` when fewer wait).
        """
        count = -1 if count is None else integer(count, "count", minimum=0, maximum=INT32_MAX)
        return int(self._core.release_waiting(self._id, count))

    def set_rules(self, *, release_after: float | None = None, release_count: int | None = None) -> None:
        """Replace the stage's release rules (None: no such rule); see ``add_queue``."""
        self._core.set_waiting_rules(self._id, *_rules(release_after, release_count))

    def __eq__(self, other) -> bool:
        return isinstance(other, WaitingStage) and other._core is self._core and other._id == self._id

    def __hash__(self) -> int:
        return hash((id(self._core), self._id))

    def __repr__(self) -> str:
        rules = []
        if self.release_after is not None:
            rules.append(f"release_after={self.release_after:g}")
        if self.release_count is not None:
            rules.append(f"release_count={self.release_count}")
        members = self._members()
        return (f"<WaitingStage {self._id}: {self.kind} of {len(self.slots)} places, "
                f"{', '.join(rules) or 'released by calls'}; {len(members['waiting'])} waiting, "
                f"{len(members['approaching'])} on their way, {len(members['released'])} released>")


class WaitingStages(Part):
    """The waiting stages of one simulator: the part its public methods delegate to."""

    methods = ("add_queue", "add_waiting_area")
    properties = {"waiting_stages": "all"}

    def _add(self, kind: str, slots, agents, release_after, release_count, reach, scene) -> WaitingStage:
        array = _slots(slots)
        after, count = _rules(release_after, release_count)
        reach = scalar(reach, "reach", minimum=0.0, strict=True, maximum=MAX_MAGNITUDE)
        where = self._scene(scene, every=False)
        ids = np.zeros(0, np.int64) if agents is None else ids_array(agents, "agents")
        # Added and joined at once: agents that cannot join leave no stage behind.
        stage_id = self._core.add_waiting_stage(kind, array, where, reach, after, count, ids)
        return WaitingStage(self._core, int(stage_id))

    def add_queue(self, slots, *, agents=None, release_after: float | None = None,
                  release_count: int | None = None, reach: float = DEFAULT_REACH,
                  scene: int | None = None) -> WaitingStage:
        """Add a queue: agents line up at its places and leave from the front (2D only).

        Members fill the places from the front (``slots[0]``) in the order
        they arrive (those on their way, nearest the tail first, head for
        the tail and the places behind it in turn), and move up one place
        each time the front one leaves; those beyond the last place wait at
        it until a place frees. While it
        waits, a member is steered to its place at up to its ``pref_speed``;
        once released it goes on to its own goal (and waypoints), which it
        kept all along. Nothing but the members' preferred velocities
        changes: the avoidance method keeps them apart as ever.

        Parameters
        ----------
        slots
            ``(n, 2)``: the places, front first (e.g. every 0.6 m along a
            line away from a ticket barrier).
        agents
            Agent ids to join now (active, goal-seeking, in the scene); more
            can join later with :meth:`WaitingStage.join`.
        release_after
            Seconds the front member waits at the front place before it
            goes on (a service time); None (the default): no such rule.
        release_count
            When this many members are in their places, all of them go on;
            None (the default): no such rule.
        reach
            Metres: a member whose centre comes within this of a free place
            takes it (default 0.3).
        scene
            Batch only: the scene the queue is in (required there).

        Without a rule, members wait until :meth:`WaitingStage.release`.

        Returns
        -------
        WaitingStage
            The queue: ``release()``, ``join()``, ``waiting``,
            ``released``, ``released_times``.

        Raises
        ------
        ValueError
            Bad slots or rules (named), a 3D simulator, or agents that
            cannot join (named by index in ``agents``).
        """
        return self._add("queue", slots, agents, release_after, release_count, reach, scene)

    def add_waiting_area(self, slots, *, agents=None, release_after: float | None = None,
                         release_count: int | None = None, reach: float = DEFAULT_REACH,
                         scene: int | None = None) -> WaitingStage:
        """Add a waiting area: agents take the free place nearest to them and wait there (2D only).

        Members on their way, nearest first, are each given the free place
        nearest to them, and take it once within ``reach``; when every place
        is taken, newcomers wait by the nearest one until a place frees. A released member goes on to
        its own goal (and waypoints), and its place is free again.

        Parameters
        ----------
        slots
            ``(n, 2)``: the places (e.g. a grid of standing places on a
            platform).
        agents
            Agent ids to join now; more can join later with
            :meth:`WaitingStage.join`.
        release_after
            Seconds each member waits in its place before it goes on; None
            (the default): no such rule.
        release_count
            When this many members are in their places, all of them go on
            (a group that leaves together); None (the default): no such rule.
        reach
            Metres: a member whose centre comes within this of a free place
            takes it (default 0.3).
        scene
            Batch only: the scene the area is in (required there).

        Without a rule, members wait until :meth:`WaitingStage.release`.

        Returns
        -------
        WaitingStage
            The area.

        Raises
        ------
        ValueError
            As :meth:`add_queue`.
        """
        return self._add("area", slots, agents, release_after, release_count, reach, scene)

    def all(self) -> list[WaitingStage]:
        """The queues and waiting areas (``add_queue``, ``add_waiting_area``), by id, as ``WaitingStage`` handles."""
        return [WaitingStage(self._core, k) for k in range(len(self._core.waiting_stages()))]
