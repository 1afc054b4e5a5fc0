// The interface every avoidance method implements.
//
// Phase 3 of a step calls `new_velocity` once per active agent, in parallel.
// A method reads only the frozen state of the scene (positions, velocities and
// parameters as they were before the step) and the neighbour lists prepared by
// the engine, and it returns the agent's new velocity. It must not keep state
// between calls: everything temporary lives in the per-thread Workspace.
// The velocity must not be longer than the agent's max_speed; the engine
// caps one that exceeds it by more than round-off (relative 1e-9), which only
// happens when cancellation ruins a method's arithmetic in degenerate input.
// The cap wins over a method's acceleration model: an agent whose velocity
// was written above max_speed is brought back to it at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "state/agent_state.hpp"
#include "diagnostics.hpp"
#include "kinematics/kinematics.hpp"
#include "spatial/neighbor_grid.hpp"
#include "spatial/periodic.hpp"
#include "obstacles/obstacles.hpp"
#include "obstacles/obstacles3d.hpp"
#include "maths/vec.hpp"

namespace vosim {

// What an agent sees of the obstacles: edges in the plane, surfaces in space.
template <class V>
struct ObstaclesNear;
template <>
struct ObstaclesNear<Vec2> {
    using type = ObstacleNeighbor;
};
template <>
struct ObstaclesNear<Vec3> {
    using type = ObstacleContact3;
};
template <class V>
using ObstaclesNearOf = typename ObstaclesNear<V>::type;

class Waypoints;

// Scratch space a method keeps per thread (its own subclass).
struct MethodScratch {
    virtual ~MethodScratch() = default;
};

// A read-only run of values (C++17 has no std::span).
template <class T>
struct Span {
    const T* first = nullptr;
    int count = 0;

    const T* begin() const { return first; }
    const T* end() const { return first + count; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    const T& operator[](int k) const { return first[k]; }
};

// Per-thread scratch space, reused from agent to agent and step to step so
// that a step does not allocate.
struct Workspace {
    // The neighbours of the agent being computed, nearest first: agents
    // strictly within neighbor_dist (at most max_neighbors), and obstacle
    // edges facing it within time_horizon_obst * max_speed + radius.
    Span<Neighbor> agent_neighbors;
    Span<ObstacleNeighbor> obstacle_neighbors;
    // 3D: the obstacle surfaces within time_horizon_obst * max_speed + radius
    // (or time_step * max_speed + radius when longer), nearest first.
    Span<ObstacleContact3> obstacle_contacts;
    // Set by a method that could not satisfy its constraints and fell back
    // (ORCA's linear program 3, geometric selection with nothing admissible).
    bool used_fallback = false;

    // Where the engine keeps the neighbours of a chunk of agents, one run
    // after the other (it grows to the largest chunk seen, then stays):
    // agents, and the obstacles of the engine's dimension (edges or surfaces).
    template <class T>
    struct Runs {
        std::vector<T> buffer;
        std::vector<std::size_t> starts;  // per agent of the chunk, and one past the last
    };
    std::vector<Neighbor> agent_buffer;
    std::vector<std::size_t> agent_starts;  // per agent of the chunk, and one past the last
    Runs<ObstacleNeighbor> edge_runs;
    Runs<ObstacleContact3> contact_runs;

    // The obstacle runs of the dimension of V, and setting its span.
    template <class V>
    Runs<ObstaclesNearOf<V>>& obstacle_runs() {
        if constexpr (kDim<V> == 2) {
            return edge_runs;
        } else {
            return contact_runs;
        }
    }
    template <class V>
    void set_obstacles_near(Span<ObstaclesNearOf<V>> near) {
        if constexpr (kDim<V> == 2) {
            obstacle_neighbors = near;
        } else {
            obstacle_contacts = near;
        }
    }

    std::unique_ptr<MethodScratch> method_scratch;  // made by the method in use
    // Which method made it: its instance number (Method::instance()), never
    // reused, unlike an address that a freed method leaves to the next one.
    std::uint64_t scratch_owner = 0;
};

// What a method prepares once per step from the frozen state, before the
// agents' velocities (its own subclass; see Method::prepare_step).
struct StepData {
    virtual ~StepData() = default;
};

// The frozen state of one scene during phase 3.
struct SceneView {
    const AgentState& state;
    int scene;
    double time_step;
    std::int64_t step;  // steps taken before this one (seeds per-step random draws)
    const StepData* step_data = nullptr;  // the method's, when it prepares any
    // The agents' waypoint tracks: which goals are final (LocalAgentT::at_goal).
    const Waypoints* waypoints = nullptr;
    // The periodic axis (null or off: none). Methods read a neighbour's
    // position through neighbor_position, which puts it at the image the
    // engine found it at, nearest across the seam.
    const Periodic* periodic = nullptr;

