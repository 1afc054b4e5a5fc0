#include "obstacles/obstacles3d.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "limits.hpp"

namespace vosim {

namespace {

std::string fmt(double value) {
    std::ostringstream out;
    out.precision(17);
    out << value;
    return out.str();
}

std::string fmt(Vec3 v) { return "(" + fmt(v.x) + ", " + fmt(v.y) + ", " + fmt(v.z) + ")"; }

[[noreturn]] void fail(const std::string& name, const std::string& what) {
    throw std::invalid_argument(name + ": " + what);
}

void check_point(Vec3 v, const std::string& name, const char* arg) {
    if (!within(v.x, kCoordinateRange) || !within(v.y, kCoordinateRange) || !within(v.z, kCoordinateRange)) {
        fail(name, std::string(arg) + " is " + fmt(v) + "; every coordinate must be " + describe(kCoordinateRange));
    }
}

Vec3 box_to_world(const std::array<double, 9>& r, Vec3 local) {
    return {r[0] * local.x + r[1] * local.y + r[2] * local.z, r[3] * local.x + r[4] * local.y + r[5] * local.z,
            r[6] * local.x + r[7] * local.y + r[8] * local.z};
}

Vec3 world_to_box(const std::array<double, 9>& r, Vec3 w) {  // the transpose
    return {r[0] * w.x + r[3] * w.y + r[6] * w.z, r[1] * w.x + r[4] * w.y + r[7] * w.z,
            r[2] * w.x + r[5] * w.y + r[8] * w.z};
}

double component(Vec3 v, int axis) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); }

Vec3 unit(int axis, double sign) {
    return {axis == 0 ? sign : 0.0, axis == 1 ? sign : 0.0, axis == 2 ? sign : 0.0};
}

ObstacleContact3 closest_on_box(const Shape3& s, Vec3 p) {
    const Vec3 local = world_to_box(s.rotation, p - s.center);
    const Vec3 h = s.half_extents;
    const Vec3 clamped{std::clamp(local.x, -h.x, h.x), std::clamp(local.y, -h.y, h.y), std::clamp(local.z, -h.z, h.z)};
    ObstacleContact3 c;
    const Vec3 away = local - clamped;
    const double away_sq = abs_sq(away);
    if (away_sq > 0.0) {  // outside: the clamped point is the closest (a face, an edge or a corner)
        c.distance = std::sqrt(away_sq);
        c.point = s.center + box_to_world(s.rotation, clamped);
        c.normal = box_to_world(s.rotation, away / c.distance);
        return c;
    }
    // Inside or on the surface: the nearest face; ties to the lowest axis, then +.
    int best_axis = 0;
    double best_gap = h.x - std::abs(local.x);
    for (int a = 1; a < 3; ++a) {
        const double gap = component(h, a) - std::abs(component(local, a));
        if (gap < best_gap) {
            best_gap = gap;
            best_axis = a;
        }
    }
    const double sign = component(local, best_axis) < 0.0 ? -1.0 : 1.0;
    Vec3 on_face = local;
    if (best_axis == 0) on_face.x = sign * h.x;
    if (best_axis == 1) on_face.y = sign * h.y;
    if (best_axis == 2) on_face.z = sign * h.z;
    c.distance = -best_gap;
    c.point = s.center + box_to_world(s.rotation, on_face);
    c.normal = box_to_world(s.rotation, unit(best_axis, sign));
    return c;
}

Vec3 closest_on_segment(Vec3 a, Vec3 b, Vec3 p) {
    const Vec3 ab = b - a;
    const double len_sq = abs_sq(ab);
    const double t = len_sq > 0.0 ? std::clamp(dot(p - a, ab) / len_sq, 0.0, 1.0) : 0.0;
    return a + ab * t;
}

