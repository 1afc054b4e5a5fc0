"""Avoidance methods: configuration objects that a Simulator or Batch runs.

A method object only holds settings; pass it as ``method=`` or assign it to
``sim.method`` between steps. Every method reads the same neighbours and
agent parameters, so comparisons measure the algorithm alone.
"""

from __future__ import annotations

import math
import types
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, fields, replace

from . import _core
from ._checks import MAX_MAGNITUDE, integer, scalar


# Deadlock resolution rules every method takes (see Method).
DEADLOCK_RULES = ("none", "sidestep", "random_side")


@dataclass(frozen=True, kw_only=True)
class Method(ABC):
    """Settings every method shares (a base class, not usable on its own).

    Parameters
    ----------
    perturbation
        Each step, add to every goal-seeking agent's preferred velocity a
        random vector of length uniform in ``[0, perturbation)`` and uniform
        direction (RVO2's Blocks example uses 1e-4). Exact symmetry, such as
        two agents exactly head-on, deadlocks reciprocal methods; a tiny
        perturbation breaks it. A jam that is a stable equilibrium (agents
        exactly evenly spaced on a small circle meet in a ring around the
        centre and stop) needs a larger one, about 10 % of the preferred
        speed. 0 (the default) disables it.
    seed
        Seed of the perturbation and of the deadlock detours. The draws
        depend only on (seed, agent id, step), so results do not depend on
        the thread count.
    deadlock
        Opt-in deadlock resolution. ``"none"`` (the default) leaves the
        method as published. Otherwise a goal-seeking agent that has moved
        slower than ``deadlock_stall`` times its ``pref_speed`` for
        ``deadlock_patience`` seconds without arriving takes a detour: its
        preferred velocity is turned by ``deadlock_turn`` degrees for
        ``deadlock_hold`` seconds times a seeded factor in [0.5, 1.5) (so
        that symmetric agents do not resume together). ``"sidestep"``
        always turns right, a passing-side convention that is the same for
        every agent (a head-on pair then passes, a ring starts to turn);
        ``"random_side"`` tosses a seeded coin for each detour. The timers
        are per-agent engine state, updated at each step.
    deadlock_patience, deadlock_hold, deadlock_turn, deadlock_stall
        Seconds stalled before a detour, seconds a detour lasts (before the
        random factor), degrees of the turn, and the stall speed as a
        fraction of ``pref_speed``.
    """

    perturbation: float = 0.0
    seed: int = 0
    deadlock: str = "none"
    deadlock_patience: float = 1.0
    deadlock_hold: float = 1.0
    deadlock_turn: float = 90.0
    deadlock_stall: float = 0.1
    name = ""

    def __post_init__(self):
        scalar(self.perturbation, "perturbation", minimum=0.0, maximum=MAX_MAGNITUDE)
        integer(self.seed, "seed", minimum=0, maximum=2**64 - 1)
        if not isinstance(self.deadlock, str) or self.deadlock not in DEADLOCK_RULES:
            raise ValueError(f"deadlock is {self.deadlock!r}; must be one of {', '.join(map(repr, DEADLOCK_RULES))}")
        scalar(self.deadlock_patience, "deadlock_patience", minimum=0.0, maximum=MAX_MAGNITUDE)
        scalar(self.deadlock_hold, "deadlock_hold", minimum=0.0, maximum=MAX_MAGNITUDE)
        scalar(self.deadlock_turn, "deadlock_turn", minimum=0.0, maximum=180.0)
        scalar(self.deadlock_stall, "deadlock_stall", minimum=0.0, maximum=1.0)
        for setting in _declared_settings(self.name):
            _check_setting(setting, getattr(self, setting["name"]))

    def _make_core(self):
        return self._core_method()

    def _install(self, engine) -> None:
        """Sets this method on ``engine`` (a ``_core.Engine``), with its goal settings (noise, deadlock).

        The engine's goals phase holds those (``Engine.set_goal_settings``); they are options of the
        method here, so that a configuration is one object.
        """
        engine.method = self._make_core()
        engine.set_goal_settings(
            perturbation=float(self.perturbation), seed=int(self.seed), deadlock=self.deadlock,
            patience=float(self.deadlock_patience), hold=float(self.deadlock_hold),
            turn=math.radians(float(self.deadlock_turn)), stall_fraction=float(self.deadlock_stall))

    @abstractmethod
    def _core_method(self):
        """The engine's object for this configuration."""

    def to_dict(self) -> dict:
        """The configuration as plain data (for JSON and saved results)."""
        return {"method": self.name, **asdict(self)}


