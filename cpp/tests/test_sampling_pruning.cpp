// The sampling methods drop candidates that cannot beat the best so far:
// VO and RVO (velocity_obstacles.hpp) and DetourCrowd's samplers
// (detour_sampling.hpp). With diagnostics or a record every candidate is
// scored in full, so both calls must choose the same velocity, bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "maths/simd/simd_level.hpp"
#include "maths/visit_in_order.hpp"
#include "methods/detour/detour_sampling.hpp"
#include "methods/velocity_obstacles/velocity_obstacles.hpp"

using namespace vosim;

namespace {

// An agent at the origin with a preferred velocity inside, on or beyond its
// speed disc (or zero), and `count` neighbours, some overlapping it.
void random_problem(std::mt19937_64& rng, int trial, int count, LocalAgent& agent,
                    std::vector<LocalNeighbor>& neighbors, int& overlapping) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    agent = LocalAgent();
    agent.velocity = Vec2(unit(rng) - 0.5, unit(rng) - 0.5);
    const double pref_speed = trial % 4 == 0 ? 0.0 : unit(rng) * 3.0;
    const double heading = unit(rng) * 6.283185307179586;
    agent.pref_velocity = Vec2(pref_speed * std::cos(heading), pref_speed * std::sin(heading));
    agent.radius = 0.5;
    agent.max_speed = trial % 11 == 0 ? 0.0 : 1.5;
    agent.time_horizon = 2.0;
    agent.time_horizon_obst = 2.0;
    agent.id = trial;
    neighbors.assign(static_cast<std::size_t>(count), LocalNeighbor());
    for (LocalNeighbor& n : neighbors) {
        const double reach = unit(rng) < 0.15 ? 0.8 : 4.0;
        n.position = Vec2((unit(rng) - 0.5) * 2.0 * reach, (unit(rng) - 0.5) * 2.0 * reach);
        n.velocity = Vec2(unit(rng) - 0.5, unit(rng) - 0.5);
        n.pref_velocity = n.velocity;
        n.radius = 0.5;
        overlapping += abs_sq(n.position) <= 1.0;
    }
}

}  // namespace

TEST_CASE("VO/RVO sampling: dropping samples that cannot win leaves the choice unchanged") {
    std::mt19937_64 rng(47);
    int compared = 0, overlapping = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        VoConfig config = default_vo_config(trial % 2 == 0 ? Cone::vo : Cone::rvo);
        config.selection = Selection::sampling;
        config.safety_factor = trial % 5 == 0 ? 0.0 : trial % 5 == 1 ? 1e6 : 7.5;
        config.truncate = trial % 3 == 0;
        config.samples = trial % 7 == 0 ? 3 : 250;

        LocalAgent agent;
        std::vector<LocalNeighbor> neighbors;
        random_problem(rng, trial, trial % 9, agent, neighbors, overlapping);
        std::vector<LocalEdge> segments;
        if (trial % 6 == 0) segments.push_back(LocalEdge{Vec2(-3.0, 1.5), Vec2(3.0, 1.5)});

        VoScratch scratch;
        const std::uint64_t seed = vo_sample_seed(config.seed, agent.id, trial);
        VoDiagnostics full;  // every sample scored, one cone at a time
        const Vec2 scored = vo_new_velocity(config, agent, neighbors.data(), static_cast<int>(neighbors.size()),
                                            segments.data(), static_cast<int>(segments.size()), 0.1, seed, scratch,
                                            &full);
        REQUIRE(full.candidates.size() == static_cast<std::size_t>(config.samples) + 1);
        // Without diagnostics the neighbours' cones go in packs at each level.
        for (const SimdLevel level : {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx2}) {
            if (static_cast<int>(level) > static_cast<int>(best_simd_level())) continue;
            INFO("trial " << trial << " " << simd_level_name(level));
            set_simd_level(level);
            const Vec2 fast = vo_new_velocity(config, agent, neighbors.data(), static_cast<int>(neighbors.size()),
                                              segments.data(), static_cast<int>(segments.size()), 0.1, seed,
                                              scratch);
            CHECK(fast.x == scored.x);
            CHECK(fast.y == scored.y);
        }
        set_simd_level(best_simd_level());
        ++compared;
    }
    CHECK(compared == 2000);
    CHECK(overlapping > 20);
}

