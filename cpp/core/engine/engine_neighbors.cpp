// The one neighbour gathering that the step, inspect() and neighbor_table()
// share, over the index phase's grids (agent_order.hpp).
#include <algorithm>
#include <exception>

#include "engine/engine.hpp"
#include "engine/engine_internal.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"
#include "spatial/periodic_nearest.hpp"

namespace vosim {

using namespace engine_detail;

int Engine::neighbor_capacity(std::size_t i) const {
    // Never more neighbours than other agents in a scene.
    return std::max(0, std::min(state_.max_neighbors[i], state_.count() - 1));
}

template <class V>
int Engine::gather_neighbors(const GridOf<V>& grid, int scene, int slot, Neighbor* agents,
                             std::vector<ObstaclesNearOf<V>>* edges) const {
    const std::size_t i = state_.index(scene, slot);
    const V p = state_.position<V>(i);
    int count;
    if (features_.seam().on()) {
        // Per thread: the images across the seam (reused, no allocation per step).
        thread_local std::vector<Neighbor> images;
        count = nearest_periodic(grid, features_.seam(), p, state_.neighbor_dist[i], neighbor_capacity(i), slot, agents,
                                 images);
    } else {
        count = grid.nearest(p, state_.neighbor_dist[i], neighbor_capacity(i), slot, agents);
    }
    if (edges) append_obstacle_neighbors(scene, i, *edges);
    return count;
}

template <class V>
void Engine::find_neighbors(std::int64_t begin, std::int64_t end, Workspace& ws) const {
    auto& near = ws.obstacle_runs<V>().buffer;
    auto& near_starts = ws.obstacle_runs<V>().starts;
    near.clear();
    near_starts.clear();
    ws.agent_starts.clear();
    std::size_t used = 0;
    int scene = order_.scene_of(begin);
    for (std::int64_t k = begin; k < end; ++k) {
        while (k >= order_.start(scene + 1)) ++scene;
        const int slot = order_.slot_at(scene, k);
        const std::size_t i = state_.index(scene, slot);
        const int wanted = neighbor_capacity(i);
        if (ws.agent_buffer.size() < used + wanted) {
            ws.agent_buffer.resize(std::max(used + wanted, 2 * ws.agent_buffer.size()));
        }
        Neighbor* const found = ws.agent_buffer.data() + used;
        ws.agent_starts.push_back(used);
        near_starts.push_back(near.size());
        const int count = gather_neighbors<V>(order_.grid<V>(scene), scene, slot, found, &near);
        used += static_cast<std::size_t>(count);
        if (metrics_ && state_.active[i]) {
            const std::size_t first_edge = near_starts.back();
            observe_agent<V>(scene, slot, i, {found, count}, wanted,
                          {near.data() + first_edge, static_cast<int>(near.size() - first_edge)},
                          metrics_->tally(thread_index()));
        }
    }
    ws.agent_starts.push_back(used);
    near_starts.push_back(near.size());
}

std::vector<std::int32_t> Engine::neighbor_table(int& width) {
    BusyGuard guard(busy_);
    validate();
    const AgentState& s = state_;
    width = 1;
    for (int b = 0; b < s.scenes() && s.count() > 0; ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::size_t i = s.index(b, slot);
            if (s.active[i]) width = std::max(width, s.max_neighbors[i]);
        }
    }
    width = std::min(width, std::max(1, s.count() - 1));
    std::vector<std::int32_t> table(static_cast<std::size_t>(s.scenes()) * s.count() * width, -1);
    if (s.count() == 0) return table;
    const int columns = width;
    with_vector_type(dimensions(), [&](auto v) {
        using V = decltype(v);
        GridOf<V> grid;
        std::vector<Neighbor> found(columns);
        for (int b = 0; b < s.scenes(); ++b) {
            build_grid<V>(s, b, grid);
            for (int slot = 0; slot < s.count(); ++slot) {
                const std::size_t i = s.index(b, slot);
                if (!s.active[i]) continue;
                // width >= every active agent's neighbour capacity.
                const int n = gather_neighbors<V>(grid, b, slot, found.data(), nullptr);
                const std::size_t row = (static_cast<std::size_t>(b) * s.count() + slot) * columns;
                for (int k = 0; k < n; ++k) table[row + k] = found[k].slot;
            }
        }
    });
    return table;
}

template int Engine::gather_neighbors<Vec2>(const GridOf<Vec2>&, int, int, Neighbor*,
                                            std::vector<ObstaclesNearOf<Vec2>>*) const;
template int Engine::gather_neighbors<Vec3>(const GridOf<Vec3>&, int, int, Neighbor*,
                                            std::vector<ObstaclesNearOf<Vec3>>*) const;
template void Engine::find_neighbors<Vec2>(std::int64_t, std::int64_t, Workspace&) const;
template void Engine::find_neighbors<Vec3>(std::int64_t, std::int64_t, Workspace&) const;

}  // namespace vosim