# Each method's own settings are declared once, in the core's method registry
# (cpp/core/methods/registry.hpp): name, kind, default, range or choices. The
# classes below take their fields, defaults and checks from there; their
# docstrings explain them.
_SPECS = {spec["name"]: spec for spec in _core.METHODS}
_FIELD_TYPES = {"real": "float", "integer": "int", "flag": "bool", "choice": "str"}


def _declared_settings(name: str) -> tuple:
    return _SPECS[name]["params"] if name in _SPECS else ()


def _choices_text(choices) -> str:
    quoted = [repr(choice) for choice in choices]
    return " or ".join(quoted) if len(quoted) <= 2 else f"one of {', '.join(quoted)}"


def _check_setting(setting: dict, value) -> None:
    """Raise TypeError/ValueError naming the setting unless value fits its declaration."""
    name, kind = setting["name"], setting["kind"]
    if kind == "real":
        scalar(value, name, minimum=setting["minimum"], strict=setting["exclusive_minimum"],
               maximum=setting["maximum"])
    elif kind == "integer":
        integer(value, name, minimum=int(setting["minimum"]), maximum=int(setting["maximum"]))
    elif kind == "flag":
        if not isinstance(value, bool):
            raise TypeError(f"{name}: expected True or False, got {value!r}")
    elif not isinstance(value, str) or value not in setting["choices"]:
        raise ValueError(f"{name} is {value!r}; must be {_choices_text(setting['choices'])}")


def _core_value(setting: dict, value):
    """value as the plain Python type of its kind (NumPy scalars pass the checks)."""
    return {"real": float, "integer": int, "flag": bool, "choice": str}[setting["kind"]](value)


def _registered(cls):
    """cls as a frozen dataclass with the settings the core declares for ``cls.name``."""
    settings = _SPECS[cls.name]["params"]
    cls.__annotations__ = {s["name"]: _FIELD_TYPES[s["kind"]] for s in settings}
    for setting in settings:
        setattr(cls, setting["name"], setting["default"])

    def _core_method(self):
        values = {s["name"]: _core_value(s, getattr(self, s["name"])) for s in settings}
        return _core.make_method(self.name, values, seed=int(self.seed))

    cls._core_method = _core_method
    return dataclass(frozen=True, kw_only=True)(cls)


@_registered
class ORCA(Method):
    """Optimal Reciprocal Collision Avoidance, as in the RVO2 library.

    Each neighbour contributes a half-plane of admissible velocities, shared
    equally by the pair; each obstacle edge one that the agent takes alone.
    The new velocity is the admissible one nearest to the preferred
    velocity, or the least-violating one when the half-planes leave no room
    (linear program 3, which keeps obstacle half-planes hard). The defaults
    reproduce RVO2.

    Parameters
    ----------
    bisector_weight
        Weight ``w`` of the projected lines in linear program 3,
        ``normalize(w * d_j - d_i)``. 1 is the bisector of the published
        algorithm; smaller values lean towards the violated line's reverse,
        larger ones towards the other line.
    acceleration
        How agents with a finite ``max_acceleration`` keep it.
        ``"constraint"`` (the default): the velocities reachable in one step,
        ``|v' - v| <= max_acceleration * time_step``, are hard constraints of
        the linear programs with the speed limit and the obstacles (a
        16-sided polygon inscribed in that disc, so the bound always holds
        and at least 98.1 % of it is usable in every direction; in 3D a
        polyhedron of 80 planes, at least 93.4 %); when the neighbours'
        half-planes leave no room, linear program 3 (4 in 3D) relaxes them
        only. ``"clamp"``: the velocity ORCA chose is moved towards by at
        most that much afterwards, as for every other method (the HRVO
        library's rule); this can break the half-planes, and is kept to
        compare with simulators that limit acceleration that way.
    nonholonomic
        How differential-drive and unicycle agents are planned for.
        ``"effective_center"`` (the default, ORCA-DD): as the point
        ``effective_center_distance`` ahead of the axle, seen with that much
        added to the radius, whose velocities map exactly to wheel speeds.
        ``"nh_orca"`` (NH-ORCA, Alonso-Mora et al. 2010): as the robot's own
        centre, seen with ``tracking_error`` added to the radius; ORCA plans
        a holonomic velocity among those the robot can track within that
        error (turning to its direction in ``tracking_time``, within its
        wheel and turn-rate limits), and the robot follows it with that
        controller. Holonomic agents are the same either way.
    time_gap
        Seconds; 0 (the default, RVO2's ORCA): off. Above 0, an opt-in for
        pedestrian crowds: before the half-planes, each agent's preferred
        speed is capped at its spacing to the nearest neighbour ahead (whose
        centre lies within both radii of its line of motion; the distance
        less both radii) over ``time_gap``, the headway rule of the
        collision-free speed model (Tordeux et al. 2016), but never below a
        tenth of it (two agents each ahead of the other would otherwise both
        stand for good; this way they edge round). Plain ORCA keeps
        its free speed in dense crowds; this slows it as people slow (see
        the documentation's validation page for its fundamental diagram).
    perturbation, seed
        See :class:`Method`.
    """

    name = "ORCA"


