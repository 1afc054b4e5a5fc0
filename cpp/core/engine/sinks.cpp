#include "engine/sinks.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "limits.hpp"
#include "state/state_check.hpp"  // format_number

namespace vosim {

namespace {

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("sink: " + what); }

// Twice the signed area (shoelace).
double twice_area(const Vec2* p, int n) {
    double sum = 0.0;
    for (int k = 0; k < n; ++k) sum += det(p[k], p[(k + 1) % n]);
    return sum;
}

}  // namespace

int Sinks::add(int scene, int scenes, const Vec2* points, int count, bool line) {
    if (scene < -1 || scene >= scenes) {
        refuse("scene is " + std::to_string(scene) + "; it must be -1 (every scene) or below " +
               std::to_string(scenes));
    }
    if (line ? count != 2 : count < 3) {
        refuse(std::string(line ? "a line needs exactly 2 points" : "an area needs at least 3 points") + ", got " +
               std::to_string(count));
    }
    double extent = 0.0;
    for (int k = 0; k < count; ++k) {
        for (const double c : {points[k].x, points[k].y}) {
            if (!within(c, kCoordinateRange)) {
                refuse("points[" + std::to_string(k) + "] has " + format_number(c) + "; coordinates must be " +
                       describe(kCoordinateRange));
            }
        }
        extent = std::max(extent, abs_sq(points[k] - points[0]));
    }
    // Degenerate shapes reach nobody: a line of one point, an area of none
    // (relative to its size, so that rounding does not decide).
    if (line && extent == 0.0) refuse("the line's 2 points coincide");
    if (!line && !(std::fabs(twice_area(points, count)) > 1e-12 * extent)) {
        refuse("the area's points enclose no area (they lie on one line)");
    }
    sinks_.push_back({scene, line, std::vector<Vec2>(points, points + count), false});
    return static_cast<int>(sinks_.size()) - 1;
}

void Sinks::remove(int id) {
    if (id < 0 || id >= static_cast<int>(sinks_.size()) || sinks_[id].removed) {
        throw std::invalid_argument("sink_id: no sink " + std::to_string(id) + " (never added, or removed)");
    }
    sinks_[id].removed = true;
    sinks_[id].points.clear();
}

void Sinks::set_open(int id, double opens, double closes) {
    if (id < 0 || id >= static_cast<int>(sinks_.size()) || sinks_[id].removed) {
        throw std::invalid_argument("sink_id: no sink " + std::to_string(id) + " (never added, or removed)");
    }
    if (std::isnan(opens) || std::isnan(closes) || !(opens < closes)) {
        refuse("opens_at (" + format_number(opens) + ") must be before closes_at (" + format_number(closes) + ")");
    }
    sinks_[id].opens = opens;
    sinks_[id].closes = closes;
}

bool Sinks::any_live() const {
    return std::any_of(sinks_.begin(), sinks_.end(), [](const Sink& s) { return !s.removed; });
}

bool Sinks::any_live_line() const {
    return std::any_of(sinks_.begin(), sinks_.end(), [](const Sink& s) { return !s.removed && s.line; });
}

int Sinks::reached(int scene, Vec2 before, Vec2 now, double time) const {
    for (std::size_t id = 0; id < sinks_.size(); ++id) {
        const Sink& s = sinks_[id];
        if (s.removed || (s.scene != -1 && s.scene != scene) || !s.open_at(time)) continue;
        if (s.line ? crosses_segment(s.points[0], s.points[1], before, now) : inside_polygon(s.points, now)) {
            return static_cast<int>(id);
        }
    }
    return -1;
}

void Sinks::keep_positions(const AgentState& state) {
    const std::size_t size = static_cast<std::size_t>(state.scenes()) * state.capacity() * state.dimensions();
    before_.assign(state.positions.data(), state.positions.data() + size);
}

bool inside_polygon(const std::vector<Vec2>& polygon, Vec2 p) {
    bool inside = false;
    const std::size_t n = polygon.size();
    for (std::size_t k = 0, j = n - 1; k < n; j = k++) {
        const Vec2 a = polygon[k], b = polygon[j];
        if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)) inside = !inside;
    }
    return inside;
}

bool crosses_segment(Vec2 a, Vec2 b, Vec2 p0, Vec2 p1) {
    // Sides of the line through a and b: > 0 left, else right or on it; a
    // move from left onto the line counts, one that only touches it from the
    // right does not (it crosses at the next step).
    const bool left0 = det(b - a, p0 - a) > 0.0;
    const bool left1 = det(b - a, p1 - a) > 0.0;
    if (left0 == left1) return false;
    // The move's line separates a and b (or passes through one of them).
    const double da = det(p1 - p0, a - p0);
    const double db = det(p1 - p0, b - p0);
    return !((da > 0.0 && db > 0.0) || (da < 0.0 && db < 0.0));
}

}  // namespace vosim
