// exp(x) for the exponential repulsions of the force models, with the
// exponent capped: an overlap many ranges deep (a huge radius, a tiny range)
// would otherwise overflow to inf, and inf forces end in NaN velocities.
// The cap (exp(100) ~ 2.7e43) leaves every force of a plausible scene exact
// and keeps the largest one, times any parameter and count in range, finite
// even when squared.
#pragma once

#include <cmath>

namespace vosim {

constexpr double kMaxRepulsionExponent = 100.0;

inline double bounded_exp(double x) { return std::exp(x < kMaxRepulsionExponent ? x : kMaxRepulsionExponent); }

}  // namespace vosim
