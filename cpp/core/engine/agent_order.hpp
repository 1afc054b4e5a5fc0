// The index phase's output: one neighbour grid per scene over the frozen
// positions, and the order in which the step processes agents: scene after
// scene, each scene's in its grid's cell order (neighbours close in
// memory). The k-th agent is slot cell_orders_[b][k - starts_[b]] of the
// scene b with starts_[b] <= k < starts_[b + 1].
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "spatial/neighbor_index.hpp"
#include "state/agent_state.hpp"

namespace vosim {

class AgentOrder {
public:
    // The index phase: builds every scene's grid (in parallel over scenes,
    // or by the whole team for one scene) and the processing order. Without
    // agents it indexes nothing.
    template <class V>
    void build(const AgentState& state);
    // Forgets the order (the grids are rebuilt at the next step).
    void clear();

    std::int64_t total() const { return starts_.empty() ? 0 : starts_.back(); }
    // The first agent of scene b in processing order (b == scenes: total).
    std::int64_t start(int scene) const { return starts_[static_cast<std::size_t>(scene)]; }
    // The scene of the k-th agent in processing order.
    int scene_of(std::int64_t k) const;
    std::int32_t slot_at(int scene, std::int64_t k) const {
        return cell_orders_[scene][static_cast<std::size_t>(k - starts_[scene])];
    }
    template <class V>
    const GridOf<V>& grid(int scene) const {
        if constexpr (kDim<V> == 2) {
            return grids_[scene];
        } else {
            return grids3_[scene];
        }
    }

private:
    std::vector<NeighborGrid> grids_;               // one per scene (2D), made at the first step with agents
    std::vector<NeighborGrid3> grids3_;             // the same in 3D
    std::vector<const std::int32_t*> cell_orders_;  // per scene, its grid's slots_in_cell_order()
    std::vector<std::int64_t> starts_;
};

}  // namespace vosim
