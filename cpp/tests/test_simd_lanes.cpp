// The lane kernels (maths/simd) give the same bits at every level, and the
// same as the one-at-a-time code they replace.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "maths/approximate_direction.hpp"
#include "maths/counter_rng.hpp"
#include "maths/simd/simd_level.hpp"
#include "methods/detour/detour_lanes.hpp"
#include "methods/velocity_obstacles/velocity_obstacles.hpp"

using namespace vosim;

namespace {

std::vector<SimdLevel> available_levels() {
    std::vector<SimdLevel> levels;
    for (const SimdLevel level : {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx2}) {
        if (static_cast<int>(level) <= static_cast<int>(best_simd_level())) levels.push_back(level);
    }
    return levels;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// DetourCrowd's time of impact and side term for one neighbour, as
// detour_sampling.cpp writes them (the reference the kernels must equal).
struct OneCircle {
    double rel_x, rel_y, gap, vel_x, vel_y, side_x, side_y, normal_x, normal_y;
};

bool one_impact(const OneCircle& c, double rvx, double rvy, double& t) {
    const double a = rvx * rvx + rvy * rvy;
    if (a < 0.0001) return false;
    const double b = rvx * c.rel_x + rvy * c.rel_y;
    const double discriminant = b * b - a * c.gap;
    if (discriminant < 0.0) return false;
    const double root = std::sqrt(discriminant);
    double enter = (b - root) / a;
    const double exit = (b + root) / a;
    if (enter < 0.0 && exit > 0.0) enter = -enter * 0.5;
    if (!(enter >= 0.0)) return false;
    t = enter;
    return true;
}

double one_side(const OneCircle& c, double rvx, double rvy) {
    const double along = (c.side_x * rvx + c.side_y * rvy) * 0.5 + 0.5;
    const double across = (c.normal_x * rvx + c.normal_y * rvy) * 2.0;
    const double least = across < along ? across : along;
    return least < 0.0 ? 0.0 : (1.0 < least ? 1.0 : least);
}

}  // namespace

TEST_CASE("simd levels: the best is detected, each available one can be pinned, others are refused") {
    const SimdLevel before = simd_level();
    CHECK(before == best_simd_level());
    for (const SimdLevel level : available_levels()) {
        set_simd_level(level);
        CHECK(simd_level() == level);
        CHECK(parse_simd_level(simd_level_name(level)) == level);
    }
    if (best_simd_level() != SimdLevel::avx2) {
        CHECK_THROWS_WITH_AS(set_simd_level(SimdLevel::avx2), doctest::Contains("'avx2' is not available"),
                             std::invalid_argument);
    }
    CHECK_THROWS_WITH_AS(parse_simd_level("avx512"), doctest::Contains("'avx512'"), std::invalid_argument);
    set_simd_level(before);
}

TEST_CASE("DetourCrowd's impact and side kernels equal the one-at-a-time rule at every level, bit for bit") {
    std::mt19937_64 rng(61);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    int hits = 0, overlaps = 0, slow = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const int n = trial % 13;  // 0 to 12 neighbours: empty, partial and whole packs
        std::vector<OneCircle> circles(static_cast<std::size_t>(n));
        for (OneCircle& c : circles) {
            const double reach = trial % 5 == 0 ? 0.6 : 4.0;
            c.rel_x = reach * unit(rng);
            c.rel_y = reach * unit(rng);
            c.gap = c.rel_x * c.rel_x + c.rel_y * c.rel_y - 1.0;  // combined radius 1; < 0: overlapping
            overlaps += c.gap < 0.0;
            c.vel_x = unit(rng);
            c.vel_y = unit(rng);
            const double len = std::sqrt(c.rel_x * c.rel_x + c.rel_y * c.rel_y);
            c.side_x = c.rel_x / len;
            c.side_y = c.rel_y / len;
            const double sign = unit(rng) < 0.0 ? -1.0 : 1.0;
            c.normal_x = -sign * c.side_y;
            c.normal_y = sign * c.side_x;
        }
        // Some bases make a neighbour's relative velocity (nearly) zero.
        double base_x = 2.0 * unit(rng), base_y = 2.0 * unit(rng);
        if (n > 0 && trial % 7 == 0) {
            base_x = circles[0].vel_x + 0.005;
            base_y = circles[0].vel_y;
        }
        const double horizon = 2.5;
        const double stop_below = trial % 3 == 0 ? 0.8 : -1.0;  // -1: never stops early

        double expected = horizon;
        std::vector<double> expected_side(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            const OneCircle& c = circles[static_cast<std::size_t>(i)];
            expected_side[static_cast<std::size_t>(i)] = one_side(c, base_x - c.vel_x, base_y - c.vel_y);
        }
        bool stopped = false;
        for (int i = 0; i < n && !stopped; ++i) {
            const OneCircle& c = circles[static_cast<std::size_t>(i)];
            const double rvx = base_x - c.vel_x, rvy = base_y - c.vel_y;
            slow += rvx * rvx + rvy * rvy < 0.0001;
            double t = 0.0;
            if (one_impact(c, rvx, rvy, t) && t < expected) {
                expected = t;
                ++hits;
                stopped = expected < stop_below;
            }
        }

        DetourLaneBuffer buffer;
        const DetourCircleLanes lanes = buffer.reset(n);
        for (int i = 0; i < n; ++i) {
            const OneCircle& c = circles[static_cast<std::size_t>(i)];
            buffer.set(i, kLaneRelX, c.rel_x);
            buffer.set(i, kLaneRelY, c.rel_y);
            buffer.set(i, kLaneGap, c.gap);
            buffer.set(i, kLaneVelX, c.vel_x);
            buffer.set(i, kLaneVelY, c.vel_y);
            buffer.set(i, kLaneSideX, c.side_x);
            buffer.set(i, kLaneSideY, c.side_y);
            buffer.set(i, kLaneNormalX, c.normal_x);
            buffer.set(i, kLaneNormalY, c.normal_y);
        }
        for (const SimdLevel level : available_levels()) {
            INFO("trial " << trial << " level " << simd_level_name(level));
            const DetourKernels& kernels = detour_kernels(level);
            kernels.sides(lanes, base_x, base_y, buffer.side());
            for (int i = 0; i < n; ++i) CHECK(same_bits(buffer.side()[i], expected_side[static_cast<std::size_t>(i)]));
            const double t = kernels.impacts(lanes, base_x, base_y, horizon, stop_below);
            if (stopped) {
                // Stopped at a pack holding a time below stop_below: that time or an earlier one.
                CHECK(t < stop_below);
                CHECK(t <= expected);
                continue;
            }
            CHECK(same_bits(t, expected));
        }
    }
    CHECK(hits > 1000);
    CHECK(overlaps > 100);
    CHECK(slow > 50);
}

