// The simulation engine: B independent scenes of agents stepped together by
// one avoidance method.
//
// One step (ARCHITECTURE.md, "The step"):
//   0. check the state (the views let users write anything into it);
//   1. preferred velocities of goal-seeking agents from their goals;
//   2. neighbour index per scene over the frozen positions;
//   3. every agent's new velocity from the method, in parallel;
//   4. integration: v = v_new, p += v * dt.
// Nothing in phase 3 depends on the order or the thread in which agents are
// processed, so results are identical for any thread count.
//
// The engine has 2 or 3 dimensions (the width of the vector fields). Its
// orchestration is written once; the phases that do geometry are templates
// on the vector type (Vec2, Vec3), chosen once per phase by dimensions().
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "agent_state.hpp"
#include "engine_state.hpp"
#include "method.hpp"
#include "neighbor_index.hpp"
#include "metrics.hpp"
#include "obstacles.hpp"
#include "obstacles3d.hpp"
#include "waypoints.hpp"

namespace vosim {

struct RunOptions {
    std::int64_t steps = 0;
    std::int64_t record_every = 1;
    bool until_arrived = false;
    double tick_seconds = 0.05;  // how often `tick` is called during a run
    bool metrics = true;         // gather RunMetrics
    MetricsSettings metrics_settings;
    std::int64_t pause_every = 0;  // call `pause` after every this many steps (0: never)
};

// New waypoint tracks for some agents, as Engine::set_waypoints takes them.
struct NewTracks {
    std::vector<std::int64_t> ids;
    std::vector<std::int64_t> offsets{0};  // in points
    std::vector<double> points;            // flat, the engine's dimension per point
    std::vector<double> radius;
};

// Called between the steps of a run, every RunOptions::pause_every steps
// (a fixed count, so that runs stay deterministic), with the number of steps
// done; the tracks it returns replace those agents' waypoints before the
// next step. It may read the engine, not change it.
using Pause = std::function<NewTracks(std::int64_t)>;

// Caller-owned output of a run, each array sized for `max_frames` frames of
// scenes x count agents (positions and velocities: one component per
// dimension). Null pointers
// are not written.
struct Recording {
    double* positions = nullptr;
    double* velocities = nullptr;
    double* headings = nullptr;  // one value per agent
    double* times = nullptr;
    std::int64_t* steps = nullptr;
    std::int64_t max_frames = 0;
};

// Seconds spent in each phase of the steps so far (phase 3 split in its
// neighbour queries and its method calls), averaged over the threads.
struct PhaseTimes {
    double neighbors = 0.0;   // neighbour index and queries (agents and obstacle edges)
    double velocities = 0.0;  // the method
    double integration = 0.0;
};

struct RunResult {
    std::int64_t steps_done = 0;
    std::int64_t frames = 0;
    bool all_arrived = false;  // every goal-seeking agent arrived during the run (Engine::mark_arrivals)
    bool stopped = false;  // `tick` asked to stop
    std::shared_ptr<RunMetrics> metrics;  // null when the run had no agents
    PhaseTimes times;                     // spent in this run
    double step_seconds = 0.0;            // wall time inside the steps (checks included)
    // What stopped the run when a step failed after the first (a bad value
    // written into the state during the run, a method's failure); the state
    // is then the one after the last completed step, and it is recorded.
    std::exception_ptr error;
};

// Called every `tick_seconds` with the number of steps done; returns false to
// stop the run. A stop requested in the middle of a step abandons that step.
using Tick = std::function<bool(std::int64_t)>;

// Calls a Tick at most once per interval of wall time: between the steps of
// a run, and between blocks of agents inside a long step, so that a step of
// a huge crowd can be stopped within about one interval too.
class Ticker {
public:
    Ticker(Tick tick, double seconds);
    // Calls the tick when an interval has passed since the last call (or
    // since construction); returns false when the tick asked to stop.
    bool poll(std::int64_t steps_done);

private:
    Tick tick_;
    double seconds_;
    std::chrono::steady_clock::time_point last_;
};

// Frames a run of `steps` steps records: the start, every record_every-th
// step, and the last step.
std::int64_t frames_for(std::int64_t steps, std::int64_t record_every);

class Engine {
public:
    // `dimensions`: 2 (agents in the plane) or 3.
    Engine(int scenes, double time_step, int dimensions = 2);

