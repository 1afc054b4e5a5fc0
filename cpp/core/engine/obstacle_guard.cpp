#include "engine/obstacle_guard.hpp"

#include <algorithm>
#include <cmath>

namespace vosim {

namespace {

// Cyclic projection passes before the fallback to a shortened motion.
constexpr int kProjectionPasses = 4;

// One edge's half-plane: dot(q - point, normal) >= 0 (the point already
// moved towards the agent by its keep distance).
struct HalfPlane {
    Vec2 point;
    Vec2 normal;  // unit, from the edge towards the agent
};

Vec2 nearest_on_segment(Vec2 a, Vec2 b, Vec2 p) {
    const Vec2 ab = b - a;
    const double length_sq = dot(ab, ab);
    if (!(length_sq > 0.0)) return a;
    const double t = std::clamp(dot(p - a, ab) / length_sq, 0.0, 1.0);
    return a + t * ab;
}

}  // namespace

bool obstacle_world(const ObstacleSet& shared, const std::vector<std::unique_ptr<ObstacleSet>>& own, int scenes,
                    ObstacleWorld& world) {
    bool any = !shared.empty();
    world.shared = &shared;
    world.own.assign(static_cast<std::size_t>(scenes), nullptr);
    for (std::size_t b = 0; b < own.size() && b < world.own.size(); ++b) {
        if (own[b] && !own[b]->empty()) {
            world.own[b] = own[b].get();
            any = true;
        }
    }
    return any;
}

Vec2 keep_clear_of_obstacles(const ObstacleSet& shared, const ObstacleSet& own, Vec2 position, Vec2 desired,
                             double radius, std::vector<ObstacleNeighbor>& near) {
    const double reach = radius + length(desired);
    near.clear();
    shared.query(position, reach * reach, near, 0);
    own.query(position, reach * reach, near, 0);
    if (near.empty()) return desired;

    // Every edge's half-plane (a projection onto one may push the point
    // across another that it satisfied).
    HalfPlane planes[64];
    int count = 0;
    bool violated = false;
    const Vec2 target = position + desired;
    for (const ObstacleNeighbor& edge : near) {
        if (count == 64) break;  // nearest first: the farthest matter least
        const auto [a, b] = edge.endpoints();
        const Vec2 nearest = nearest_on_segment(a, b, position);
        const Vec2 away = position - nearest;
        const double distance = length(away);
        // An agent whose centre is on the edge has no side: the edge's outer
        // normal (the agent faces it, so it is on its right).
        const Vec2 normal = distance > 0.0 ? away / distance : normalize(Vec2((b - a).y, -(b - a).x));
        const double keep = std::fmin(radius, distance);
        const HalfPlane plane{nearest + keep * normal, normal};
        if (dot(target - plane.point, plane.normal) < 0.0) violated = true;
        planes[count++] = plane;
    }
    if (!violated) return desired;

    Vec2 q = target;
    for (int pass = 0; pass < kProjectionPasses; ++pass) {
        bool moved = false;
        for (int k = 0; k < count; ++k) {
            const double depth = dot(q - planes[k].point, planes[k].normal);
            if (depth < 0.0) {
                q = q - depth * planes[k].normal;
                moved = true;
            }
        }
        if (!moved) break;
    }
    // The largest fraction of position -> q inside every half-plane (the
    // start is inside all of them).
    const Vec2 step = q - position;
    double fraction = 1.0;
    for (int k = 0; k < count; ++k) {
        const double at_start = dot(position - planes[k].point, planes[k].normal);
        const double rate = dot(step, planes[k].normal);
        if (at_start + rate < 0.0) fraction = std::fmin(fraction, std::fmax(0.0, at_start) / -rate);
    }
    return fraction * step;
}

}  // namespace vosim