TEST_CASE("DetourCrowd's distance-term kernel equals the one-at-a-time terms at every level, bit for bit") {
    std::mt19937_64 rng(71);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    long compared = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        const int count = 4 * (1 + trial % 9);
        const DetourDistanceWeights w{unit(rng),       unit(rng),       unit(rng), unit(rng),
                                      1.0 / (1.6 + unit(rng)), 2.0 + unit(rng), 0.75 + 0.5 * unit(rng)};
        std::vector<double> vx(static_cast<std::size_t>(count)), vy(vx.size());
        for (std::size_t i = 0; i < vx.size(); ++i) {
            vx[i] = 1.5 * unit(rng);
            vy[i] = 1.5 * unit(rng);
        }
        for (const SimdLevel level : available_levels()) {
            std::vector<double> vpen(vx.size()), vcpen(vx.size());
            detour_kernels(level).distances(w, vx.data(), vy.data(), count, vpen.data(), vcpen.data());
            for (std::size_t i = 0; i < vx.size(); ++i) {
                // As evaluate in detour_sampling.cpp writes them.
                const Vec2 v(vx[i], vy[i]);
                const double one_vpen = w.weight_des_vel * (length(v - Vec2(w.desired_x, w.desired_y)) * w.inv_max_speed);
                const double one_vcpen =
                    w.weight_cur_vel * (length(v - Vec2(w.velocity_x, w.velocity_y)) * w.inv_max_speed);
                CHECK(same_bits(vpen[i], one_vpen));
                CHECK(same_bits(vcpen[i], one_vcpen));
                ++compared;
            }
        }
    }
    CHECK(compared > 20000);
}

