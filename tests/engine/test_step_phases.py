"""The step's phases: one table in the engine (engine/step_phases.hpp) that
the step runs in order, that times each phase in every run's metrics, and
that ARCHITECTURE.md's table of the step follows phase for phase."""

import re
from pathlib import Path

import numpy as np
import pytest

import vosim
from vosim import _core, metrics

ARCHITECTURE = Path(__file__).resolve().parents[2] / "ARCHITECTURE.md"

# The order of the step, stated here independently of the engine's table:
# goals before the index (waypoints move goals), the index before the
# velocities, the resolve phase after the integration it corrects, the
# observation after the pushes, exits before the scene features (whose
# members may have left), both before the wrap, obstacles last.
EXPECTED = ["goals", "index", "velocities", "integrate", "resolve", "observe", "exits", "features", "wrap",
            "obstacle_motion"]


def architecture_phases(text: str) -> list[str]:
    """The first column of the table under ARCHITECTURE.md's heading "The step"."""
    section = text.split("\n## The step\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    names = [row.split("|")[1].strip() for row in rows]
    return [name for name in names if name not in ("Phase",) and not set(name) <= {"-"}]


def test_the_engine_runs_the_phases_in_the_stated_order():
    assert [name for name, _ in _core.STEP_PHASES] == EXPECTED


def test_architecture_lists_exactly_the_engines_phases_in_order():
    assert architecture_phases(ARCHITECTURE.read_text(encoding="utf-8")) == [name for name, _ in _core.STEP_PHASES]


def test_the_architecture_check_catches_a_missing_or_moved_phase():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    without = re.sub(r"\n\| obstacle_motion \|[^\n]*", "", text)
    assert architecture_phases(without) != EXPECTED
    swapped = text.replace("\n| exits |", "\n| EXITS |").replace("\n| wrap |", "\n| exits |").replace(
        "\n| EXITS |", "\n| wrap |")
    assert architecture_phases(swapped) != EXPECTED


def test_every_phase_is_timed_in_the_run_metrics():
    names = [f"time_phase_{name}" for name, _ in _core.STEP_PHASES]
    assert all(name in metrics.TIMES for name in names)
    sim = vosim.Simulator(time_step=0.1)
    rng = np.random.default_rng(0)
    sim.add_agents(rng.uniform(0, 20, (300, 2)), goals=rng.uniform(0, 20, (300, 2)))
    m = sim.run(20).metrics
    for name in names:
        assert float(m[name]) >= 0.0
    # The step's work is in these phases: the velocities phase costs most here.
    assert float(m["time_phase_velocities"]) == max(float(m[name]) for name in names)
    # The three timings from before are sums over the phases after the velocities.
    after = sum(float(m[f"time_phase_{name}"]) for name in EXPECTED[EXPECTED.index("integrate"):])
    assert float(m["time_integration"]) == pytest.approx(after, rel=1e-12, abs=1e-15)
    assert float(m["time_neighbors"]) >= float(m["time_phase_index"])
