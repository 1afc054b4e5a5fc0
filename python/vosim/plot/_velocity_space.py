"""One agent's velocity space at the current step, drawn from ``sim.inspect``."""

from __future__ import annotations

import numpy as np

from ._common import pyplot_module, count
from ._style import legend_below

# Colours of what is drawn.
AGENT_CONE = "#E69F00"   # Okabe-Ito orange
OBSTACLE_CONE = "0.45"
FORBIDDEN = "#D55E00"    # vermillion
FEASIBLE = "#009E73"     # bluish green


def clip_half_plane(polygon: np.ndarray, point: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """The part of a convex polygon where ``dot(normal, p - point) >= 0`` (Sutherland-Hodgman)."""
    if len(polygon) == 0:
        return polygon
    side = (polygon - point) @ normal
    result = []
    for k in range(len(polygon)):
        a, b = polygon[k], polygon[(k + 1) % len(polygon)]
        sa, sb = side[k], side[(k + 1) % len(polygon)]
        if sa >= 0:
            result.append(a)
        if (sa >= 0) != (sb >= 0):
            result.append(a + (b - a) * (sa / (sa - sb)))
    return np.array(result).reshape(-1, 2)


def _cross(u: np.ndarray, v: np.ndarray) -> float:
    return float(u[0] * v[1] - u[1] * v[0])


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull, counter-clockwise (Andrew's monotone chain)."""
    points = np.unique(np.asarray(points, dtype=np.float64), axis=0)
    if len(points) < 3:
        return points

    def half(ordered):
        chain = []
        for p in ordered:
            while len(chain) >= 2 and _cross(chain[-1] - chain[-2], p - chain[-2]) <= 0:
                chain.pop()
            chain.append(p)
        return chain[:-1]

    return np.array(half(points) + half(points[::-1]))


def _capsule(a: np.ndarray, b: np.ndarray, radius: float, samples: int = 48) -> np.ndarray:
    """Points around the capsule of segment a-b widened by radius (a disc when a == b)."""
    angles = np.linspace(0.0, 2 * np.pi, samples, endpoint=False)
    ring = radius * np.column_stack([np.cos(angles), np.sin(angles)])
    return np.vstack([a + ring, b + ring])


def _half_plane(box: np.ndarray, point, normal) -> np.ndarray:
    return clip_half_plane(box, np.asarray(point, dtype=np.float64), np.asarray(normal, dtype=np.float64))


def _shade_outside(ax, box: np.ndarray, region: np.ndarray, **style) -> None:
    """Shade ``box`` outside the convex ``region`` (all of it when the region is empty), outlining the region."""
    from matplotlib.patches import PathPatch, Polygon
    from matplotlib.path import Path

    edge = style.pop("edgecolor")
    if len(region) < 3:
        ax.add_patch(Polygon(box, closed=True, edgecolor="none", zorder=1, **style))
        return
    ring = region[::-1] if _cross(region[1] - region[0], region[2] - region[0]) > 0 else region  # a hole: clockwise
    codes = [Path.MOVETO] + [Path.LINETO] * (len(box) - 1) + [Path.CLOSEPOLY]
    hole = [Path.MOVETO] + [Path.LINETO] * (len(ring) - 1) + [Path.CLOSEPOLY]
    outer = box if _cross(box[1] - box[0], box[2] - box[0]) > 0 else box[::-1]
    path = Path(np.vstack([outer, outer[:1], ring, ring[:1]]), codes + hole)
    ax.add_patch(PathPatch(path, edgecolor="none", zorder=1, **style))
    ax.add_patch(Polygon(region, closed=True, fill=False, edgecolor=edge, linewidth=1.0, zorder=2))


def cone_polygon(apex, obstacle_a, obstacle_b, radius: float, scale: float, horizon: float, far: float) -> np.ndarray:
    """A velocity obstacle as a polygon reaching ``far`` from the apex.

    Velocities ``v`` whose ray ``scale * (v - apex) * t`` meets the capsule
    (a-b widened by ``radius``) within ``t <= horizon``: the union of the
    capsule scaled by ``s >= 1 / (scale * horizon)`` around the apex, which
    is convex. Untruncated cones (horizon inf) start at the apex.
    """
    apex = np.asarray(apex, dtype=np.float64)
    capsule = _capsule(np.asarray(obstacle_a, dtype=np.float64), np.asarray(obstacle_b, dtype=np.float64), radius)
    reach = far / max(float(np.linalg.norm(capsule, axis=1).min()), 1e-12)
    near = capsule / (scale * horizon) if np.isfinite(horizon) else np.zeros((1, 2))
    return _hull(np.vstack([apex + near, apex + capsule * reach]))


def velocity_space(sim, agent_id: int, *, ax=None, extent: float | None = None, title: str | None = None,
                   legend: bool = True, colorbar: bool = True):
    """Draw one agent's velocity space as the active method sees it at the next step.

    Everything comes from ``sim.inspect(agent_id)``, in absolute velocities
    (m/s):

    - ORCA: each neighbour's and obstacle edge's half-plane, the forbidden
      side shaded (obstacle ones darker), and the region left admissible
      within the max speed (green). When no velocity satisfies every
      half-plane, linear program 3 chose the least violating one: the title
      says so. With an acceleration limit, the polygon of velocities
      reachable in one step is drawn as hard half-planes too.
    - AVO: the same, with the acceleration-velocity obstacles' half-planes
      and the polygon reachable by the target, and the target velocity
      that the agent's controller approaches (the new velocity lies on
      the way to it).
    - VO, RVO, HRVO: each velocity obstacle (agents orange, obstacle edges
      grey), truncated cones with their caps, overlaps as half-planes.
    - Sampling methods (VO family with sampling, AdaptiveSampling,
      GridSampling): the candidates coloured by penalty, the chosen one ringed.
    - ForceBased: the accelerations acting on the agent, drawn from its
      current velocity (scaled to fit; the legend gives the scale).
    - Always: the max-speed circle, the current, preferred and new velocity.

    Parameters
    ----------
    sim
        A Simulator or Batch (the agent's scene is found from its id).
    agent_id
        The agent's id.
    ax
        Matplotlib axes; a new figure when None.
    extent
        Half-width of the drawn square; 1.3 times the largest of max speed
        and the drawn velocities by default.
    title
        Axes title; the method and agent by default.
    legend, colorbar
        Draw a legend, and a colour bar for penalties.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on (``ax``'s when given; ``fig.axes[0]`` is the
        drawing when not).
    """
    info = sim.inspect(agent_id)
    plt = pyplot_module()
    from matplotlib.patches import Circle, Patch, Polygon

    proxies = []  # legend entries for what is drawn without a label of its own

    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 6))
    velocity, pref, new = info["velocity"], info["pref_velocity"], info["new_velocity"]
    max_speed = float(info["max_speed"])
    if extent is None:
        extent = 1.3 * max(max_speed, np.abs(np.r_[velocity, pref, new]).max(), 1e-3)
    box = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]) * extent * 1.5
    far = 4.0 * extent
    notes = []

    lines = info["lines"]
    if len(lines["point"]):
        disc = max_speed * np.column_stack([np.cos(np.linspace(0, 2 * np.pi, 180, endpoint=False)),
                                            np.sin(np.linspace(0, 2 * np.pi, 180, endpoint=False))])
        feasible = disc
        hard_region = box  # velocities every hard half-plane allows
        for k, (point, direction) in enumerate(zip(lines["point"], lines["direction"])):
            right = np.array([direction[1], -direction[0]])  # the forbidden side
            feasible = clip_half_plane(feasible, point, -right)
            if lines["obstacle"][k]:
                hard_region = clip_half_plane(hard_region, point, -right)
                continue
            ax.add_patch(Polygon(_half_plane(box, point, right), closed=True, facecolor=FORBIDDEN, alpha=0.07,
                                 edgecolor="none", zorder=1))
            ends = np.array([point - far * direction, point + far * direction])
            ax.plot(ends[:, 0], ends[:, 1], color=FORBIDDEN, linewidth=1.0, zorder=2)
            ax.annotate("", xy=point + 0.25 * extent * direction, xytext=point,
                        arrowprops=dict(arrowstyle="->", color=FORBIDDEN, lw=0.8), zorder=2)
        if lines["obstacle"].any():
            # Hard half-planes shaded once, as the outside of the region they all allow, with that region's
            # outline: one shade per half-plane piles up to near black where a reachable polygon has many edges.
            _shade_outside(ax, box, hard_region, facecolor="0.3", alpha=0.25, edgecolor="0.15")
        if len(feasible) >= 3:
            ax.add_patch(Polygon(feasible, closed=True, facecolor=FEASIBLE, alpha=0.35, edgecolor=FEASIBLE,
                                 zorder=2, label="admissible velocities"))
        family = "AVO" if info["method"].startswith("AVO") else "ORCA"
        if (~lines["obstacle"]).any():
            proxies.append(Patch(facecolor=FORBIDDEN, alpha=0.3, edgecolor=FORBIDDEN,
                               label=f"forbidden by a neighbour ({family} half-plane)"))
        if lines["obstacle"].any():
            # Hard lines: obstacles' half-planes, and with an acceleration
            # limit the polygon of reachable velocities (AVO2: speed lines).
            proxies.append(Patch(facecolor="0.3", alpha=0.4, edgecolor="0.15",
                               label="forbidden by an obstacle, or out of reach (hard half-plane)"))
        n_agent = int((~lines["obstacle"]).sum())
        n_hard = len(lines["point"]) - n_agent
        notes.append(", ".join(part for part in (count(n_agent, "agent half-plane") if n_agent else "",
                                                 count(n_hard, "hard half-plane") if n_hard else "") if part))
        if info["used_fallback"]:
            notes.append("infeasible: linear program 3 chose the least violation")

    cones = info["cones"]
    for k in range(len(cones["apex"])):
        kind = cones["kind"][k]
        color = AGENT_CONE if kind.startswith("agent") else OBSTACLE_CONE
        if kind.endswith("overlap"):  # a half-plane: velocities towards the overlap
            right = cones["right_leg"][k]
            outline = _half_plane(box, cones["apex"][k], np.array([-right[1], right[0]]))
        else:
            outline = cone_polygon(cones["apex"][k], cones["obstacle_a"][k], cones["obstacle_b"][k],
                                   cones["radius"][k], cones["scale"][k], cones["horizon"][k], far)
        ax.add_patch(Polygon(outline, closed=True, facecolor=color, alpha=0.22, edgecolor=color, linewidth=1.0,
                             zorder=1))
        ax.plot(*cones["apex"][k], marker=".", color=color, markersize=4, zorder=3)
    if len(cones["apex"]):
        # Legend entries for the cone colours (proxies: the cones themselves are unlabelled).
        kinds = [str(kind) for kind in cones["kind"]]
        if any(kind.startswith("agent") for kind in kinds):
            proxies.append(Patch(facecolor=AGENT_CONE, alpha=0.35, edgecolor=AGENT_CONE,
                               label="velocity obstacle of a neighbour"))
        if any(not kind.startswith("agent") for kind in kinds):
            proxies.append(Patch(facecolor=OBSTACLE_CONE, alpha=0.35, edgecolor=OBSTACLE_CONE,
                               label="velocity obstacle of an obstacle edge"))
        truncated = np.isfinite(cones["horizon"]).any()
        notes.append(count(len(cones["apex"]), "velocity obstacle") + (" (truncated)" if truncated else ""))
        if info["used_fallback"]:
            notes.append("nothing admissible")

    candidates, penalties = info["candidates"], info["penalties"]
    if len(candidates):
        finite = np.isfinite(penalties)
        shown = np.where(finite, penalties, np.nan)
        high = np.nanpercentile(shown, 95) if finite.any() else 1.0
        points = ax.scatter(candidates[:, 0], candidates[:, 1], c=np.where(finite, penalties, high), cmap="viridis_r",
                            vmin=np.nanmin(shown) if finite.any() else 0.0, vmax=high, s=12, zorder=4,
                            edgecolors="none")
        if colorbar:
            ax.figure.colorbar(points, ax=ax, label="penalty (lower is better)", shrink=0.8)
        if info["chosen"] >= 0:
            chosen = candidates[info["chosen"]]
            ax.plot(*chosen, marker="o", markersize=11, markerfacecolor="none", markeredgecolor="black",
                    zorder=5, label="chosen candidate")
        notes.append(count(len(candidates), "candidate"))

    forces = {k: v for k, v in info["forces"].items() if k != "total" and np.any(v)}
    if info["forces"]:
        total = info["forces"].get("total", np.zeros(2))
        biggest = max([np.linalg.norm(v) for v in info["forces"].values()] + [1e-12])
        scale = 0.5 * max_speed / biggest if biggest > 1e-12 else 1.0
        palette = plt.get_cmap("tab10")
        for k, (name, value) in enumerate(list(forces.items()) + [("total", total)]):
            if not np.any(value):
                continue
            ax.annotate("", xy=velocity + scale * np.asarray(value), xytext=velocity,
                        arrowprops=dict(arrowstyle="-|>", color=palette(k), lw=2.0 if name == "total" else 1.2),
                        zorder=5)
            ax.plot([], [], color=palette(k), label=f"{name} acceleration")
        notes.append(f"accelerations x {scale:.2g} s")

    ax.add_patch(Circle((0, 0), max_speed, fill=False, linestyle="--", color="0.3", zorder=3,
                        label=f"max speed {max_speed:g} m/s"))
    ax.plot(*pref, marker="*", color="#009E73", markersize=13, markeredgecolor="black", zorder=6, linestyle="none",
            label="preferred velocity")
    ax.plot(*new, marker="D", color="#CC79A7", markersize=7, markeredgecolor="black", zorder=7, linestyle="none",
            label="new velocity")
    target = np.asarray(info["target_velocity"])
    if not np.allclose(target, new):  # AVO: the controller approaches the target gradually
        ax.plot(*target, marker="X", color="#D55E00", markersize=9, markeredgecolor="black", zorder=7,
                linestyle="none", label="target velocity (AVO's controller)")
    # The current velocity a wide ring over the others: the new one is often on the same spot, inside it.
    ax.plot(*velocity, marker="o", markersize=15, markerfacecolor="none", markeredgecolor="#0072B2",
            markeredgewidth=1.6, zorder=8, linestyle="none", label="current velocity")
    ax.axhline(0, color="0.7", linewidth=0.5, zorder=0)
    ax.axvline(0, color="0.7", linewidth=0.5, zorder=0)
    ax.set_xlim(-extent, extent)
    ax.set_ylim(-extent, extent)
    ax.set_aspect("equal")
    ax.set_xlabel("$v_x$ [m/s]")
    ax.set_ylabel("$v_y$ [m/s]")
    heading = title if title is not None else f"{info['method']}, agent {info['id']}"
    ax.set_title(heading + ("\n" + "; ".join(notes) if notes else ""), fontsize="medium")
    if legend:
        handles, labels = ax.get_legend_handles_labels()
        handles += proxies
        labels += [proxy.get_label() for proxy in proxies]
        legend_below(ax, handles, labels, columns=2)
    return ax.figure