    std::size_t index(int slot) const { return state.index(scene, slot); }
    template <class V = Vec2>
    V neighbor_position(const Neighbor& n) const {
        const V p = state.template position<V>(index(n.slot));
        return n.image == 0 ? p : p + periodic->template offset<V>(n.image);
    }
};

// The scene as a method sees it in an engine whose vectors are V: its type
// picks the member of that dimension (MethodIn<V>).
template <class V>
struct SceneOf : SceneView {};

// Random nudges of goal-seeking agents' preferred velocities, redrawn every
// step: a vector of length uniform in [0, magnitude) in a uniform direction
// (the rule of RVO2's Blocks example). Exact symmetry (a head-on pair, a
// perfect circle) deadlocks reciprocal methods; this breaks it.
struct PreferenceNoise {
    double magnitude = 0.0;
    std::uint64_t seed = 0;
};

// Opt-in deadlock resolution (every method): a goal-seeking agent slower
// than `stall_fraction` of its pref_speed for `patience` seconds takes a
// detour, turning its preferred velocity by `turn` radians for `hold`
// seconds (times a seeded factor in [0.5, 1.5), so that symmetric agents do
// not resume at the same instant). The side is the passing-side convention
// (kSidestep: always to the right, the same for every agent, so a
// symmetric pair passes) or a seeded coin per detour (kRandomSide).
// Per-agent state: AgentState::deadlock_timer and detour_side.
enum class DeadlockRule { kNone, kSidestep, kRandomSide };

struct DeadlockResolution {
    DeadlockRule rule = DeadlockRule::kNone;
    double patience = 1.0;
    double hold = 1.0;
    double turn = 1.5707963267948966;
    double stall_fraction = 0.1;
};

// A stage after the integration that a method may ask for (engine/
// resolve_phase.cpp): overlapping agents are pushed apart, as DetourCrowd's
// dtCrowd::update does after it integrates ("Handle collisions"). In each of
// `iterations` rounds, every agent moves by the mean over the neighbours it
// overlaps of `share` times half the penetration, away from each, all
// computed from the positions the round began with and then applied; the
// neighbours are those the velocities phase gathered. Velocities are kept.
struct OverlapResolution {
    int iterations = 0;  // 0: no such stage
    double share = 0.0;  // of half the penetration, per round
};

// What a method does in one dimension (V: Vec2 or Vec3). Method combines
// both; a method overrides the members of the dimensions it supports.
template <class V>
class MethodIn {
public:
    virtual ~MethodIn() = default;

    // The new velocity of agent `slot`, from its neighbours in ws.
    virtual V new_velocity(const SceneOf<V>& scene, int slot, Workspace& ws) const = 0;

    // The same computation, recording what the method saw and decided: the
    // common fields of `out` and, in out.method_record, the method's own
    // entries (their names and shapes become inspect()'s keys). Not on the
    // hot path: it may allocate.
    virtual void inspect(const SceneOf<V>& scene, int slot, Workspace& ws, DiagnosticsOf<V>& out) const {
        out.new_velocity = new_velocity(scene, slot, ws);
    }
};

class Method : public MethodIn<Vec2>, public MethodIn<Vec3> {
public:
    ~Method() override = default;
    virtual std::string name() const = 0;

    const PreferenceNoise& preference_noise() const { return noise_; }
    void set_preference_noise(PreferenceNoise noise) { noise_ = noise; }
    // Deadlock detours draw from the perturbation's seed.
    const DeadlockResolution& deadlock_resolution() const { return deadlock_; }
    void set_deadlock_resolution(DeadlockResolution deadlock) { deadlock_ = deadlock; }

    // new_velocity and inspect, one declaration per dimension (MethodIn<V>);
    // call them as method.in<V>().new_velocity(...) where V is a template
    // parameter.
    using MethodIn<Vec2>::new_velocity;
    using MethodIn<Vec3>::new_velocity;
    using MethodIn<Vec2>::inspect;
    using MethodIn<Vec3>::inspect;
    template <class V>
    const MethodIn<V>& in() const {
        return *this;
    }
    // A method of the plane only needs no velocity in space (never reached:
    // the engine checks supports_dimensions first).
    Vec3 new_velocity(const SceneOf<Vec3>& scene, int slot, Workspace& ws) const override;

    // Whether the method works in engines of this many dimensions (2 or 3).
    // A 3D method overrides this and the members of MethodIn<Vec3>; the
    // engine refuses a method that does not support its dimension.
    virtual bool supports_dimensions(int dimensions) const { return dimensions == 2; }
    // Why not, for the error message.
    virtual std::string dimensions_note() const { return "it works in the plane only"; }

