// The agent neighbour index of a scene, per dimension: NeighborGrid in the
// plane, NeighborGrid3 in space, built the same way from the state. The
// engine is written once against GridOf<V>.
#pragma once

#include "state/agent_state.hpp"
#include "spatial/neighbor_grid.hpp"
#include "spatial/neighbor_grid3.hpp"
#include "maths/vec.hpp"

namespace vosim {

template <class V>
struct GridFor;
template <>
struct GridFor<Vec2> {
    using type = NeighborGrid;
};
template <>
struct GridFor<Vec3> {
    using type = NeighborGrid3;
};
template <class V>
using GridOf = typename GridFor<V>::type;

// Indexes the active agents of a scene on up to `threads` threads (the
// result does not depend on how many).
template <class V>
void build_grid(const AgentState& s, int scene, GridOf<V>& grid, int threads = 1);

extern template void build_grid<Vec2>(const AgentState&, int, NeighborGrid&, int);
extern template void build_grid<Vec3>(const AgentState&, int, NeighborGrid3&, int);

}  // namespace vosim
