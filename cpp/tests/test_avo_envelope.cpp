// AVO's envelope on the lane kernels (methods/avo/avo_envelope.hpp) gives the
// bits of the one-sample-at-a-time code at every level, and avo_half_plane
// gives the same half-plane with and without the lanes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "maths/simd/simd_level.hpp"
#include "methods/avo/avo_envelope.hpp"
#include "methods/avo/avo_geometry.hpp"

using namespace vosim;
using namespace vosim::avo;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::vector<SimdLevel> levels_here() {
    std::vector<SimdLevel> levels;
    for (const SimdLevel level : {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx2}) {
        if (static_cast<int>(level) <= static_cast<int>(best_simd_level())) levels.push_back(level);
    }
    return levels;
}

struct RandomPair {
    std::mt19937_64 rng{83};
    std::uniform_real_distribution<double> unit{-1.0, 1.0};
    AvoPair<double> next() {
        AvoPair<double> pair;
        pair.rel_position = V2<double>(4.0 * unit(rng), 4.0 * unit(rng));
        pair.rel_velocity = V2<double>(2.0 * unit(rng), 2.0 * unit(rng));
        pair.combined_radius = 0.6 + 0.5 * unit(rng);
        pair.combined_accel = 4.0 + 3.5 * unit(rng);
        pair.delta = 0.3 + 0.25 * unit(rng);
        pair.time_step = 0.1;
        pair.time_horizon = 2.0 + unit(rng);
        pair.share = 0.5;
        return pair;
    }
};

}  // namespace

TEST_CASE("AVO's envelope kernel gives envelope_point's bits at every level") {
    RandomPair random;
    EnvelopeTimes times;
    long mismatches = 0, defined = 0;
    const SimdLevel before = simd_level();
    for (int trial = 0; trial < 2000; ++trial) {
        const AvoPair<double> pair = random.next();
        const double dt = pair.time_step * kRepairedStartFraction;
        prepare_envelope_times(times, dt, pair.time_horizon, pair.delta);
        const double r = (trial % 2 ? 1.0 : -1.0) * pair.combined_radius;
        for (const SimdLevel level : levels_here()) {
            alignas(32) double x[kEnvelopePadded], y[kEnvelopePadded];
            envelope_kernel(level)(times, pair.rel_position.x, pair.rel_position.y, pair.rel_velocity.x,
                                   pair.rel_velocity.y, r, x, y);
            for (int i = 0; i < kEnvelopeSamples; ++i) {
                const double t = dt + static_cast<double>(i) * (pair.time_horizon - dt) /
                                          static_cast<double>(kBoundarySamples);
                CHECK(same_bits(times.time[i], t));
                const V2<double> one =
                    detail::envelope_point(pair.rel_position, pair.rel_velocity, r, pair.delta, t);
                if (!same_bits(one.x, x[i]) || !same_bits(one.y, y[i])) ++mismatches;
                if (!std::isnan(one.x)) ++defined;
            }
            // The bends of the repaired convexity test, from the same points.
            alignas(32) double bend[kEnvelopePadded], limit[kEnvelopePadded];
            const double left = trial % 3 ? 1.0 : -1.0;
            bend_kernel(level)(x, y, left, bend, limit);
            for (int i = 2; i < kEnvelopeSamples; ++i) {
                const V2<double> a(x[i], y[i]), b(x[i - 1], y[i - 1]), c(x[i - 2], y[i - 2]);
                const double one_bend = left * detail::turn(a, b, c);
                const double one_limit = kRelativeTurn * norm(a - c) * norm(b - a);
                if (!same_bits(one_bend, bend[i]) || !same_bits(one_limit, limit[i])) ++mismatches;
            }
        }
    }
    set_simd_level(before);
    CHECK(mismatches == 0);
    CHECK(defined > 100000);  // most samples are defined points, not NaN
}

TEST_CASE("AVO's times are recomputed when a setting changes, not otherwise") {
    EnvelopeTimes times;
    prepare_envelope_times(times, 0.01, 2.0, 0.3);
    const double first = times.terms[kTermInv][50];
    prepare_envelope_times(times, 0.01, 2.0, 0.3);
    CHECK(same_bits(times.terms[kTermInv][50], first));
    prepare_envelope_times(times, 0.01, 2.0, 0.4);  // another delta
    CHECK(!same_bits(times.terms[kTermInv][50], first));
    CHECK(same_bits(times.delta, 0.4));
    prepare_envelope_times(times, 0.01, 3.0, 0.4);  // another horizon
    CHECK(same_bits(times.time[kEnvelopeSamples - 1], 3.0));
    // The pads repeat the last sample.
    CHECK(same_bits(times.terms[kTermOffset][kEnvelopePadded - 1], times.terms[kTermOffset][kEnvelopeSamples - 1]));
}

TEST_CASE("avo_half_plane gives the same half-plane with the lanes as without, at every level") {
    RandomPair random;
    EnvelopeTimes times;
    long mismatches = 0, lines = 0;
    const SimdLevel before = simd_level();
    for (int trial = 0; trial < 3000; ++trial) {
        const AvoPair<double> pair = random.next();
        HalfPlane<double> one;
        const bool one_found = avo_half_plane(pair, AvoRules::kRepaired, one);
        for (const SimdLevel level : levels_here()) {
            set_simd_level(level);
            HalfPlane<double> laned;
            const bool laned_found = avo_half_plane(pair, AvoRules::kRepaired, laned, &times);
            if (laned_found != one_found) {
                ++mismatches;
                continue;
            }
            if (!one_found) continue;
            ++lines;
            if (!same_bits(one.point.x, laned.point.x) || !same_bits(one.point.y, laned.point.y) ||
                !same_bits(one.direction.x, laned.direction.x) || !same_bits(one.direction.y, laned.direction.y)) {
                ++mismatches;
            }
        }
    }
    set_simd_level(before);
    CHECK(mismatches == 0);
    CHECK(lines > 2000);  // 2,652 of the 9,000 (3,000 pairs at three levels) here
}