    // True when the method's velocity already obeys the agent's acceleration
    // model (AVO) in an engine of `dimensions`: integration then applies no
    // max_acceleration clamp of its own.
    virtual bool models_acceleration(int /*dimensions*/) const { return false; }
    // A limit of the method's own on the change of velocity per second
    // (DetourCrowd's agents' maxAcceleration), which integration applies
    // with each agent's max_acceleration: the lower wins. None by default.
    virtual double acceleration_limit() const { return std::numeric_limits<double>::infinity(); }
    // Whether (and how) overlapping agents are pushed apart after the
    // integration (OverlapResolution); none by default. Plane only.
    virtual OverlapResolution overlap_resolution() const { return {}; }
    // True when the method may leave max_speed behind on purpose (AVO2's
    // speed lines bound the speed along the heading only; DetourCrowd's grid
    // reaches half a cell beyond it): the engine then does not cap the speed.
    virtual bool may_exceed_max_speed() const { return false; }
    // True when the method's velocities already keep agents out of obstacle
    // edges (ORCA's hard obstacle lines): the integrate phase then skips its
    // obstacle guard (engine/obstacle_guard.hpp), which every other method
    // gets.
    virtual bool keeps_clear_of_obstacles() const { return false; }
    // True when the method's own wall forces are its contact model, as in
    // the system it reproduces (SocialForce: JuPedSim's agents press into
    // walls, resisted by the body force): the integrate phase then skips
    // its obstacle guard too.
    virtual bool walls_are_soft() const { return false; }
    // True when the method sees every nearby edge of a closed obstacle,
    // also those the agent is behind (JuPedSim's models take each wall
    // segment near the agent, whichever side it is on: at a door post both
    // walls meeting there push); otherwise only the edges it faces.
    virtual bool sees_edges_from_both_sides() const { return false; }
    // Whether the method reads its neighbours only from the engine's lists
    // (SceneView::neighbor_position), and so sees them across a periodic
    // seam; one with its own neighbour search returns false and is refused
    // in a periodic simulator.
    virtual bool sees_periodic_neighbors() const { return true; }

    // How the method sees non-holonomic agent i (kinematics.hpp), and how its
    // velocity u for that agent becomes a motion (not yet saturated) held
    // for time_step: as the effective centre (ORCA-DD) unless the method
    // models the drive otherwise (ORCA's NH-ORCA).
    virtual Presented present_agent(const AgentState& s, std::size_t i) const {
        return present_effective_center(s, i);
    }
    virtual Motion motion_from_method(Vec2 u, const AgentState& s, std::size_t i, double /*time_step*/) const {
        return effective_center_motion(u, s.headings[i], s.effective_center_distance[i]);
    }

    // Checks the agents' values that only this method constrains (e.g.
    // NH-ORCA's tracking_error floor), before a step; throws
    // std::invalid_argument naming the agent and the value.
    virtual void check_agents(const AgentState& /*state*/, double /*time_step*/) const {}

    // Prepares `data` (made or reused by the method) from the frozen state,
    // once per step before phase 3, on one thread; most methods need none.
    virtual void prepare_step(const AgentState& /*state*/, std::unique_ptr<StepData>& /*data*/) const {}

    // Scratch space for one thread, or null when the method needs none.
    virtual std::unique_ptr<MethodScratch> make_scratch() const { return nullptr; }

    // This method object's number, unique in the process (a copy gets its
    // own): the owner mark of the scratch it makes.
    std::uint64_t instance() const { return instance_.value; }

protected:
    // The calling thread's scratch of type T, made on first use.
    template <class T>
    T& scratch(Workspace& ws) const {
        if (ws.scratch_owner != instance() || !ws.method_scratch) {
            ws.method_scratch = make_scratch();
            ws.scratch_owner = instance();
        }
        return static_cast<T&>(*ws.method_scratch);
    }

private:
    // Numbered from 1 on construction and on copy, so that no two method
    // objects, alive or freed, share a number.
    struct InstanceNumber {
        std::uint64_t value = next();
        InstanceNumber() = default;
        InstanceNumber(const InstanceNumber&) : value(next()) {}
        InstanceNumber& operator=(const InstanceNumber&) { return *this; }
        static std::uint64_t next() {
            static std::atomic<std::uint64_t> counter{0};
            return counter.fetch_add(1, std::memory_order_relaxed) + 1;
        }
    };
    InstanceNumber instance_;
    PreferenceNoise noise_;
    DeadlockResolution deadlock_;
};

inline Vec3 Method::new_velocity(const SceneOf<Vec3>&, int, Workspace&) const {
    throw std::logic_error(name() + " has no 3D implementation");
}

// The method an engine starts with (ORCA with its defaults), supplied by
// the method registry (methods/registry.cpp): the core names no method.
std::shared_ptr<const Method> make_default_method();

}  // namespace vosim
