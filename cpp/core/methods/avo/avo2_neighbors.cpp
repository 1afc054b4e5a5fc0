#include "avo2_neighbors.hpp"

#include <algorithm>

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

void LibraryNeighborTree::build_node(std::size_t begin, std::size_t end, std::size_t node) {
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
    if (end - begin <= kLeafSize) return;

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
    const std::size_t left_node = node + 1;
    const std::size_t right_node = node + 1 + (2 * left_size - 1);
    nodes_[node].left = left_node;
    nodes_[node].right = right_node;
    build_node(begin, left, left_node);
    build_node(left, end, right_node);
}

void LibraryNeighborTree::query(int slot, V2<float> position, float range_sq, std::size_t max_neighbors,
                                std::vector<std::pair<float, int>>& out) const {
    out.clear();
    if (max_neighbors == 0 || nodes_.empty()) return;
    query_node(0, slot, position, range_sq, max_neighbors, out);
}

void LibraryNeighborTree::query_node(std::size_t node, int slot, V2<float> position, float& range_sq,
                                     std::size_t max_neighbors, std::vector<std::pair<float, int>>& out) const {
    const Node& n = nodes_[node];
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
        return;
    }
    auto box_dist_sq = [&](const Node& child) {
        const float dx_low = std::max(0.0F, child.min_x - position.x);
        const float dx_high = std::max(0.0F, position.x - child.max_x);
        const float dy_low = std::max(0.0F, child.min_y - position.y);
        const float dy_high = std::max(0.0F, position.y - child.max_y);
        return dx_low * dx_low + dx_high * dx_high + dy_low * dy_low + dy_high * dy_high;
    };
    const float left_sq = box_dist_sq(nodes_[n.left]);
    const float right_sq = box_dist_sq(nodes_[n.right]);
    // The nearer child first; on a tie, the right one.
    const bool left_first = left_sq < right_sq;
    const std::size_t near = left_first ? n.left : n.right;
    const std::size_t far = left_first ? n.right : n.left;
    const float near_sq = left_first ? left_sq : right_sq;
    const float far_sq = left_first ? right_sq : left_sq;
    if (near_sq < range_sq) {
        query_node(near, slot, position, range_sq, max_neighbors, out);
        if (far_sq < range_sq) query_node(far, slot, position, range_sq, max_neighbors, out);
    }
}

}  // namespace vosim::avo