_VO_PARAMETERS = """
    Parameters
    ----------
    selection
        ``"sampling"``: ``samples`` velocities drawn uniformly in the
        max-speed disc plus the preferred velocity; the one of least penalty
        ``safety_factor / time_to_collision + |v_pref - v|`` wins (van den
        Berg et al. 2008). ``"geometric"``: the admissible velocity nearest
        to the preferred one among the projections onto cone legs and the
        legs' crossings (ClearPath, the HRVO library); when none is
        admissible, the candidate left free by the longest run of cones.
    samples
        Random candidates per agent and step (sampling).
    safety_factor
        Weight of ``1 / time_to_collision`` in the sampling penalty.
    truncate
        Limit every cone to collisions within the agent's ``time_horizon``
        (``time_horizon_obst`` for obstacles).
    escape_overlaps
        Geometric selection: when an overlap leaves no admissible velocity,
        offer the fastest way out as a candidate (False is the HRVO library).
    perturbation, seed
        See :class:`Method`; ``seed`` also seeds the sampling, whose draws
        depend only on (seed, agent id, step). Ids are unique across the
        scenes of a Batch, so identical scenes sample independently.

    Cones treat static obstacles as segment velocity obstacles. Agents'
    ``uncertainty_offset`` widens every cone, as in the HRVO library.
"""


@_registered
class VO(Method):
    __doc__ = """Velocity obstacles (Fiorini and Shiller 1998): each neighbour's cone has its apex at
    the neighbour's velocity, as if the neighbour would never react. Reciprocal
    pairs oscillate. Sampling selection by default.
    """ + _VO_PARAMETERS
    name = "VO"


@_registered
class RVO(Method):
    __doc__ = """Reciprocal velocity obstacles (van den Berg, Lin and Manocha 2008): the apex is the
    mean of both velocities, so each agent of a pair takes half of the avoidance.
    Sampling selection by default.
    """ + _VO_PARAMETERS
    name = "RVO"


@_registered
class HRVO(Method):
    __doc__ = """Hybrid reciprocal velocity obstacles (Snape, van den Berg, Guy and Manocha 2011): the
    RVO leg on the side the agent prefers to pass and the VO leg on the other, so
    a pair agrees on the side. Geometric selection by default, as the HRVO library.
    """ + _VO_PARAMETERS + """
    hrvo_apex
        ``"symmetric"`` (the default) is the paper's apex: where the RVO leg
        and the VO leg cross, on both sides. ``"library"`` reproduces the
        HRVO library, whose apex, when the neighbour is passed on the left,
        is that crossing reflected through the neighbour's velocity: use it
        to replay the library's runs. The library's construction loses the
        paper's guarantee: in 9-agent crowds it lets agents overlap by up to
        0.10 m, where the paper's apex keeps them apart (tests measure both).
    """
    name = "HRVO"


