#include "obstacles/obstacles.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "obstacles/polygon_crossing.hpp"
#include "spatial/edge_grid.hpp"
#include "limits.hpp"
#include "state/state_check.hpp"

namespace vosim {

namespace {

// Tolerance of the side tests that build the tree, in units of area
// (RVO2 uses the same value).
constexpr double kSideEpsilon = 1e-5;

// > 0 when c lies left of the directed line a -> b (twice the triangle's area).
double left_of(Vec2 a, Vec2 b, Vec2 c) { return det(a - c, b - a); }

std::string point_text(Vec2 p) { return "(" + format_number(p.x) + ", " + format_number(p.y) + ")"; }

double signed_area2(const Vec2* points, int count) {
    // Relative to the first vertex: far from the origin the products of
    // absolute coordinates cancel catastrophically (a square at 1e12 read clockwise).
    double area = 0.0;
    for (int i = 1; i + 1 < count; ++i) area += det(points[i] - points[0], points[i + 1] - points[0]);
    return area;
}

// Strictly inside the closed polygon (points on its edges are not).
bool strictly_inside(const Vec2* points, int count, Vec2 p) {
    bool inside = false;
    for (int i = 0, j = count - 1; i < count; j = i++) {
        const Vec2 a = points[j], b = points[i];
        if (det(b - a, p - a) == 0.0 && std::fmin(a.x, b.x) <= p.x && p.x <= std::fmax(a.x, b.x) &&
            std::fmin(a.y, b.y) <= p.y && p.y <= std::fmax(a.y, b.y)) {
            return false;  // on the edge
        }
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) inside = !inside;
    }
    return inside;
}

bool on_boundary(const Vec2* points, int count, Vec2 p) {
    for (int i = 0, j = count - 1; i < count; j = i++) {
        if (dist_sq_point_segment(points[j], points[i], p) == 0.0) return true;
    }
    return false;
}

}  // namespace

const char* kind_name(ObstacleKind kind) {
    switch (kind) {
        case ObstacleKind::polygon: return "polygon";
        case ObstacleKind::segment: return "segment";
        case ObstacleKind::wall: return "wall";
        case ObstacleKind::boundary: return "boundary";
    }
    return "obstacle";
}

void check_obstacle(const Vec2* points, int count, ObstacleKind kind, const std::string& name) {
    const bool closed = kind == ObstacleKind::polygon || kind == ObstacleKind::boundary;
    const int minimum = closed ? 3 : 2;
    if (count < minimum || (kind == ObstacleKind::segment && count != 2)) {
        throw std::invalid_argument(
            name + ": a " + kind_name(kind) + " needs " +
            (kind == ObstacleKind::segment ? std::string("exactly 2") : "at least " + std::to_string(minimum)) +
            " vertices, got " + std::to_string(count));
    }
    for (int i = 0; i < count; ++i) {
        if (!within(points[i].x, kCoordinateRange) || !within(points[i].y, kCoordinateRange)) {
            throw std::invalid_argument(name + "[" + std::to_string(i) + "] is " + point_text(points[i]) +
                                        "; vertices must be " + describe(kCoordinateRange));
        }
    }
    // A segment and a wall are walked there and back, so only a closed
    // polygon has an edge from its last vertex to its first.
    const int edges = closed ? count : count - 1;
    for (int i = 0; i < edges; ++i) {
        const int j = (i + 1) % count;
        if (points[i].x == points[j].x && points[i].y == points[j].y) {
            throw std::invalid_argument(name + "[" + std::to_string(j) + "] repeats " + name + "[" +
                                        std::to_string(i) + "] " + point_text(points[i]) +
                                        ": zero-length edge");
        }
    }
    if (closed) {
        bool collinear = true;
        for (int i = 2; i < count && collinear; ++i) collinear = det(points[1] - points[0], points[i] - points[0]) == 0.0;
        if (collinear) {
            throw std::invalid_argument(name + ": all vertices are collinear; a " + kind_name(kind) +
                                        " needs a positive area");
        }
    }
    // Spikes: an edge that folds straight back onto the previous one.
    const int first_corner = closed ? 0 : 1;
    const int last_corner = closed ? count - 1 : count - 2;
    for (int i = first_corner; i <= last_corner; ++i) {
        const Vec2 before = points[(i + count - 1) % count], at = points[i], after = points[(i + 1) % count];
        if (det(at - before, after - at) == 0.0 && dot(at - before, after - at) < 0.0) {
            throw std::invalid_argument(name + "[" + std::to_string(i) + "] " + point_text(at) +
                                        ": the edges before and after it are collinear and fold back "
                                        "(a zero-width spike)");
        }
    }
    if (!closed) return;
    const auto [i, j] = polygon_first_touch(points, count);
    if (i >= 0) {
        const Vec2 a = points[i], b = points[(i + 1) % count];
        const Vec2 c = points[j], d = points[(j + 1) % count];
        throw std::invalid_argument(name + ": the polygon intersects itself: edge " + std::to_string(i) + " " +
                                    point_text(a) + "-" + point_text(b) + " meets edge " + std::to_string(j) +
                                    " " + point_text(c) + "-" + point_text(d));
    }
    // A simple polygon that is not collinear has a non-zero area.
    if (signed_area2(points, count) < 0.0) {
        if (kind == ObstacleKind::polygon) {
            throw std::invalid_argument(
                name + ": the vertices are clockwise; an obstacle's vertices must be counter-clockwise "
                       "(solid inside). Reverse them, or use add_boundary() if agents should stay inside.");
        }
        throw std::invalid_argument(name +
                                    ": the vertices are clockwise; a boundary's vertices must be "
                                    "counter-clockwise around the walkable area. Reverse them.");
    }
}

