// The simulation engine: B independent scenes of agents stepped together by
// one avoidance method.
//
// One step (DESIGN.md section 3):
//   0. check the state (the views let users write anything into it);
//   1. preferred velocities of goal-seeking agents from their goals;
//   2. neighbour index per scene over the frozen positions;
//   3. every agent's new velocity from the method, in parallel;
//   4. integration: v = v_new, p += v * dt.
// Nothing in phase 3 depends on the order or the thread in which agents are
// processed, so results are identical for any thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "agent_state.hpp"
#include "method.hpp"
#include "neighbor_grid.hpp"
#include "obstacles.hpp"

namespace vosim {

struct RunOptions {
    std::int64_t steps = 0;
    std::int64_t record_every = 1;
    bool until_arrived = false;
    double tick_seconds = 0.05;  // how often `tick` is called during a run
};

// Caller-owned output of a run, each array sized for `max_frames` frames of
// scenes x count agents (positions and velocities: x and y). Null pointers
// are not written.
struct Recording {
    double* positions = nullptr;
    double* velocities = nullptr;
    double* times = nullptr;
    std::int64_t* steps = nullptr;
    std::int64_t max_frames = 0;
};

struct RunResult {
    std::int64_t steps_done = 0;
    std::int64_t frames = 0;
    bool all_arrived = false;
    bool stopped = false;  // `tick` asked to stop
};

// Called every `tick_seconds` with the number of steps done; returns false to
// stop the run after the current step.
using Tick = std::function<bool(std::int64_t)>;

// Frames a run of `steps` steps records: the start, every record_every-th
// step, and the last step.
std::int64_t frames_for(std::int64_t steps, std::int64_t record_every);

class Engine {
public:
    Engine(int scenes, double time_step);

    AgentState& state() { return state_; }
    const AgentState& state() const { return state_; }

    double time_step() const { return time_step_; }
    void set_time_step(double time_step);
    double time() const { return time_; }
    std::int64_t step_count() const { return step_count_; }

    const std::shared_ptr<const Method>& method() const { return method_; }
    void set_method(std::shared_ptr<const Method> method);

    std::vector<std::int64_t> add_agents(int n, const AgentInput& input);

    // Adds an obstacle to one scene, or to all scenes when scene == -1, and
    // returns its index within that set. Takes effect at the next step.
    int add_obstacle(int scene, const Vec2* points, int count, ObstacleKind kind);
    // The obstacles of one scene (scene >= 0) or those shared by all (-1).
    const ObstacleSet& obstacles(int scene) const;
    // Whether p is in the solid part of the obstacles scene `scene` sees.
    bool blocked(int scene, Vec2 p) const;
    // Signed distance from p to the nearest obstacle surface of that scene:
    // negative in the solid, +infinity without obstacles.
    double obstacle_clearance(int scene, Vec2 p) const;
    void remove_agents(const std::int64_t* ids, std::size_t count);

    void step();
    RunResult run(const RunOptions& options, const Recording& recording, const Tick& tick);

    // True when every active goal-seeking agent is within its arrival radius
    // (vacuously true when there is none).
    bool all_arrived() const;

    // What the method would see and decide for one agent at the next step,
    // computed on demand (the preferred velocities of goal-seeking agents are
    // brought up to date as the step would).
    Diagnostics inspect(int scene, int slot);

    // Agent neighbours of every slot of `scene` as the next step would see
    // them, padded with -1: row-major (count x width), width = the largest
    // max_neighbors (at least 1).
    std::vector<std::int32_t> neighbor_table(int scene, int& width);

private:
    // Throws std::invalid_argument naming the first bad agent, id and field.
    void validate() const;
    void update_pref_velocities();
    void build_neighbor_index();
    void compute_new_velocities();
    void integrate();
    void advance();  // phases 1-4 on a validated state
    void prepare_workspaces(int threads);
    void build_obstacles();
    void find_obstacle_neighbors(int scene, std::size_t i, Workspace& ws) const;
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
    std::vector<NeighborGrid> grids_;                 // one per scene
    ObstacleSet shared_obstacles_;                    // seen by every scene
    std::vector<ObstacleSet> scene_obstacles_;        // one per scene
    std::vector<std::pair<int, int>> order_;          // (scene, slot) in cell order
    std::vector<Workspace> workspaces_;               // one per thread
    std::atomic<bool> busy_{false};
};

}  // namespace vosim