    int dimensions() const { return state_.dimensions(); }

    AgentState& state() { return state_; }
    const AgentState& state() const { return state_; }

    // Whether a call (step, run, add or remove agents...) is running on it.
    bool busy() const { return busy_.load(); }

    double time_step() const { return time_step_; }
    void set_time_step(double time_step);
    double time() const { return time_; }
    std::int64_t step_count() const { return step_count_; }

    const std::shared_ptr<const Method>& method() const { return method_; }

    // Time spent per phase since the engine was made.
    const PhaseTimes& phase_times() const { return phase_times_; }
    // Per scene, how many agent-steps fell back (see Workspace::used_fallback).
    const std::vector<std::int64_t>& fallbacks() const { return fallbacks_; }
    void set_method(std::shared_ptr<const Method> method);

    std::vector<std::int64_t> add_agents(int n, const AgentInput& input);

    // Obstacles (2D engines; a 3D engine refuses them). Adds an obstacle to one scene, or to all scenes when scene == -1, and
    // returns its id within that set. Takes effect at the next step. A
    // moving obstacle translates by `velocity` every second, from the next
    // step on.
    int add_obstacle(int scene, const Vec2* points, int count, ObstacleKind kind, bool moving = false,
                     Vec2 velocity = Vec2());
    // Removes obstacle `id` of a set (scene -1: the shared set).
    void remove_obstacle(int scene, int id);
    // Sets the velocity of a moving obstacle.
    void set_obstacle_velocity(int scene, int id, Vec2 velocity);
    // The obstacles of one scene (scene >= 0) or those shared by all (-1).
    const ObstacleSet& obstacles(int scene) const;
    // The scenes that have obstacles of their own, ascending.
    std::vector<int> scenes_with_obstacles() const;
    // Whether p is in the solid part of the obstacles scene `scene` sees
    // (its static ones only unless with_moving).
    bool blocked(int scene, Vec2 p, bool with_moving = true) const;
    // Signed distance from p to the nearest obstacle surface of that scene:
    // negative in the solid, +infinity without obstacles.
    double obstacle_clearance(int scene, Vec2 p) const;

    // 3D obstacles (engine_obstacles3d.cpp): the set of one scene (scene >=
    // 0, made on demand) or the one all scenes share (-1), to add shapes to
    // or remove them from between steps (refused while the engine is busy
    // or has 2 dimensions). Changes take effect at the next step.
    ObstacleSet3& obstacles3_for_change(int scene);
    const ObstacleSet3& obstacles3(int scene) const;
    // The first obstacle (id, -1: none; in `shared` whether of the shared
    // set) that a ball of `radius` at p penetrates in scene `scene`.
    int penetrated_obstacle3(int scene, Vec3 p, double radius, bool& shared) const;
    void remove_agents(const std::int64_t* ids, std::size_t count);

    // One step. With a ticker, a long step polls it between blocks of agents
    // and is abandoned when it asks to stop: false is returned and nothing is
    // advanced.
    bool step(Ticker* ticker = nullptr);
    RunResult run(const RunOptions& options, const Recording& recording, const Tick& tick,
                  const Pause& pause = {});

    // True when every active goal-seeking agent is at its final goal (no
    // waypoints left) within its arrival radius (vacuously true when there
    // is none).
    bool all_arrived() const;
    // Marks in `reached` (one entry per agent slot of every scene) the active
    // goal-seeking agents now within their arrival radius of their final goal;
    // whether every one of them is marked. A run marks after every step: an
    // agent has arrived from the first step it is there, and stays counted.
    bool mark_arrivals(std::vector<std::uint8_t>& reached) const;

    // Waypoints: agent `ids[k]` follows points offsets[k] .. offsets[k+1]
    // (none: its track is cleared), moving on within radius[k] of each;
    // `points` holds dimensions() values per point.
    void set_waypoints(const std::int64_t* ids, std::size_t count, const std::int64_t* offsets,
                       const double* points, const double* radius);
    // Waypoints left after each agent's current goal, (scenes x count).
    std::vector<std::int32_t> waypoints_remaining() const;
    // Where each agent is finally bound, (scenes x count): the last
    // waypoint of its track, or its goal without one; dimensions() values
    // per agent.
    std::vector<double> final_goals() const;

