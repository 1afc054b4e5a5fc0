#include "features/sinks/sinks.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/engine_state.hpp"  // split_at_offsets
#include "limits.hpp"
#include "maths/polygon.hpp"
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

int Sinks::add(int scene, const AgentState& state, const Vec2* points, int count, bool line) {
    if (state.dimensions() != 2) {
        throw std::invalid_argument("a sink needs a 2D simulator; this one has dimensions=" +
                                    std::to_string(state.dimensions()));
    }
    return add(scene, state.scenes(), points, count, line);
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

int Sinks::exit_taken(const AgentState& s, std::size_t i, double time) const {
    const Vec2 now(s.positions[2 * i], s.positions[2 * i + 1]);
    const Vec2 was = before_.size() > 2 * i + 1 ? Vec2(before_[2 * i], before_[2 * i + 1]) : now;
    return reached(static_cast<int>(i / static_cast<std::size_t>(s.capacity())), was, now, time);
}

// Saved as: scenes, lines (0/1), removed (0/1), opening times, and the
// points (flat x, y) between offsets.
FeatureArrays Sinks::save() const {
    FeatureArrays out;
    std::vector<std::int64_t> scenes, lines, removed, offsets{0};
    std::vector<double> points, opens, closes;
    for (const Sink& sink : sinks_) {
        scenes.push_back(sink.scene);
        lines.push_back(sink.line ? 1 : 0);
        removed.push_back(sink.removed ? 1 : 0);
        opens.push_back(sink.opens);
        closes.push_back(sink.closes);
        for (const Vec2& p : sink.points) points.insert(points.end(), {p.x, p.y});
        offsets.push_back(static_cast<std::int64_t>(points.size() / 2));
    }
    out.integers = {{"scenes", scenes}, {"lines", lines}, {"removed", removed}, {"offsets", offsets}};
    out.reals = {{"points", points}, {"opens", opens}, {"closes", closes}};
    return out;
}

// Each sink checked as add() and set_open() check it; removed ones hold no
// points. States saved before sinks had opening times have them open always.
void Sinks::restore(const FeatureArrays& saved, const AgentState& state) {
    const auto& scenes = saved.integer("scenes");
    const auto& lines = saved.integer("lines");
    const auto& removed = saved.integer("removed");
    const auto points = split_at_offsets(saved.real("points"), saved.integer("offsets"), 2, "sink");
    const std::size_t n = scenes.size();
    const std::vector<double> always_opens(n, -std::numeric_limits<double>::infinity());
    const std::vector<double> always_closes(n, std::numeric_limits<double>::infinity());
    const auto& opens = saved.has_real("opens") ? saved.real("opens") : always_opens;
    const auto& closes = saved.has_real("closes") ? saved.real("closes") : always_closes;
    if (lines.size() != n || removed.size() != n || points.size() != n || opens.size() != n || closes.size() != n) {
        throw std::invalid_argument("sink entries differ in length");
    }
    if (n > 0 && state.dimensions() != 2) throw std::invalid_argument("it has sinks in a 3D engine");
    Sinks checked;
    for (std::size_t k = 0; k < n; ++k) {
        const std::string which = "sink " + std::to_string(k);
        if (lines[k] < 0 || lines[k] > 1 || removed[k] < 0 || removed[k] > 1) {
            throw std::invalid_argument(which + " has flags other than 0 or 1");
        }
        if (scenes[k] < -1 || scenes[k] > kCountRange.hi) {
            throw std::invalid_argument(which + ": scene is " + std::to_string(scenes[k]));
        }
        Sink sink{static_cast<int>(scenes[k]), lines[k] == 1, {}, removed[k] == 1, opens[k], closes[k]};
        for (std::size_t j = 0; j + 1 < points[k].size(); j += 2) sink.points.push_back(Vec2(points[k][j], points[k][j + 1]));
        if (sink.removed) {
            if (!sink.points.empty()) throw std::invalid_argument("removed " + which + " has points");
        } else {
            try {
                Sinks check;
                check.add(sink.scene, state.scenes(), sink.points.data(), static_cast<int>(sink.points.size()),
                          sink.line);
                check.set_open(0, sink.opens, sink.closes);
            } catch (const std::invalid_argument& error) {
                throw std::invalid_argument(which + ": " + error.what());
            }
        }
        checked.sinks_.push_back(std::move(sink));
    }
    sinks_ = std::move(checked.sinks_);
    before_.clear();
}

// States saved before scene features had their own entries.
std::vector<LegacyEntry> Sinks::legacy_entries() const {
    return {{"sink_scenes", "scenes"}, {"sink_lines", "lines"},   {"sink_removed", "removed"},
            {"sink_offsets", "offsets"}, {"sink_points", "points"}, {"sink_opens", "opens"},
            {"sink_closes", "closes"}};
}

}  // namespace vosim
