// Shortest paths over a weighted graph for many queries at once (A*), the
// search behind vosim.navigation's roadmaps and navigation meshes.
#pragma once

#include <cstdint>
#include <vector>

#include "maths/vec2.hpp"

namespace vosim {

// A graph in compressed rows: the edges leaving node u are
// target[row_start[u] .. row_start[u + 1]) with their costs. Every node has
// a position; A* estimates the rest of a path by the straight line from a
// node to the query's goal, so edge costs must be at least the distance
// between their ends (they are lengths of paths in the plane).
struct Graph {
    std::vector<std::int64_t> row_start;
    std::vector<std::int32_t> target;
    std::vector<double> cost;
    std::vector<Vec2> node;
};

// One query: the path may begin at any of `entries` (node, cost of reaching
// it from the start) and end at any of `exits` (node, cost from it to the
// goal). The result is the node sequence of a cheapest path, or empty with
// `found` false when no exit can be reached.
struct PathQuery {
    std::vector<std::pair<std::int32_t, double>> entries;
    std::vector<std::pair<std::int32_t, double>> exits;
    Vec2 goal;
};

struct PathResult {
    std::vector<std::int32_t> nodes;
    bool found = false;
};

// Answers every query, in parallel; ties between equal costs go to the lower
// node index, so the answer does not depend on the thread count.
std::vector<PathResult> shortest_paths(const Graph& graph, const std::vector<PathQuery>& queries);

}  // namespace vosim