_SAMPLING_PARAMETERS = """
    Parameters
    ----------
    vel_bias
        The search is centred on ``vel_bias * v_pref`` with radius
        ``(1 - vel_bias) * max_speed``.
    weight_des_vel, weight_cur_vel
        Weights of the distance to the preferred (desired) and to the
        current velocity, each divided by max_speed.
    weight_side
        Weight of the side term, which favours passing every neighbour on
        the side both prefer.
    weight_toi, horiz_time
        Weight of ``1 / (0.1 + t / horiz_time)``, t the earliest time of
        impact (with the reciprocal velocity ``2 v - v_cur - v_neighbour``
        for neighbours; rays from the centre, hits within 1 s doubled, for
        walls).
    resolve_collisions
        After each step, push overlapping agents apart as ``dtCrowd::update``
        does (on by default): in ``collision_rounds`` rounds, each agent
        moves by the mean, over the neighbours it overlaps, of 0.7 times
        half the penetration, all pushes computed from the round's starting
        positions. False gives the bare sampler, which has no collision
        guarantee: a dense crowd can stack agents onto each other.
    collision_rounds
        Rounds of pushing apart per step (DetourCrowd's 4). More rounds leave
        shallower overlaps; none is a guarantee.
    max_acceleration
        Largest change of velocity per second (m/s^2), DetourCrowd's
        ``maxAcceleration`` (the default, 8, is that of RecastDemo's agents;
        ``dtCrowd`` has none of its own). An agent's own ``max_acceleration``,
        when lower, wins. A huge value (1e15) leaves only the agents' own.
    perturbation, seed
        See :class:`Method`.

    Defaults are DetourCrowd's (``dtCrowd::init``). Neighbours are the
    engine's (all ``max_neighbors``), walls the obstacle edges facing the
    agent. Where DetourCrowd is undefined, vosim defines: a neighbour centred
    on the agent has no side term but still a time of impact; a zero
    preferred velocity orients the adaptive pattern along the current
    velocity (or +x).
"""


@_registered
class AdaptiveSampling(Method):
    __doc__ = """DetourCrowd's adaptive velocity sampling (recastnavigation's dtObstacleAvoidanceQuery).

    A pattern of a centre and ``rings`` rings of ``divs`` samples, aligned with
    the preferred velocity, is evaluated around the search centre; the best
    sample becomes the next centre and the pattern shrinks by half, ``depth``
    times. Each sample's penalty weighs the distance to the preferred and
    current velocities, the side, and the time of impact.
    """ + _SAMPLING_PARAMETERS + """
    divs, rings, depth
        Samples per ring (at most 32), rings (at most 4), refinement levels.
    """
    name = "AdaptiveSampling"


@_registered
class GridSampling(Method):
    __doc__ = """DetourCrowd's grid velocity sampling: a ``grid_size`` x ``grid_size`` grid of
    candidates around the search centre, the least penalty wins.
    """ + _SAMPLING_PARAMETERS + """
    grid_size
        Candidates per side of the grid (>= 2).
    """
    name = "GridSampling"


@_registered
class ForceBased(Method):
    """A force-based baseline after Unreal Engine's Mass moving avoidance.

    No velocity obstacles: accelerations add up. Steering pulls the velocity
    towards the preferred one; separation pushes neighbours apart when their
    discs come within ``separation_distance``; predictive avoidance pushes
    away from each neighbour's closest point of approach within
    ``avoidance_time`` (assuming this agent keeps its preferred velocity);
    obstacle separation pushes off edges closer than ``obstacle_distance``.
    Each push grows with the square of the penetration of its margin. Then
    ``v + a * dt`` is limited to max_speed, and motion into a touching wall is
    removed. There is no collision guarantee: it is the non-VO baseline.

    Parameters
    ----------
    steering_time
        Seconds to reach the preferred velocity without disturbances.
    separation_distance, separation_stiffness
        Margin (m) beyond contact where separation acts, and its strength
        (m/s^2) at contact.
    avoidance_time, avoidance_distance, avoidance_stiffness
        How far ahead (s) closest approaches count, the margin (m) they
        should keep, and the strength (m/s^2) of the push.
    standing_scale, standing_speed
        Neighbours slower than standing_speed (m/s) push with this factor,
        so agents get through standing crowds.
    obstacle_distance, obstacle_stiffness
        Margin (m) and strength (m/s^2) of the push off obstacle edges.
    perturbation, seed
        See :class:`Method`.
    """

    name = "ForceBased"


