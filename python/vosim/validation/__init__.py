"""Verification tests of pedestrian dynamics (RiMEA 4.1.1, IMO MSC.1/Circ.1238, ISO 20414) for any method.

Each test builds its scenario as the guideline defines it (as JuPedSim's
suite sets it up: pedestrians of radius 0.25 m at 1.34 m/s, time step
0.1 s), runs it with the method given, measures what the guideline asks
(:mod:`vosim.measurement`) and returns a :class:`TestResult`: the measured
values, the criterion, pass or fail, and notes where the method departs
from measured crowds. Tests that need scenario features vosim does not
have yet are listed in :data:`NOT_EXPRESSIBLE`,
not faked.

>>> from vosim import validation
>>> result = validation.rimea_1("orca")
>>> result.passed, result.summary
(True, '30.1 s')
>>> print(validation.table([result]))
| test | ORCA |
|---|---|
| RiMEA 1 corridor 40 m at 1.33 m/s | pass: 30.1 s |

Verdicts over seeds (:func:`verdict`; ``vosim validate`` runs each test
with seeds 0-4 and passes it when at least 4 pass) and deliberately broken
variants of every scene that the verdicts must catch (:func:`broken`,
:data:`VARIANTS`) are described in ``docs/guide/validation.md``.

From the shell: ``vosim validate --methods orca [--seeds 5] [--variant NAME] [--plot DIR]``.
"""

from ._bottleneck import bottleneck_flow_measured, bottleneck_width, measured_specific_flow_band
from ._figures import figures
from ._imo import imo_4, imo_8
from ._iso20414 import ISO_20414_COMPONENTS, iso_20414_coverage, iso_20414_table
from ._juelich import juelich_corridor, juelich_speed
from ._overtaking import iso_7
from ._exit_availability import iso_9
from ._stair_flow import STAIR_MAX_SPECIFIC_FLOW, iso_12
from ._result import NotExpressible, TestResult, table
from ._rimea import (EXAMPLE_GROUPS, NOT_EXPRESSIBLE, STAIR_SPEED_DOWN, STAIR_SPEED_UP, TESTS, rimea_1, rimea_2,
                     rimea_3, rimea_4, rimea_5, rimea_6, rimea_7, rimea_8, rimea_9, rimea_10, rimea_11, rimea_12,
                     rimea_13, rimea_14, rimea_15, rimea_16, no_overlap, run_all)
from ._single_file import single_file_envelope
from ._pedestrians import METHOD_TIME_STEPS, TIME_STEP, time_step_of
from ._time_steps import CANDIDATE_STEPS, RESOLVED_WITHIN, door_flow
from ._variants import VARIANTS, active_variant, broken
from ._verdict import PASS_MARK, SEEDS, rule, verdict
from ._weidmann import weidmann_specific_flow, weidmann_speed

__all__ = ["EXAMPLE_GROUPS", "ISO_20414_COMPONENTS", "NOT_EXPRESSIBLE", "NotExpressible", "STAIR_SPEED_DOWN",
           "STAIR_SPEED_UP", "TESTS", "TestResult", "figures", "imo_4", "imo_8", "iso_7", "iso_20414_coverage",
           "iso_20414_table", "juelich_corridor", "juelich_speed", "no_overlap", "rimea_1", "rimea_2", "rimea_3",
           "rimea_4", "rimea_5", "rimea_6", "rimea_7", "rimea_8", "rimea_9", "rimea_10", "rimea_11", "rimea_12",
           "rimea_13", "rimea_14", "rimea_15", "rimea_16", "run_all", "single_file_envelope", "table",
           "weidmann_specific_flow", "weidmann_speed"]
__all__ += ["bottleneck_flow_measured", "bottleneck_width", "measured_specific_flow_band"]
__all__ += ["STAIR_MAX_SPECIFIC_FLOW", "iso_9", "iso_12"]
__all__ += ["CANDIDATE_STEPS", "METHOD_TIME_STEPS", "PASS_MARK", "RESOLVED_WITHIN", "SEEDS", "TIME_STEP", "VARIANTS",
            "active_variant", "broken", "door_flow", "rule", "time_step_of", "verdict"]
