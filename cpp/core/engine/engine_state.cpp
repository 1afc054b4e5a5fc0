// Engine::snapshot and Engine::restore: the one place where the engine's
// state is taken apart and put back together (see engine_state.hpp).
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "engine/engine.hpp"
#include "limits.hpp"
#include "state/state_check.hpp"

namespace vosim {

namespace {

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("saved state: " + what); }

void save_obstacles(const ObstacleSet& set, int scene, std::vector<SavedObstacle>& out) {
    for (int o = 0; o < set.obstacle_count(); ++o) {
        SavedObstacle saved;
        saved.scene = scene;
        saved.kind = set.kind(o);
        saved.points = set.given_vertices(o);
        saved.removed = !set.live(o);
        saved.moving = set.moving(o);
        if (set.live(o) && set.moving(o)) {
            saved.velocity = set.velocity(o);
            saved.displacement = set.displacement(o);
        }
        out.push_back(std::move(saved));
    }
}

// Adds a saved obstacle to `set` as it was (k: its index in the snapshot).
void restore_obstacle(ObstacleSet& set, const SavedObstacle& o, std::size_t k) {
    const std::string name = "obstacle " + std::to_string(k);
    if (o.removed) {
        if (!o.points.empty()) refuse(name + " is removed but has vertices");
        set.add_removed(o.kind, o.moving);
        return;
    }
    for (const Vec2& v : {o.velocity, o.displacement}) {
        if (!within(v.x, kCoordinateRange) || !within(v.y, kCoordinateRange)) {
            refuse(name + " has a velocity or displacement out of range");
        }
    }
    if (!o.moving && (o.velocity.x != 0.0 || o.velocity.y != 0.0 || o.displacement.x != 0.0 ||
                      o.displacement.y != 0.0)) {
        refuse(name + " is static but has a velocity or displacement");
    }
    try {
        const int id = set.add(o.points.data(), static_cast<int>(o.points.size()), o.kind, o.moving, o.velocity);
        if (o.moving) set.set_displacement(id, o.displacement);
    } catch (const std::invalid_argument& error) {
        refuse(name + ": " + error.what());
    }
}

// Ids of live agents ascend with the slot in every scene (AgentState::locate
// relies on it), removed slots hold -1, and every id was handed out already.
void check_ids(const AgentState& s) {
    for (int b = 0; b < s.scenes(); ++b) {
        std::int64_t last = -1;
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::int64_t id = s.ids[s.index(b, slot)];
            if (id == -1) continue;
            if (id < 0 || id >= s.next_id() || id <= last) {
                refuse("ids[" + std::to_string(b) + ", " + std::to_string(slot) + "] is " + std::to_string(id) +
                       "; ids must ascend within a scene, below next_id " + std::to_string(s.next_id()) +
                       " (-1 for removed agents)");
            }
            last = id;
        }
    }
}

void check_flags(const Column<std::uint8_t>& column, const AgentState& s, const char* name) {
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            if (column[s.index(b, slot)] > 1) {
                refuse(std::string(name) + "[" + std::to_string(b) + ", " + std::to_string(slot) + "] is " +
                       std::to_string(column[s.index(b, slot)]) + "; flags are 0 or 1");
            }
        }
    }
}

// The columns added with agents' kinematics (kinematics.hpp): states saved
// before them lack them.
constexpr const char* kKinematicColumns[] = {"kinematics",  "headings",          "angular_velocities",
                                             "wheel_track", "max_wheel_speed",   "max_angular_speed",
                                             "effective_center_distance", "tracking_error",
                                             "tracking_time"};

}  // namespace

EngineSnapshot Engine::snapshot() const {
    EngineSnapshot out;
    const AgentState& s = state_;
    out.scenes = s.scenes();
    out.dimensions = s.dimensions();
    out.count = s.count();
    out.next_id = s.next_id();
    out.time_step = time_step_;
    out.time = time_;
    out.step_count = step_count_;
    // for_each_column only reads here.
    const_cast<AgentState&>(s).for_each_column([&](auto& column, int width, const char* name) {
        using Value = std::remove_reference_t<decltype(column[0])>;
        std::vector<Value> values(static_cast<std::size_t>(s.scenes()) * s.count() * width);
        for (int b = 0; b < s.scenes(); ++b) {
            const std::size_t from = s.index(b, 0) * width;
            const std::size_t to = static_cast<std::size_t>(b) * s.count() * width;
            for (std::size_t k = 0; k < static_cast<std::size_t>(s.count()) * width; ++k) {
                values[to + k] = column[from + k];
            }
        }
        out.columns.push_back({name, width, std::move(values)});
    });
    save_obstacles(shared_obstacles_, -1, out.obstacles);
    // Every scene's set, even one whose obstacles were all removed (its ids go on).
    for (std::size_t b = 0; b < scene_obstacles_.size(); ++b) {
        if (scene_obstacles_[b]) save_obstacles(*scene_obstacles_[b], static_cast<int>(b), out.obstacles);
    }
    for (const auto& [id, track] : waypoints_.tracks()) {
        out.waypoints.push_back({id, track.points, static_cast<std::int64_t>(track.next), track.radius});
    }
    std::sort(out.waypoints.begin(), out.waypoints.end(),
              [](const SavedWaypoints& a, const SavedWaypoints& b) { return a.id < b.id; });
    out.fallbacks = fallbacks_;
    return out;
}

