// VO and RVO by sampling (velocity_obstacles.hpp): the samples the search
// drops because they cannot beat the best so far change nothing. With
// diagnostics every sample is scored in full, so the two calls must choose
// the same velocity, bit for bit.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "methods/velocity_obstacles/velocity_obstacles.hpp"

using namespace vosim;

TEST_CASE("VO/RVO sampling: dropping samples that cannot win leaves the choice unchanged") {
    std::mt19937_64 rng(47);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int compared = 0, overlapping = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        VoConfig config = default_vo_config(trial % 2 == 0 ? Cone::vo : Cone::rvo);
        config.selection = Selection::sampling;
        config.safety_factor = trial % 5 == 0 ? 0.0 : trial % 5 == 1 ? 1e6 : 7.5;
        config.truncate = trial % 3 == 0;
        config.samples = trial % 7 == 0 ? 3 : 250;

        LocalAgent agent;
        agent.position = Vec2(0.0, 0.0);
        agent.velocity = Vec2(unit(rng) - 0.5, unit(rng) - 0.5);
        // Preferred velocities inside, on and beyond the speed disc, and zero.
        const double pref_speed = trial % 4 == 0 ? 0.0 : unit(rng) * 3.0;
        const double heading = unit(rng) * 6.283185307179586;
        agent.pref_velocity = Vec2(pref_speed * std::cos(heading), pref_speed * std::sin(heading));
        agent.radius = 0.5;
        agent.max_speed = trial % 11 == 0 ? 0.0 : 1.5;
        agent.time_horizon = 2.0;
        agent.time_horizon_obst = 2.0;
        agent.id = trial;

        std::vector<LocalNeighbor> neighbors(static_cast<std::size_t>(trial % 9));
        for (LocalNeighbor& n : neighbors) {
            // Some overlapping the agent, most a few metres away.
            const double reach = unit(rng) < 0.15 ? 0.8 : 4.0;
            n.position = Vec2((unit(rng) - 0.5) * 2.0 * reach, (unit(rng) - 0.5) * 2.0 * reach);
            n.velocity = Vec2(unit(rng) - 0.5, unit(rng) - 0.5);
            n.pref_velocity = n.velocity;
            n.radius = 0.5;
            overlapping += abs_sq(n.position) <= 1.0;
        }
        std::vector<LocalEdge> segments;
        if (trial % 6 == 0) segments.push_back(LocalEdge{Vec2(-3.0, 1.5), Vec2(3.0, 1.5)});

        VoScratch scratch;
        const std::uint64_t seed = vo_sample_seed(config.seed, agent.id, trial);
        const Vec2 fast = vo_new_velocity(config, agent, neighbors.data(), static_cast<int>(neighbors.size()),
                                          segments.data(), static_cast<int>(segments.size()), 0.1, seed, scratch);
        VoDiagnostics full;
        const Vec2 scored = vo_new_velocity(config, agent, neighbors.data(), static_cast<int>(neighbors.size()),
                                            segments.data(), static_cast<int>(segments.size()), 0.1, seed, scratch,
                                            &full);
        REQUIRE(full.candidates.size() == static_cast<std::size_t>(config.samples) + 1);
        CHECK(fast.x == scored.x);
        CHECK(fast.y == scored.y);
        ++compared;
    }
    CHECK(compared == 2000);
    CHECK(overlapping > 20);
}