bool blocks_point(const Vec2* points, int count, ObstacleKind kind, Vec2 p) {
    if (kind == ObstacleKind::polygon) return strictly_inside(points, count, p);
    if (kind == ObstacleKind::boundary) {
        return !strictly_inside(points, count, p) && !on_boundary(points, count, p);
    }
    return false;
}

int ObstacleSet::add(const Vec2* points, int count, ObstacleKind kind, bool moving, Vec2 velocity) {
    check_obstacle(points, count, kind, "vertices");
    if (moving && kind == ObstacleKind::boundary) {
        throw std::invalid_argument("a boundary cannot move; only polygons, segments and walls can");
    }
    if (moving && (!within(velocity.x, kCoordinateRange) || !within(velocity.y, kCoordinateRange))) {
        throw std::invalid_argument("velocity is " + point_text(velocity) + "; must be " +
                                    describe(kCoordinateRange));
    }
    Source source{kind, std::vector<Vec2>(points, points + count), points[0], points[0]};
    for (const Vec2& p : source.points) {
        source.lo = Vec2(std::fmin(source.lo.x, p.x), std::fmin(source.lo.y, p.y));
        source.hi = Vec2(std::fmax(source.hi.x, p.x), std::fmax(source.hi.y, p.y));
    }
    if (moving) {
        auto child = std::make_unique<ObstacleSet>();
        child->add(points, count, kind);
        // Built once, from the vertices as given: a restored checkpoint
        // rebuilds the same table and tree, then places them.
        child->build();
        child->given_ = source.points;
        child->given_table_ = child->point_;
        child->velocity_ = velocity;
        child->is_moving_ = true;
        source.child = static_cast<std::int32_t>(children_.size());
        children_.push_back(std::move(child));
    } else {
        dirty_ = true;
    }
    sources_.push_back(std::move(source));
    ++live_;
    return static_cast<int>(sources_.size()) - 1;
}

void ObstacleSet::check_id(int id, const char* what) const {
    if (id < 0 || id >= obstacle_count()) {
        const std::string known = obstacle_count() == 0 ? "there are no obstacles"
                                                        : "ids 0 to " + std::to_string(obstacle_count() - 1);
        throw std::invalid_argument(std::string(what) + " is " + std::to_string(id) + "; no such obstacle (" + known +
                                    ")");
    }
    if (sources_[id].removed) {
        throw std::invalid_argument(std::string(what) + " is " + std::to_string(id) +
                                    "; that obstacle was removed");
    }
}