TEST_CASE("DetourCrowd's samplers: dropping candidates that cannot win leaves the choice unchanged") {
    std::mt19937_64 rng(53);
    int overlapping = 0;
    for (int trial = 0; trial < 400; ++trial) {
        DetourParams params;
        params.grid_size = trial % 3 == 0 ? 5 : 33;
        if (trial % 5 == 0) params.weight_toi = 0.0;
        if (trial % 7 == 0) params.weight_des_vel = 0.0;
        if (trial % 4 == 1) params.vel_bias = 0.0;
        LocalAgent agent;
        std::vector<LocalNeighbor> neighbors;
        random_problem(rng, trial, trial % 9, agent, neighbors, overlapping);
        std::vector<LocalEdge> segments;
        if (trial % 6 == 0) segments.push_back(LocalEdge{Vec2(-3.0, 1.5), Vec2(3.0, 1.5)});
        const int n = static_cast<int>(neighbors.size());
        const int m = static_cast<int>(segments.size());
        for (const bool grid : {true, false}) {
            auto run = [&](std::vector<DetourSample>* record) {
                return grid ? sample_velocity_grid(params, agent, neighbors.data(), n, segments.data(), m, record)
                            : sample_velocity_adaptive(params, agent, neighbors.data(), n, segments.data(), m, record);
            };
            std::vector<DetourSample> record;
            const DetourResult scored = run(&record);  // one candidate and one neighbour at a time
            // The pruned evaluation takes the neighbours in packs at each level.
            for (const SimdLevel level : {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx2}) {
                if (static_cast<int>(level) > static_cast<int>(best_simd_level())) continue;
                INFO("trial " << trial << (grid ? " grid " : " adaptive ") << simd_level_name(level));
                set_simd_level(level);
                const DetourResult fast = run(nullptr);
                CHECK(fast.velocity.x == scored.velocity.x);
                CHECK(fast.velocity.y == scored.velocity.y);
                CHECK(fast.samples == scored.samples);
            }
            set_simd_level(best_simd_level());
        }
    }
    CHECK(overlapping > 20);
}

TEST_CASE("Geometric selection: skipping crossings that cannot be chosen leaves the choice unchanged") {
    std::mt19937_64 rng(53);
    int compared = 0, overlapping = 0, crossing_chosen = 0, fallbacks = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        VoConfig config = default_vo_config(trial % 3 == 0 ? Cone::hrvo : trial % 3 == 1 ? Cone::rvo : Cone::vo);
        config.selection = Selection::geometric;
        config.truncate = trial % 4 == 0;  // caps: arcs and flat sides among the pieces
        config.escape_overlaps = trial % 5 != 0;

        LocalAgent agent;
        std::vector<LocalNeighbor> neighbors;
        random_problem(rng, trial, trial % 12, agent, neighbors, overlapping);
        std::vector<LocalEdge> segments;
        if (trial % 6 == 0) segments.push_back(LocalEdge{Vec2(-3.0, 1.5), Vec2(3.0, 1.5)});

        VoScratch scratch;
        VoDiagnostics full;  // every candidate listed
        const Vec2 listed = vo_new_velocity(config, agent, neighbors.data(), static_cast<int>(neighbors.size()),
                                            segments.data(), static_cast<int>(segments.size()), 0.1, 0, scratch,
                                            &full);
        const bool listed_fallback = scratch.used_fallback;
        const Vec2 pruned = vo_new_velocity(config, agent, neighbors.data(), static_cast<int>(neighbors.size()),
                                            segments.data(), static_cast<int>(segments.size()), 0.1, 0, scratch);
        INFO("trial " << trial);
        CHECK(pruned.x == listed.x);
        CHECK(pruned.y == listed.y);
        CHECK(scratch.used_fallback == listed_fallback);
        const VoCandidateInfo& chosen = full.candidates[static_cast<std::size_t>(full.chosen)];
        crossing_chosen += chosen.cone_a >= 0 && chosen.cone_b >= 0 && chosen.cone_a != chosen.cone_b;
        fallbacks += listed_fallback;
        ++compared;
    }
    CHECK(compared == 3000);
    CHECK(crossing_chosen > 100);  // a crossing is chosen in 187 of the 3,000 here
    CHECK(fallbacks > 10);
    CHECK(overlapping > 20);
}