// Closest point to p on a convex planar polygon (counter-clockwise about n).
Vec3 closest_on_face(const Face3& f, Vec3 p) {
    const Vec3 q = p - f.normal * (dot(f.normal, p) - f.offset);
    const std::size_t n = f.vertices.size();
    bool inside = true;
    for (std::size_t k = 0; k < n && inside; ++k) {
        const Vec3 a = f.vertices[k];
        const Vec3 b = f.vertices[(k + 1) % n];
        inside = dot(cross(b - a, q - a), f.normal) >= 0.0;
    }
    if (inside) return q;
    Vec3 best = f.vertices[0];
    double best_sq = abs_sq(p - best);
    for (std::size_t k = 0; k < n; ++k) {
        const Vec3 candidate = closest_on_segment(f.vertices[k], f.vertices[(k + 1) % n], p);
        const double d_sq = abs_sq(p - candidate);
        if (d_sq < best_sq) {
            best_sq = d_sq;
            best = candidate;
        }
    }
    return best;
}

ObstacleContact3 closest_on_polyhedron(const Shape3& s, Vec3 p) {
    ObstacleContact3 c;
    std::size_t deepest = 0;
    double max_excess = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < s.faces.size(); ++k) {
        const double excess = dot(s.faces[k].normal, p) - s.faces[k].offset;
        if (excess > max_excess) {
            max_excess = excess;
            deepest = k;
        }
    }
    if (max_excess <= 0.0) {  // inside or on the surface: the nearest face plane
        c.distance = max_excess;
        c.normal = s.faces[deepest].normal;
        c.point = p - c.normal * max_excess;
        return c;
    }
    // Outside: the closest point lies on a face whose plane p is in front of.
    double best_sq = std::numeric_limits<double>::infinity();
    for (const Face3& f : s.faces) {
        if (dot(f.normal, p) - f.offset <= 0.0) continue;
        const Vec3 candidate = closest_on_face(f, p);
        const double d_sq = abs_sq(p - candidate);
        if (d_sq < best_sq) {
            best_sq = d_sq;
            c.point = candidate;
        }
    }
    c.distance = std::sqrt(best_sq);
    c.normal = c.distance > 0.0 ? (p - c.point) / c.distance : s.faces[deepest].normal;
    return c;
}

}  // namespace

ObstacleContact3 closest_on_shape(const Shape3& s, Vec3 p) {
    ObstacleContact3 c;
    switch (s.kind) {
        case Shape3Kind::half_space:
            c.distance = dot(s.normal, p - s.center);
            c.normal = s.normal;
            c.point = p - s.normal * c.distance;
            return c;
        case Shape3Kind::sphere: {
            const Vec3 d = p - s.center;
            const double len = length(d);
            c.normal = len > 0.0 ? d / len : Vec3(0.0, 0.0, 1.0);  // the centre itself: +z by convention
            c.distance = len - s.radius;
            c.point = s.center + c.normal * s.radius;
            return c;
        }
        case Shape3Kind::box:
            return closest_on_box(s, p);
        case Shape3Kind::polyhedron:
            return closest_on_polyhedron(s, p);
    }
    return c;
}

Shape3 make_half_space(Vec3 point, Vec3 normal, const std::string& name) {
    check_point(point, name, "point");
    check_point(normal, name, "normal");
    const double len = length(normal);
    if (!(len > 0.0) || !std::isfinite(len)) fail(name, "normal is " + fmt(normal) + "; must be a non-zero vector");
    Shape3 s;
    s.kind = Shape3Kind::half_space;
    s.center = point;
    s.normal = normal / len;
    return s;
}

Shape3 make_sphere(Vec3 center, double radius, const std::string& name) {
    check_point(center, name, "center");
    if (!(radius > 0.0) || !(radius <= kMaxMagnitude)) {
        fail(name, "radius is " + fmt(radius) + "; must be > 0 and <= " + fmt(kMaxMagnitude) + " (no zero volume)");
    }
    Shape3 s;
    s.kind = Shape3Kind::sphere;
    s.center = center;
    s.radius = radius;
    s.bound_center = center;
    s.bound_radius = radius;
    return s;
}

