// Static obstacles in 3D: half-spaces (infinite planes), boxes (axis-aligned
// or oriented), spheres and convex polyhedra, gathered in one set that
// answers "which obstacle surfaces are near this point, and where".
//
// Conventions. Every shape is solid; its surface has an outward unit normal.
// The signed distance from a point to a shape is the distance to its surface,
// negative inside the solid. A half-space through `point` with outward
// normal `normal` is solid on the side the normal points away from (a ground
// plane at z = 0 is point (0, 0, 0), normal (0, 0, 1)). A box's `rotation`
// is a proper rotation matrix, row-major, whose columns are the box's axes in
// world coordinates (world = centre + rotation * local). A polyhedron is the
// intersection of half-spaces normal_k . x <= offset_k, which must be bounded
// and have volume; redundant and repeated planes are dropped.
//
// Use: add shapes (each check throws std::invalid_argument naming the
// argument and the value), call build() after the last change, then query()
// from any number of threads (it reads only). Results are in a fixed order
// (signed distance, then id), so they never depend on the thread count.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "maths/vec3.hpp"

namespace vosim {

enum class Shape3Kind { half_space, box, sphere, polyhedron };

// Most half-spaces a polyhedron may be given (before dropping repeated ones).
constexpr std::size_t kMaxPolyhedronPlanes = 512;

// One convex face of a polyhedron: its plane and its vertices, counter-
// clockwise seen from outside.
struct Face3 {
    Vec3 normal;
    double offset = 0.0;  // normal . x == offset on the face
    std::vector<Vec3> vertices;
};

struct Shape3 {
    Shape3Kind kind = Shape3Kind::sphere;
    Vec3 center;                       // half-space: a point on its plane
    Vec3 normal;                       // half-space only
    Vec3 half_extents;                 // box only
    std::array<double, 9> rotation{};  // box only, row-major
    double radius = 0.0;               // sphere only
    std::vector<Face3> faces;          // polyhedron only
    std::vector<Vec3> vertices;        // polyhedron only
    // Bounding sphere (not for half-spaces): the cull.
    Vec3 bound_center;
    double bound_radius = 0.0;
};

// What a query reports for one obstacle.
struct ObstacleContact3 {
    int obstacle = -1;       // the id add_*() returned
    Vec3 point;              // the closest point of its surface
    Vec3 normal;             // outward unit normal there (from the surface towards the point when outside)
    double distance = 0.0;   // signed distance from the queried point; negative inside
};

// Closest surface point, outward normal and signed distance of one shape.
ObstacleContact3 closest_on_shape(const Shape3& shape, Vec3 p);

// Checked constructors (throw std::invalid_argument naming `name` and the bad value).
Shape3 make_half_space(Vec3 point, Vec3 normal, const std::string& name = "half-space");
Shape3 make_box(Vec3 center, Vec3 half_extents, const std::array<double, 9>& rotation,
                const std::string& name = "box");
Shape3 make_sphere(Vec3 center, double radius, const std::string& name = "sphere");
Shape3 make_polyhedron(const std::vector<Vec3>& normals, const std::vector<double>& offsets,
                       const std::string& name = "polyhedron");

class ObstacleSet3 {
public:
    // Each returns the new obstacle's id (0, 1, 2, ... in order of addition).
    int add(Shape3 shape);
    void remove(int id);                                   // throws on an unknown or removed id
    const Shape3& shape(int id) const;                     // throws on an unknown or removed id
    bool alive(int id) const { return id >= 0 && id < static_cast<int>(alive_.size()) && alive_[id]; }
    std::vector<int> ids() const;                          // live ids, increasing
    bool empty() const { return live_count_ == 0; }
    int size() const { return live_count_; }

    // Rebuilds the cull after changes; query() and friends need it.
    void build();
    bool built() const { return built_; }

    // Appends every live obstacle whose signed distance from p is at most
    // `range` (pass radius + look-ahead), nearest first, ties by id.
    void query(Vec3 p, double range, std::vector<ObstacleContact3>& out) const;

    // The id of the first obstacle (lowest id) whose signed distance from p
    // is below `radius` (a sphere of that radius there penetrates it), or -1.
    int first_penetrating(Vec3 p, double radius) const;

    // The live obstacle with the smallest signed distance from p (ties: the
    // lowest id); obstacle -1 and distance +inf when the set is empty. A
    // plain scan: for checks and pictures, not for steps.
    ObstacleContact3 nearest(Vec3 p) const;

private:
    void cell_range(Vec3 lo, Vec3 hi, int (&from)[3], int (&to)[3]) const;

    std::vector<Shape3> shapes_;
    std::vector<char> alive_;
    int live_count_ = 0;
    bool built_ = true;

    // The cull: half-spaces are always tested; bounded shapes sit in a
    // uniform grid of cubes by their bounding boxes (few shapes: a list).
    std::vector<int> half_spaces_;
    std::vector<int> bounded_;         // used when the grid is off
    bool use_grid_ = false;
    Vec3 grid_origin_;
    double cell_size_ = 1.0;
    int dims_[3] = {0, 0, 0};
    std::vector<int> cell_start_;      // CSR over cells
    std::vector<int> cell_items_;
    std::vector<int> first_cell_;      // per id: the lowest cell (x, y, z) its bounds touch
};

}  // namespace vosim
