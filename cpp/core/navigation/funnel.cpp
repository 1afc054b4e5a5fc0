#include "navigation/funnel.hpp"

namespace vosim {

namespace {

// The funnel proper: every portal lies strictly between `start` and `goal`.
std::vector<Vec2> pull_through(Vec2 start, Vec2 goal, const Vec2* left, const Vec2* right, std::size_t portals) {
    // The goal is the last portal, of zero width.
    auto left_of = [&](std::size_t k) { return k < portals ? left[k] : goal; };
    auto right_of = [&](std::size_t k) { return k < portals ? right[k] : goal; };
    std::vector<Vec2> path;
    auto same = [](Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; };
    // Portals sharing a corner make the same corner the apex more than once: keep it once.
    auto add_corner = [&](Vec2 p) {
        if (!same(p, start) && (path.empty() || !same(path.back(), p))) path.push_back(p);
    };
    Vec2 apex = start;
    Vec2 funnel_left = apex;
    Vec2 funnel_right = apex;
    std::size_t left_index = 0;
    std::size_t right_index = 0;
    std::size_t k = 0;
    // Each restart moves the apex to a corner of a later portal, so this ends.
    while (k <= portals) {
        const Vec2 l = left_of(k);
        const Vec2 r = right_of(k);
        // Tighten the right side: r must not lie right of the current right edge.
        if (det(funnel_right - apex, r - apex) >= 0.0) {
            if (same(apex, funnel_right) || det(funnel_left - apex, r - apex) < 0.0) {
                funnel_right = r;
                right_index = k;
            } else {
                // r crosses the left side: the left corner becomes a corner of the path.
                apex = funnel_left;
                add_corner(apex);
                k = left_index + 1;
                funnel_left = funnel_right = apex;
                right_index = left_index;
                continue;
            }
        }
        // Tighten the left side, symmetrically.
        if (det(funnel_left - apex, l - apex) <= 0.0) {
            if (same(apex, funnel_left) || det(funnel_right - apex, l - apex) > 0.0) {
                funnel_left = l;
                left_index = k;
            } else {
                apex = funnel_right;
                add_corner(apex);
                k = right_index + 1;
                funnel_left = funnel_right = apex;
                left_index = right_index;
                continue;
            }
        }
        ++k;
    }
    if (path.empty() || !same(path.back(), goal)) path.push_back(goal);
    return path;
}

}  // namespace

std::vector<Vec2> pull_string(Vec2 start, Vec2 goal, const Vec2* left, const Vec2* right, std::size_t portals) {
    // A start on a portal (on a shared edge or corner of the mesh, in either
    // triangle) is already through it: a funnel opened there would be a
    // straight angle, whose sides the tests below cannot tell apart. The
    // portals the start lies on (or, by rounding, just past) lead the
    // corridor; those the goal lies on end it.
    std::size_t first = 0;
    while (first < portals && det(left[first] - start, right[first] - start) >= 0.0) ++first;
    std::size_t last = portals;
    while (last > first && det(left[last - 1] - goal, right[last - 1] - goal) <= 0.0) --last;
    return pull_through(start, goal, left + first, right + first, last - first);
}

}  // namespace vosim