Shape3 make_box(Vec3 center, Vec3 half_extents, const std::array<double, 9>& rotation, const std::string& name) {
    check_point(center, name, "center");
    for (int a = 0; a < 3; ++a) {
        const double h = component(half_extents, a);
        if (!(h > 0.0) || !(h <= kMaxMagnitude)) {
            fail(name, "half_extents[" + std::to_string(a) + "] is " + fmt(h) + "; must be > 0 and <= " +
                           fmt(kMaxMagnitude) + " (no zero volume)");
        }
    }
    for (int k = 0; k < 9; ++k) {
        if (!std::isfinite(rotation[k])) fail(name, "rotation[" + std::to_string(k / 3) + "][" + std::to_string(k % 3) + "] is " + fmt(rotation[k]) + "; must be finite");
    }
    // Orthonormal with determinant +1 (a proper rotation, no mirror).
    double worst = 0.0;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            double sum = 0.0;
            for (int k = 0; k < 3; ++k) sum += rotation[3 * i + k] * rotation[3 * j + k];
            worst = std::max(worst, std::abs(sum - (i == j ? 1.0 : 0.0)));
        }
    }
    if (worst > 1e-9) fail(name, "rotation is not orthonormal (R R^T differs from the identity by " + fmt(worst) + ")");
    const double det = rotation[0] * (rotation[4] * rotation[8] - rotation[5] * rotation[7]) -
                       rotation[1] * (rotation[3] * rotation[8] - rotation[5] * rotation[6]) +
                       rotation[2] * (rotation[3] * rotation[7] - rotation[4] * rotation[6]);
    if (det < 0.0) fail(name, "rotation has determinant " + fmt(det) + "; must be +1 (a rotation, not a reflection)");
    Shape3 s;
    s.kind = Shape3Kind::box;
    s.center = center;
    s.half_extents = half_extents;
    s.rotation = rotation;
    s.bound_center = center;
    s.bound_radius = length(half_extents);
    return s;
}

