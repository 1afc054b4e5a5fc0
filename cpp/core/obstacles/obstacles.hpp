// Static obstacles: closed chains of vertices with the solid on the left of
// every edge (RVO2's convention: counter-clockwise polygons are solid inside).
//
// Every kind of obstacle is stored the same way, as vertex columns with
// next/previous links, so methods see only edges:
//   polygon   n >= 3 vertices, counter-clockwise, solid inside;
//   segment   2 vertices: a thin obstacle, edges a->b and b->a;
//   wall      an open polyline p0..pk: a thin obstacle walked there and back,
//             p0 -> ... -> pk -> ... -> p1;
//   boundary  n >= 3 vertices given counter-clockwise, stored clockwise so
//             that the solid is outside and agents stay inside.
//
// Queries on maps of up to kExactTreeMaxEdges edges go through a binary
// space partition built from the edges (as in RVO2: each node splits by the
// line of one edge, chosen to balance the two sides; edges crossing the line
// are split in two), so that ORCA sees exactly RVO2's edges. Choosing each
// splitter costs a pass over the node's edges per candidate, quadratic in
// the map's size, so larger maps use an edge grid instead (no split
// vertices; the query returns the same set, edges within range with the
// agent on their outer side, nearest first, equal distances by vertex
// index). The index is rebuilt lazily after obstacles are added or removed.
//
// Moving obstacles (polygons, segments and walls that translate with a
// velocity of their own) are kept out of that index: each lives in a small
// set of its own (with its own tree, built once from the vertices as given),
// placed every step at the vertices as given plus its displacement so far,
// so moving them never rebuilds the static index, and the given vertices,
// the displacement and the velocity are all a checkpoint needs. Agents see their edges like static ones,
// and ORCA also sees the set's velocity (see orca_obstacles.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "spatial/edge_grid.hpp"
#include "maths/vec2.hpp"

namespace vosim {

// Obstacle sets with more edges than this (walls count twice) are indexed
// by an edge grid instead of RVO2's tree.
constexpr int kExactTreeMaxEdges = 1000;

enum class ObstacleKind : std::uint8_t { polygon, segment, wall, boundary };

const char* kind_name(ObstacleKind kind);

class ObstacleSet;

// One obstacle edge near an agent: from `vertex` to its next vertex.
struct ObstacleNeighbor {
    double dist_sq;
    const ObstacleSet* set;
    std::int32_t vertex;

    // The edge's ends, the solid on the left of first -> second.
    inline std::pair<Vec2, Vec2> endpoints() const;
};

// Throws std::invalid_argument (naming `name`, the vertex index and the
// values) unless `points` form a valid obstacle of `kind`: enough vertices,
// finite, no repeated consecutive vertices, no spikes (an edge folding back
// onto the previous one), and for polygons and boundaries a simple polygon
// of positive area given counter-clockwise.
void check_obstacle(const Vec2* points, int count, ObstacleKind kind, const std::string& name);

// Whether p is in the solid part of the obstacle given by `points` taken on
// its own: strictly inside a polygon, strictly outside a boundary; never for
// segments and walls.
bool blocks_point(const Vec2* points, int count, ObstacleKind kind, Vec2 p);

// Whether p is in the solid part of the obstacles of these sets together:
// inside any polygon, or outside every boundary (when there are boundaries:
// several boundaries are several walkable areas). Moving polygons count
// unless with_moving is false (planners plan around static obstacles only).
bool blocked_by(const ObstacleSet& a, const ObstacleSet& b, Vec2 p, bool with_moving = true);

class ObstacleSet {
public:
    // Adds a checked obstacle (see check_obstacle) and returns its id, the
    // number of obstacles added to the set before it. A moving obstacle
    // (not a boundary) starts with `velocity`.
    int add(const Vec2* points, int count, ObstacleKind kind, bool moving = false, Vec2 velocity = Vec2());
    // Removes obstacle `id`; the others keep their ids. Throws
    // std::invalid_argument for an unknown or already removed id.
    void remove(int id);
    // Sets the velocity of moving obstacle `id` (throws unless it is one).
    void set_velocity(int id, Vec2 velocity);
    // For restoring a checkpoint: takes up the next id with an obstacle
    // already removed, so that later ids stay what they were.
    int add_removed(ObstacleKind kind, bool moving);
    // For restoring a checkpoint: places moving obstacle `id` at its given
    // vertices plus `displacement`.
    void set_displacement(int id, Vec2 displacement);
    // Moves every moving obstacle by its velocity times dt.
    void advance(double dt);
    // Throws std::invalid_argument (naming the obstacle id, and the scene
    // when scene >= 0) when a moving obstacle has left the working range of
    // coordinates.
    void check_moving(int scene) const;

