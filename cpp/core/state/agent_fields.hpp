// The table of per-agent fields: the one place that names them.
//
// Each row drives the column storage (AgentState), add_agents' input
// (AgentInput and AgentState::append), the per-step state check
// (state_check.cpp), the NumPy views and the Python field list with its docs
// (exported as _core.AGENT_FIELDS). Adding a per-agent field is one row here
// plus the code that uses it.
//
// A row: X(name, value type, width, role, check, range, default, doc)
//   width    components per agent: 1, or kVector for vectors, whose width is
//            the engine's dimension (2 or 3; AgentState::width_of);
//   role     kInput: given to add_agents, writable view; kState: the
//            engine's, set to its default at append, writable view; kHidden:
//            as kState, but not a public attribute in Python (its view is
//            for tests); kReadOnly: read-only view; kInternal: no view;
//   check    when the per-step check applies: kAlways, kWithGoal (agents with a
//            goal only), kWithoutGoal, kNever;
//   range    accepted values (limits.hpp); for hidden and read-only fields
//            checked kNever, what a restored state may hold (engine_state.cpp);
//   default  add_agents' default: a number, or kRequired / kDerived (Python
//            fills it from another argument; see python/vosim/_fields.py).
//
// The defaults of the agent's size, speeds and horizons describe a walking
// adult (README, "Default agent", says where each number comes from); RVO2's
// example values live in the scenarios that reproduce its examples and in
// vosim.compat.rvo2.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "limits.hpp"

