// The working range of the engine: the values every input must lie in.
//
// vosim computes in float64. Inside these bounds every intermediate quantity
// of a step (squared distances, distances over time horizons, products of
// speeds and times) stays far from overflow and underflow, so a step always
// gives finite results; outside them it could not promise that. Beyond
// 1e15 a coordinate has no room left for sub-unit motion anyway (the spacing
// of doubles there is 0.125).
#pragma once

#include <limits>
#include <string>

namespace vosim {

// Largest magnitude of any coordinate, velocity, length, speed or time.
constexpr double kMaxMagnitude = 1e15;
// Smallest time step and time horizon.
constexpr double kMinTime = 1e-15;

// A closed interval of accepted values; NaN lies in none.
struct Range {
    double lo;
    double hi;
};

constexpr Range kCoordinateRange{-kMaxMagnitude, kMaxMagnitude};  // positions, velocities, goals
constexpr Range kNonNegativeRange{0.0, kMaxMagnitude};            // radii, speeds, distances
constexpr Range kTimeRange{kMinTime, kMaxMagnitude};              // time step, time horizons
constexpr Range kPositiveRange{kMinTime, kMaxMagnitude};          // lengths that must be > 0 (tracking_error)
constexpr Range kCountRange{0.0, 2147483647.0};                    // int32 counts (max_neighbors)
constexpr Range kSideRange{-1.0, 1.0};                             // a side: -1, 0 or +1
constexpr Range kKinematicsRange{0.0, 2.0};                        // a Kinematics value (kinematics.hpp)
constexpr Range kSinkIdRange{-1.0, 2147483647.0};                  // a sink id, -1: none (exit_sink)
// Limits where +inf means "none" (max_acceleration); also flags and ids, never checked.
constexpr Range kUnboundedRange{0.0, std::numeric_limits<double>::infinity()};

constexpr bool within(double value, Range range) { return value >= range.lo && value <= range.hi; }

// "finite and within [0, 1e+15]".
std::string describe(Range range);

}  // namespace vosim
