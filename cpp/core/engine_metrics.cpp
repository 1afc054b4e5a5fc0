// The engine's metrics observer: what each agent's neighbour search sees of
// clearances, overlaps and obstacle hits, during a run's steps and once more
// after its last.
#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "engine.hpp"
#include "engine_internal.hpp"
#include "parallel.hpp"
#include "threads.hpp"

namespace vosim {

using namespace engine_detail;

template <class V>
void Engine::observe_agent(int scene, int slot, std::size_t i, Span<Neighbor> agents, int wanted,
                           Span<ObstaclesNearOf<V>> edges, StateTally& tally) const {
    const AgentState& s = state_;
    const double radius = s.radius[i];
    const double reach = radius + metrics_largest_radius_;  // farthest a disc could overlap this one
    double clearance = std::numeric_limits<double>::infinity();
    double penetration = 0.0;
    bool overlapping = false;
    auto consider = [&](int other, double dist_sq) {
        const std::size_t j = s.index(scene, other);
        const double gap = std::sqrt(dist_sq) - radius - s.radius[j];
        clearance = std::fmin(clearance, gap);
        if (gap < 0.0) {
            overlapping = true;
            penetration = std::fmax(penetration, -gap);
            // Each overlapping pair is seen by both agents; the lower slot reports it.
            if (slot < other) tally.pairs.push_back({scene, std::min(s.ids[i], s.ids[j]), std::max(s.ids[i], s.ids[j])});
        }
    };
    // The neighbour list holds every overlapping agent when it reaches
    // beyond any possible overlap; otherwise a search of that reach does.
    const bool complete = s.neighbor_dist[i] >= reach && wanted > 0 &&
                          (agents.size() < wanted || agents[agents.size() - 1].dist_sq >= reach * reach);
    // Neighbours come nearest first, and neighbour k's clearance is at least
    // sqrt(d_k) - reach: once that cannot beat the best so far (nor overlap),
    // the rest cannot either. Usually one or two square roots per agent.
    for (const Neighbor& n : agents) {
        const double bound = clearance + reach;
        if (n.dist_sq >= reach * reach && bound >= 0.0 && n.dist_sq >= bound * bound) break;
        if (complete) {
            consider(n.slot, n.dist_sq);
        } else {
            clearance = std::fmin(clearance, std::sqrt(n.dist_sq) - radius - s.radius[s.index(scene, n.slot)]);
        }
    }
    if (!complete && reach > 0.0) {
        grids<V>()[scene].for_each_within(s.position<V>(i), reach, [&](std::int32_t other, double dist_sq) {
            if (other != slot) consider(other, dist_sq);
        });
    }
    tally.min_clearance[scene] = std::fmin(tally.min_clearance[scene], clearance);
    if (overlapping) {
        ++tally.overlapping[scene];
        tally.max_penetration[scene] = std::fmax(tally.max_penetration[scene], penetration);
    }
    double edge_penetration = 0.0;
    bool hit = false;
    for (const auto& edge : edges) {
        if constexpr (kDim<V> == 2) {
            if (edge.dist_sq < radius * radius) {
                hit = true;
                edge_penetration = std::fmax(edge_penetration, radius - std::sqrt(edge.dist_sq));
            }
        } else if (edge.distance < radius) {  // a surface: signed distance
            hit = true;
            edge_penetration = std::fmax(edge_penetration, radius - edge.distance);
        }
    }
    if (hit) {
        ++tally.obstacle_hits[scene];
        tally.max_obstacle_penetration[scene] = std::fmax(tally.max_obstacle_penetration[scene], edge_penetration);
    }
}

void Engine::observe_state() {
    with_vector_type([&](auto v) { const_cast<Engine*>(this)->observe_state_in<decltype(v)>(); });
}

template <class V>
void Engine::observe_state_in() {
    build_obstacles();
    build_neighbor_index<V>();
    const int threads = max_threads();
    prepare_workspaces(threads);
    metrics_largest_radius_ = largest_active_radius(state_);
    metrics_->begin_state(step_count_, threads);
    const std::int64_t total = agents_in_order();
    const std::int64_t chunks = (total + kChunkAgents - 1) / kChunkAgents;
    FirstError failure;
    // On the engine's pool (parallel.hpp), chunk by chunk.
    parallel_for(chunks, total >= kParallelMinAgents ? threads : 1, [&](std::int64_t c) {
        try {
            find_neighbors<V>(c * kChunkAgents, std::min(total, (c + 1) * kChunkAgents), workspaces_[thread_index()]);
        } catch (...) {
            failure.keep(c, std::current_exception());
        }
    });
    failure.rethrow();
    metrics_->end_state();
}

template void Engine::observe_agent<Vec2>(int, int, std::size_t, Span<Neighbor>, int, Span<ObstaclesNearOf<Vec2>>,
                                          StateTally&) const;
template void Engine::observe_agent<Vec3>(int, int, std::size_t, Span<Neighbor>, int, Span<ObstaclesNearOf<Vec3>>,
                                          StateTally&) const;

}  // namespace vosim