void ObstacleSet::remove(int id) {
    check_id(id, "obstacle");
    Source& source = sources_[id];
    source.removed = true;
    --live_;
    if (source.child >= 0) {
        children_[source.child].reset();
    } else {
        dirty_ = true;
    }
    source.points.clear();
    source.points.shrink_to_fit();
}

int ObstacleSet::add_removed(ObstacleKind kind, bool moving) {
    Source source{kind, {}, Vec2(), Vec2()};
    source.removed = true;
    if (moving) {
        source.child = static_cast<std::int32_t>(children_.size());
        children_.emplace_back();
    }
    sources_.push_back(std::move(source));
    return static_cast<int>(sources_.size()) - 1;
}

void ObstacleSet::set_displacement(int id, Vec2 displacement) {
    check_id(id, "obstacle");
    if (sources_[id].child < 0) throw std::invalid_argument("obstacle " + std::to_string(id) + " is static");
    ObstacleSet& child = *children_[sources_[id].child];
    child.displacement_ = displacement;
    child.place();
}

void ObstacleSet::set_velocity(int id, Vec2 velocity) {
    check_id(id, "obstacle");
    if (sources_[id].child < 0) {
        throw std::invalid_argument("obstacle " + std::to_string(id) +
                                    " is static; only obstacles added with a velocity can move");
    }
    if (!within(velocity.x, kCoordinateRange) || !within(velocity.y, kCoordinateRange)) {
        throw std::invalid_argument("velocity is " + point_text(velocity) + "; must be " +
                                    describe(kCoordinateRange));
    }
    children_[sources_[id].child]->velocity_ = velocity;
}

const std::vector<Vec2>& ObstacleSet::vertices(int obstacle) const {
    const Source& source = sources_[obstacle];
    if (source.child >= 0 && children_[source.child]) return children_[source.child]->sources_[0].points;
    return source.points;
}

void ObstacleSet::place() {
    Source& source = sources_[0];
    for (std::size_t k = 0; k < given_.size(); ++k) source.points[k] = given_[k] + displacement_;
    source.lo = source.hi = source.points[0];
    for (const Vec2& p : source.points) {
        source.lo = Vec2(std::fmin(source.lo.x, p.x), std::fmin(source.lo.y, p.y));
        source.hi = Vec2(std::fmax(source.hi.x, p.x), std::fmax(source.hi.y, p.y));
    }
    // The tree and its split vertices move along: their sides do not change.
    for (std::size_t v = 0; v < given_table_.size(); ++v) point_[v] = given_table_[v] + displacement_;
}

void ObstacleSet::advance(double dt) {
    for (auto& child : children_) {
        if (child && (child->velocity_.x != 0.0 || child->velocity_.y != 0.0)) {
            child->displacement_ = child->displacement_ + child->velocity_ * dt;
            child->place();
        }
    }
}

void ObstacleSet::check_moving(int scene) const {
    if (children_.empty()) return;  // the common case, checked before every step
    for (int id = 0; id < obstacle_count(); ++id) {
        if (!live(id) || !moving(id)) continue;
        const Source& moved = children_[sources_[id].child]->sources_[0];
        if (!within(moved.lo.x, kCoordinateRange) || !within(moved.lo.y, kCoordinateRange) ||
            !within(moved.hi.x, kCoordinateRange) || !within(moved.hi.y, kCoordinateRange)) {
            const std::string where = scene >= 0 ? "scene " + std::to_string(scene) + ": " : "";
            throw std::invalid_argument(where + "moving obstacle " + std::to_string(id) +
                                        " has moved out of the working range: " +
                                        "its vertices must be " + describe(kCoordinateRange));
        }
    }
}