TEST_CASE("The velocity-obstacle lane kernel equals vo_time_to_collision at every level, bit for bit") {
    std::mt19937_64 rng(67);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    int finite = 0, beyond_horizon = 0, dropped = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const int n = trial % 11;
        LocalAgent agent;
        agent.radius = 0.4;
        agent.velocity = Vec2(unit(rng), unit(rng));
        agent.pref_velocity = Vec2(unit(rng), unit(rng));
        agent.max_speed = 1.5;
        agent.time_horizon = trial % 2 == 0 ? 2.0 : 0.5;
        agent.time_horizon_obst = 2.0;
        std::vector<LocalNeighbor> neighbors(static_cast<std::size_t>(n));
        for (LocalNeighbor& other : neighbors) {
            other.position = Vec2(4.0 * unit(rng), 4.0 * unit(rng));
            other.velocity = Vec2(unit(rng), unit(rng));
            other.pref_velocity = other.velocity;
            other.radius = 0.4;
        }
        VoConfig config = default_vo_config(trial % 3 == 0 ? Cone::vo : Cone::rvo);
        config.truncate = trial % 4 == 0;
        std::vector<VoCone> cones;
        build_vo_cones(config, agent, neighbors.data(), n, nullptr, 0, 0.1, cones);
        VoLaneBuffer buffer;
        const VoConeLanes lanes = vo_cone_lanes(cones, buffer);
        const int lanes_count = lanes.count;
        const Vec2 v(1.5 * unit(rng), 1.5 * unit(rng));
        const double start = trial % 5 == 0 ? 0.7 : HUGE_VAL;  // an earlier collision found elsewhere
        double expected = start;
        for (const VoCone& cone : cones) {
            if (cone.kind != VoConeKind::agent) continue;
            const double t = vo_time_to_collision(cone, v);
            beyond_horizon += cone.is_truncated() && std::isinf(t);
            if (t < expected) expected = t;
        }
        finite += std::isfinite(expected) && expected != start;
        // The drop rule: a sample at distance 0.3 from pref, against a best penalty of 4.
        const VoDropRule rule{0.3, 4.0, 7.5, 1e-4, 7.5e4};
        // (Without cones the kernel judges nothing: the caller judged `start`.)
        const bool expect_drop = lanes_count > 0 && !(rule.penalty + std::min(rule.safety_factor / std::max(expected, rule.time_floor),
                                                          rule.worst) < rule.best);
        dropped += expect_drop;
        for (const SimdLevel level : available_levels()) {
            INFO("trial " << trial << " level " << simd_level_name(level));
            CHECK(same_bits(vo_collision_kernel(level)(lanes, v.x, v.y, start, nullptr), expected));
            const double with_rule = vo_collision_kernel(level)(lanes, v.x, v.y, start, &rule);
            if (expect_drop) {
                CHECK(with_rule == -1.0);
            } else {
                CHECK(same_bits(with_rule, expected));
            }
        }
    }
    CHECK(finite > 300);
    CHECK(beyond_horizon > 100);
    CHECK(dropped > 100);
}

// The bound of |pref - v|^2 that select_sampling drops samples by, as it was
// written one sample at a time before the lane kernels.
double reference_lower_sq(double p, double heading, double r, double angle) {
    constexpr double kPi = 3.14159265358979323846;
    double a = std::fabs(angle - heading);
    if (a > kPi) a = std::fabs(2.0 * kPi - a);
    double cos_above;
    if (a <= 0.5 * kPi) {
        const double a2 = a * a;
        cos_above = 1.0 - a2 * (0.5 - a2 * (1.0 / 24.0));
    } else {
        const double x = kPi - a;
        const double x2 = x * x;
        cos_above = -(1.0 - x2 * (0.5 - x2 * (1.0 / 24.0 - x2 * (1.0 / 720.0))));
    }
    const double squares = p * p + r * r;
    return squares - 2.0 * p * r * (cos_above + 1e-12) - 1e-12 * squares;
}

TEST_CASE("VO's sample draws on lanes equal CounterRng's and the bounds', one at a time, at every level") {
    std::mt19937_64 rng(83);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int in_play = 0, near_only = 0, far = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        // Seeds over all 64 bits, the first sample anywhere up to 2^30 (the
        // words wrap), blocks of every length, and bests of 0 to 2 m/s.
        const double pref_length = 3.0 * unit(rng);
        const VoSampleDraw draw{rng(), trial % 13 == 0 ? 0.0 : 2.0 * unit(rng), pref_length,
                                (2.0 * unit(rng) - 1.0) * 3.14159265358979323846};
        const int first = trial % 3 == 0 ? 1 + 64 * (trial % 5) : 1 + static_cast<int>(rng() % (1ull << 30));
        const int m = 1 + trial % 64;
        const double best = trial % 7 == 0 ? 0.0 : 2.0 * unit(rng);
        const CounterRng stream(draw.seed);
        double expected_r[64], expected_a[64];
        std::uint64_t expected_mask = 0;
        for (int i = 0; i < m; ++i) {
            const std::uint64_t k = static_cast<std::uint64_t>(first + i);
            const double r = draw.max_speed * std::sqrt(stream.unit_at(2 * k - 1));
            const double a = 6.283185307179586476925286766559 * stream.unit_at(2 * k);
            expected_r[i] = r;
            expected_a[i] = a;
            const bool near = std::fabs(pref_length - r) - (1e-9 * (pref_length + r) + 1e-300) < best;
            const bool beyond = reference_lower_sq(pref_length, draw.heading, r, a) >= best * best * (1.0 + 1e-9);
            expected_mask |= static_cast<std::uint64_t>(near && !beyond) << i;
            in_play += near && !beyond;
            near_only += near && beyond;
            far += !near;
        }
        for (const SimdLevel level : available_levels()) {
            INFO("trial " << trial << " level " << simd_level_name(level));
            double radii[64], angles[64];
            const std::uint64_t mask = vo_sample_kernel(level)(draw, first, m, best, radii, angles);
            CHECK(mask == expected_mask);
            int differing = 0;
            for (int i = 0; i < m; ++i) differing += !same_bits(radii[i], expected_r[i]) + !same_bits(angles[i], expected_a[i]);
            CHECK(differing == 0);
        }
    }
    CHECK(in_play > 5000);
    CHECK(near_only > 5000);
    CHECK(far > 5000);
}

