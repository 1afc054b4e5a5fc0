"""Refusals name the argument that is wrong, with its index and value, and say what is wrong with it."""

import numpy as np
import pytest

import vosim


@pytest.fixture
def sim():
    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0], [0.0, 1.0]], goals=[[5.0, 0.0], [5.0, 1.0]])
    sim.add_sink([[6.0, -1.0], [7.0, -1.0], [7.0, 2.0], [6.0, 2.0]])
    return sim


@pytest.mark.parametrize("sinks, options, message", [
    ([0.0], {}, r"sinks\[0\] is 0.0; expected integer sink ids"),
    ([0, 0.5], {}, r"sinks\[1\] is 0.5; expected integer sink ids"),
    ([True], {}, r"sinks\[0\] is True; expected integer sink ids"),
    (["exit"], {}, r"sinks: expected integer sink ids"),
    ([0], {"choice": "assigned", "assignment": [0, np.nan]}, r"assignment\[1\] is nan; expected integer sink ids"),
    ([0], {"choice": "assigned", "assignment": [0.0, 0.0]}, r"assignment\[0\] is 0.0; expected integer sink ids"),
])
def test_set_exits_names_sinks_and_assignment(sim, sinks, options, message):
    with pytest.raises(TypeError, match=message):
        sim.set_exits(sinks, plan=None, **options)
    assert (sim.chosen_exit == -1).all()


def test_agent_ids_are_still_agent_ids(sim):
    with pytest.raises(TypeError, match=r"ids\[0\] is 1.5; expected integer agent ids"):
        sim.remove_agents([1.5])


BOW_TIES = [
    [[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [0.0, 2.0]],  # symmetric: no signed area at all
    [[0.0, 0.0], [4.0, 4.0], [4.0, 0.0], [0.0, 2.0]],  # lopsided: a signed area, and still crossed
]


@pytest.mark.parametrize("points", BOW_TIES + [BOW_TIES[1][::-1]])
def test_a_bow_tie_sink_or_zone_is_refused_as_crossing_itself(points):
    sim = vosim.Simulator()
    with pytest.raises(ValueError, match=r"points: the polygon intersects itself: edge 0 .* meets edge 2 "):
        sim.add_sink(points)
    with pytest.raises(ValueError, match=r"polygon: the polygon intersects itself: edge 0 .* meets edge 2 "):
        sim.add_speed_zone(points, 0.5)
    assert sim.sinks == [] and sim.speed_zones == []


def test_a_simple_area_is_taken_in_either_orientation_and_a_line_of_points_is_no_area():
    sim = vosim.Simulator()
    square = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]
    assert sim.add_sink(square) == 0 and sim.add_sink(square[::-1]) == 1
    assert sim.add_speed_zone(square, 0.5) == 0 and sim.add_speed_zone(square[::-1], 0.5) == 1
    with pytest.raises(ValueError, match="enclose no area"):
        sim.add_sink([[0.0, 0.0], [1.0, 1.0], [3.0, 3.0], [2.0, 2.0]])  # collinear, folded: no crossing to name


@pytest.mark.parametrize("factor, kind", [("2", "str '2'"), (True, "bool True"), (None, "NoneType None"),
                                          (np.bool_(False), "bool")])
def test_a_speed_zone_factor_must_be_a_number(factor, kind):
    sim = vosim.Simulator()
    with pytest.raises(TypeError, match=f"factor: expected a real number, got {kind}"):
        sim.add_speed_zone([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], factor)
    assert sim.speed_zones == []
    assert sim.add_speed_zone([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], np.float32(2.0)) == 0
    assert sim.speed_zones[0].factor == 2.0
