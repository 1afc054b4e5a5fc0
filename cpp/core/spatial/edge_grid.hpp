// A uniform grid of cells over a set of segments: each segment is listed in
// every cell it passes through, so the segments near a point or near another
// segment are found by looking at a few cells. It serves two jobs that would
// otherwise be quadratic in the number of edges: checking that a large
// polygon does not intersect itself, and finding the obstacle edges within
// an agent's range on large maps.
#pragma once

#include <cstdint>
#include <vector>

#include "maths/vec2.hpp"

namespace vosim {

struct Segment {
    Vec2 a, b;
};

class EdgeGrid {
public:
    // Lists every segment in the cells it crosses (conservatively: a cell it
    // merely grazes may list it too). The cell side is about twice the mean
    // segment extent, enlarged when that would give more than about four
    // cells per segment, so that a few segments share a cell whatever the
    // map's size.
    void build(const std::vector<Segment>& segments);

    bool empty() const { return cell_start_.empty(); }
    int columns() const { return columns_; }
    int rows() const { return rows_; }
    // The segments listed in cell (column, row), by index, ascending.
    const std::int32_t* begin(int column, int row) const { return items_.data() + cell_start_[cell(column, row)]; }
    const std::int32_t* end(int column, int row) const { return items_.data() + cell_start_[cell(column, row) + 1]; }

    // The cell range [c0, c1] x [r0, r1] covering the box lo..hi; false when
    // the box misses the grid.
    bool cells_of_box(Vec2 lo, Vec2 hi, int& c0, int& r0, int& c1, int& r1) const;

private:
    std::size_t cell(int column, int row) const {
        return static_cast<std::size_t>(row) * static_cast<std::size_t>(columns_) + static_cast<std::size_t>(column);
    }
    int column_of(double x) const;
    int row_of(double y) const;
    // Calls visit(cell index) for every cell the segment passes through.
    template <class Visit>
    void for_each_cell(const Segment& s, Visit&& visit) const;

    Vec2 lo_;
    double cell_size_ = 1.0;
    double margin_ = 0.0;  // how far beyond a segment its cells reach: above any round-off
    int columns_ = 0, rows_ = 0;
    std::vector<std::int64_t> cell_start_;  // cell k lists items_[cell_start_[k] .. cell_start_[k + 1])
    std::vector<std::int32_t> items_;
};

}  // namespace vosim
