#include "methods/common/reachable_velocities3d.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace vosim {

namespace {

constexpr double kFacetShrink = 1e-9;  // far above round-off, far below anything physical
// The linear programs' parallel tolerance with the polyhedron, on squared
// sines and cosines (see linear_program3d.hpp): 1e-12 catches the facets'
// exact parallels, whose cosines are round-off, and nothing else (with
// RVO2-3D's 1e-5, edges of the frequency-3 polyhedron a few thousandths of
// a radian from parallel to other facets made feasible programs
// infeasible); it keeps intersections of nearly parallel agent planes
// within about 1e6 times their offsets.
constexpr double kParallelEpsilon = 1e-12;

// The facets of the unit polyhedron with its apex vertex along +x: outward
// unit normals and distances from the centre, those facing +x first.
struct Polyhedron {
    std::array<Vec3, kReachableFacets> normal;
    std::array<double, kReachableFacets> offset;  // none below kReachableInradius (tested)

    Polyhedron() {
        constexpr double kPi = 3.14159265358979323846;
        // The icosahedron: the apex, a ring of five at x = 1/sqrt(5), a ring
        // of five turned by pi/5 at x = -1/sqrt(5), the bottom.
        const double ring_x = 1.0 / std::sqrt(5.0);
        const double ring_r = 2.0 / std::sqrt(5.0);
        const Vec3 top(1.0, 0.0, 0.0), bottom(-1.0, 0.0, 0.0);
        Vec3 upper[5], lower[5];
        for (int k = 0; k < 5; ++k) {
            const double a = 2.0 * kPi * k / 5.0, b = a + kPi / 5.0;
            upper[k] = Vec3(ring_x, ring_r * std::cos(a), ring_r * std::sin(a));
            lower[k] = Vec3(-ring_x, ring_r * std::cos(b), ring_r * std::sin(b));
        }
        std::vector<std::array<Vec3, 3>> faces;
        for (int k = 0; k < 5; ++k) {
            const int n = (k + 1) % 5;
            faces.push_back({top, upper[k], upper[n]});
            faces.push_back({upper[k], lower[k], upper[n]});
            faces.push_back({upper[n], lower[k], lower[n]});
            faces.push_back({bottom, lower[n], lower[k]});
        }
        // Each face cut into frequency^2 triangles, their corners on the sphere.
        constexpr int f = kReachableFrequency;
        std::vector<std::array<Vec3, 3>> triangles;
        for (const auto& [a, b, c] : faces) {
            const auto corner = [&](int i, int j) { return normalize(i * a + j * b + (f - i - j) * c); };
            for (int i = 0; i < f; ++i) {
                for (int j = 0; i + j < f; ++j) {
                    triangles.push_back({corner(i, j), corner(i + 1, j), corner(i, j + 1)});
                    if (i + j < f - 1) triangles.push_back({corner(i + 1, j), corner(i + 1, j + 1), corner(i, j + 1)});
                }
            }
        }
        std::stable_sort(triangles.begin(), triangles.end(), [](const auto& p, const auto& q) {
            return (p[0].x + p[1].x + p[2].x) > (q[0].x + q[1].x + q[2].x);
        });
        for (int k = 0; k < kReachableFacets; ++k) {
            const auto& [a, b, c] = triangles[static_cast<std::size_t>(k)];
            Vec3 n = normalize(cross(b - a, c - a));
            if (dot(n, a) < 0.0) n = -n;
            normal[static_cast<std::size_t>(k)] = n;
            // Five or six facets meet at each vertex: the linear programs,
            // which intersect planes in threes, would decide such ties by
            // round-off. Moving each facet inwards by its own tiny amount
            // (at most kFacetShrink of the radius) splits every vertex into
            // ones where three meet.
            const double spread = std::fmod(0.6180339887498949 * (k + 1), 1.0);
            offset[static_cast<std::size_t>(k)] = dot(n, a) - kFacetShrink * (0.5 + 0.5 * spread);
        }
    }
};
const Polyhedron kPolyhedron;

}  // namespace

bool append_reachable_polyhedron(Vec3 velocity, double reach, Vec3 preferred, std::vector<Plane>& planes) {
    if (!(reach * reach >= kSmallestNormal && reach > 1e-12 * length(velocity))) return false;
    const Vec3 wanted = preferred - velocity;
    // A frame whose first axis points towards the preferred velocity.
    const Vec3 e1 = abs_sq(wanted) >= kSmallestNormal ? normalize(wanted) : Vec3(1.0, 0.0, 0.0);
    const Vec3 e2 = any_perpendicular(e1);
    const Vec3 e3 = cross(e1, e2);
    for (int k = 0; k < kReachableFacets; ++k) {
        const Vec3 n = kPolyhedron.normal[static_cast<std::size_t>(k)];
        const Vec3 outward = n.x * e1 + n.y * e2 + n.z * e3;
        planes.push_back(Plane{velocity + (reach * kPolyhedron.offset[static_cast<std::size_t>(k)]) * outward,
                               -outward});
    }
    return true;
}

bool solve_within_reach_3d(const std::vector<Plane>& planes, std::size_t polyhedron_end, std::size_t hard_end,
                           Vec3 velocity, double reach, double max_speed, Vec3 preferred,
                           std::vector<Plane>& scratch, Vec3& result) {
    const std::size_t failed = solve_nearest_3d(planes, max_speed, preferred, false, result, kParallelEpsilon);
    bool fell_back = true;
    if (failed == planes.size()) {
        fell_back = false;
    } else if (failed < polyhedron_end) {
        // The speed ball is out of reach: brake as hard as the polyhedron
        // allows in every direction (its inscribed ball).
        const double speed = length(velocity);
        const double brake = std::fmin(speed, reach * kReachableInradius);
        result = speed > 0.0 ? velocity * ((speed - brake) / speed) : velocity;
        return true;
    } else if (failed < hard_end) {
        // Obstacles out of reach: only the polyhedron stays hard.
        scratch.assign(planes.begin(), planes.begin() + static_cast<std::ptrdiff_t>(polyhedron_end));
        solve_nearest_3d(scratch, max_speed, preferred, false, result, kParallelEpsilon);
        solve_least_violation_3d(planes, polyhedron_end, polyhedron_end, max_speed, scratch, result, kParallelEpsilon);
    } else {
        solve_least_violation_3d(planes, hard_end, failed, max_speed, scratch, result, kParallelEpsilon);
    }
    // The polyhedron holds up to round-off, which must not take the change
    // past the bound.
    const Vec3 change = result - velocity;
    if (abs_sq(change) > sqr(reach)) result = velocity + change * (reach / length(change));
    return fell_back;
}

}  // namespace vosim
