#include "spatial/neighbor_index.hpp"

#include "threads.hpp"

namespace vosim {

namespace {

// Grid cells are this fraction of the largest neighbour distance: a query
// then reads about 5 rows of cells (21 in 3D), trimmed to the circle
// (sphere), which hold fewer points outside the range than 3 x 3 (x 3)
// cells as wide as the range.
constexpr double kCellPerRange = 0.5;

}  // namespace

template <class V>
void build_grid(const AgentState& s, int scene, GridOf<V>& grid, int threads) {
    const std::size_t first = s.index(scene, 0);
    const double* range = s.neighbor_dist.data() + first;
    const std::uint8_t* active = s.active.data() + first;
    const int count = s.count();
    double widest = 0.0;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(max : widest) \
    if (threads > 1 && count >= kParallelMinValues)
    for (int slot = 0; slot < count; ++slot) {
        if (active[slot] && range[slot] > widest) widest = range[slot];
    }
    const double* positions = s.positions.data() + kDim<V> * first;
    // Cells as wide as the range where finer cells would not fit a dense grid.
    if constexpr (kDim<V> == 2) {
        grid.build(positions, active, count, widest * kCellPerRange, widest, threads);
    } else {
        grid.build(positions, active, count, widest * kCellPerRange, widest);
    }
}

template void build_grid<Vec2>(const AgentState&, int, NeighborGrid&, int);
template void build_grid<Vec3>(const AgentState&, int, NeighborGrid3&, int);

}  // namespace vosim