@_registered
class AVO(Method):
    """Reciprocal collision avoidance with acceleration-velocity obstacles
    (van den Berg, Snape, Guy, Manocha, 2011).

    Agents steer towards a target velocity ``u`` through a controller of
    time constant ``acceleration_interval`` (per agent): the velocity
    follows ``u + (v - u) exp(-t / acceleration_interval)``, and the target
    lies within ``max_acceleration * acceleration_interval`` of the current
    velocity, so the acceleration never exceeds ``max_acceleration`` (per
    agent; infinite, the default, bounds only the target's speed). Each
    neighbour contributes the ORCA-like half-plane of its
    acceleration-velocity obstacle; the pair shares the avoidance in
    proportion to the agents' accelerations (all of it to an unbounded
    agent).

    Parameters
    ----------
    variant
        ``"paper"`` (the default): the published method. The target stays
        within ``max_speed`` and within a 16-sided polygon inscribed in the
        acceleration disc (it reaches at least 98.1 % of the disc's radius
        in every direction); obstacle half-planes (ORCA's) are hard
        constraints; when the neighbours' half-planes leave no room, linear
        program 3 violates them least. Each step the velocity moves towards
        the target as the controller does, so the realised change of
        velocity per step is at most ``max_acceleration * time_step``.
        ``"avo2"``: the AVO2 library step for step (float arithmetic, its
        operation order and its quirks): the speed limit holds only along
        the heading, the new velocity is the target at once, obstacles are
        ignored, and infeasible agents keep a partial solution. It needs a
        finite ``max_acceleration``.
    perturbation, seed
        See :class:`Method`.
    """

    name = "AVO"


@_registered
class CollisionFreeSpeed(Method):
    """The collision-free speed model (Tordeux, Chraibi, Seyfried 2016), JuPedSim's default model.

    A first-order pedestrian model: each step the velocity is set outright to
    ``e * V(s)``. The direction ``e`` is the preferred direction turned by
    exponential repulsions, ``neighbor_strength * exp((r_i + r_j - d) /
    neighbor_range)`` away from each neighbour and ``wall_strength *
    exp((r - d) / wall_range)`` away from each wall. The speed ``V(s) =
    min(max(s / time_gap, 0), v0)`` follows the smallest spacing ``s``
    (distance minus the radii) to a neighbour ahead whose centre lies within
    ``r_i + r_j`` of the line of motion (walls do not slow it, as in
    JuPedSim); ``v0`` is the preferred speed capped by max_speed. As in
    JuPedSim, every wall near the agent repels it, whichever side of it
    the agent stands on, and a neighbour behind a wall is not seen. The
    engine's obstacle guard keeps a step from carrying an agent through a
    wall (JuPedSim's walls are soft). Plane only.
    Defaults are JuPedSim's CollisionFreeSpeedModel's.

    Parameters
    ----------
    time_gap
        Time gap ``T`` (s) of the speed law.
    neighbor_strength, neighbor_range
        Strength and range (m) of the neighbours' repulsion of the direction.
    wall_strength, wall_range
        Strength and range (m) of the walls' repulsion of the direction.
    wall_hold
        Remove motion into a wall the agent touches or would reach within
        the step, and see only the walls facing the agent (vosim's rule
        before JuPedSim's was matched; agents then pass doors more slowly
        than JuPedSim's). Off by default.
    perturbation, seed
        See :class:`Method`.
    """

    name = "CollisionFreeSpeed"


