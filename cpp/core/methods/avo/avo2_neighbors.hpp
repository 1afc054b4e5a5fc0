// AVO2's agent neighbour search, for AVO(variant="avo2"): the library's
// kd-tree (RVO2's) in float, so that ties of equal float distance resolve
// as in the library (equal distances come in tree traversal order, and
// which of several tied agents fills the last place depends on it).
//
// The library keeps its tree's permutation of the agents from step to step;
// this tree starts from slot order at every step, which is what a fresh
// simulator does (the single-step replay of the reference data). In a long
// run the two can differ only at exactly equal float distances.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "methods/avo/avo_geometry.hpp"

namespace vosim::avo {

class LibraryNeighborTree {
public:
    // Builds the tree over the given agents (slots with float positions,
    // in slot order).
    void build(const std::vector<int>& slots, const std::vector<V2<float>>& positions);

    // The neighbours of `slot` at `position`: at most `max_neighbors`
    // agents other than itself with float distance squared below
    // range_sq, nearest first, as (distance squared, slot).
    void query(int slot, V2<float> position, float range_sq, std::size_t max_neighbors,
               std::vector<std::pair<float, int>>& out) const;

private:
    struct Node {
        std::size_t begin = 0, end = 0, left = 0, right = 0;
        float max_x = 0, max_y = 0, min_x = 0, min_y = 0;
    };
    void build_node(std::size_t begin, std::size_t end, std::size_t node);
    void query_node(std::size_t node, int slot, V2<float> position, float& range_sq, std::size_t max_neighbors,
                    std::vector<std::pair<float, int>>& out) const;

    std::vector<int> order_;               // slots, permuted by the build
    std::vector<V2<float>> positions_;     // by order_ entry
    std::vector<Node> nodes_;
};

}  // namespace vosim::avo
