// The resolve phase, for methods that ask for it (Method::overlap_resolution):
// after the integration, overlapping agents are pushed apart in a few rounds,
// the rule of DetourCrowd's dtCrowd::update ("Handle collisions").
//
// Per round, each agent's push is the mean, over the neighbours it overlaps,
// of share * (penetration / 2) away from each; an agent within 1e-4 of a
// neighbour's centre moves instead by 0.01 times its preferred velocity turned
// a right angle, one way or the other by slot order, so that the pair parts.
// Every push is computed from the positions the round began with into a
// buffer, then applied: deterministic for any number of threads. The
// neighbours are those the velocities phase saw (gathered again here from the
// same grid, before the integration), as in DetourCrowd. Pushes pass the
// obstacle guard when the step has one, as DetourCrowd's pushes are clamped
// to its navmesh. Velocities are kept.
#include <algorithm>
#include <cmath>

#include "engine/engine.hpp"
#include "engine/engine_internal.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

namespace {

// Closer than this, two centres coincide and the pair has no direction.
constexpr double kCoincident = 1e-4;
// How far a coincident pair moves apart per round, per unit of preferred speed.
constexpr double kCoincidentPush = 0.01;

}  // namespace

void Engine::gather_overlap_neighbors() {
    const AgentState& s = state_;
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    overlap_.starts.assign(static_cast<std::size_t>(total) + 1, 0);
    overlap_.counts.assign(static_cast<std::size_t>(total), 0);
    std::size_t used = 0;
    for (std::int64_t i = 0; i < total; ++i) {
        overlap_.starts[static_cast<std::size_t>(i)] = used;
        if (i % s.capacity() < s.count() && s.active[i]) used += static_cast<std::size_t>(neighbor_capacity(i));
    }
    overlap_.starts[static_cast<std::size_t>(total)] = used;
    if (overlap_.neighbors.size() < used) overlap_.neighbors.resize(used);
    parallel_for_values(total, max_threads(), [&](std::int64_t i) {
        if (i % s.capacity() >= s.count() || !s.active[i]) return;
        const int scene = static_cast<int>(i / s.capacity());
        const int slot = static_cast<int>(i % s.capacity());
        Neighbor* out = overlap_.neighbors.data() + overlap_.starts[static_cast<std::size_t>(i)];
        overlap_.counts[static_cast<std::size_t>(i)] =
            gather_neighbors<Vec2>(order_.grid<Vec2>(scene), scene, slot, out, nullptr);
    });
}

void Engine::resolve_overlaps(const OverlapResolution& rule, const ObstacleWorld* guard) {
    AgentState& s = state_;
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    overlap_.pushes.assign(static_cast<std::size_t>(total) * 2, 0.0);
    static const ObstacleSet none;
    for (int round = 0; round < rule.iterations; ++round) {
        parallel_for_values(total, max_threads(), [&](std::int64_t i) {
            if (i % s.capacity() >= s.count() || !s.active[i]) return;
            const std::size_t at = static_cast<std::size_t>(i);
            const int scene = static_cast<int>(i / s.capacity());
            const int slot = static_cast<int>(i % s.capacity());
            const Vec2 p = s.position(at);
            const double r = s.radius[i];
            Vec2 push(0.0, 0.0);
            int overlapped = 0;
            const Neighbor* first = overlap_.neighbors.data() + overlap_.starts[at];
            for (int k = 0; k < overlap_.counts[at]; ++k) {
                const Neighbor& n = first[k];
                const std::size_t j = s.index(scene, n.slot);
                Vec2 q = s.position(j);
                if (n.image != 0) q = q + features_.seam().offset<Vec2>(n.image);
                Vec2 away = p - q;
                const double reach = r + s.radius[j];
                const double dist_sq = away.x * away.x + away.y * away.y;
                if (dist_sq > reach * reach) continue;
                const double dist = std::sqrt(dist_sq);
                double scale;
                if (dist < kCoincident) {
                    const Vec2 pref = load<Vec2>(s.pref_velocities.data(), at);
                    away = slot > n.slot ? Vec2(-pref.y, pref.x) : Vec2(pref.y, -pref.x);
                    scale = kCoincidentPush;
                } else {
                    scale = (reach - dist) * 0.5 * rule.share / dist;
                }
                push = push + away * scale;
                ++overlapped;
            }
            if (overlapped > 0) push = push / static_cast<double>(overlapped);
            overlap_.pushes[2 * at] = push.x;
            overlap_.pushes[2 * at + 1] = push.y;
        });
        parallel_for_values(total, max_threads(), [&](std::int64_t i) {
            if (i % s.capacity() >= s.count() || !s.active[i]) return;
            const std::size_t at = static_cast<std::size_t>(i);
            Vec2 push(overlap_.pushes[2 * at], overlap_.pushes[2 * at + 1]);
            if (push.x == 0.0 && push.y == 0.0) return;
            if (guard) {
                const ObstacleSet* own = guard->own[at / static_cast<std::size_t>(s.capacity())];
                thread_local std::vector<ObstacleNeighbor> near;
                push = keep_clear_of_obstacles(*guard->shared, own ? *own : none, s.position(at), push, s.radius[i],
                                               near);
            }
            store(s.positions.data(), at, s.position(at) + push);
        });
    }
}

}  // namespace vosim