@_registered
class SocialForce(Method):
    """Helbing's social force model (Helbing & Molnár 1995; Helbing, Farkas, Vicsek 2000), as JuPedSim implements it.

    A second-order pedestrian model: each step the forces give an
    acceleration, and the new velocity is ``v + dt * a`` with

    ``a = (v_pref - v) / reaction_time + (sum_j f_ij + sum_W f_iW) / mass``.

    ``v_pref`` is the agent's preferred velocity (``v0 e0``: its
    ``pref_speed`` towards its goal). A neighbour ``j`` at distance ``d``
    pushes with ``f_ij = [A exp((r_ij - d) / B) + k g(r_ij - d)] n_ij +
    kappa g(r_ij - d) ((v_j - v_i) . t_ij) t_ij`` (``r_ij`` the sum of the
    radii, ``n_ij`` the unit vector from ``j`` to the agent, ``t_ij`` it
    turned by 90 degrees, ``g(x) = max(x, 0)``); the closest point of a wall
    likewise with ``obstacle_scale`` and the agent's radius, its sliding
    friction ``-kappa g(r_i - d) (v_i . t) t`` opposing the motion along the
    wall (the paper's sign; JuPedSim's adds it). The forces are the
    acceleration model: ``max_acceleration`` is not applied after them; the
    speed is capped at ``max_speed``. Plane only.

    Defaults are the paper's parameter set, also JuPedSim's
    (``SocialForceModel``, ``SocialForceModelAgentParameters``). JuPedSim's
    agents default to ``desired_speed`` 0.8 m/s and radius 0.3 m; here those
    are the agents' ``pref_speed`` and ``radius``. The body force is stiff
    (``k / m = 1500 s^-2``): explicit steps resolve contacts only for
    ``time_step`` below about 0.05 s (JuPedSim's examples use 0.01 s); at
    0.1 s overlapping bodies jitter, bounded by ``max_speed``.

    Parameters
    ----------
    mass
        Mass ``m`` (kg) the forces act on.
    reaction_time
        Relaxation time ``tau`` (s) towards the preferred velocity.
    agent_scale, obstacle_scale
        Strengths ``A`` (N) of the exponential repulsion from agents and walls.
    force_distance
        Range ``B`` (m) of both exponential repulsions.
    body_force
        Body force ``k`` (kg/s²) per metre of overlap.
    friction
        Sliding friction ``kappa`` (kg/(m s)) per metre of overlap.
    perturbation, seed
        See :class:`Method`.
    """

    name = "SocialForce"


def _generated_class(spec: dict) -> type:
    """A method class for a registered method without a class above, documented from its declaration."""
    lines = [spec["summary"][:1].upper() + spec["summary"][1:] + ".", "", "Parameters", "----------"]
    for setting in spec["params"]:
        lines += [setting["name"], f"    {setting['doc'][:1].upper() + setting['doc'][1:]}."]
    lines += ["perturbation, seed", "    See :class:`Method`."]
    namespace = {"name": spec["name"], "__doc__": "\n".join(lines), "__module__": __name__}
    return _registered(types.new_class(spec["name"], (Method,), exec_body=lambda ns: ns.update(namespace)))


# Every registered method in the registry's order (the CLI and
# ``method="name"`` read this), its class written above or generated.
METHODS = {spec["name"]: globals().get(spec["name"]) or _generated_class(spec) for spec in _core.METHODS}
globals().update(METHODS)

# Short names users type (the CLI, ``Simulator(method="adaptive")``), besides
# the methods' own names in any case.
METHOD_ALIASES = {alias: spec["name"] for spec in _core.METHODS for alias in spec["aliases"]}


def short_names() -> list:
    """The name users type for each method: its first alias, else its name in lower case."""
    return [(spec["aliases"] or (spec["name"].lower(),))[0] for spec in _core.METHODS]


def method_from_name(name: str) -> Method:
    """The method called ``name`` (case-insensitive: orca, vo, rvo, hrvo,
    adaptive, grid, force, or a class name), with its default settings.

    Raises
    ------
    ValueError
        Unknown names, listing the known ones.
    """
    by_name = {key.lower(): cls for key, cls in METHODS.items()}
    by_name.update({alias: METHODS[key] for alias, key in METHOD_ALIASES.items()})
    cls = by_name.get(name.strip().lower())
    if cls is None:
        raise ValueError(f"unknown method {name!r}; choose from {', '.join(sorted(by_name))}")
    return cls()


def method_from_dict(data: dict) -> Method:
    """The method that :meth:`Method.to_dict` described.

    Raises
    ------
    ValueError
        Unknown method names or settings, naming them.
    """
    if not isinstance(data, dict) or "method" not in data:
        raise ValueError(f"method: expected a dict with a 'method' name, got {data!r}")
    settings = dict(data)
    name = settings.pop("method")
    if name not in METHODS:
        raise ValueError(f"method is {name!r}; must be one of {', '.join(METHODS)}")
    cls = METHODS[name]
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise ValueError(f"method: {name} has no setting {unknown[0]!r}")
    return cls(**settings)