void Engine::restore(const EngineSnapshot& saved) {
    BusyGuard guard(busy_);
    // Everything is built aside and checked first: a refused snapshot
    // changes nothing.
    if (saved.scenes != state_.scenes()) {
        refuse("it has " + std::to_string(saved.scenes) + " scenes; this engine has " +
               std::to_string(state_.scenes()));
    }
    if (saved.count < 0 || saved.count > AgentState::kMaxAgents) {
        refuse("count is " + std::to_string(saved.count));
    }
    if (!within(saved.time_step, kTimeRange)) {
        refuse("time_step is " + format_number(saved.time_step) + "; it must be " + describe(kTimeRange));
    }
    if (!std::isfinite(saved.time) || saved.step_count < 0) {
        refuse("time is " + format_number(saved.time) + " and step_count " + std::to_string(saved.step_count) +
               "; they must be finite and >= 0");
    }
    if (saved.dimensions != dimensions()) {
        refuse("it has dimensions=" + std::to_string(saved.dimensions) + "; this engine has dimensions=" +
               std::to_string(dimensions()));
    }
    AgentState state(saved.scenes, saved.dimensions);
    state.reset(saved.count, saved.next_id);
    std::size_t used = 0;
    state.for_each_column([&](auto& column, int width, const char* name) {
        using Value = std::remove_reference_t<decltype(column[0])>;
        const SavedColumn* found = nullptr;
        for (const SavedColumn& c : saved.columns) {
            if (c.name == name) found = &c;
        }
        if (!found) {
            if (!column_may_be_missing(name)) refuse(std::string("no column '") + name + "'");
            // Saved before agents had kinematics: all holonomic, headings 0.
            const double fill = missing_column_value(name);
            for (int b = 0; b < saved.scenes; ++b) {
                for (std::size_t k = 0; k < static_cast<std::size_t>(saved.count) * width; ++k) {
                    column[state.index(b, 0) * width + k] = static_cast<Value>(fill);
                }
            }
            return;
        }
        const auto* values = std::get_if<std::vector<Value>>(&found->values);
        const std::size_t expected = static_cast<std::size_t>(saved.scenes) * saved.count * width;
        if (!values || found->width != width || values->size() != expected) {
            refuse(std::string("column '") + name + "' has the wrong type or size (expected " +
                   std::to_string(expected) + " values of its type)");
        }
        for (int b = 0; b < saved.scenes; ++b) {
            const std::size_t to = state.index(b, 0) * width;
            const std::size_t from = static_cast<std::size_t>(b) * saved.count * width;
            for (std::size_t k = 0; k < static_cast<std::size_t>(saved.count) * width; ++k) {
                column[to + k] = (*values)[from + k];
            }
        }
        ++used;
    });
    if (used != saved.columns.size()) refuse("it has columns this engine does not know");
    check_ids(state);
    check_flags(state.active, state, "active");
    check_flags(state.has_goal, state, "has_goal");

    ObstacleSet shared;
    std::vector<std::unique_ptr<ObstacleSet>> own;
    for (std::size_t k = 0; k < saved.obstacles.size(); ++k) {
        const SavedObstacle& o = saved.obstacles[k];
        if (o.scene < -1 || o.scene >= saved.scenes) {
            refuse("obstacle " + std::to_string(k) + " belongs to scene " + std::to_string(o.scene));
        }
        if (static_cast<int>(o.kind) > static_cast<int>(ObstacleKind::boundary)) {
            refuse("obstacle " + std::to_string(k) + " has an unknown kind");
        }
        if (o.scene < 0) {
            restore_obstacle(shared, o, k);
            continue;
        }
        if (own.empty()) own.resize(saved.scenes);
        if (!own[o.scene]) own[o.scene] = std::make_unique<ObstacleSet>();
        restore_obstacle(*own[o.scene], o, k);
    }

    Waypoints waypoints;
    for (const SavedWaypoints& w : saved.waypoints) {
        WaypointTrack track;
        if (!state.locate(w.id, track.scene, track.slot)) refuse("waypoints of unknown agent " + std::to_string(w.id));
        const std::size_t d = static_cast<std::size_t>(saved.dimensions);
        if (w.points.empty() || w.points.size() % d != 0 || w.next < 0 ||
            w.next >= static_cast<std::int64_t>(w.points.size() / d) || !within(w.radius, kNonNegativeRange)) {
            refuse("the waypoints of agent " + std::to_string(w.id) + " are inconsistent");
        }
        for (const double c : w.points) {
            if (!within(c, kCoordinateRange)) refuse("a waypoint of agent " + std::to_string(w.id) + " is out of range");
        }
        track.points = w.points;
        track.next = static_cast<std::size_t>(w.next);
        track.radius = w.radius;
        waypoints.restore(w.id, std::move(track));
    }
    if (!saved.fallbacks.empty() && static_cast<int>(saved.fallbacks.size()) != saved.scenes) {
        refuse("fallbacks has " + std::to_string(saved.fallbacks.size()) + " values for " +
               std::to_string(saved.scenes) + " scenes");
    }

    state_ = std::move(state);
    time_step_ = saved.time_step;
    time_ = saved.time;
    step_count_ = saved.step_count;
    shared_obstacles_ = std::move(shared);
    scene_obstacles_ = std::move(own);
    waypoints_ = std::move(waypoints);
    fallbacks_ = saved.fallbacks;
    // Derived every step from the state above.
    order_.clear();
}

bool column_may_be_missing(const std::string& name) {
    for (const char* column : kKinematicColumns) {
        if (name == column) return true;
    }
    return false;
}

double missing_column_value(const std::string& name) {
    for (const FieldInfo& info : kAgentFields) {
        if (name == info.name) {
            return info.default_value == kRequired || info.default_value == kDerived ? 0.0 : info.default_value;
        }
    }
    return 0.0;
}

}  // namespace vosim
