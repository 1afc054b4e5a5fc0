// The simulation engine: B independent scenes of agents, 2 or 3 dimensions, stepped together by one avoidance
// method. A step (Engine::advance_in, ARCHITECTURE.md "The step") checks the state, then runs the phases of the
// table in step_phases.hpp (goals -> index -> velocities -> integrate -> resolve -> observe -> exits -> features ->
// wrap -> obstacle_motion), each timed, their work in their own files (agent_order: the index).
// No result depends on the order or thread agents are processed in; geometry phases are templates on Vec2/Vec3.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/agent_order.hpp"
#include "engine/engine_state.hpp"
#include "engine/integrate_phase.hpp"  // MotionBefore
#include "engine/run_types.hpp"
#include "engine/step_phases.hpp"
#include "engine/ticker.hpp"
#include "features/scene_features.hpp"
#include "goal_settings.hpp"
#include "method.hpp"
#include "obstacles/scene_obstacles.hpp"

namespace vosim {

struct StepContext;  // step_context.hpp

class Engine {
public:
    Engine(int scenes, double time_step, int dimensions = 2);  // dimensions: 2 or 3

    int dimensions() const { return state_.dimensions(); }
    AgentState& state() { return state_; }
    const AgentState& state() const { return state_; }
    bool busy() const { return busy_.load(); }  // a call (step, run, ...) is running on it
    // f() with the engine marked busy: the busy error instead while another
    // call runs (for the bindings' changes to the state).
    template <class F>
    auto exclusively(F&& f) {
        BusyGuard guard(busy_);
        return f();
    }
    double time_step() const { return time_step_; }
    void set_time_step(double time_step);
    double time() const { return time_; }
    std::int64_t step_count() const { return step_count_; }
    const std::shared_ptr<const Method>& method() const { return method_; }
    void set_method(std::shared_ptr<const Method> method);
    // The goals phase's preference noise and deadlock resolution (goal_settings.hpp; none by default).
    const GoalSettings& goal_settings() const { return goal_settings_; }
    void set_goal_settings(const GoalSettings& settings);
    const PhaseTimes& phase_times() const { return phase_times_; }  // since the engine was made
    const std::vector<std::int64_t>& fallbacks() const { return fallbacks_; }  // per scene (Workspace::used_fallback)
    std::vector<std::int64_t> add_agents(int n, const AgentInput& input, bool name_scenes = true);  // check_new_drives
    void remove_agents(const std::int64_t* ids, std::size_t count);
    // Obstacles (a unit of their own, obstacles/scene_obstacles.hpp; the engine adds its checks in
    // engine_obstacles.cpp; 2D only): add to one scene or to all (scene -1), returns the id within that set;
    // a moving one translates by `velocity` per second. Changes take effect at the next step.
    int add_obstacle(int scene, const Vec2* points, int count, ObstacleKind kind, bool moving = false,
                     Vec2 velocity = Vec2());
    void remove_obstacle(int scene, int id);
    void set_obstacle_velocity(int scene, int id, Vec2 velocity);
    const ObstacleSet& obstacles(int scene) const;  // scene -1: the shared set
    std::vector<int> scenes_with_obstacles() const;  // ascending
    bool blocked(int scene, Vec2 p, bool with_moving = true) const;  // p in the solid the scene sees
    double obstacle_clearance(int scene, Vec2 p) const;              // the signed distance to it
    // 3D obstacles (obstacles/scene_obstacles.hpp): one scene's set or the shared one (-1), to change between
    // steps; the first obstacle a ball penetrates (-1: none; `shared`: whether of the shared set).
    ObstacleSet3& obstacles3_for_change(int scene);
    const ObstacleSet3& obstacles3(int scene) const;
    int penetrated_obstacle3(int scene, Vec3 p, double radius, bool& shared) const;
    // One step; with a ticker, a long step polls it between blocks (abandoned, false, when it asks to stop).
    bool step(Ticker* ticker = nullptr);
    RunResult run(const RunOptions& options, const Recording& recording, const Tick& tick, const Pause& pause = {});
    bool all_arrived() const;  // arrivals.cpp: every goal-seeking agent at its final goal now
    bool mark_arrivals(std::vector<std::uint8_t>& reached) const;  // marks those there now; never unmarks
    // Scene features (features/scene_features.hpp): the goals phase lets them move goals on and steer the
    // agents they hold, the features phase updates them, the wrap phase lets them move agents, the neighbour
    // search looks across their seam; change them through exclusively().
    SceneFeatures& features() { return features_; }
    const SceneFeatures& features() const { return features_; }
    // Each agent's final goal (arrivals.cpp): the last a scene feature guides it to, else its goal.
    std::vector<double> final_goals() const;
    // Everything the next step depends on but the method, and its checked inverse (engine_state.cpp).
    EngineSnapshot snapshot() const;
    void restore(const EngineSnapshot& snapshot);
    // The entries under which states saved before a unit had a part of its own hold it, by unit name.
    static std::vector<std::pair<std::string, LegacyEntry>> legacy_entries();
    // What the method would see and decide for one agent at the next step (inspect.cpp; V: the engine's vectors).
    template <class V>
    DiagnosticsOf<V> inspect(int scene, int slot);
    // Agent neighbours (slots) of every slot as the next step would see them, padded with -1:
    // (scenes x count x width), width the largest max_neighbors, at most count - 1, at least 1.
    std::vector<std::int32_t> neighbor_table(int& width);

private:
    void validate() const;                       // std::invalid_argument naming the first bad agent
    void require_plane(const char* what) const;  // std::invalid_argument unless 2D
    bool advance(Ticker* ticker, std::int64_t steps_done);  // the step on a validated state
    template <class V>  // false: stopped, nothing advanced
    bool advance_in(Ticker* ticker, std::int64_t steps_done);
    // The step's phases (step_phases.hpp), in engine.cpp, all templates on the vector type so that one
    // table holds them; false: the step was abandoned.
#define VOSIM_PHASE_DECLARATION(name, doc) \
    template <class V>                     \
    bool name##_phase(StepContext& step);
    VOSIM_STEP_PHASES(VOSIM_PHASE_DECLARATION)
#undef VOSIM_PHASE_DECLARATION
    template <class V>
    bool compute_new_velocities(Ticker* ticker, std::int64_t steps_done);  // velocities_phase.cpp
    template <class V>
    std::size_t prepare_inspection(int scene, int slot, Workspace& ws);  // inspect.cpp
    void prepare_workspaces(int threads);
    void build_obstacles();  // the engine's dimension's sets
    int neighbor_capacity(std::size_t i) const;  // max_neighbors, at most the other agents
    // The one neighbour gathering (step, inspect, neighbor_table): agents nearest first into `agents` (returns
    // how many), obstacle edges or 3D surfaces nearest first appended to `edges` unless null.
    template <class V>
    int gather_neighbors(const GridOf<V>& grid, int scene, int slot, Neighbor* agents,
                         std::vector<ObstaclesNearOf<V>>* edges) const;
    void append_obstacle_neighbors(int scene, std::size_t i, std::vector<ObstacleNeighbor>& out) const;
    void append_obstacle_neighbors(int scene, std::size_t i, std::vector<ObstacleContact3>& out) const;
    template <class V>  // neighbours of agents [begin, end) in processing order into ws (observed in a run)
    void find_neighbors(std::int64_t begin, std::int64_t end, Workspace& ws) const;
    // The resolve phase (resolve_phase.cpp, plane only): the neighbours of the
    // velocities phase gathered before the integration, then the rounds.
    void gather_overlap_neighbors();
    void resolve_overlaps(const OverlapResolution& rule, const ObstacleWorld* guard);
    template <class V>  // metrics of the state observed (engine_metrics.cpp)
    void observe_agent(int scene, int slot, std::size_t i, Span<Neighbor> agents, int wanted,
                       Span<ObstaclesNearOf<V>> edges, StateTally& tally) const;
    void observe_state();
    template <class V>
    void observe_state_in();  // engine_metrics.cpp
    void record(const Recording& recording, std::int64_t frame) const;
    const AgentState& seen_state() const { return nonholonomic_ ? presented_ : state_; }  // as the method sees it (present_state)