Shape3 make_polyhedron(const std::vector<Vec3>& normals, const std::vector<double>& offsets, const std::string& name) {
    if (normals.size() != offsets.size()) {
        fail(name, std::to_string(normals.size()) + " normals but " + std::to_string(offsets.size()) + " offsets");
    }
    if (normals.size() < 4) {
        fail(name, "has " + std::to_string(normals.size()) + " half-spaces; a bounded solid needs at least 4");
    }
    // Vertex enumeration visits every triple of planes: 512 planes take about a second.
    if (normals.size() > kMaxPolyhedronPlanes) {
        fail(name, "has " + std::to_string(normals.size()) + " half-spaces; at most " +
                       std::to_string(kMaxPolyhedronPlanes) + " (model rounder solids as spheres or several shapes)");
    }
    // Tolerances relative to the planes' largest distance from the origin
    // (not to 1 m): a solid a nanometre wide is as valid as one a metre wide.
    double scale = 0.0;
    for (std::size_t k = 0; k < normals.size(); ++k) {
        const double len = length(normals[k]);
        if (len > 0.0 && std::isfinite(len)) scale = std::max(scale, std::abs(offsets[k] / len));
    }
    if (!(scale > 0.0) || !std::isfinite(scale)) scale = 1.0;
    // Unit normals, then drop repeated planes.
    std::vector<Vec3> n;
    std::vector<double> d;
    for (std::size_t k = 0; k < normals.size(); ++k) {
        check_point(normals[k], name, ("normals[" + std::to_string(k) + "]").c_str());
        if (!within(offsets[k], kCoordinateRange)) {
            fail(name, "offsets[" + std::to_string(k) + "] is " + fmt(offsets[k]) + "; must be " + describe(kCoordinateRange));
        }
        const double len = length(normals[k]);
        if (!(len > 0.0)) fail(name, "normals[" + std::to_string(k) + "] is " + fmt(normals[k]) + "; must be non-zero");
        const Vec3 unit_normal = normals[k] / len;
        const double offset = offsets[k] / len;
        bool repeated = false;
        for (std::size_t j = 0; j < n.size() && !repeated; ++j) {
            repeated = abs_sq(n[j] - unit_normal) < 1e-18 && std::abs(d[j] - offset) <= 1e-12 * scale;
        }
        if (!repeated) {
            n.push_back(unit_normal);
            d.push_back(offset);
        }
    }
    // Rounding in a vertex grows with its distance from the origin too.
    auto tol_at = [scale](Vec3 v) {
        return 1e-12 * std::max(scale, std::max(std::abs(v.x), std::max(std::abs(v.y), std::abs(v.z))));
    };
    // A box far beyond the planes finds unboundedness: any vertex on it means
    // the half-spaces leave a direction open.
    const double far = 1e6 * std::max(1.0, scale);
    const std::size_t m = n.size();
    std::vector<Vec3> all_n = n;
    std::vector<double> all_d = d;
    for (int a = 0; a < 3; ++a) {
        for (double sign : {-1.0, 1.0}) {
            all_n.push_back(unit(a, sign));
            all_d.push_back(far);
        }
    }
    std::vector<Vec3> vertices;
    bool unbounded = false;
    const std::size_t total = all_n.size();
    for (std::size_t i = 0; i < total; ++i) {
        for (std::size_t j = i + 1; j < total; ++j) {
            const Vec3 nij = cross(all_n[i], all_n[j]);
            for (std::size_t k = j + 1; k < total; ++k) {
                const double det = dot(nij, all_n[k]);
                if (std::abs(det) < 1e-12) continue;
                const Vec3 v = (cross(all_n[j], all_n[k]) * all_d[i] + cross(all_n[k], all_n[i]) * all_d[j] + nij * all_d[k]) / det;
                bool feasible = true;
                const double tol = tol_at(v);
                for (std::size_t q = 0; q < total && feasible; ++q) feasible = dot(all_n[q], v) - all_d[q] <= tol * (q < m ? 1.0 : 1e6);
                if (!feasible) continue;
                if (k >= m) {
                    unbounded = true;
                    continue;
                }
                bool seen = false;
                for (const Vec3& w : vertices) seen = seen || abs_sq(w - v) <= tol * tol;
                if (!seen) vertices.push_back(v);
            }
        }
    }
    if (unbounded) {
        fail(name, "the half-spaces do not enclose a bounded solid (or it reaches more than 1e6 times the planes' "
                   "largest distance from the origin, " + fmt(far) + ")");
    }
    if (vertices.size() < 4) {
        fail(name, "the half-spaces enclose no solid (empty, or too thin for its width to tell from flat)");
    }
    Vec3 centroid;
    for (const Vec3& v : vertices) centroid += v;
    centroid = centroid / static_cast<double>(vertices.size());
    double size = 0.0;  // the solid's reach from its centroid
    for (const Vec3& v : vertices) size = std::max(size, length(v - centroid));
    Shape3 s;
    s.kind = Shape3Kind::polyhedron;
    double volume = 0.0;
    for (std::size_t f = 0; f < m; ++f) {
        Face3 face;
        face.normal = n[f];
        face.offset = d[f];
        for (const Vec3& v : vertices) {
            if (std::abs(dot(n[f], v) - d[f]) <= tol_at(v)) face.vertices.push_back(v);
        }
        if (face.vertices.size() < 3) continue;  // a redundant plane: it only touches the solid
        Vec3 face_centre;
        for (const Vec3& v : face.vertices) face_centre += v;
        face_centre = face_centre / static_cast<double>(face.vertices.size());
        const Vec3 u = normalize(std::abs(n[f].x) < 0.9 ? cross(n[f], Vec3(1, 0, 0)) : cross(n[f], Vec3(0, 1, 0)));
        const Vec3 w = cross(n[f], u);
        std::sort(face.vertices.begin(), face.vertices.end(), [&](Vec3 a, Vec3 b) {
            return std::atan2(dot(a - face_centre, w), dot(a - face_centre, u)) <
                   std::atan2(dot(b - face_centre, w), dot(b - face_centre, u));
        });
        double area = 0.0;
        for (std::size_t k = 0; k < face.vertices.size(); ++k) {
            const Vec3 a = face.vertices[k] - face_centre;
            const Vec3 b = face.vertices[(k + 1) % face.vertices.size()] - face_centre;
            area += 0.5 * dot(cross(a, b), n[f]);
        }
        if (!(area > sqr(1e-9 * size))) continue;  // touches along an edge only
        volume += area * (d[f] - dot(n[f], centroid)) / 3.0;
        s.faces.push_back(std::move(face));
    }
    double extent = 0.0;
    for (const Vec3& v : vertices) extent = std::max(extent, length(v - centroid));
    if (s.faces.size() < 4 || !(volume > 1e-12 * extent * extent * extent)) {
        fail(name, "the half-spaces enclose no solid (zero volume: volume " + fmt(volume) + ")");
    }
    s.vertices = std::move(vertices);
    s.center = centroid;
    s.bound_center = centroid;
    s.bound_radius = extent;
    return s;
}

