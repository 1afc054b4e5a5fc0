#include "engine/agent_order.hpp"

#include <algorithm>
#include <exception>

#include "engine/block_runner.hpp"  // FirstError
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

int AgentOrder::scene_of(std::int64_t k) const {
    // The last scene starting at or before k (empty scenes start where the
    // next one does, and are skipped).
    const auto after = std::upper_bound(starts_.begin(), starts_.end(), k);
    return static_cast<int>(after - starts_.begin()) - 1;
}

void AgentOrder::clear() {
    grids_.clear();
    starts_.clear();
}

template <class V>
void AgentOrder::build(const AgentState& state) {
    starts_.clear();
    // Without agents there is nothing to index (and a batch of very many
    // empty scenes costs nothing).
    if (state.count() == 0) return;
    const int scenes = state.scenes();
    const int threads = max_threads();
    std::vector<GridOf<V>>* grids_of_v;
    if constexpr (kDim<V> == 2) {
        grids_of_v = &grids_;
    } else {
        grids_of_v = &grids3_;
    }
    auto& grid = *grids_of_v;
    if (static_cast<int>(grid.size()) != scenes) grid.resize(scenes);
    FirstError failure;
    if (scenes == 1) {
        // One scene: its grid is built by the whole team, or by the plain
        // one-thread sort (about half the parts' work) when other processes
        // leave the loops one thread.
        build_grid<V>(state, 0, grid[0], loop_team(threads));
    } else {
        // Scene by scene on the engine's pool (parallel.hpp).
        const int team = static_cast<std::int64_t>(scenes) * state.count() >= kParallelMinAgents ? threads : 1;
        parallel_for(scenes, team, [&](std::int64_t b) {
            try {
                build_grid<V>(state, static_cast<int>(b), grid[b]);
            } catch (...) {
                failure.keep(b, std::current_exception());
            }
        });
        failure.rethrow();
    }
    starts_.resize(static_cast<std::size_t>(scenes) + 1);
    starts_[0] = 0;
    cell_orders_.resize(scenes);
    for (int b = 0; b < scenes; ++b) {
        starts_[b + 1] = starts_[b] + grid[b].size();
        cell_orders_[b] = grid[b].slots_in_cell_order().data();
    }
}

template void AgentOrder::build<Vec2>(const AgentState&);
template void AgentOrder::build<Vec3>(const AgentState&);

}  // namespace vosim
