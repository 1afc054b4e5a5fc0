#include "features/speed_zones/speed_zones.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/engine_state.hpp"  // split_at_offsets
#include "maths/polygon.hpp"
#include "limits.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"
#include "state/state_check.hpp"  // format_number

namespace vosim {

namespace {

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("speed zone: " + what); }

}  // namespace

int SpeedZones::add(int scene, int scenes, const Vec2* points, int count, double factor) {
    if (scene < -1 || scene >= scenes) {
        refuse("scene is " + std::to_string(scene) + "; it must be -1 (every scene) or below " +
               std::to_string(scenes));
    }
    if (!(std::isfinite(factor) && factor > 0.0 && factor <= kMaxSpeedZoneFactor)) {
        refuse("factor is " + format_number(factor) + "; it must be above 0 and at most " +
               format_number(kMaxSpeedZoneFactor));
    }
    if (count < 3) refuse("polygon needs at least 3 points, got " + std::to_string(count));
    double extent = 0.0;
    double twice_area = 0.0;
    for (int k = 0; k < count; ++k) {
        for (const double c : {points[k].x, points[k].y}) {
            if (!within(c, kCoordinateRange)) {
                refuse("polygon[" + std::to_string(k) + "] has " + format_number(c) + "; coordinates must be " +
                       describe(kCoordinateRange));
            }
        }
        extent = std::max(extent, abs_sq(points[k] - points[0]));
        twice_area += det(points[k], points[(k + 1) % count]);
    }
    if (!(std::fabs(twice_area) > 1e-12 * extent)) refuse("the polygon's points enclose no area (they lie on one line)");
    zones_.push_back({scene, std::vector<Vec2>(points, points + count), factor, false});
    return static_cast<int>(zones_.size()) - 1;
}

int SpeedZones::add(int scene, const AgentState& state, const Vec2* points, int count, double factor) {
    if (state.dimensions() != 2) {
        throw std::invalid_argument("a speed zone needs a 2D simulator; this one has dimensions=" +
                                    std::to_string(state.dimensions()));
    }
    return add(scene, state.scenes(), points, count, factor);
}

void SpeedZones::remove(int id) {
    if (id < 0 || id >= static_cast<int>(zones_.size()) || zones_[id].removed) {
        throw std::invalid_argument("zone_id: no speed zone " + std::to_string(id) + " (never added, or removed)");
    }
    zones_[id].removed = true;
    zones_[id].points.clear();
}

bool SpeedZones::any_live() const {
    return std::any_of(zones_.begin(), zones_.end(), [](const SpeedZone& z) { return !z.removed; });
}

double SpeedZones::factor_at(int scene, Vec2 p) const {
    double factor = 1.0;
    // In id order, so that the product rounds the same way every time.
    for (const SpeedZone& zone : zones_) {
        if (zone.removed || (zone.scene != -1 && zone.scene != scene)) continue;
        if (inside_polygon(zone.points, p)) factor *= zone.factor;
    }
    // Many overlapping zones above 1 would overflow: the product is capped
    // like one zone's factor.
    return std::min(factor, kMaxSpeedZoneFactor);
}

void SpeedZones::apply(AgentState& s) const {
    if (s.dimensions() != 2 || !any_live()) return;
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    // Goal-seeking agents only: the goals phase writes their preferred
    // velocities afresh every step, whereas one set by hand stays, and
    // scaling it in place would compound from step to step.
    parallel_for_values(total, max_threads(), [&](std::int64_t i) {
        if (i % s.capacity() >= s.count() || !s.active[i] || !s.has_goal[i]) return;
        const std::size_t at = static_cast<std::size_t>(i);
        const double factor =
            factor_at(static_cast<int>(i / s.capacity()), Vec2(s.positions[2 * at], s.positions[2 * at + 1]));
        if (factor == 1.0) return;
        s.pref_velocities[2 * at] *= factor;
        s.pref_velocities[2 * at + 1] *= factor;
    });
}

// Saved as: scenes, factors, removed (0/1), and the points (flat x, y) between offsets.
FeatureArrays SpeedZones::save() const {
    FeatureArrays out;
    std::vector<std::int64_t> scenes, removed, offsets{0};
    std::vector<double> factors, points;
    for (const SpeedZone& zone : zones_) {
        scenes.push_back(zone.scene);
        removed.push_back(zone.removed ? 1 : 0);
        factors.push_back(zone.factor);
        for (const Vec2& p : zone.points) points.insert(points.end(), {p.x, p.y});
        offsets.push_back(static_cast<std::int64_t>(points.size() / 2));
    }
    out.integers = {{"scenes", scenes}, {"removed", removed}, {"offsets", offsets}};
    out.reals = {{"factors", factors}, {"points", points}};
    return out;
}

// Each zone checked as add() checks it; removed ones hold no points.
void SpeedZones::restore(const FeatureArrays& saved, const AgentState& state) {
    const auto& scenes = saved.integer("scenes");
    const auto& removed = saved.integer("removed");
    const auto& factors = saved.real("factors");
    const auto points = split_at_offsets(saved.real("points"), saved.integer("offsets"), 2, "speed_zone");
    const std::size_t n = scenes.size();
    if (removed.size() != n || factors.size() != n || points.size() != n) {
        throw std::invalid_argument("speed zone entries differ in length");
    }
    if (n > 0 && state.dimensions() != 2) throw std::invalid_argument("it has speed zones in a 3D engine");
    SpeedZones checked;
    for (std::size_t k = 0; k < n; ++k) {
        const std::string which = "speed zone " + std::to_string(k);
        if (removed[k] != 0 && removed[k] != 1) throw std::invalid_argument(which + ": removed is not 0 or 1");
        if (scenes[k] < -1 || scenes[k] > kCountRange.hi) {
            throw std::invalid_argument(which + ": scene is " + std::to_string(scenes[k]));
        }
        SpeedZone zone{static_cast<int>(scenes[k]), {}, factors[k], removed[k] == 1};
        for (std::size_t j = 0; j + 1 < points[k].size(); j += 2) zone.points.push_back(Vec2(points[k][j], points[k][j + 1]));
        if (zone.removed) {
            if (!zone.points.empty()) throw std::invalid_argument("removed " + which + " has points");
        } else {
            try {
                SpeedZones{}.add(zone.scene, state.scenes(), zone.points.data(), static_cast<int>(zone.points.size()),
                                 zone.factor);
            } catch (const std::invalid_argument& error) {
                throw std::invalid_argument(which + ": " + error.what());
            }
        }
        checked.zones_.push_back(std::move(zone));
    }
    zones_ = std::move(checked.zones_);
}

// States saved before scene features had their own entries.
std::vector<LegacyEntry> SpeedZones::legacy_entries() const {
    return {{"speed_zone_scenes", "scenes"},
            {"speed_zone_factors", "factors"},
            {"speed_zone_removed", "removed"},
            {"speed_zone_offsets", "offsets"},
            {"speed_zone_points", "points"}};
}

}  // namespace vosim