TEST_CASE("Geometric selection's bound on a piece's distance is below the distance, by its margin only") {
    // Pruning stays correct with any weaker bound, so the test above cannot
    // tell one from this one: here the bound is held to the distance itself,
    // worked out in long double, from below (it may drop nothing that could
    // be chosen) and from close by (it must drop what it can).
    std::mt19937_64 rng(61);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int lines = 0, arcs = 0, on_piece = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        VoBoundaryPiece piece;
        piece.origin = Vec2(10.0 * unit(rng) - 5.0, 10.0 * unit(rng) - 5.0);
        const double spread = trial % 7 == 0 ? 1000.0 : 5.0;
        Vec2 q(2.0 * spread * unit(rng) - spread, 2.0 * spread * unit(rng) - spread);
        long double distance = 0.0L;
        if (trial % 2 == 0) {
            piece.shape = VoBoundaryPiece::Shape::line;
            const double angle = 6.283185307179586 * unit(rng);
            piece.direction = Vec2(std::cos(angle), std::sin(angle));
            piece.length = trial % 3 == 0 ? std::numeric_limits<double>::infinity() : 0.1 + 10.0 * unit(rng);
            if (trial % 5 == 0) {
                q = piece.origin + (std::isinf(piece.length) ? 20.0 * unit(rng) : piece.length * unit(rng)) *
                                       piece.direction;  // on the piece, up to rounding
                ++on_piece;
            }
            const long double dx = static_cast<long double>(q.x) - piece.origin.x;
            const long double dy = static_cast<long double>(q.y) - piece.origin.y;
            long double along = dx * piece.direction.x + dy * piece.direction.y;
            along = std::max(0.0L, std::min(along, static_cast<long double>(piece.length)));
            distance = std::hypot(dx - along * piece.direction.x, dy - along * piece.direction.y);
            ++lines;
        } else {
            piece.shape = VoBoundaryPiece::Shape::arc;
            piece.radius = 0.1 + 5.0 * unit(rng);
            const long double dx = static_cast<long double>(q.x) - piece.origin.x;
            const long double dy = static_cast<long double>(q.y) - piece.origin.y;
            distance = std::fabs(std::hypot(dx, dy) - piece.radius);
            ++arcs;
        }
        const double scale = length(q) + length(piece.origin) + piece.radius;
        const double bound = vo_piece_distance_below(piece, q);
        INFO("trial " << trial << ", distance " << static_cast<double>(distance) << ", bound " << bound);
        REQUIRE(static_cast<long double>(bound) <= distance);
        REQUIRE(static_cast<long double>(bound) >= distance - 1.5e-9L * scale);
    }
    CHECK(lines == 10000);
    CHECK(arcs == 10000);
    CHECK(on_piece > 1000);
}

TEST_CASE("DetourCrowd's threshold rule holds exactly up to the divisor bound") {
    // The rule as evaluate writes it (detour_sampling.cpp).
    const auto holds = [](double w, double h, double d) {
        const double t_threshold = (w / d - 0.1) * h;
        return t_threshold - h > -1.1920928955078125e-07;
    };
    std::mt19937_64 rng(59);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    long checked = 0, held = 0;
    for (int trial = 0; trial < 500; ++trial) {
        const double w = trial == 0 ? 2.5 : 0.01 + 10.0 * unit(rng);
        const double h = trial == 0 ? 2.5 : 0.05 + 10.0 * unit(rng);
        const double bound = detour_threshold_divisor_bound(w, h);
        INFO("w " << w << " h " << h << " bound " << bound);
        REQUIRE(bound > 0.0);
        CHECK(holds(w, h, bound));
        CHECK(!holds(w, h, std::nextafter(bound, HUGE_VAL)));
        for (int k = 0; k < 200; ++k) {
            // Divisors around the bound and far from it.
            const double d = k % 2 == 0 ? bound * (1.0 + (unit(rng) - 0.5) * 1e-12) : bound * 4.0 * unit(rng);
            if (!(d > 0.0)) continue;
            CHECK(holds(w, h, d) == (d <= bound));
            held += d <= bound;
            ++checked;
        }
    }
    CHECK(held > checked / 4);
    CHECK(held < checked * 3 / 4);
    // Settings the rule cannot be bounded for: every divisor is worked out.
    CHECK(detour_threshold_divisor_bound(0.0, 2.5) == 0.0);
    CHECK(detour_threshold_divisor_bound(2.5, HUGE_VAL) == 0.0);
    CHECK(detour_threshold_divisor_bound(std::nan(""), 2.5) == 0.0);
}

