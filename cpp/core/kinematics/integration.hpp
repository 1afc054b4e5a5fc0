// Phase 4 of a step: how a chosen velocity becomes the new state.
#pragma once

#include "maths/vec.hpp"

namespace vosim {

// The velocity moves towards `target` by at most max_accel * time_step
// (max_accel may be +inf): the HRVO library's acceleration limit.
template <class V>
V limit_acceleration(V velocity, V target, double max_accel, double time_step) {
    const double change = length(target - velocity);
    const double limit = max_accel * time_step;
    if (change <= limit) return target;
    const double share = limit / change;
    return (1.0 - share) * velocity + share * target;
}

// A method's velocity longer than max_speed times this is capped at
// max_speed. Methods keep to max_speed themselves up to round-off (except
// those that may exceed it on purpose: AVO2, DetourCrowd's grid, whose cells
// reach half a cell beyond it, and which the engine leaves uncapped); in
// degenerate inputs (a disc of admissible velocities of radius 0 around
// half-planes 1e15 away, say) cancellation can leave them far outside it.
constexpr double kSpeedTolerance = 1.0 + 1e-9;

template <class V>
V cap_speed(V v, double max_speed) {
    return longer_than(v, max_speed * kSpeedTolerance) ? with_length(v, max_speed) : v;
}

}  // namespace vosim
