"""What ``time_horizon`` does, measured: how far ahead agents react, and how fast a dense crowd moves.

    python docs/time_horizon.py            # writes docs/time_horizon.png and prints the figures

Left: two agents (radius 0.5 m, 1.5 m/s) flying at each other along x,
0.3 m apart sideways (an exactly head-on pair stalls by symmetry), with a
neighbour distance larger than the scene: the centre distance at which
either first turns away from its preferred velocity, against the time
horizon, with the line ``2 r + 2 v tau`` (they react once a collision lies
less than tau seconds ahead at their closing speed 2v). Right: a crowd
(512 agents on a cubic lattice of spacing 2 m, each heading 50 m in a
random direction, the crowd of ``benchmarks/grid_crowd.py``): the share of each
agent's max-speed ball that its ORCA planes leave admissible. A longer
horizon reacts earlier, but every neighbour then forbids more of the
velocities, so an agent has less room to keep its speed and heading.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "benchmarks"))

from grid_crowd import grid_crowd  # noqa: E402

HORIZONS = [0.5, 1.0, 2.0, 4.0, 8.0]
RADIUS = 0.5
SPEED = 1.5
TIME_STEP = 0.05


def reaction_distance(tau: float) -> float:
    """Centre distance of the pair when either first deviates from its preferred velocity."""
    import vosim

    sim = vosim.Simulator(time_step=TIME_STEP, dimensions=3)
    start = np.array([[-40.0, 0.0, 10.0], [40.0, 0.3, 10.0]])
    sim.add_agents(start, goals=start * (-1, 1, 1), radius=RADIUS, max_speed=SPEED, pref_speed=SPEED,
                   neighbor_dist=200.0, max_neighbors=1, time_horizon=tau)
    for _ in range(int(80 / SPEED / TIME_STEP)):
        before = np.linalg.norm(sim.positions[0] - sim.positions[1])
        sim.step()
        if np.max(np.abs(sim.velocities - sim.pref_velocities)) > 1e-9:
            return float(before)
    raise RuntimeError(f"time_horizon {tau}: the agents never reacted")


def admissible_share(tau: float, n: int = 512, samples: int = 20_000) -> float:
    """Share of the max-speed ball that ORCA's planes leave admissible, averaged over agents of a crowd.

    The crowd of ``benchmarks/bench_orca3d.py`` (neighbour distance 10 m
    here, so that every horizon sees the same neighbours) after 3 s; every
    tenth agent's planes from ``inspect``, tested on uniform samples of its
    ball.
    """
    import vosim

    rng = np.random.default_rng(1)
    ball = rng.normal(size=(samples, 3))
    ball *= (rng.uniform(0, 1, (samples, 1)) ** (1 / 3)) / np.linalg.norm(ball, axis=1, keepdims=True)
    start, goals = grid_crowd(n, dimensions=3)
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    ids = sim.add_agents(start, goals=goals, radius=0.5, max_speed=1.5, pref_speed=1.0, neighbor_dist=10.0,
                         max_neighbors=10, time_horizon=tau)
    sim.run(30)
    shares = []
    for agent in ids[::10]:
        info = sim.inspect(int(agent))
        points, normals = info["planes"]["point"], info["planes"]["normal"]
        velocities = ball * info["max_speed"]
        allowed = np.all(np.einsum("skd,kd->sk", velocities[:, None, :] - points[None], normals) >= 0, axis=1)
        shares.append(allowed.mean())
    return float(np.mean(shares))


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    distances = [reaction_distance(tau) for tau in HORIZONS]
    shares = [admissible_share(tau) for tau in HORIZONS]
    for tau, d, s in zip(HORIZONS, distances, shares):
        print(f"time_horizon {tau:4.1f} s: the pair reacts {d:6.2f} m apart; in the crowd {s:.1%} of the "
              "max-speed ball is left admissible")
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.5, 4.0), layout="constrained")
    taus = np.array(HORIZONS)
    left.plot(taus, distances, "o", color="#0072B2", label="measured (pair at 1.5 m/s each)")
    fine = np.linspace(0, taus.max(), 50)
    left.plot(fine, 2 * RADIUS + 2 * SPEED * fine, "--", color="0.3", label="2 r + 2 v τ")
    left.set_xlabel("time_horizon τ [s]")
    left.set_ylabel("distance when they first react [m]")
    left.set_title("how far ahead agents react")
    left.legend(fontsize="small")
    right.plot(taus, 100 * np.array(shares), "s-", color="#E69F00", label="512 agents 2 m apart, after 3 s")
    right.set_ylim(0, 100)
    right.set_xlabel("time_horizon τ [s]")
    right.set_ylabel("admissible share of the max-speed ball [%]")
    right.set_title("the price: less freedom to choose a velocity")
    right.legend(fontsize="small", loc="upper right")
    for ax in (left, right):
        ax.set_xticks(taus, [f"{t:g}" for t in taus])
        ax.set_xlim(0, taus.max() + 0.3)
        ax.grid(alpha=0.3)
    fig.suptitle("What time_horizon does (ORCA-3D, agents of radius 0.5 m)")
    path = HERE / "time_horizon.png"
    temporary = path.with_suffix(".tmp.png")
    fig.savefig(temporary, dpi=90)
    temporary.replace(path)
    print(f"wrote {path.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