    // Everything the next step depends on except the method (which the
    // caller keeps: methods are configuration), and its inverse. restore()
    // checks the snapshot (std::invalid_argument naming what is wrong) and
    // changes nothing when it refuses it; the engine must have as many
    // scenes as the snapshot.
    EngineSnapshot snapshot() const;
    void restore(const EngineSnapshot& snapshot);

    // What the method would see and decide for one agent at the next step,
    // computed on demand (the preferred velocities of goal-seeking agents are
    // brought up to date as the step would).
    Diagnostics inspect(int scene, int slot);
    // The same for a 3D engine.
    Diagnostics3 inspect_3d(int scene, int slot);

    // Agent neighbours (slots) of every slot of every scene as the next step
    // would see them, padded with -1: row-major (scenes x count x width),
    // width = the largest max_neighbors, at most count - 1, at least 1.
    std::vector<std::int32_t> neighbor_table(int& width);

private:
    // Throws std::invalid_argument naming the first bad agent, id and field.
    void validate() const;
    // Throws std::invalid_argument unless the engine has 2 dimensions (what: the call).
    void require_plane(const char* what) const;
    // Calls f(V()) with the engine's vector type: the one place that turns
    // the dimension into a type.
    template <class F>
    decltype(auto) with_vector_type(F&& f) const {
        if (dimensions() == 3) return f(Vec3());
        return f(Vec2());
    }
    template <class V>
    void update_pref_velocities();
    template <class V>
    void build_neighbor_index();
    // False when the ticker asked to stop (nothing written but new_velocities).
    template <class V>
    bool compute_new_velocities(Ticker* ticker, std::int64_t steps_done);
    template <class V>
    void integrate();
    // Deadlock resolution's per-agent timer and detour, after agent i's new
    // velocity (travelling: seeking a goal it has not reached).
    void update_deadlock_state(const DeadlockResolution& rule, std::size_t i, bool moving, bool travelling);
    // Phases 1-4 on a validated state; false (and nothing advanced) when the
    // ticker asked to stop.
    bool advance(Ticker* ticker, std::int64_t steps_done);
    template <class V>
    bool advance_in(Ticker* ticker, std::int64_t steps_done);
    // What inspect() shares between the dimensions: the state brought up to
    // the next step and agent `slot`'s neighbours in ws; returns its index.
    template <class V>
    std::size_t prepare_inspection(int scene, int slot, Workspace& ws);
    void prepare_workspaces(int threads);
    // set_waypoints without the busy guard (a run's pause calls it).
    void replace_waypoints(const std::int64_t* ids, std::size_t count, const std::int64_t* offsets,
                           const double* points, const double* radius);
    void build_obstacles();
    // The most agent neighbours agent i can have: its max_neighbors, at most
    // the other agents of its scene.
    int neighbor_capacity(std::size_t i) const;
    // The one neighbour gathering of the engine, used by the step, inspect
    // and neighbor_table alike: writes the agent neighbours of `slot` in
    // `scene` from `grid` (nearest first, at most neighbor_capacity) to
    // `agents` and returns how many; appends the obstacle edges it sees to
    // `edges` (nearest first) unless that is null.
    template <class V>
    int gather_neighbors(const GridOf<V>& grid, int scene, int slot, Neighbor* agents,
                         std::vector<ObstaclesNearOf<V>>* edges) const;
    // Appends the obstacle edges agent i of `scene` sees to out, nearest first.
    void append_obstacle_neighbors(int scene, std::size_t i, std::vector<ObstacleNeighbor>& out) const;
    // The same in 3D: the surfaces within reach (shared set first).
    void append_obstacle_neighbors(int scene, std::size_t i, std::vector<ObstacleContact3>& out) const;
    void build_obstacles3();
    // The scene of the k-th agent in processing order.
    int scene_of(std::int64_t k) const;
    std::int32_t slot_at(int scene, std::int64_t k) const {
        return cell_orders_[scene][static_cast<std::size_t>(k - scene_starts_[scene])];
    }
    // The scene grids of the engine's dimension.
    template <class V>
    std::vector<GridOf<V>>& grids() {
        if constexpr (kDim<V> == 2) {
            return grids_;
        } else {
            return grids3_;
        }
    }
    template <class V>
    const std::vector<GridOf<V>>& grids() const {
        return const_cast<Engine*>(this)->grids<V>();
    }
    std::int64_t agents_in_order() const { return scene_starts_.empty() ? 0 : scene_starts_.back(); }
    // Fills the neighbour buffers of ws for agents [begin, end) in processing order
    // (and, during a run, observes them for the metrics).
    template <class V>
    void find_neighbors(std::int64_t begin, std::int64_t end, Workspace& ws) const;
    // The metrics of one agent in the state being observed.
    template <class V>
    void observe_agent(int scene, int slot, std::size_t i, Span<Neighbor> agents, int wanted,
                       Span<ObstaclesNearOf<V>> edges, StateTally& tally) const;
    // Observes the current state for the metrics without stepping (after a run).
    void observe_state();
    template <class V>
    void observe_state_in();
    void record(const Recording& recording, std::int64_t frame) const;