    AgentState state_;
    double time_step_;
    double time_ = 0.0;
    std::int64_t step_count_ = 0;
    std::shared_ptr<const Method> method_;
    GoalSettings goal_settings_;
    AgentOrder order_;                                // the index phase's grids and processing order
    SceneObstacles obstacles_;                        // shared and per scene, 2D and 3D
    std::vector<Workspace> workspaces_;               // one per thread
    std::unique_ptr<StepData> step_data_;             // the method's per-step data
    double velocity_seconds_per_agent_ = 0.0;         // the last velocities phase's work per agent
    std::atomic<bool> busy_{false};
    RunMetrics* metrics_ = nullptr;      // during a run that gathers metrics
    double metrics_largest_radius_ = 0;  // of the state observed
    PhaseTimes phase_times_;
    std::vector<std::int64_t> fallbacks_;  // per scene, since the engine was made
    bool nonholonomic_ = false;            // the step under way has non-holonomic agents
    AgentState presented_;                 // then: the state the method sees
    MotionBefore motion_before_;           // the integrate phase's output for the observe phase
    SceneFeatures features_;               // steered in the goals phase, updated in the features phase
    struct OverlapBuffers {                // the resolve phase's, per storage index
        std::vector<Neighbor> neighbors;   // each agent's from starts[i], counts[i] of them
        std::vector<std::size_t> starts;
        std::vector<int> counts;
        std::vector<double> pushes;        // one round's push of each agent
    } overlap_;
};

}  // namespace vosim
