#include "methods/avo/avo2_neighbors.hpp"

#include <algorithm>
#include <vector>

namespace vosim::avo {

namespace {
constexpr std::size_t kLeafSize = 10;  // AVO2's (and RVO2's) largest leaf
}

void LibraryNeighborTree::build(const std::vector<int>& slots, const std::vector<V2<float>>& positions) {
    order_ = slots;
    positions_ = positions;
    nodes_.assign(order_.empty() ? 0 : 2 * order_.size() - 1, Node{});
    if (!order_.empty()) build_node(0, order_.size(), 0);
}

// The tree is built and searched with explicit stacks, not recursion: with
// coincident agents AVO2's split puts one agent aside per level, so the depth
// grows with the crowd (the library's recursion would overflow the stack).
void LibraryNeighborTree::build_node(std::size_t root_begin, std::size_t root_end, std::size_t root) {
    struct Pending {
        std::size_t begin, end, node;
    };
    std::vector<Pending> pending{{root_begin, root_end, root}};
    while (!pending.empty()) {
        const auto [begin, end, node] = pending.back();
        pending.pop_back();
        Node& n = nodes_[node];
        n.begin = begin;
        n.end = end;
        n.min_x = n.max_x = positions_[begin].x;
        n.min_y = n.max_y = positions_[begin].y;
        for (std::size_t i = begin + 1; i < end; ++i) {
            n.max_x = std::max(n.max_x, positions_[i].x);
            n.min_x = std::min(n.min_x, positions_[i].x);
            n.max_y = std::max(n.max_y, positions_[i].y);
            n.min_y = std::min(n.min_y, positions_[i].y);
        }
        if (end - begin <= kLeafSize) continue;

        // Split the wider side at the middle of the bounding box.
        const bool split_x = n.max_x - n.min_x > n.max_y - n.min_y;
        const float split = split_x ? 0.5F * (n.max_x + n.min_x) : 0.5F * (n.max_y + n.min_y);
        auto coordinate = [&](std::size_t i) { return split_x ? positions_[i].x : positions_[i].y; };
        std::size_t left = begin;
        std::size_t right = end;
        while (left < right) {
            while (left < right && coordinate(left) < split) ++left;
            while (right > left && coordinate(right - 1) >= split) --right;
            if (left < right) {
                std::swap(order_[left], order_[right - 1]);
                std::swap(positions_[left], positions_[right - 1]);
                ++left;
                --right;
            }
        }
        std::size_t left_size = left - begin;
        if (left_size == 0) {
            ++left_size;
            ++left;
        }
        // Children's places depend on sizes only, so the order in which the
        // ranges are built does not change the tree.
        const std::size_t left_node = node + 1;
        const std::size_t right_node = node + 1 + (2 * left_size - 1);
        n.left = left_node;
        n.right = right_node;
        pending.push_back({left, end, right_node});
        pending.push_back({begin, left, left_node});
    }
}

void LibraryNeighborTree::query(int slot, V2<float> position, float range_sq, std::size_t max_neighbors,
                                std::vector<std::pair<float, int>>& out) const {
    out.clear();
    if (max_neighbors == 0 || nodes_.empty()) return;
    query_node(0, slot, position, range_sq, max_neighbors, out);
}

void LibraryNeighborTree::query_node(std::size_t root, int slot, V2<float> position, float& range_sq,
                                     std::size_t max_neighbors, std::vector<std::pair<float, int>>& out) const {
    // A visit of `node`, or, when `recheck`, a visit that the library makes
    // only if the subtree is still in range once its sibling has been
    // searched (range_sq shrinks as the list fills).
    struct Visit {
        std::size_t node;
        float dist_sq;
        bool recheck;
    };
    thread_local std::vector<Visit> visits;
    visits.clear();
    visits.push_back({root, 0.0F, false});
    auto box_dist_sq = [&](const Node& child) {
        const float dx_low = std::max(0.0F, child.min_x - position.x);
        const float dx_high = std::max(0.0F, position.x - child.max_x);
        const float dy_low = std::max(0.0F, child.min_y - position.y);
        const float dy_high = std::max(0.0F, position.y - child.max_y);
        return dx_low * dx_low + dx_high * dx_high + dy_low * dy_low + dy_high * dy_high;
    };
    while (!visits.empty()) {
        const Visit visit = visits.back();
        visits.pop_back();
        if (visit.recheck && !(visit.dist_sq < range_sq)) continue;
        const Node& n = nodes_[visit.node];
        if (n.end - n.begin <= kLeafSize) {
            for (std::size_t i = n.begin; i < n.end; ++i) {
                if (order_[i] == slot) continue;
                const float dist_sq = abs_sq(position - positions_[i]);
                if (!(dist_sq < range_sq)) continue;
                // Insertion by strict distance order; a full list drops its last.
                if (out.size() < max_neighbors) out.emplace_back(dist_sq, order_[i]);
                std::size_t at = out.size() - 1;
                while (at != 0 && dist_sq < out[at - 1].first) {
                    out[at] = out[at - 1];
                    --at;
                }
                out[at] = {dist_sq, order_[i]};
                if (out.size() == max_neighbors) range_sq = out.back().first;
            }
            continue;
        }
        const float left_sq = box_dist_sq(nodes_[n.left]);
        const float right_sq = box_dist_sq(nodes_[n.right]);
        // The nearer child first; on a tie, the right one.
        const bool left_first = left_sq < right_sq;
        const float near_sq = left_first ? left_sq : right_sq;
        if (near_sq < range_sq) {
            visits.push_back({left_first ? n.right : n.left, left_first ? right_sq : left_sq, true});
            visits.push_back({left_first ? n.left : n.right, near_sq, false});
        }
    }
}

}  // namespace vosim::avo
