"""Scene features as parts: each declares what the simulator shows of it, and ``install`` adds it.

A new feature is its own module and one line in ``_scene_parts.py``; these tests hold the
mechanism to that (a toy feature installed on a subclass gets its methods and add_agents hooks).
"""

import numpy as np
import pytest

import vosim
from vosim._parts import Part, install
from vosim._scene_parts import SCENE_PARTS


@pytest.mark.parametrize("cls", [vosim.Simulator, vosim.Batch])
def test_every_declared_member_is_the_simulators_with_the_parts_documentation(cls):
    for part in SCENE_PARTS:
        for name in part.methods:
            assert getattr(cls, name).__doc__ == getattr(part, name).__doc__, name
        for name, method in part.properties.items():
            assert isinstance(getattr(cls, name), property), name
            assert getattr(cls, name).__doc__ == getattr(part, method).__doc__, name


def test_a_delegate_calls_the_simulators_own_part():
    sim = vosim.Simulator()
    other = vosim.Simulator()
    sink = sim.add_sink([[0, 0], [1, 0], [1, 1]])
    assert [s.id for s in sim.sinks] == [sink]
    assert other.sinks == []
    assert sim.waypoints is sim.waypoints  # one part for the simulator's life
    assert sim.waypoints is not other.waypoints


class _Toy(Part):
    """A feature made for the test: it counts the agents added."""

    methods = ("toy_count",)
    properties = {"toy_ids": "ids"}
    part_property = ("toy", "The toy part.")

    def __init__(self, engine, scene_axis):
        super().__init__(engine, scene_axis)
        self.added = []
        self.checked = []

    def toy_count(self) -> int:
        """How many agents the toy saw added."""
        return len(self.added)

    def ids(self):
        """The ids the toy saw added."""
        return list(self.added)

    def check_new_agents(self, fields, n, shapes, target):
        self.checked.append(n)
        return None if fields["goals"] is None else n

    def agents_added(self, ids, plan, values):
        assert plan == len(ids)
        self.added.extend(int(i) for i in ids.reshape(-1))


def test_a_toy_feature_installed_on_a_subclass_gets_its_members_and_hooks():
    class ToySimulator(vosim.Simulator):
        pass

    install(ToySimulator, [_Toy])
    assert not hasattr(vosim.Simulator, "toy_count")  # the base class is untouched
    sim = ToySimulator()
    first = sim.add_agents(np.zeros((2, 2)) + [[0, 0], [5, 0]])  # no goals: the plan is None
    assert sim.toy.checked == [2] and sim.toy_count() == 0
    second = sim.add_agents([[10, 0], [15, 0], [20, 0]], goals=[30, 0])
    assert sim.toy_count() == 3 and sim.toy_ids == [int(i) for i in second]
    assert sim.toy is sim.toy and len(first) == 2
    assert ToySimulator.toy.__doc__ == "The toy part."


def test_install_refuses_a_name_the_simulator_already_has():
    class Clash(Part):
        methods = ("add_sink",)

        def add_sink(self):
            """Another add_sink."""

    class Copy(vosim.Simulator):
        pass

    with pytest.raises(TypeError, match=r"Clash.add_sink: Copy already has an attribute 'add_sink'"):
        install(Copy, [Clash])


def test_the_simulator_module_lists_no_feature_part():
    # The features are listed once, in _scene_parts.py; the simulator module names none of them
    # (the obstacles' part stays for the strict-start check it makes of the positions).
    import inspect

    import vosim._simulation as simulation

    source = inspect.getsource(simulation)
    for part in SCENE_PARTS:
        if part.__name__ != "Obstacles":
            assert part.__name__ not in source, part.__name__