int ObstacleSet3::add(Shape3 shape) {
    shapes_.push_back(std::move(shape));
    alive_.push_back(1);
    ++live_count_;
    built_ = false;
    return static_cast<int>(shapes_.size()) - 1;
}

const Shape3& ObstacleSet3::shape(int id) const {
    if (!alive(id)) throw std::invalid_argument("obstacle id " + std::to_string(id) + " is unknown or removed");
    return shapes_[static_cast<std::size_t>(id)];
}

void ObstacleSet3::remove(int id) {
    shape(id);  // checks the id
    alive_[static_cast<std::size_t>(id)] = 0;
    --live_count_;
    built_ = false;
}

std::vector<int> ObstacleSet3::ids() const {
    std::vector<int> out;
    for (std::size_t k = 0; k < shapes_.size(); ++k) {
        if (alive_[k]) out.push_back(static_cast<int>(k));
    }
    return out;
}

void ObstacleSet3::cell_range(Vec3 lo, Vec3 hi, int (&from)[3], int (&to)[3]) const {
    for (int a = 0; a < 3; ++a) {
        const double o = component(grid_origin_, a);
        const double l = std::floor((component(lo, a) - o) / cell_size_);
        const double h = std::floor((component(hi, a) - o) / cell_size_);
        from[a] = static_cast<int>(std::clamp(l, 0.0, static_cast<double>(dims_[a] - 1)));
        to[a] = static_cast<int>(std::clamp(h, 0.0, static_cast<double>(dims_[a] - 1)));
    }
}

void ObstacleSet3::build() {
    half_spaces_.clear();
    bounded_.clear();
    for (int id : ids()) {
        (shapes_[static_cast<std::size_t>(id)].kind == Shape3Kind::half_space ? half_spaces_ : bounded_).push_back(id);
    }
    built_ = true;
    // A list is quicker than a grid for a few shapes (measured: below ~32).
    use_grid_ = bounded_.size() >= 32;
    cell_start_.clear();
    cell_items_.clear();
    if (!use_grid_) return;
    Vec3 lo(kMaxMagnitude, kMaxMagnitude, kMaxMagnitude), hi = -lo;
    std::vector<double> diameters;
    for (int id : bounded_) {
        const Shape3& s = shapes_[static_cast<std::size_t>(id)];
        const Vec3 r(s.bound_radius, s.bound_radius, s.bound_radius);
        const Vec3 a = s.bound_center - r, b = s.bound_center + r;
        lo = Vec3(std::min(lo.x, a.x), std::min(lo.y, a.y), std::min(lo.z, a.z));
        hi = Vec3(std::max(hi.x, b.x), std::max(hi.y, b.y), std::max(hi.z, b.z));
        diameters.push_back(2.0 * s.bound_radius);
    }
    // Cells about the size of a typical shape, and no more than ~8 per shape.
    std::nth_element(diameters.begin(), diameters.begin() + diameters.size() / 2, diameters.end());
    const Vec3 span = hi - lo;
    const double volume_per_shape = std::max(span.x * span.y * span.z, 1e-300) / (8.0 * bounded_.size());
    cell_size_ = std::max(diameters[diameters.size() / 2], std::cbrt(volume_per_shape));
    grid_origin_ = lo;
    for (int a = 0; a < 3; ++a) {
        dims_[a] = static_cast<int>(std::min(1024.0, std::floor(component(span, a) / cell_size_) + 1.0));
    }
    const std::size_t cells = static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2];
    std::vector<int> counts(cells + 1, 0);
    auto for_cells = [&](int id, auto&& visit) {
        const Shape3& s = shapes_[static_cast<std::size_t>(id)];
        const Vec3 r(s.bound_radius, s.bound_radius, s.bound_radius);
        int from[3], to[3];
        cell_range(s.bound_center - r, s.bound_center + r, from, to);
        for (int x = from[0]; x <= to[0]; ++x)
            for (int y = from[1]; y <= to[1]; ++y)
                for (int z = from[2]; z <= to[2]; ++z)
                    visit((static_cast<std::size_t>(x) * dims_[1] + y) * dims_[2] + z);
    };
    // Each shape's first cell, for the query's "first visited cell only" rule.
    first_cell_.assign(3 * shapes_.size(), 0);
    for (int id : bounded_) {
        const Shape3& s = shapes_[static_cast<std::size_t>(id)];
        const Vec3 r(s.bound_radius, s.bound_radius, s.bound_radius);
        int from[3], to[3];
        cell_range(s.bound_center - r, s.bound_center + r, from, to);
        for (int a = 0; a < 3; ++a) first_cell_[3 * static_cast<std::size_t>(id) + a] = from[a];
    }
    for (int id : bounded_) for_cells(id, [&](std::size_t c) { ++counts[c + 1]; });
    for (std::size_t c = 0; c < cells; ++c) counts[c + 1] += counts[c];
    cell_start_ = counts;
    cell_items_.assign(static_cast<std::size_t>(counts[cells]), 0);
    std::vector<int> fill(counts.begin(), counts.end() - 1);
    for (int id : bounded_) for_cells(id, [&](std::size_t c) { cell_items_[static_cast<std::size_t>(fill[c]++)] = id; });
}