TEST_CASE("approximate_direction is within kDirectionError of cos and sin over [0, 2 pi)") {
    double worst = 0.0;
    const int count = 400000;
    for (int k = 0; k <= count; ++k) {
        // Evenly spread, then the ends and the quadrants' edges, where x is largest.
        const double a = k < count ? 6.283185307179586 * k / count : std::nextafter(6.283185307179586, 0.0);
        const Vec2 d = approximate_direction(a);
        worst = std::max({worst, std::fabs(d.x - std::cos(a)), std::fabs(d.y - std::sin(a))});
    }
    for (int q = 0; q <= 4; ++q) {
        for (const double a : {0.7853981633974483 + 1.5707963267948966 * q, std::nextafter(0.7853981633974483 + 1.5707963267948966 * q, 0.0)}) {
            if (a >= 6.283185307179586) continue;
            const Vec2 d = approximate_direction(a);
            worst = std::max({worst, std::fabs(d.x - std::cos(a)), std::fabs(d.y - std::sin(a))});
        }
    }
    CHECK(worst < 0.1 * kDirectionError);
}

TEST_CASE("VO's drop kernel: where it is sure, every velocity within the slack is dropped, at every level") {
    // Generous margins and slack, so that a kernel without them would be
    // caught: the neighbours' discs shrunk by 5 % of their radius, and
    // velocities within 0.01 m/s of the one judged.
    std::mt19937_64 rng(97);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int sure = 0, unsure = 0, checked = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const int n = 1 + trial % 9;
        LocalAgent agent;
        agent.radius = 0.4;
        agent.velocity = Vec2(unit(rng) - 0.5, unit(rng) - 0.5);
        agent.pref_velocity = Vec2(unit(rng), unit(rng));
        agent.max_speed = 1.5;
        agent.time_horizon = trial % 2 == 0 ? 2.0 : 0.5;
        agent.time_horizon_obst = 2.0;
        std::vector<LocalNeighbor> neighbors(static_cast<std::size_t>(n));
        for (LocalNeighbor& other : neighbors) {
            const double reach = unit(rng) < 0.1 ? 0.9 : 4.0;
            other.position = Vec2(reach * (unit(rng) - 0.3), reach * (unit(rng) - 0.3));
            other.velocity = Vec2(unit(rng) - 0.5, unit(rng) - 0.5);
            other.pref_velocity = other.velocity;
            other.radius = 0.4;
        }
        VoConfig config = default_vo_config(trial % 3 == 0 ? Cone::vo : Cone::rvo);
        config.truncate = trial % 4 == 0;
        std::vector<VoCone> cones;
        build_vo_cones(config, agent, neighbors.data(), n, nullptr, 0, 0.1, cones);
        VoLaneBuffer buffer;
        const VoConeLanes lanes = vo_cone_lanes(cones, buffer, 0.05);
        const double slack = 0.01;
        const Vec2 v(3.0 * unit(rng) - 1.5, 3.0 * unit(rng) - 1.5);
        // A penalty below that of every velocity judged, and a best it must reach.
        const VoDropRule rule{0.2, 0.2 + 10.0 * unit(rng), 7.5, 1e-2, 750.0};
        bool verdict = false;
        for (const SimdLevel level : available_levels()) {
            INFO("trial " << trial << " level " << simd_level_name(level));
            const bool here = vo_drop_kernel(level)(lanes, v.x, v.y, slack, rule);
            if (level == SimdLevel::scalar) verdict = here;
            CHECK(here == verdict);
        }
        if (!verdict) {
            ++unsure;
            continue;
        }
        ++sure;
        for (int k = 0; k < 24; ++k) {
            // Inside the slack's disc, half of them on its edge.
            const double angle = 6.283185307179586 * unit(rng);
            const double distance = slack * (k % 2 == 0 ? 1.0 : std::sqrt(unit(rng)));
            const Vec2 near = v + distance * Vec2(std::cos(angle), std::sin(angle));
            INFO("trial " << trial << " velocity " << near.x << ", " << near.y);
            CHECK(vo_collision_kernel(SimdLevel::scalar)(lanes, near.x, near.y, HUGE_VAL, &rule) == -1.0);
            ++checked;
        }
    }
    CHECK(sure > 300);
    CHECK(unsure > 300);
    CHECK(checked == 24 * sure);
}
