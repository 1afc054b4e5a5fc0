// (cos a, sin a) within kDirectionError, without glibc's sincos and without
// branches: VO's sampling judges most samples on it before working out their
// exact direction (select_sampling in velocity_obstacles.cpp).
#pragma once

#include "maths/vec2.hpp"

namespace vosim {

// A bound on each component's error for a in [0, 2 pi): the Taylor
// remainders below are under 1e-11, the rounding far less.
constexpr double kDirectionError = 1e-9;

// A quadrant's Taylor polynomials, of degree 11 (sine) and 12 (cosine) on
// |x| <= pi/4; the quadrant picked by table, as quadrants come at random.
// a in [0, 2 pi): the nearest quadrant by truncation, whatever the rounding mode.
inline Vec2 approximate_direction(double a) {
    constexpr double kHalfPi = 1.57079632679489661923;
    const int quadrant = static_cast<int>(a * (1.0 / kHalfPi) + 0.5);
    const double x = a - quadrant * kHalfPi;
    const double x2 = x * x;
    const double sine =
        x * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0 * (1.0 - x2 / 110.0)))));
    const double cosine = 1.0 - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0 *
                                                                                    (1.0 - x2 / 90.0 * (1.0 - x2 / 132.0)))));
    const int q = quadrant & 3;
    const double across[4] = {cosine, -sine, -cosine, sine};
    const double up[4] = {sine, cosine, -sine, -cosine};
    return {across[q], up[q]};
}

}  // namespace vosim
