"""NH-ORCA's tracking_error has a floor where the method still behaves:
1e-4 x the robot's top speed x its turn time (nh_orca.hpp). Below it the
trackable set is a needle the linear program cannot tell from parallel
lines, and a lone robot drifted sideways or stood still without a word."""

import math

import numpy as np
import pytest

import vosim

TURN_ANGLE = 2.0 * math.pi / 32  # the trackable polygon's first direction off the heading


def floor(max_speed, max_angular_speed, tracking_time=0.5, time_step=0.1):
    return 1e-4 * max_speed * max(tracking_time, time_step, TURN_ANGLE / max_angular_speed)


def lone_robot(tracking_error, max_speed=1.0, max_angular_speed=2.0, time_step=0.1, distance=10.0):
    sim = vosim.Simulator(time_step, method=vosim.ORCA(nonholonomic="nh_orca"))
    sim.add_agents([[0.0, 0.0]], goals=[[distance, 0.0]], radius=0.5, max_speed=max_speed, kinematics="unicycle",
                   headings=[0.0], max_angular_speed=max_angular_speed, tracking_error=tracking_error)
    return sim


@pytest.mark.parametrize("tracking_error", [1e-8, 1e-10, 1e-14])
def test_a_tracking_error_below_the_floor_is_refused_by_name(tracking_error):
    sim = lone_robot(tracking_error)
    with pytest.raises(ValueError, match=r"agent id 0 .*tracking_error is .*; NH-ORCA needs at least 5e-05"):
        sim.run(10)
    assert np.all(sim.positions == 0.0)  # nothing was advanced


def test_holonomic_agents_and_orca_dd_do_not_need_the_floor():
    sim = vosim.Simulator(0.1, method=vosim.ORCA(nonholonomic="effective_center"))
    sim.add_agents([[0.0, 0.0]], goals=[[1.0, 0.0]], kinematics="unicycle", headings=[0.0], max_angular_speed=2.0,
                   tracking_error=1e-12)
    sim.run(2)
    sim = vosim.Simulator(0.1, method=vosim.ORCA(nonholonomic="nh_orca"))
    sim.add_agents([[0.0, 0.0]], goals=[[1.0, 0.0]], tracking_error=1e-12)
    sim.run(2)


@pytest.mark.parametrize("max_speed, max_angular_speed, time_step",
                         [(1.0, 2.0, 0.1), (10.0, 2.0, 0.1), (0.1, 0.2, 0.05), (30.0, 8.0, 0.13), (5.0, 0.05, 0.02)])
def test_at_the_floor_a_lone_robot_goes_straight_to_its_goal(max_speed, max_angular_speed, time_step):
    """Facing its goal 10 s of travel ahead: the same distance as with a
    generous tracking error, and no sideways drift."""
    distance = 10.0 * max_speed
    steps = round(10.0 / time_step)
    reference = lone_robot(0.1 * distance, max_speed, max_angular_speed, time_step, distance).run(steps)
    eps = floor(max_speed, max_angular_speed, time_step=time_step)
    traj = lone_robot(eps, max_speed, max_angular_speed, time_step, distance).run(steps, record_every=1)
    assert traj.positions[-1, 0, 0] == pytest.approx(reference.positions[-1, 0, 0], abs=1e-3 * distance)
    assert np.abs(traj.positions[:, 0, 1]).max() < 1e-6 * distance