def _setting_from_text(cls: type, key: str, text: str):
    """``text`` read as the type ``cls`` declares for setting ``key`` (the registry's kinds for a method's own
    settings, :class:`Method`'s for the shared ones); TypeError/ValueError naming the setting otherwise."""
    declared = {f.name: f.type for f in fields(cls)}
    if key not in declared:
        raise ValueError(f"{cls.name} has no setting {key!r}; its settings: {', '.join(declared)}")
    kind = declared[key] if isinstance(declared[key], str) else declared[key].__name__
    text = text.strip()
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            raise TypeError(f"{key}: expected an integer, got {text!r}") from None
    if kind == "float":
        try:
            return float(text)
        except ValueError:
            raise TypeError(f"{key}: expected a real number, got {text!r}") from None
    if kind == "bool":
        words = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
        if text.lower() not in words:
            raise TypeError(f"{key}: expected true or false, got {text!r}")
        return words[text.lower()]
    return text


def method_from_text(text: str) -> Method:
    """The method a command line names: ``name``, optionally with settings, ``orca:time_gap=0.5:seed=3``.

    Each value is read as its setting's declared type (``seed=3`` an
    integer, ``time_gap=0.5`` a real number, ``truncate=false`` a flag, a
    choice as given) and then checked as the method's constructor checks it.

    Raises
    ------
    ValueError
        An unknown method or setting, a setting not written ``name=value``,
        or a value out of its range.
    TypeError
        A value that is not of its setting's type (``seed=3.5``).
    """
    name, *settings = text.strip().split(":")
    method = method_from_name(name)
    changes = {}
    for setting in settings:
        key, sep, value = setting.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"method setting {setting!r}: expected name=value")
        changes[key.strip()] = _setting_from_text(type(method), key.strip(), value)
    return replace(method, **changes) if changes else method


# What each method promises about agents overlapping, the one statement of it
# (comparison reports mark the methods without one wherever collisions are counted).
_CONDITIONS = ("in steps in which every agent found an admissible velocity (the run's ``fallbacks`` count "
               "the others) and no acceleration limit binds, and only among agents that all use it")
_NO_GUARANTEE = {
    "VO": "none: a neighbour's cone assumes it keeps its velocity, which a reacting neighbour does not",
    "RVO": "none in crowds: the reciprocal cone's guarantee covers a pair that passes on the same side",
    "sampling": "none: velocities inside a cone are penalised, not excluded",
    "AdaptiveSampling": "none: colliding velocities are penalised (time of impact), not excluded",
    "GridSampling": "none: colliding velocities are penalised (time of impact), not excluded",
    "ForceBased": "none: forces push neighbours apart; nothing excludes an overlap",
    "SocialForce": "none: forces push neighbours apart; body forces act only once bodies overlap",
    "CollisionFreeSpeed": ("none for neighbours beside it: the speed law stops an agent only before a neighbour "
                           "in its lane; the others repel its direction"),
    "avo2": "none: the AVO2 library's step ignores obstacles and keeps infeasible agents' partial solutions",
    "hrvo_library": "none: the HRVO library's apex lets agents overlap (up to 0.10 m in 9-agent crowds)",
}


def collision_guarantee(method: Method) -> str | None:
    """What ``method`` guarantees about agents overlapping, or None when it guarantees nothing.

    ORCA (2D and 3D) and AVO (``variant="paper"``) keep every pair's
    half-plane (van den Berg et al. 2011), HRVO with geometric selection
    and the paper's apex keeps the chosen velocity outside every hybrid
    cone; each only when such a velocity exists. Every other method, and
    these with other settings, comes with no guarantee: its collision
    counts measure it (:func:`no_guarantee_reason` says why).
    """
    if not isinstance(method, Method):
        raise TypeError(f"method: expected a vosim method such as vosim.ORCA(), got {type(method).__name__}")
    return None if no_guarantee_reason(method) else f"collision-free {_CONDITIONS}"


def no_guarantee_reason(method: Method) -> str | None:
    """Why ``method`` has no collision guarantee (see :func:`collision_guarantee`), or None when it has one."""
    name = method.name
    if name == "ORCA":
        return None
    if name == "AVO":
        return None if method.variant == "paper" else _NO_GUARANTEE["avo2"]
    if name == "HRVO":
        if method.selection != "geometric":
            return _NO_GUARANTEE["sampling"]
        return None if method.hrvo_apex == "symmetric" else _NO_GUARANTEE["hrvo_library"]
    if name in ("VO", "RVO"):
        return _NO_GUARANTEE["sampling"] if method.selection == "sampling" else _NO_GUARANTEE[name]
    return _NO_GUARANTEE.get(name, "none stated for this method")
