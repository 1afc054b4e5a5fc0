"""The goals phase's settings (preference noise, deadlock resolution) are the
engine's: a method's options set them when it is installed, switching methods
replaces them, and the engine refuses bad values by name."""

import copy

import numpy as np
import pytest

import vosim

NOISY = dict(perturbation=0.3, seed=4, deadlock="sidestep", deadlock_patience=0.5)


def head_on(method):
    sim = vosim.Simulator(time_step=0.1, method=method)
    sim.add_agents([[-3.0, 0.0], [3.0, 0.0], [0.0, -3.0]], goals=[[3.0, 0.0], [-3.0, 0.0], [0.0, 3.0]])
    return sim


def test_a_method_switched_to_brings_its_goal_settings_and_takes_them_away_again():
    noisy = head_on(vosim.ORCA(**NOISY)).run(40).positions
    plain = head_on(vosim.ORCA()).run(40).positions
    assert not np.array_equal(noisy, plain)  # the settings matter here

    switched = head_on(vosim.ORCA())
    switched.method = vosim.ORCA(**NOISY)
    np.testing.assert_array_equal(switched.run(40).positions, noisy)

    back = head_on(vosim.ORCA(**NOISY))
    back.method = vosim.ORCA()
    np.testing.assert_array_equal(back.run(40).positions, plain)


def test_a_copy_keeps_the_goal_settings():
    sim = head_on(vosim.ORCA(**NOISY))
    sim.run(5)
    twin = copy.deepcopy(sim)
    np.testing.assert_array_equal(twin.run(30).positions, sim.run(30).positions)


@pytest.mark.parametrize("change, message", [
    (dict(perturbation=-1.0), "perturbation is -1; it must be"),
    (dict(patience=float("nan")), "deadlock_patience is nan; it must be"),
    (dict(turn=float("inf")), "deadlock_turn is inf; it must be"),
    (dict(deadlock="left"), "deadlock is 'left'; must be none, sidestep or random_side"),
])
def test_the_engine_refuses_bad_goal_settings_by_name_and_keeps_its_own(change, message):
    sim = head_on(vosim.ORCA())
    settings = dict(perturbation=0.0, seed=0, deadlock="none", patience=1.0, hold=1.0, turn=1.0,
                    stall_fraction=0.1)
    with pytest.raises(ValueError, match=message):
        sim._engine.set_goal_settings(**{**settings, **change})
    np.testing.assert_array_equal(sim.run(40).positions, head_on(vosim.ORCA()).run(40).positions)