    // Refuses concurrent use from several threads instead of racing.
    class BusyGuard {
    public:
        explicit BusyGuard(std::atomic<bool>& flag);
        ~BusyGuard();
        BusyGuard(const BusyGuard&) = delete;
        BusyGuard& operator=(const BusyGuard&) = delete;

    private:
        std::atomic<bool>& flag_;
    };

    AgentState state_;
    double time_step_;
    double time_ = 0.0;
    std::int64_t step_count_ = 0;
    std::shared_ptr<const Method> method_;
    std::vector<NeighborGrid> grids_;                 // one per scene, made at the first step with agents (2D)
    std::vector<NeighborGrid3> grids3_;               // the same in 3D
    std::vector<const std::int32_t*> cell_orders_;    // per scene, its grid's slots_in_cell_order()
    ObstacleSet shared_obstacles_;                    // seen by every scene
    std::vector<std::unique_ptr<ObstacleSet>> scene_obstacles_;  // per scene, made on demand
    ObstacleSet3 shared_obstacles3_;                  // 3D: seen by every scene
    std::vector<std::unique_ptr<ObstacleSet3>> scene_obstacles3_;  // 3D: per scene, made on demand
    // Agents are processed scene after scene, each scene's in its grid's
    // cell order (neighbours close in memory): the k-th agent is slot
    // grids_[b].slots_in_cell_order()[k - scene_starts_[b]] of the scene b
    // with scene_starts_[b] <= k < scene_starts_[b + 1].
    std::vector<std::int64_t> scene_starts_;
    std::vector<Workspace> workspaces_;               // one per thread
    std::unique_ptr<StepData> step_data_;             // the method's per-step data
    std::atomic<bool> busy_{false};
    Waypoints waypoints_;
    RunMetrics* metrics_ = nullptr;      // during a run that gathers metrics
    double metrics_largest_radius_ = 0;  // of the state observed
    PhaseTimes phase_times_;
    std::vector<std::int64_t> fallbacks_;  // per scene, since the engine was made
    // Non-holonomic agents (kinematics.hpp): whether the step under way has
    // any, and then the state the method sees (present_state); a step of
    // holonomic agents only uses neither.
    bool nonholonomic_ = false;
    AgentState presented_;
    // The state the method sees in this step.
    const AgentState& seen_state() const { return nonholonomic_ ? presented_ : state_; }
    // Integration of non-holonomic agent i: the method's velocity of its
    // presentation becomes a saturated motion along an arc.
    void integrate_nonholonomic(std::size_t i, bool clamp_acceleration);
    // The motion non-holonomic agent i realises when the method chose u:
    // after the acceleration limit (unless the method kept it) and the
    // drive's saturation.
    Motion realised_motion(std::size_t i, Vec2 u, bool clamp_acceleration) const;
};

}  // namespace vosim
