// Phase 4 of a step: how a chosen velocity becomes the new state.
#pragma once

#include "vec2.hpp"

namespace vosim {

// The velocity moves towards `target` by at most max_accel * time_step
// (max_accel may be +inf): the HRVO library's acceleration limit.
inline Vec2 limit_acceleration(Vec2 velocity, Vec2 target, double max_accel, double time_step) {
    const double change = length(target - velocity);
    const double limit = max_accel * time_step;
    if (change <= limit) return target;
    const double share = limit / change;
    return (1.0 - share) * velocity + share * target;
}

}  // namespace vosim
