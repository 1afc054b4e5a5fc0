// The engine's metrics observer: what each agent's neighbour search sees of
// clearances, overlaps and obstacle hits, during a run's steps and once more
// after its last.
#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "engine/engine.hpp"
#include "engine/engine_internal.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"
#include "spatial/periodic_nearest.hpp"

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
    // The neighbour list holds every overlapping agent when it reaches
    // beyond any possible overlap; otherwise a search of that reach does
    // (through the periodic seam, as the list's search).
    const bool complete = s.neighbor_dist[i] >= reach && wanted > 0 &&
                          (agents.size() < wanted || agents[agents.size() - 1].dist_sq >= reach * reach);
    auto gap_to = [&](int other, double dist_sq) {
        return std::sqrt(dist_sq) - radius - s.radius[s.index(scene, other)];
    };
    if (tally.counting_pairs(scene)) {
        // Every overlapping pair, while the scene's state has few enough.
        auto consider = [&](int other, double dist_sq) {
            const double gap = gap_to(other, dist_sq);
            clearance = std::fmin(clearance, gap);
            if (gap < 0.0) {
                overlapping = true;
                penetration = std::fmax(penetration, -gap);
                // Each overlapping pair is seen by both agents; the lower slot reports it.
                const std::int64_t a = s.ids[i], b = s.ids[s.index(scene, other)];
                if (slot < other) tally.add_pair(scene, std::min(a, b), std::max(a, b));
            }
        };
        // Neighbours come nearest first, and neighbour k's clearance is at least
        // sqrt(d_k) - reach: once that cannot beat the best so far (nor overlap),
        // the rest cannot either. Usually one or two square roots per agent.
        for (const Neighbor& n : agents) {
            const double bound = clearance + reach;
            if (n.dist_sq >= reach * reach && bound >= 0.0 && n.dist_sq >= bound * bound) break;
            if (complete) {
                consider(n.slot, n.dist_sq);
            } else {
                clearance = std::fmin(clearance, gap_to(n.slot, n.dist_sq));
            }
        }
        if (!complete && reach > 0.0) {
            for_each_within_periodic(order_.grid<V>(scene), features_.seam(), s.position<V>(i), reach,
                                     [&](std::int32_t other, double dist_sq) {
                                         if (other != slot) consider(other, dist_sq);
                                     });
        }
    } else {
        // Too many pairs to count: only the agent's own smallest gap, which
        // decides whether it overlaps and how deep. The neighbour list bounds
        // the agents it does not hold (none nearer than its last, or than
        // its range), so a crowd on one spot needs no search beyond it.
        for (const Neighbor& n : agents) {
            const double bound = clearance + reach;
            if (bound >= 0.0 && n.dist_sq >= bound * bound) break;
            clearance = std::fmin(clearance, gap_to(n.slot, n.dist_sq));
        }
        const bool full = wanted > 0 && agents.size() >= wanted;
        const double unseen = full ? std::sqrt(agents[agents.size() - 1].dist_sq)
                                   : (wanted > 0 ? s.neighbor_dist[i] : 0.0);
        if (!complete && reach > 0.0 && !(clearance <= unseen - reach)) {
            for_each_within_periodic(order_.grid<V>(scene), features_.seam(), s.position<V>(i), reach,
                                     [&](std::int32_t other, double dist_sq) {
                                         if (other != slot) clearance = std::fmin(clearance, gap_to(other, dist_sq));
                                     });
        }
        if (clearance < 0.0) {
            overlapping = true;
            penetration = -clearance;
        }
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
        if (edge_penetration > kObstacleContactTolerance) ++tally.obstacle_hits[scene];  // not round-off
        tally.max_obstacle_penetration[scene] = std::fmax(tally.max_obstacle_penetration[scene], edge_penetration);
    }
}

void Engine::observe_state() {
    with_vector_type(dimensions(), [&](auto v) { const_cast<Engine*>(this)->observe_state_in<decltype(v)>(); });
}

template <class V>
void Engine::observe_state_in() {
    build_obstacles();
    order_.build<V>(state_);
    const int threads = max_threads();
    prepare_workspaces(threads);
    metrics_largest_radius_ = largest_active_radius(state_);
    metrics_->begin_state(step_count_, threads);
    const std::int64_t total = order_.total();
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