    // Whether no obstacle is left.
    bool empty() const { return live_ == 0; }
    // Ids ever given (removed obstacles included).
    int obstacle_count() const { return static_cast<int>(sources_.size()); }
    bool live(int id) const { return !sources_[id].removed; }
    bool moving(int id) const { return sources_[id].child >= 0; }
    ObstacleKind kind(int obstacle) const { return sources_[obstacle].kind; }
    // The vertices as given to add(), moved by the obstacle's motion so far.
    const std::vector<Vec2>& vertices(int obstacle) const;
    // The vertices as given to add() (empty once removed).
    const std::vector<Vec2>& given_vertices(int obstacle) const { return sources_[obstacle].points; }
    // How far a moving obstacle has moved since it was added.
    Vec2 displacement(int obstacle) const { return children_[sources_[obstacle].child]->displacement_; }
    // A moving obstacle's velocity.
    Vec2 velocity(int obstacle) const { return children_[sources_[obstacle].child]->velocity_; }
    // For the set of one moving obstacle (as ObstacleNeighbor::set): its
    // velocity; zero and false for static sets.
    Vec2 velocity() const { return velocity_; }
    bool is_moving() const { return is_moving_; }

    // Rebuilds the vertex table and the tree if obstacles were added since
    // the last build. Not thread-safe; the engine calls it before a step.
    void build();
    bool built() const { return !dirty_; }

    // Vertex table (after build; split vertices come after the given ones).
    int vertex_count() const { return static_cast<int>(point_.size()); }
    Vec2 point(int v) const { return point_[v]; }
    Vec2 unit_dir(int v) const { return unit_dir_[v]; }
    int next(int v) const { return next_[v]; }
    int prev(int v) const { return prev_[v]; }
    bool convex(int v) const { return convex_[v] != 0; }
    int obstacle_of(int v) const { return obstacle_of_[v]; }

    // Appends to `out`, keeping out[first ..] sorted by distance (stable:
    // ties keep the order of discovery), every edge with the agent strictly
    // on its right (the side it faces) and squared distance below range_sq.
    // With `both_sides`, also the edges of closed obstacles (polygons,
    // boundaries) that the agent is behind: every wall segment near it, as
    // JuPedSim's models see walls (a wall's or segment's folded twin edges
    // still count once, from the side the agent faces).
    void query(Vec2 p, double range_sq, std::vector<ObstacleNeighbor>& out, std::size_t first = 0,
               bool both_sides = false) const;

    // Whether p lies strictly inside one of the solid polygons (moving ones
    // too unless with_moving is false).
    bool inside_polygon(Vec2 p, bool with_moving = true) const;
    bool has_boundary() const;
    // Whether p lies inside (or on) at least one of the boundaries.
    bool inside_boundary(Vec2 p) const;

    // Distance from p to the nearest obstacle edge; +infinity for an empty set.
    double distance(Vec2 p) const;

    // Whether the segment a-b keeps more than `clearance` from every edge
    // (moving obstacles included; with clearance 0: touches none). After
    // build(); defined in line_of_sight.cpp.
    bool sight_clear(Vec2 a, Vec2 b, double clearance) const;

    // Whether queries use the edge grid (large maps) rather than the tree.
    bool uses_grid() const { return use_grid_; }
    // Tree depth and node count, for tests (0 when the grid is used).
    int tree_depth() const;
    int tree_nodes() const { return static_cast<int>(nodes_.size()); }

private:
    struct Source {
        ObstacleKind kind;
        std::vector<Vec2> points;  // as given (a moving obstacle's child: moved)
        Vec2 lo, hi;               // bounding box
        bool removed = false;
        std::int32_t child = -1;   // moving: its set in children_
    };
    struct Node {
        std::int32_t vertex;  // the edge vertex -> next(vertex) splits this node
        std::int32_t left;    // subtree left of the edge's line (-1: none)
        std::int32_t right;
    };

    void append_chain(const std::vector<Vec2>& chain, int obstacle);
    void check_id(int id, const char* what) const;
    // A moving obstacle's child: puts its vertices at the given ones plus displacement_.
    void place();
    std::int32_t build_node(std::vector<std::int32_t>& edges);
    void query_node(std::int32_t node, Vec2 p, double range_sq, std::vector<ObstacleNeighbor>& out,
                    std::size_t first, bool both_sides) const;
    void query_grid(Vec2 p, double range_sq, std::vector<ObstacleNeighbor>& out, std::size_t first,
                    bool both_sides) const;
    // Whether edge v counts for an agent at `side` (left_of) of it: facing
    // it, or behind an edge of a closed obstacle with `both_sides`.
    bool counts(std::int32_t v, double side, bool both_sides) const;
    int depth(std::int32_t node) const;

    std::vector<Source> sources_;
    bool dirty_ = false;

    std::vector<Vec2> point_, unit_dir_;
    std::vector<std::int32_t> next_, prev_, obstacle_of_;
    std::vector<std::uint8_t> convex_;

    std::vector<Node> nodes_;
    std::int32_t root_ = -1;
    bool use_grid_ = false;
    EdgeGrid grid_;

    int live_ = 0;
    // One set per moving obstacle (null once removed), each holding just it.
    std::vector<std::unique_ptr<ObstacleSet>> children_;
    Vec2 velocity_;
    bool is_moving_ = false;
    // A moving obstacle's child: the vertices as given, the vertex table as
    // built from them, and how far they have moved.
    std::vector<Vec2> given_, given_table_;
    Vec2 displacement_;
};

inline std::pair<Vec2, Vec2> ObstacleNeighbor::endpoints() const {
    return {set->point(vertex), set->point(set->next(vertex))};
}

}  // namespace vosim
