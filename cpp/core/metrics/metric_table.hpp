// The table of run metrics: the one place that names them.
//
// Each row drives RunMetrics' result members (metrics.hpp), the dict the
// binding returns after a run (bind_metrics.cpp), the Python lists of names
// and the definitions in the vosim.metrics documentation (exported as
// _core.RUN_METRICS). Adding a metric is one row here plus the code in
// metrics.cpp that computes it.
//
// A row: X(name, scope, value type, unit, definition)
//   scope   kScene: one value per scene; kAgent: per agent slot, scene-major
//           (scenes x count); kSeries: per observed state, frames x scenes;
//           kTiming: seconds of the run, the same for every scene (filled
//           from PhaseTimes, not a RunMetrics member);
//   type    the member's element type; std::uint8_t holds flags (bool in
//           Python);
//   unit    "1" for a ratio, "bool" for a flag;
//   definition  reStructuredText, shown as given in vosim.metrics.
#pragma once

#include <cstdint>

namespace vosim {

enum class MetricScope { kScene, kAgent, kSeries, kTiming };

// How far (m) a disc must reach past an obstacle edge for obstacle_agent_steps to count it: shallower
// reaches are the round-off of a disc resting against a wall (the obstacle guard leaves discs at
// distances like radius - 6e-12 m), not contacts. Written once, as a macro, so that the metric's
// definition below quotes the same number the observer compares with.
#define VOSIM_OBSTACLE_CONTACT_TOLERANCE 1e-9
#define VOSIM_METRIC_QUOTE_(x) #x
#define VOSIM_METRIC_QUOTE(x) VOSIM_METRIC_QUOTE_(x)
inline constexpr double kObstacleContactTolerance = VOSIM_OBSTACLE_CONTACT_TOLERANCE;

#define VOSIM_RUN_METRICS(X)                                                                                 \
    X(collision_agent_steps, kScene, std::int64_t, "agent-states",                                            \
      "Agent-states in which the agent overlaps another agent (its disc and another's intersect: "           \
      "``dist < r_i + r_j``), counted over the start and the state after each step.")                        \
    X(collision_pairs, kScene, std::int64_t, "pairs",                                                         \
      "Distinct pairs of agents that overlapped at some point. At most ``16 × N`` pairs are told apart "      \
      "(``N`` agents per scene), so that memory stays linear in the agents however many overlap: past "     \
      "that, ``collision_pairs_capped`` is True and ``collision_pairs`` reads ``16 × N + 1``, a lower bound.") \
    X(collision_pairs_capped, kScene, std::uint8_t, "bool", "Whether ``collision_pairs`` passed its cap.")      \
    X(max_penetration, kScene, double, "m", "Largest ``r_i + r_j - dist`` over all overlaps (0 without any).") \
    X(obstacle_agent_steps, kScene, std::int64_t, "agent-states",                                             \
      "Agent-states in which an agent's disc reaches past an obstacle edge it faces by more than "            \
      VOSIM_METRIC_QUOTE(VOSIM_OBSTACLE_CONTACT_TOLERANCE) " m (its centre is closer to the edge than its "  \
      "radius minus that tolerance; shallower reaches are round-off of a disc resting against a wall). "    \
      "Moving obstacles count too, where they are in that state.")                                          \
    X(max_obstacle_penetration, kScene, double, "m",                                                          \
      "Largest ``radius - distance`` of an agent to an obstacle edge it faces (0 without any).")              \
    X(min_clearance, kScene, double, "m",                                                                     \
      "Smallest ``dist - r_i - r_j`` over the states of the run, between each agent and its neighbours "     \
      "(the ``max_neighbors`` nearest within ``neighbor_dist``) and every agent it overlaps; ``inf`` with "  \
      "no pair in range. Negative means overlap.")                                                          \
    X(arrival_rate, kScene, double, "1", "Share of the goal-seeking agents that arrived during the run (see Arrival).") \
    X(makespan, kScene, double, "s", "Seconds until the last goal-seeking agent arrived; NaN unless all did.")  \
    X(mean_travel_time, kScene, double, "s", "Mean seconds to arrival, over the agents that arrived.")          \
    X(mean_path_length, kScene, double, "m", "Mean distance travelled during the whole run, over the agents.") \
    X(path_efficiency, kScene, double, "1",                                                                   \
      "Mean, over the agents that arrived, of straight-line distance from start to arrival point over the "  \
      "distance travelled until then (1: a straight path).")                                                \
    X(mean_speed, kScene, double, "m/s",                                                                      \
      "Mean over the agents of each one's speed while travelling: distance travelled until arrival (or "    \
      "exit) over the time until then, or, for agents that did neither (and those without a goal), "         \
      "distance over the run's duration. Agents that arrived early are not slowed by waiting for the others (or, "   \
      "in a Batch, for other scenes).")                                                                     \
    X(sum_abs_dv, kScene, double, "m/s", "Smoothness: sum over agents and steps of ``|v_k - v_{k-1}|``.")      \
    X(sum_abs_da, kScene, double, "m/s^2",                                                                    \
      "Smoothness: sum over agents and steps of ``|a_k - a_{k-1}|`` with ``a_k = (v_k - v_{k-1}) / dt``.")    \
    X(stalled_agents, kScene, std::int64_t, "agents",                                                         \
      "Goal-seeking agents that moved slower than 0.05 m/s without having arrived for at least 40 steps "   \
      "in a row (waiting for their start time, or in a waiting stage, aside): deadlock detection.")             \
    X(fallbacks, kScene, std::int64_t, "agent-steps",                                                         \
      "Agent-steps in which the method fell back: ORCA's linear program 3 (its half-planes left no "         \
      "admissible velocity), or geometric selection finding nothing admissible.")                           \
    X(exits, kScene, std::int64_t, "agents",                                                                  \
      "Agents that left the simulation during the run: through a sink, or at their final goal with "        \
      "``remove_at_goal`` (these also count as arrived). Agents that left stay in every metric of the run "  \
      "(an agent that left through a sink without reaching its goal counts as not arrived).")               \
    X(last_exit_time, kScene, double, "s", "Seconds of the run until the last of its exits; NaN without any.") \
    X(arrival_step, kAgent, std::int64_t, "steps", "Steps of the run until arrival, -1 if not.")               \
    X(exit_step, kAgent, std::int64_t, "steps", "Steps of the run until the agent left, -1 if it did not.")   \
    X(path_length, kAgent, double, "m", "Distance travelled during the whole run.")                            \
    X(agent_path_efficiency, kAgent, double, "1", "As ``path_efficiency``, for the agent (NaN unless it arrived).") \
    X(agent_mean_speed, kAgent, double, "m/s", "As ``mean_speed``, for the agent.")                            \
    X(longest_stall, kAgent, std::int32_t, "steps",                                                           \
      "Longest run of steps in which the agent stalled (see ``stalled_agents``).")                           \
    X(peak_acceleration, kAgent, double, "m/s^2",                                                             \
      "The largest realised ``|v_k - v_{k-1}| / dt`` over the run: compare it with ``max_acceleration``.")   \
    X(peak_angular_speed, kAgent, double, "rad/s",                                                            \
      "The largest realised ``|theta_k - theta_{k-1}| / dt`` over the run, heading changes wrapped to "      \
      "``(-pi, pi]``: compare it with ``max_angular_speed``; NaN for holonomic agents and in 3D, whose "     \
      "headings only follow their velocities, so that a reversal would read as a half-turn in one step.")   \
    X(min_clearance_series, kSeries, double, "m", "As ``min_clearance``, for that state.")                     \
    X(collisions_series, kSeries, std::int64_t, "pairs",                                                      \
      "Overlapping pairs in that state, counted up to the same cap as ``collision_pairs``: ``16 × N + 1`` "  \
      "means more.")

#define VOSIM_RUN_TIMES(X)                                                                                   \
    X(time_neighbors, kTiming, double, "s",                                                                   \
      "Seconds of the run spent finding neighbours (index and queries, agents and obstacle edges), "        \
      "averaged over threads.")                                                                             \
    X(time_velocities, kTiming, double, "s", "Seconds of the run spent in the method, averaged over threads.") \
    X(time_integration, kTiming, double, "s", "Seconds of the run spent integrating, averaged over threads.")

// One row of the table as data (for the bindings and the C++ tests).
struct MetricInfo {
    const char* name;
    MetricScope scope;
    const char* unit;
    const char* doc;
};

#define VOSIM_METRIC_INFO(name, scope, T, unit, doc) MetricInfo{#name, MetricScope::scope, unit, doc},
inline constexpr MetricInfo kRunMetrics[] = {VOSIM_RUN_METRICS(VOSIM_METRIC_INFO) VOSIM_RUN_TIMES(VOSIM_METRIC_INFO)};
#undef VOSIM_METRIC_INFO

}  // namespace vosim
