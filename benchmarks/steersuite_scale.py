"""Loading SteerSuite test cases and scoring them with SteerBench: time against size.

    python benchmarks/steersuite_scale.py [--agents 1250 2500 5000] [--steps 200]

Placement: ``tests/data/steersuite/crowd_5000.xml`` (agents at random among
2,000 random boxes, each with a random target, as SteerSuite's largest
cases) is loaded with its agent count set to each of ``--agents``; random
placement is rejection sampling against a grid of what was placed, so the
time should grow in proportion to the agents.

SteerBench: a forest of pillars (a 16-sided polygon each, as SteerSuite's
circles become) crossed by as many agents; the run is recorded every step
and scored. The score's time should also grow in proportion to agents x
frames, whatever the number of obstacle edges.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

import vosim
from vosim import scenarios

CASE = Path(__file__).resolve().parent.parent / "tests" / "data" / "steersuite" / "crowd_5000.xml"


def load_seconds(agents: int) -> float:
    text = CASE.read_text().replace("<numAgents>5000</numAgents>", f"<numAgents>{agents}</numAgents>")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.xml"
        path.write_text(text)
        started = time.perf_counter()
        scenarios.from_steersuite(path)
        return time.perf_counter() - started


def forest(agents: int, pillars: int, seed: int = 0) -> vosim.Simulator:
    rng = np.random.default_rng(seed)
    side = np.sqrt(agents) * 3.0
    sim = vosim.Simulator(time_step=0.1)
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    ring = np.column_stack([np.cos(angles), np.sin(angles)]) * 0.5
    for centre in rng.uniform(-side / 2, side / 2, size=(pillars, 2)):
        sim.add_obstacle(centre + ring)
    starts = np.column_stack([np.full(agents, -side / 2 - 5), rng.uniform(-side / 2, side / 2, agents)])
    starts[:, 0] -= 1.2 * (np.arange(agents) % 5)
    sim.add_agents(starts, goals=starts * [-1, 1], radius=0.3, max_speed=1.5, pref_speed=1.3, strict=False)
    return sim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, nargs="+", default=[1250, 2500, 5000])
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    print(f"{'agents':>7} {'load s':>8} {'run s':>8} {'steerbench s':>13} {'frames x agents / s':>20}")
    for agents in args.agents:
        loaded = load_seconds(agents)
        sim = forest(agents, pillars=agents // 5)
        started = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            traj = sim.run(args.steps)
        ran = time.perf_counter() - started
        started = time.perf_counter()
        vosim.metrics.steerbench(traj)
        scored = time.perf_counter() - started
        print(f"{agents:7d} {loaded:8.2f} {ran:8.2f} {scored:13.2f} {traj.positions.shape[0] * agents / scored:20.3g}")


if __name__ == "__main__":
    main()
