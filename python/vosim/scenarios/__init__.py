"""Ready-made scenarios, as plain data that builds a Simulator or fills a Batch.

>>> from vosim import scenarios
>>> sim = scenarios.crossing(16, seed=3).build()                 # a Simulator, ORCA
>>> batch = scenarios.batch(scenarios.crossing, seeds=range(8))  # 8 scenes, one per seed
>>> text = scenarios.bottleneck(40).to_json()                    # share it; exact floats
>>> again = scenarios.Scenario.from_json(text)

Scenarios: :func:`circle`, :func:`blocks` and :func:`roadmap` (RVO2's
examples), :func:`headon_pair`, :func:`crossing`, :func:`bottleneck`,
:func:`corridor`, :func:`random_crowd` and :func:`room_evacuation`
(pedestrians: 0.3 m radius, 1.2 m/s, time step 0.1 s),
:func:`mixed_acceleration_crossing` (crossing with agile and sluggish
agents, run with AVO), and :func:`warehouse` (robots crossing between
aisles of shelves). :data:`SCENARIOS` maps their names to them. In 3D:
:func:`sphere` (RVO2-3D's example), :func:`swarm_gate`,
:func:`layers_crossing` and :func:`random3d` (drones: 0.25 m radius,
1.5 m/s), in :data:`SCENARIOS_3D`. :data:`ALL_SCENARIOS` holds both.
:func:`from_steersuite` reads a SteerSuite XML test case.
"""

from ._library import (
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
from ._library3d import SCENARIOS_3D, layers_crossing, random3d, sphere, swarm_gate
from ._warehouse import warehouse
from ._catalogue import ALL_SCENARIOS, SCENARIOS, takes_seed
from ._scenario import AGENT_PARAMETERS, Scenario, batch, build_batch
from ._steersuite import from_steersuite

__all__ = [
    "AGENT_PARAMETERS",
    "ALL_SCENARIOS",
    "SCENARIOS",
    "SCENARIOS_3D",
    "Scenario",
    "batch",
    "blocks",
    "bottleneck",
    "build_batch",
    "circle",
    "corridor",
    "crossing",
    "headon_pair",
    "layers_crossing",
    "mixed_acceleration_crossing",
    "random3d",
    "random_crowd",
    "roadmap",
    "room_evacuation",
    "sphere",
    "swarm_gate",
    "warehouse",
    "from_steersuite",
    "takes_seed",
]