namespace vosim {

enum class FieldRole { kInput, kState, kHidden, kReadOnly, kInternal };
enum class FieldCheck { kAlways, kWithGoal, kWithoutGoal, kNever };

// The width of vector rows: as many components as the engine has dimensions.
inline constexpr int kVector = 0;

// Marker defaults (NaN payloads would be fragile; these are never valid values
// of any field because their ranges exclude them).
inline constexpr double kRequired = -std::numeric_limits<double>::infinity();
inline constexpr double kDerived = std::numeric_limits<double>::lowest();

#define VOSIM_AGENT_FIELDS(X)                                                                              \
    X(positions, double, kVector, kInput, kAlways, kCoordinateRange, kRequired, "Agent positions.")             \
    X(velocities, double, kVector, kInput, kAlways, kCoordinateRange, 0.0, "Current velocities.")               \
    X(pref_velocities, double, kVector, kInput, kWithoutGoal, kCoordinateRange, 0.0,                             \
      "Preferred velocities; agents with a goal get theirs from the goal before each step.")              \
    X(goals, double, kVector, kInput, kWithGoal, kCoordinateRange, kDerived,                                     \
      "Goals (NaN rows: no goal); an agent with one heads for it at pref_speed.")                          \
    X(new_velocities, double, kVector, kInternal, kNever, kCoordinateRange, kDerived,                            \
      "The method's output of the step under way, copied into velocities by integration.")                \
    X(radius, double, 1, kInput, kAlways, kNonNegativeRange, 0.25, "Agent radii.")                         \
    X(max_speed, double, 1, kInput, kAlways, kNonNegativeRange, 1.8, "Maximum speeds.")                    \
    X(pref_speed, double, 1, kInput, kWithGoal, kNonNegativeRange, 1.3,                                    \
      "Speed at which goal-seeking agents head for their goals (the default holds while max_speed is "    \
      "left at its own; given max_speed, agents head for their goals at it).")                            \
    X(neighbor_dist, double, 1, kInput, kAlways, kNonNegativeRange, 10.0, "Neighbour search distances.")   \
    X(max_neighbors, std::int32_t, 1, kInput, kAlways, kCountRange, 10.0,                                  \
      "Maximum numbers of agent neighbours.")                                                              \
    X(time_horizon, double, 1, kInput, kAlways, kTimeRange, 3.0, "Time horizons towards other agents.")    \
    X(time_horizon_obst, double, 1, kInput, kAlways, kTimeRange, 3.0, "Time horizons towards obstacles.")  \
    X(arrival_radius, double, 1, kInput, kWithGoal, kNonNegativeRange, kDerived,                           \
      "Distance to the goal within which an agent counts as arrived (default: radius).")                  \
    X(start_time, double, 1, kInput, kWithGoal, kNonNegativeRange, 0.0,                                   \
      "Pre-movement time (s of simulated time): a goal-seeking agent stands still until the step that "  \
      "begins within half a time step of it, then heads for its goal (engine/start_times.hpp).")        \
    X(remove_at_goal, std::uint8_t, 1, kInput, kNever, kUnboundedRange, 0.0,                               \
      "Whether the agent leaves the simulation (becomes inactive) at the end of the step in which it is "  \
      "at its final goal: within arrival_radius, no waypoint left (engine/exit_phase.hpp).")              \
    X(exit_time, double, 1, kReadOnly, kNever, kNonNegativeRange, std::numeric_limits<double>::quiet_NaN(), \
      "Simulated time at which the agent left through a sink or at its goal (NaN: it has not left).")      \
    X(exit_sink, std::int32_t, 1, kReadOnly, kNever, kSinkIdRange, -1.0,                                   \
      "Id of the sink the agent left through (-1: none, or it left at its goal; see exit_time).")         \
    X(priority, double, 1, kInput, kAlways, kNonNegativeRange, 1.0,                                        \
      "ORCA priorities: agent A takes priority_B / (priority_A + priority_B) of a pair's avoidance "       \
      "(half when equal, as RVO2; all of it when A's is 0 and B's is not).")                               \
    X(max_acceleration, double, 1, kInput, kAlways, kUnboundedRange,                                       \
      std::numeric_limits<double>::infinity(),                                                             \
      "Largest change of velocity per second (inf or None: none). ORCA and AVO keep it inside their "      \
      "linear programs (AVO(variant='avo2') needs it finite); other methods, and ORCA(acceleration="     \
      "'clamp'), have it applied after they chose a velocity (the HRVO library's rule).")                \
    X(acceleration_interval, double, 1, kInput, kAlways, kTimeRange, 0.5,                                  \
      "AVO: time constant (seconds) of the velocity controller: the velocity approaches the target as "   \
      "1 - exp(-t / acceleration_interval), and the target lies within max_acceleration times it.")      \
    X(uncertainty_offset, double, 1, kInput, kAlways, kNonNegativeRange, 0.0,                              \
      "Velocity-obstacle methods (VO, RVO, HRVO) widen every cone by this, as the HRVO library's "          \
      "agents do.")                                                                                         \
    X(kinematics, std::int8_t, 1, kInput, kAlways, kKinematicsRange, 0.0,                                 \
      "Kinematic model: 'holonomic' (moves in any direction), 'differential_drive' (two wheels "         \
      "wheel_track apart, each at most max_wheel_speed) or 'unicycle' (forward speed and turn rate "      \
      "limited apart); stored as 0, 1, 2 (kinematics.hpp).")                                              \
    X(headings, double, 1, kInput, kAlways, kCoordinateRange, kDerived,                                    \
      "Headings (radians, counter-clockwise from +x, kept in (-pi, pi]); non-holonomic agents move "      \
      "along theirs, holonomic ones turn it to their velocity. Default: the direction of the initial "   \
      "velocity, else of the goal, else 0.")                                                              \
    X(angular_velocities, double, 1, kReadOnly, kNever, kCoordinateRange, 0.0,                              \
      "Turn rates (radians per second, counter-clockwise) of non-holonomic agents over the last step, "   \
      "as integration realised them (holonomic agents' are not kept: see peak_angular_speed).")          \
    X(wheel_track, double, 1, kInput, kAlways, kNonNegativeRange, kDerived,                                \
      "Differential drive: distance between the wheels (default: radius); > 0 for such agents.")        \
    X(max_wheel_speed, double, 1, kInput, kAlways, kNonNegativeRange, kDerived,                            \
      "Differential drive: largest speed of each wheel (default: max_speed).")                           \
    X(max_angular_speed, double, 1, kInput, kAlways, kUnboundedRange,                                      \
      std::numeric_limits<double>::infinity(),                                                             \
      "Non-holonomic agents: largest turn rate (radians per second; inf: none, for differential "        \
      "drives only: unicycles need it finite and > 0).")                                                  \
    X(effective_center_distance, double, 1, kInput, kAlways, kNonNegativeRange, kDerived,                 \
      "Non-holonomic agents: distance D ahead of the axle of the point the avoidance method steers "    \
      "(ORCA-DD's effective centre, seen with radius + D; default: wheel_track / 2); > 0 for such agents.") \
    X(tracking_error, double, 1, kInput, kAlways, kPositiveRange, 0.1,                                    \
      "ORCA(nonholonomic='nh_orca'): largest distance eps (m) a non-holonomic agent may stray from the "  \
      "holonomic path ORCA plans; it is seen with radius + eps. At least 1e-4 x its top speed x its "    \
      "turn time (kMinTrackingErrorShare, nh_orca.hpp), checked when it steps.")                            \
    X(tracking_time, double, 1, kInput, kAlways, kTimeRange, 0.5,                                         \
      "ORCA(nonholonomic='nh_orca'): time T (s) in which a non-holonomic agent turns to the holonomic "   \
      "velocity's direction (longer where its limits turn it slower; at least one time step).")         \
    X(ids, std::int64_t, 1, kReadOnly, kNever, kUnboundedRange, kDerived,                                  \
      "Agent id of each slot (-1: removed).")                                                              \
    X(active, std::uint8_t, 1, kState, kNever, kUnboundedRange, 1.0,                                       \
      "Whether each agent takes part; inactive agents neither move nor are seen by others.")              \
    X(has_goal, std::uint8_t, 1, kInput, kNever, kUnboundedRange, kDerived,                                \
      "Whether each agent seeks its goal (set from goals by add_agents and by assigning goals).")          \
    X(deadlock_timer, double, 1, kHidden, kNever, kNonNegativeRange, 0.0,                                    \
      "Deadlock resolution (method.hpp), updated at integration: seconds stalled so far while "           \
      "detour_side is 0, else the seconds the detour has left.")                                          \
    X(detour_side, std::int8_t, 1, kHidden, kNever, kSideRange, 0.0,                                       \
      "Deadlock resolution's detour: +1 turns right, -1 left, 0 none.")

// add_agents' derived defaults: an input field whose default is kDerived and
// that follows another takes `scale` x that field's values when not given
// (rows in the order they are resolved). Python applies them from
// _core.DERIVED_DEFAULTS (python/vosim/_fields.py); goals, has_goal and
// headings, derived from geometry, are Python's own, and so is pref_speed's
// rule (its number above, or max_speed's where only that was given:
// _fields.CONDITIONAL_DEFAULTS).
struct DerivedDefault {
    const char* field;
    const char* from;
    double scale;
};
inline constexpr DerivedDefault kDerivedDefaults[] = {
    {"arrival_radius", "radius", 1.0},
    {"wheel_track", "radius", 1.0},
    {"max_wheel_speed", "max_speed", 1.0},
    {"effective_center_distance", "wheel_track", 0.5},
};

// Fields stored as one value while every agent holds the same one
// (lazy_column.hpp): those of one method or feature, which most agents leave
// at their defaults. Together they are about 120 of the ~280 bytes an agent
// slot would otherwise take. Fields read for every agent and neighbour in
// most steps (positions, radii, speeds, horizons, ...) are not among them.
inline constexpr const char* kLazyFields[] = {
    "start_time",      "remove_at_goal",        "exit_time",   "exit_sink",
    "priority",        "max_acceleration",      "acceleration_interval",
    "uncertainty_offset", "kinematics",         "angular_velocities",
    "wheel_track",     "max_wheel_speed",       "max_angular_speed",
    "effective_center_distance", "tracking_error", "tracking_time",
    "deadlock_timer",  "detour_side",
};

constexpr bool same_name(const char* a, const char* b) {
    while (*a && *a == *b) ++a, ++b;
    return *a == *b;
}

constexpr bool stored_lazily(const char* field) {
    for (const char* name : kLazyFields) {
        if (same_name(name, field)) return true;
    }
    return false;
}

// One row of the table as data (for the bindings and the C++ tests).
struct FieldInfo {
    const char* name;
    const char* type;  // "float64", "int32", "int64", "int8" or "bool"
    int width;  // kVector for vectors
    FieldRole role;
    FieldCheck check;
    Range range;
    double default_value;
    const char* doc;
};

template <typename T>
constexpr const char* field_type_name() {
    if constexpr (std::is_same_v<T, double>) return "float64";
    if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
    if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
    if constexpr (std::is_same_v<T, std::int8_t>) return "int8";
    return "bool";  // std::uint8_t columns hold flags
}

#define VOSIM_FIELD_INFO(name, T, width, role, check, range, fallback, doc) \
    FieldInfo{#name, field_type_name<T>(), width, FieldRole::role, FieldCheck::check, range, fallback, doc},
inline constexpr FieldInfo kAgentFields[] = {VOSIM_AGENT_FIELDS(VOSIM_FIELD_INFO)};
#undef VOSIM_FIELD_INFO

// Every lazy field is a row of the table with one value per agent, which
// add_agents gives or whose default is a number (AgentState::append).
constexpr bool lazy_fields_are_valid() {
    for (const char* name : kLazyFields) {
        bool valid = false;
        for (const FieldInfo& field : kAgentFields) {
            valid = valid || (same_name(field.name, name) && field.width == 1 &&
                              (field.role == FieldRole::kInput || field.default_value != kDerived));
        }
        if (!valid) return false;
    }
    return true;
}
static_assert(lazy_fields_are_valid(), "kLazyFields names a field that is not in the table or not one value per agent");

}  // namespace vosim