void ObstacleSet::append_chain(const std::vector<Vec2>& chain, int obstacle) {
    const int first = static_cast<int>(point_.size());
    const int n = static_cast<int>(chain.size());
    for (int k = 0; k < n; ++k) {
        const int prev = first + (k + n - 1) % n, next = first + (k + 1) % n;
        point_.push_back(chain[k]);
        next_.push_back(next);
        prev_.push_back(prev);
        obstacle_of_.push_back(obstacle);
        // A thin two-vertex obstacle has no inside corner.
        convex_.push_back(n == 2 || left_of(chain[(k + n - 1) % n], chain[k], chain[(k + 1) % n]) >= 0.0);
        unit_dir_.push_back(normalize(chain[(k + 1) % n] - chain[k]));
    }
}

void ObstacleSet::build() {
    for (auto& child : children_) {
        if (child) child->build();
    }
    if (!dirty_) return;
    point_.clear();
    unit_dir_.clear();
    next_.clear();
    prev_.clear();
    obstacle_of_.clear();
    convex_.clear();
    for (int o = 0; o < obstacle_count(); ++o) {
        const Source& source = sources_[o];
        if (source.removed || source.child >= 0) continue;
        std::vector<Vec2> chain = source.points;
        if (source.kind == ObstacleKind::boundary) {
            std::reverse(chain.begin(), chain.end());  // solid outside: the walkable area is on the right
        } else if (source.kind == ObstacleKind::wall) {
            for (int k = static_cast<int>(source.points.size()) - 2; k >= 1; --k) chain.push_back(source.points[k]);
        }
        append_chain(chain, o);
    }
    nodes_.clear();
    root_ = -1;
    grid_ = EdgeGrid();
    use_grid_ = vertex_count() > kExactTreeMaxEdges;
    if (use_grid_) {
        std::vector<Segment> edges(point_.size());
        for (std::size_t v = 0; v < edges.size(); ++v) edges[v] = {point_[v], point_[next_[v]]};
        grid_.build(edges);
    } else {
        std::vector<std::int32_t> edges(point_.size());
        for (std::size_t v = 0; v < edges.size(); ++v) edges[v] = static_cast<std::int32_t>(v);
        root_ = build_node(edges);
    }
    dirty_ = false;
}

std::int32_t ObstacleSet::build_node(std::vector<std::int32_t>& edges) {
    if (edges.empty()) return -1;
    const std::size_t n = edges.size();
    // Pick the edge whose line splits the others most evenly: fewest on the
    // larger side, then fewest on the smaller side (an edge crossing the
    // line counts on both).
    std::size_t best = 0;
    std::pair<std::size_t, std::size_t> best_score{n, n};
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 a = point_[edges[i]], b = point_[next_[edges[i]]];
        std::size_t left = 0, right = 0;
        for (std::size_t j = 0; j < n; ++j) {
            if (j == i) continue;
            const double side_c = left_of(a, b, point_[edges[j]]);
            const double side_d = left_of(a, b, point_[next_[edges[j]]]);
            if (side_c >= -kSideEpsilon && side_d >= -kSideEpsilon) {
                ++left;
            } else if (side_c <= kSideEpsilon && side_d <= kSideEpsilon) {
                ++right;
            } else {
                ++left;
                ++right;
            }
            if (std::make_pair(std::max(left, right), std::min(left, right)) >= best_score) break;
        }
        const auto score = std::make_pair(std::max(left, right), std::min(left, right));
        if (score < best_score) {
            best_score = score;
            best = i;
        }
    }

    const std::int32_t splitter = edges[best];
    const Vec2 a = point_[splitter], b = point_[next_[splitter]];
    std::vector<std::int32_t> left_edges, right_edges;
    left_edges.reserve(best_score.second);
    right_edges.reserve(best_score.first);
    for (std::size_t j = 0; j < n; ++j) {
        if (j == best) continue;
        const std::int32_t c = edges[j];
        const std::int32_t d = next_[c];
        const double side_c = left_of(a, b, point_[c]);
        const double side_d = left_of(a, b, point_[d]);
        if (side_c >= -kSideEpsilon && side_d >= -kSideEpsilon) {
            left_edges.push_back(c);
        } else if (side_c <= kSideEpsilon && side_d <= kSideEpsilon) {
            right_edges.push_back(c);
        } else {
            // The edge crosses the line: split it there with a new vertex
            // (collinear, hence convex) that inherits the edge's direction.
            const double t = det(b - a, point_[c] - a) / det(b - a, point_[c] - point_[d]);
            const std::int32_t split = static_cast<std::int32_t>(point_.size());
            point_.push_back(point_[c] + t * (point_[d] - point_[c]));
            unit_dir_.push_back(unit_dir_[c]);
            next_.push_back(d);
            prev_.push_back(c);
            obstacle_of_.push_back(obstacle_of_[c]);
            convex_.push_back(1);
            next_[c] = split;
            prev_[d] = split;
            if (side_c > 0.0) {
                left_edges.push_back(c);
                right_edges.push_back(split);
            } else {
                right_edges.push_back(c);
                left_edges.push_back(split);
            }
        }
    }
    const std::int32_t node = static_cast<std::int32_t>(nodes_.size());
    nodes_.push_back({splitter, -1, -1});
    edges.clear();
    edges.shrink_to_fit();
    const std::int32_t left = build_node(left_edges);
    const std::int32_t right = build_node(right_edges);
    nodes_[node].left = left;
    nodes_[node].right = right;
    return node;
}

