// Phase 4 of the step, integrate: every active agent takes its new
// velocity. A holonomic agent moves by v dt (after the acceleration limit
// when the method does not model acceleration) and faces where it goes; a
// non-holonomic one turns the method's velocity of its presentation into a
// saturated motion along an arc. Reads new_velocities and the agents'
// limits; writes velocities, positions, headings (and angular_velocities).
#pragma once

#include <cstddef>
#include <vector>

#include "kinematics/kinematics.hpp"
#include "method.hpp"
#include "engine/obstacle_guard.hpp"
#include "state/agent_state.hpp"

namespace vosim {

// Every agent's velocity and heading before the integration, for the
// observe phase (one vector and one heading per storage index).
struct MotionBefore {
    std::vector<double> velocities;
    std::vector<double> headings;
};

// `nonholonomic`: whether the step has non-holonomic agents (then presented
// to the method); `before`, when not null, receives the motion before;
// `guard`, when not null (plane only), holds the obstacles every holonomic
// agent's displacement is kept out of, its velocity becoming the
// displacement made over time_step.
template <class V>
void integrate(AgentState& state, const Method& method, double time_step, bool nonholonomic, MotionBefore* before,
               const ObstacleWorld* guard = nullptr);

// The motion non-holonomic agent i realises when the method chose u: after
// the acceleration limit (unless the method kept it) and the drive's
// saturation.
Motion realised_motion(const AgentState& state, const Method& method, std::size_t i, Vec2 u,
                       bool clamp_acceleration, double time_step);

}  // namespace vosim
