// The interface every avoidance method implements.
//
// The velocities phase of a step calls `new_velocity` once per active agent, in parallel.
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

#include "diagnostics.hpp"
#include "kinematics/kinematics.hpp"
#include "maths/vec.hpp"
#include "scene_view.hpp"      // the engine's side: what a method reads
#include "state/agent_state.hpp"
#include "workspace.hpp"       // the engine's side: the neighbour buffers

namespace vosim {

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
};

inline Vec3 Method::new_velocity(const SceneOf<Vec3>&, int, Workspace&) const {
    throw std::logic_error(name() + " has no 3D implementation");
}

// The method an engine starts with (ORCA with its defaults), supplied by
// the method registry (methods/registry.cpp): the core names no method.
std::shared_ptr<const Method> make_default_method();

}  // namespace vosim
