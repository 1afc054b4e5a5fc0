#include "obstacles/polygon_crossing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "spatial/edge_grid.hpp"

namespace vosim {

namespace {

// Whether the closed segments [a, b] and [c, d] share a point.
bool segments_touch(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    const double o1 = det(b - a, c - a), o2 = det(b - a, d - a);
    const double o3 = det(d - c, a - c), o4 = det(d - c, b - c);
    auto on_segment = [](Vec2 p, Vec2 q, Vec2 r) {  // r collinear with p-q: within its box?
        return std::fmin(p.x, q.x) <= r.x && r.x <= std::fmax(p.x, q.x) && std::fmin(p.y, q.y) <= r.y &&
               r.y <= std::fmax(p.y, q.y);
    };
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
    return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) ||
           (o3 == 0 && on_segment(c, d, a)) || (o4 == 0 && on_segment(c, d, b));
}

bool before(Vec2 p, Vec2 q) { return p.x < q.x || (p.x == q.x && p.y < q.y); }

// Edges as segments from their lexicographically smaller end (left, or
// bottom when vertical) to the other.
struct SweepEdge {
    Vec2 left, right;
};

// Where p lies against edge e, whose x range holds p.x: -1 below, +1 above,
// 0 on it.
int side_of(const SweepEdge& e, Vec2 p) {
    if (e.left.x == e.right.x) {  // vertical: p is at the same x
        return p.y < e.left.y ? -1 : (p.y > e.right.y ? 1 : 0);
    }
    const double o = det(e.right - e.left, p - e.left);
    return o > 0 ? 1 : (o < 0 ? -1 : 0);
}

bool polygon_neighbours(int i, int j, int count) {
    const int gap = i < j ? j - i : i - j;
    return gap == 1 || gap == count - 1;
}

// The first pair found by comparing the edges that share a cell of an edge
// grid (every touching pair shares one); quadratic in the edges per cell.
std::pair<int, int> first_touch_in_grid(const Vec2* points, int count) {
    std::vector<Segment> edges(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) edges[i] = {points[i], points[(i + 1) % count]};
    EdgeGrid grid;
    grid.build(edges);
    std::pair<int, int> first{-1, -1};
    auto earlier = [&](int i, int j) { return first.first < 0 || std::make_pair(i, j) < first; };
    for (int r = 0; r < grid.rows(); ++r) {
        for (int c = 0; c < grid.columns(); ++c) {
            const std::int32_t* begin = grid.begin(c, r);
            const std::int32_t* end = grid.end(c, r);
            for (const std::int32_t* p = begin; p != end; ++p) {
                for (const std::int32_t* q = p + 1; q != end; ++q) {  // cell lists are ascending: *p < *q
                    if (earlier(*p, *q) && polygon_edges_touch(points, count, *p, *q)) first = {*p, *q};
                }
            }
        }
    }
    return first;
}

}  // namespace

bool polygon_edges_touch(const Vec2* points, int count, int i, int j) {
    if (j < i + 2 || (i == 0 && j == count - 1)) return false;  // adjacent: they share a vertex
    return segments_touch(points[i], points[(i + 1) % count], points[j], points[(j + 1) % count]);
}

bool polygon_touches_itself(const Vec2* points, int count) {
    std::vector<SweepEdge> edges(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        const Vec2 a = points[i], b = points[(i + 1) % count];
        edges[i] = before(a, b) ? SweepEdge{a, b} : SweepEdge{b, a};
    }
    // Events: every edge enters at its left end and leaves at its right end;
    // at one point, entries before exits, so that edges meeting there are
    // side by side at some moment.
    struct Event {
        Vec2 at;
        int exit;  // 0 entry, 1 exit
        int edge;
    };
    std::vector<Event> events;
    events.reserve(2 * static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        events.push_back({edges[i].left, 0, i});
        events.push_back({edges[i].right, 1, i});
    }
    std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        if (a.at.x != b.at.x) return a.at.x < b.at.x;
        if (a.at.y != b.at.y) return a.at.y < b.at.y;
        if (a.exit != b.exit) return a.exit < b.exit;
        return a.edge < b.edge;
    });
    bool touched = false;
    // Decided as the all-pairs check decides (the same arithmetic on the same ends).
    auto touch = [&](int i, int j) { return polygon_edges_touch(points, count, std::min(i, j), std::max(i, j)); };
    // The edges crossing the sweep line, bottom to top. The set only ever
    // compares an entering edge (its left end at the sweep) with edges
    // already there; a tie (the left end on another edge) is a touch unless
    // the two are polygon neighbours sharing that end, ordered then by the
    // entering edge's other end.
    int entering = -1;
    auto below = [&](int a, int b) {
        if (a == b) return false;
        const bool a_enters = a == entering;
        const int e = a_enters ? a : b, t = a_enters ? b : a;
        int side = side_of(edges[t], edges[e].left);
        if (side == 0) {
            if (!polygon_neighbours(e, t, count) && touch(e, t)) touched = true;
            side = det(edges[t].right - edges[t].left, edges[e].right - edges[t].left) >= 0 ? 1 : -1;
        }
        // side > 0: the entering edge is above t.
        return a_enters ? side < 0 : side > 0;
    };
    std::set<int, decltype(below)> status(below);
    std::vector<std::set<int, decltype(below)>::iterator> where(static_cast<std::size_t>(count), status.end());
    for (const Event& event : events) {
        if (event.exit == 0) {
            entering = event.edge;
            const auto it = status.insert(event.edge).first;
            entering = -1;
            where[event.edge] = it;
            if (touched) return true;
            if (it != status.begin() && touch(*std::prev(it), event.edge)) return true;
            const auto next = std::next(it);
            if (next != status.end() && touch(*next, event.edge)) return true;
        } else {
            const auto it = where[event.edge];
            const auto next = std::next(it);
            if (it != status.begin() && next != status.end() && touch(*std::prev(it), *next)) return true;
            status.erase(it);
        }
    }
    return false;
}

std::pair<int, int> polygon_first_touch(const Vec2* points, int count) {
    constexpr int kAllPairsUpTo = 64;
    if (count <= kAllPairsUpTo) {
        for (int i = 0; i < count; ++i) {
            for (int j = i + 2; j < count; ++j) {
                if (polygon_edges_touch(points, count, i, j)) return {i, j};
            }
        }
        return {-1, -1};
    }
    if (!polygon_touches_itself(points, count)) return {-1, -1};
    return first_touch_in_grid(points, count);
}

}  // namespace vosim
