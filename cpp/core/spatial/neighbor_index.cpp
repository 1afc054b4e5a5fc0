#include "spatial/neighbor_index.hpp"

#include <algorithm>
#include <vector>

#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

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
    // The largest range: an exact maximum of per-item maxima.
    const std::int64_t items = items_of(count, kValuesPerItem);
    std::vector<double> widest_in_item(static_cast<std::size_t>(items), 0.0);
    parallel_for(items, threads, [&](std::int64_t item) {
        double widest = 0.0;
        const int end = static_cast<int>(std::min<std::int64_t>(count, (item + 1) * kValuesPerItem));
        for (int slot = static_cast<int>(item * kValuesPerItem); slot < end; ++slot) {
            if (active[slot] && range[slot] > widest) widest = range[slot];
        }
        widest_in_item[static_cast<std::size_t>(item)] = widest;
    });
    double widest = 0.0;
    for (const double w : widest_in_item) widest = w > widest ? w : widest;
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