TEST_CASE("VO/RVO sampling: only a best of zero ends the draws") {
    // Heading just inside a wall's end, the preferred velocity collides in
    // about a second; tilting by under 0.01 m/s misses the end. With a
    // safety factor of 0.03 the best after sample 0 is small but above zero,
    // and one of many samples beats it: the draws must go on.
    for (const Cone cone : {Cone::vo, Cone::rvo}) {
        VoConfig config = default_vo_config(cone);
        config.selection = Selection::sampling;
        config.safety_factor = 0.03;
        config.samples = 100000;
        LocalAgent agent;
        agent.pref_velocity = Vec2(1.0, 0.0);
        agent.velocity = agent.pref_velocity;
        agent.radius = 0.5;
        agent.max_speed = 1.5;
        agent.time_horizon = 2.0;
        agent.time_horizon_obst = 2.0;
        const LocalEdge wall{Vec2(1.5, -3.0), Vec2(1.5, -0.49)};
        VoScratch scratch;
        const std::uint64_t seed = vo_sample_seed(config.seed, 3, 5);
        VoDiagnostics full;
        const Vec2 scored = vo_new_velocity(config, agent, nullptr, 0, &wall, 1, 0.1, seed, scratch, &full);
        REQUIRE(full.candidates[0].penalty > 0.0);
        REQUIRE(full.candidates[0].penalty < 0.05);
        REQUIRE(full.chosen > 0);  // a sample beat the preferred velocity
        const Vec2 fast = vo_new_velocity(config, agent, nullptr, 0, &wall, 1, 0.1, seed, scratch);
        CHECK(fast.x == scored.x);
        CHECK(fast.y == scored.y);

        // Free, the preferred velocity has a penalty of 0: it is chosen, and
        // the draws end at once.
        const Vec2 free = vo_new_velocity(config, agent, nullptr, 0, nullptr, 0, 0.1, seed, scratch);
        CHECK(free.x == 1.0);
        CHECK(free.y == 0.0);
    }
}

TEST_CASE("visit_in_order reads entries in std::sort's order, as far as the visit goes") {
    std::mt19937_64 rng(61);
    int stopped_early = 0, sorted_part = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        const int n = trial % 41;
        // Keys with many ties (a few values), made distinct by the index.
        std::vector<std::pair<double, int>> items;
        for (int i = 0; i < n; ++i) items.push_back({static_cast<double>(rng() % 5) * 0.25, i});
        std::vector<std::pair<double, int>> expected = items;
        std::sort(expected.begin(), expected.end());
        const int stop_after = static_cast<int>(rng() % static_cast<std::uint64_t>(n + 2));  // n + 1: never
        std::vector<std::pair<double, int>> seen;
        visit_in_order(items, [&](const std::pair<double, int>& entry) {
            seen.push_back(entry);
            return static_cast<int>(seen.size()) == stop_after;
        });
        const std::size_t wanted = stop_after >= 1 && stop_after <= n ? static_cast<std::size_t>(stop_after)
                                                                        : static_cast<std::size_t>(n);
        INFO("trial " << trial << " n " << n << " stop after " << stop_after);
        REQUIRE(seen.size() == wanted);
        CHECK(std::equal(seen.begin(), seen.end(), expected.begin()));
        stopped_early += seen.size() < static_cast<std::size_t>(n);
        sorted_part += seen.size() > 8;
    }
    CHECK(stopped_early > 1000);
    CHECK(sorted_part > 1000);
}
