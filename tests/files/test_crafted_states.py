"""States the API would refuse are refused on load too: a state file is untrusted input.

Crafted with the payload's own checksum, so that only the check of the
content can catch them: a periodic corridor whose walls reach beyond the
period (obstacles are not wrapped), and an agent that left through a sink
the state does not have.
"""

import pickle

import numpy as np
import pytest

import vosim
from vosim._checkpoint import checksum, restore_into, write_state


def corridor():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_wall([[0.0, 0.0], [10.0, 0.0]])
    sim.add_wall([[0.0, 4.0], [10.0, 4.0]])
    sim.set_periodic(x=(0.0, 10.0))
    sim.add_agents([[2.0, 2.0]])
    return sim


def refused(state, tmp_path, match):
    state["checksum"] = checksum(state)
    with pytest.raises(ValueError, match=match):
        restore_into(object.__new__(vosim.Simulator), state)
    path = write_state(state, tmp_path / "crafted.npz")
    with pytest.raises(ValueError, match=match):
        vosim.load_state(path)


def test_walls_beyond_the_period_are_refused(tmp_path):
    sim = corridor()
    with pytest.raises(ValueError, match="outside the periodic bounds"):  # what the API says
        sim.add_wall([[0.0, 6.0], [40.0, 6.0]])
    wide = vosim.Simulator(time_step=0.1)
    wide.add_wall([[0.0, 0.0], [40.0, 0.0]])
    wide.add_agents([[2.0, 2.0]])
    crafted = wide.__getstate__()
    crafted["engine"].update(periodic_axis=0, periodic_low=0.0, periodic_high=10.0)
    refused(crafted, tmp_path, r"vertex 1 has x = 40.0, outside the periodic bounds")
    assert pickle.loads(pickle.dumps(sim)).periodic is not None  # the honest state still loads


def test_an_exit_through_a_sink_the_state_lacks_is_refused(tmp_path):
    sim = vosim.Simulator(time_step=0.1)
    sink = sim.add_sink([[4.0, -1.0], [6.0, -1.0], [6.0, 1.0], [4.0, 1.0]])
    sim.add_agents([[0.0, 0.0], [0.0, 3.0]], goals=[[10.0, 0.0], [10.0, 3.0]])
    sim.run(60)
    assert sim.exit_sink.tolist() == [sink, -1]
    state = sim.__getstate__()
    state["engine"]["columns"]["exit_sink"] = np.array([[99, -1]], dtype=np.int32)
    refused(state, tmp_path, r"exit_sink\[0, 0\] is 99, but the state has 1 exits \(sinks; ids 0 to 0\)")


def test_a_batch_state_with_navigation_is_refused(tmp_path):
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]])
    sim.set_goals([0], [[5.0, 0.0]], plan="roadmap")
    state = sim.__getstate__()
    assert state["navigation"] is not None
    batch = vosim.Batch(scenes=1, time_step=0.1)
    batch.add_agents([[0.0, 0.0]])
    crafted = batch.__getstate__()
    crafted["navigation"] = state["navigation"]
    crafted["checksum"] = checksum(crafted)
    with pytest.raises(ValueError, match="a Batch has no navigation"):
        restore_into(object.__new__(vosim.Batch), crafted)