bool ObstacleSet::counts(std::int32_t v, double side, bool both_sides) const {
    if (side < 0.0) return true;
    if (!both_sides) return false;
    const ObstacleKind kind = sources_[obstacle_of_[v]].kind;
    return kind == ObstacleKind::polygon || kind == ObstacleKind::boundary;
}

void ObstacleSet::query(Vec2 p, double range_sq, std::vector<ObstacleNeighbor>& out, std::size_t first,
                        bool both_sides) const {
    if (use_grid_) {
        query_grid(p, range_sq, out, first, both_sides);
    } else if (root_ >= 0) {
        query_node(root_, p, range_sq, out, first, both_sides);
    }
    for (const auto& child : children_) {
        if (!child) continue;
        const Source& s = child->sources_[0];
        const double dx = std::fmax(0.0, std::fmax(s.lo.x - p.x, p.x - s.hi.x));
        const double dy = std::fmax(0.0, std::fmax(s.lo.y - p.y, p.y - s.hi.y));
        if (dx * dx + dy * dy < range_sq) child->query(p, range_sq, out, first, both_sides);
    }
}

void ObstacleSet::query_grid(Vec2 p, double range_sq, std::vector<ObstacleNeighbor>& out, std::size_t first,
                             bool both_sides) const {
    const double range = std::sqrt(range_sq);
    int c0, r0, c1, r1;
    if (!grid_.cells_of_box(p - Vec2(range, range), p + Vec2(range, range), c0, r0, c1, r1)) return;
    // The same test as the tree's: the agent strictly on the edge's right
    // (the side it faces) and the edge within range.
    const std::size_t found = out.size();
    for (int r = r0; r <= r1; ++r) {
        for (int c = c0; c <= c1; ++c) {
            for (const std::int32_t* e = grid_.begin(c, r); e != grid_.end(c, r); ++e) {
                const Vec2 a = point_[*e], b = point_[next_[*e]];
                if (!counts(*e, left_of(a, b, p), both_sides)) continue;
                const double d = dist_sq_point_segment(a, b, p);
                if (d < range_sq) out.push_back({d, this, *e});
            }
        }
    }
    // An edge crossing several cells was found in each: sort, drop repeats,
    // then merge after the edges already in out (which win ties).
    const auto by_distance_then_vertex = [](const ObstacleNeighbor& x, const ObstacleNeighbor& y) {
        return x.dist_sq < y.dist_sq || (x.dist_sq == y.dist_sq && x.vertex < y.vertex);
    };
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(found), out.end(), by_distance_then_vertex);
    out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(found), out.end(),
                          [](const ObstacleNeighbor& x, const ObstacleNeighbor& y) { return x.vertex == y.vertex; }),
              out.end());
    if (first == found) return;
    std::inplace_merge(out.begin() + static_cast<std::ptrdiff_t>(first), out.begin() + static_cast<std::ptrdiff_t>(found),
                       out.end(), [](const ObstacleNeighbor& x, const ObstacleNeighbor& y) { return x.dist_sq < y.dist_sq; });
}

