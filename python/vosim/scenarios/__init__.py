"""Ready-made scenarios, as plain data that builds a Simulator or fills a Batch.

>>> from vosim import scenarios
>>> sim = scenarios.crossing(16, seed=3).build()                 # a Simulator, ORCA
>>> batch = scenarios.batch(scenarios.crossing, seeds=range(8))  # 8 scenes, one per seed
>>> text = scenarios.bottleneck(40).to_json()                    # share it; exact floats
>>> again = scenarios.Scenario.from_json(text)

Scenarios: :func:`circle`, :func:`blocks` and :func:`roadmap` (RVO2's
examples), :func:`headon_pair`, :func:`crossing`, :func:`bottleneck`,
:func:`corridor`, :func:`random_crowd` and :func:`room_evacuation`
(pedestrians: 0.3 m radius, 1.2 m/s, time step 0.1 s), and
:func:`mixed_acceleration_crossing` (crossing with agile and sluggish
agents, run with AVO). :data:`SCENARIOS`
maps their names to them. :func:`from_steersuite` reads a SteerSuite XML
test case.
"""

from ._library import (
    SCENARIOS,
    blocks,
    bottleneck,
    circle,
    corridor,
    crossing,
    headon_pair,
    mixed_acceleration_crossing,
    random_crowd,
    roadmap,
    room_evacuation,
)
from ._scenario import AGENT_PARAMETERS, Scenario, batch, build_batch
from ._steersuite import from_steersuite

__all__ = [
    "AGENT_PARAMETERS",
    "SCENARIOS",
    "Scenario",
    "batch",
    "blocks",
    "bottleneck",
    "build_batch",
    "circle",
    "corridor",
    "crossing",
    "headon_pair",
    "mixed_acceleration_crossing",
    "random_crowd",
    "roadmap",
    "room_evacuation",
    "from_steersuite",
]
