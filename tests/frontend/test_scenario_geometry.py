"""A scenario's named places (Scenario.geometry) are where its obstacles and agents say they are."""

import json

import numpy as np
import pytest

import vosim
from vosim.scenarios import Scenario


def _inside(points, polygon):
    low, high = polygon.min(axis=0), polygon.max(axis=0)  # the library's places are axis-aligned rectangles
    return np.all((points >= low) & (points <= high), axis=1)


def _wall_ends(scenario):
    return {tuple(np.round(end, 12)) for _, vertices in scenario.obstacles for end in (vertices[0], vertices[-1])}


@pytest.mark.parametrize("door_width", [0.8, 1.2, 2.5])
def test_the_bottleneck_door_is_the_gap_in_its_wall_and_every_agent_crosses_it(door_width):
    scenario = vosim.scenarios.bottleneck(n=12, door_width=door_width)
    door = scenario.geometry["door"]
    # The door's posts are the ends of the room's wall, door_width apart.
    assert {tuple(np.round(post, 12)) for post in door} <= _wall_ends(scenario)
    assert np.linalg.norm(door[1] - door[0]) == pytest.approx(door_width)
    assert _inside(scenario.positions, scenario.geometry["room"]).all()
    area = scenario.geometry["measurement_area"]
    assert _inside(area, scenario.geometry["room"]).all()
    traj = scenario.build().run(scenario.max_steps, until_arrived=True, record_every=4)
    assert traj.all_arrived
    # Each agent crosses the door's line between its posts.
    x = traj.positions[..., 0]
    for i in range(scenario.num_agents):
        k = int(np.flatnonzero((x[:-1, i] < door[0, 0]) & (x[1:, i] >= door[0, 0]))[0])
        y = traj.positions[k:k + 2, i, 1]
        assert door[:, 1].min() <= y.mean() <= door[:, 1].max()


@pytest.mark.parametrize("exits", [1, ["north", "south"], 4])
def test_room_exits_are_the_gaps_in_the_walls(exits):
    scenario = vosim.scenarios.room_evacuation(n=20, exits=exits, exit_width=1.5)
    names = sorted(name for name in scenario.geometry if name.startswith("exit_"))
    assert len(names) == (exits if isinstance(exits, int) else len(exits))
    for name in names:
        posts = scenario.geometry[name]
        assert {tuple(np.round(post, 12)) for post in posts} <= _wall_ends(scenario)
        assert np.linalg.norm(posts[1] - posts[0]) == pytest.approx(1.5)
    assert _inside(scenario.positions, scenario.geometry["room"]).all()


def test_the_corridor_places_lie_between_its_walls():
    scenario = vosim.scenarios.corridor(n=20, length=24.0, width=3.0)
    walls_y = sorted(vertices[0, 1] for _, vertices in scenario.obstacles)
    for name in ("corridor", "measurement_area", "measurement_line"):
        place = scenario.geometry[name]
        assert place[:, 1].min() == walls_y[0] and place[:, 1].max() == walls_y[1]
    assert np.ptp(scenario.geometry["corridor"][:, 0]) == 24.0
    assert np.ptp(scenario.geometry["measurement_area"][:, 0]) == 4.0


def test_geometry_goes_through_json_exactly_and_a_file_without_it_reads():
    scenario = vosim.scenarios.bottleneck(n=5, door_width=1.1)
    back = Scenario.from_json(scenario.to_json())
    assert back.geometry.keys() == scenario.geometry.keys()
    for name, place in scenario.geometry.items():
        np.testing.assert_array_equal(back.geometry[name], place)
    data = json.loads(scenario.to_json())
    del data["geometry"]
    assert Scenario.from_dict(data).geometry == {}
    assert "geometry" not in vosim.scenarios.headon_pair().to_dict()


@pytest.mark.parametrize("geometry, message", [
    ([[0, 0], [1, 0]], "geometry: expected a dict"),
    ({"": [[0, 0], [1, 0]]}, "names must be non-empty strings"),
    ({"door": [[0, 0]]}, r"geometry\['door'\]: expected 2 points"),
    ({"door": [[0, 0], [1, np.nan]]}, r"geometry\['door'\]\[1, 1\] is nan"),
    ({"door": [[0, 0, 0], [1, 0, 0]]}, r"geometry\['door'\]: expected shape"),
])
def test_bad_geometry_is_refused_by_name(geometry, message):
    with pytest.raises((TypeError, ValueError), match=message):
        Scenario("s", [[0.0, 0.0]], [[1.0, 0.0]], geometry=geometry)


def test_a_file_with_a_bad_geometry_entry_is_refused():
    data = vosim.scenarios.headon_pair().to_dict()
    data["geometry"] = [1, 2]
    with pytest.raises(ValueError, match="geometry is list"):
        Scenario.from_dict(data)