void ObstacleSet3::query(Vec3 p, double range, std::vector<ObstacleContact3>& out) const {
    if (!built_) throw std::logic_error("ObstacleSet3::query before build()");
    const std::size_t first = out.size();
    auto consider = [&](int id) {
        const Shape3& s = shapes_[static_cast<std::size_t>(id)];
        if (s.kind != Shape3Kind::half_space && length(p - s.bound_center) - s.bound_radius > range) return;
        ObstacleContact3 c = closest_on_shape(s, p);
        if (c.distance <= range) {
            c.obstacle = id;
            out.push_back(c);
        }
    };
    for (int id : half_spaces_) consider(id);
    if (!use_grid_) {
        for (int id : bounded_) consider(id);
    } else {
        const double reach = std::max(range, 0.0);  // a point inside a shape lies in its cells
        const Vec3 r(reach, reach, reach);
        int from[3], to[3];
        cell_range(p - r, p + r, from, to);
        for (int x = from[0]; x <= to[0]; ++x) {
            for (int y = from[1]; y <= to[1]; ++y) {
                for (int z = from[2]; z <= to[2]; ++z) {
                    const std::size_t cell = (static_cast<std::size_t>(x) * dims_[1] + y) * dims_[2] + z;
                    const int here[3] = {x, y, z};
                    for (int k = cell_start_[cell]; k < cell_start_[cell + 1]; ++k) {
                        const int id = cell_items_[static_cast<std::size_t>(k)];
                        // A shape in several visited cells is considered in the first of them only.
                        const int* s_from = &first_cell_[3 * static_cast<std::size_t>(id)];
                        if (here[0] == std::max(s_from[0], from[0]) && here[1] == std::max(s_from[1], from[1]) &&
                            here[2] == std::max(s_from[2], from[2])) {
                            consider(id);
                        }
                    }
                }
            }
        }
    }
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [](const ObstacleContact3& a, const ObstacleContact3& b) {
                  return a.distance < b.distance || (a.distance == b.distance && a.obstacle < b.obstacle);
              });
}

int ObstacleSet3::first_penetrating(Vec3 p, double radius) const {
    std::vector<ObstacleContact3> near;
    query(p, radius, near);
    int first = -1;
    for (const ObstacleContact3& c : near) {
        if (c.distance < radius && (first < 0 || c.obstacle < first)) first = c.obstacle;
    }
    return first;
}

ObstacleContact3 ObstacleSet3::nearest(Vec3 p) const {
    ObstacleContact3 best;
    best.distance = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < shapes_.size(); ++k) {
        if (!alive_[k]) continue;
        ObstacleContact3 c = closest_on_shape(shapes_[k], p);
        if (c.distance < best.distance) {
            best = c;
            best.obstacle = static_cast<int>(k);
        }
    }
    return best;
}

}  // namespace vosim