void ObstacleSet::query_node(std::int32_t node, Vec2 p, double range_sq, std::vector<ObstacleNeighbor>& out,
                             std::size_t first, bool both_sides) const {
    const Node& n = nodes_[node];
    const Vec2 a = point_[n.vertex], b = point_[next_[n.vertex]];
    const double side = left_of(a, b, p);
    const std::int32_t near = side >= 0.0 ? n.left : n.right;
    const std::int32_t far = side >= 0.0 ? n.right : n.left;
    if (near >= 0) query_node(near, p, range_sq, out, first, both_sides);
    if (sqr(side) / abs_sq(b - a) >= range_sq) return;  // the far side is out of range
    if (counts(n.vertex, side, both_sides)) {
        // The agent is on the edge's open side (or behind it, both_sides).
        const double d = dist_sq_point_segment(a, b, p);
        if (d < range_sq) {
            out.push_back({d, this, n.vertex});
            std::size_t i = out.size() - 1;
            while (i > first && d < out[i - 1].dist_sq) {
                out[i] = out[i - 1];
                --i;
            }
            out[i] = {d, this, n.vertex};
        }
    }
    if (far >= 0) query_node(far, p, range_sq, out, first, both_sides);
}

bool ObstacleSet::inside_polygon(Vec2 p, bool with_moving) const {
    for (const auto& child : children_) {
        if (with_moving && child && child->inside_polygon(p)) return true;
    }
    for (const Source& s : sources_) {
        if (s.kind != ObstacleKind::polygon || s.removed || s.child >= 0) continue;
        if (p.x < s.lo.x || p.x > s.hi.x || p.y < s.lo.y || p.y > s.hi.y) continue;
        if (strictly_inside(s.points.data(), static_cast<int>(s.points.size()), p)) return true;
    }
    return false;
}

bool ObstacleSet::has_boundary() const {
    for (const Source& s : sources_) {
        if (s.kind == ObstacleKind::boundary && !s.removed) return true;
    }
    return false;
}

bool ObstacleSet::inside_boundary(Vec2 p) const {
    for (const Source& s : sources_) {
        if (s.kind != ObstacleKind::boundary || s.removed) continue;
        const int n = static_cast<int>(s.points.size());
        if (strictly_inside(s.points.data(), n, p) || on_boundary(s.points.data(), n, p)) return true;
    }
    return false;
}

bool blocked_by(const ObstacleSet& a, const ObstacleSet& b, Vec2 p, bool with_moving) {
    if (a.inside_polygon(p, with_moving) || b.inside_polygon(p, with_moving)) return true;
    return (a.has_boundary() || b.has_boundary()) && !a.inside_boundary(p) && !b.inside_boundary(p);
}

double ObstacleSet::distance(Vec2 p) const {
    double best = std::numeric_limits<double>::infinity();
    for (const Source& s : sources_) {
        if (s.removed || s.child >= 0) continue;
        const int n = static_cast<int>(s.points.size());
        const bool closed = s.kind == ObstacleKind::polygon || s.kind == ObstacleKind::boundary;
        for (int i = 0; i < (closed ? n : n - 1); ++i) {
            best = std::fmin(best, dist_sq_point_segment(s.points[i], s.points[(i + 1) % n], p));
        }
    }
    double nearest = std::sqrt(best);
    for (const auto& child : children_) {
        if (child) nearest = std::fmin(nearest, child->distance(p));
    }
    return nearest;
}

int ObstacleSet::depth(std::int32_t node) const {
    if (node < 0) return 0;
    return 1 + std::max(depth(nodes_[node].left), depth(nodes_[node].right));
}

int ObstacleSet::tree_depth() const { return depth(root_); }

}  // namespace vosim
