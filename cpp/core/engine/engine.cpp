// The engine's settings, agents and the step: Engine::advance is the
// pipeline of the step's phases, each in its own file.
#include "engine/engine.hpp"

#include <chrono>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/exit_phase.hpp"
#include "engine/goals_phase.hpp"
#include "engine/integrate_phase.hpp"
#include "engine/observe_phase.hpp"
#include "engine/step_context.hpp"
#include "engine/step_phases.hpp"
#include "kinematics/kinematics.hpp"
#include "limits.hpp"
#include "state/state_check.hpp"
#include "parallel/threads.hpp"

namespace vosim {

namespace {

// Adds the wall time since `started` to `seconds`.
void add_time_since(std::chrono::steady_clock::time_point started, double& seconds) {
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

}  // namespace

Engine::Engine(int scenes, double time_step, int dimensions)
    : state_(scenes, dimensions),
      time_step_(0.0),
      method_(make_default_method()),
      obstacles_(scenes),
      presented_(scenes, dimensions) {
    set_time_step(time_step);
}

void Engine::require_plane(const char* what) const {
    if (dimensions() != 2) {
        throw std::invalid_argument(std::string(what) + " needs a 2D simulator; this one has dimensions=" +
                                    std::to_string(dimensions()));
    }
}

void Engine::set_time_step(double time_step) {
    if (!within(time_step, kTimeRange)) {
        throw std::invalid_argument("time_step is " + format_number(time_step) + "; it must be " +
                                    describe(kTimeRange));
    }
    BusyGuard guard(busy_);
    time_step_ = time_step;
}

void Engine::set_method(std::shared_ptr<const Method> method) {
    if (!method) throw std::invalid_argument("method must not be None");
    if (!method->supports_dimensions(dimensions())) {
        throw std::invalid_argument("method " + method->name() + " does not support dimensions=" +
                                    std::to_string(dimensions()) + " (" + method->dimensions_note() + ")");
    }
    features_.check_method(*method, dimensions());
    BusyGuard guard(busy_);
    method_ = std::move(method);
    velocity_seconds_per_agent_ = 0.0;  // another method's cost: by the agent count until measured
}

void Engine::set_goal_settings(const GoalSettings& settings) {
    const auto check = [](double value, const char* name) {
        if (!within(value, kNonNegativeRange)) {
            throw std::invalid_argument(std::string(name) + " is " + format_number(value) + "; it must be " +
                                        describe(kNonNegativeRange));
        }
    };
    check(settings.noise.magnitude, "perturbation");
    check(settings.deadlock.patience, "deadlock_patience");
    check(settings.deadlock.hold, "deadlock_hold");
    check(settings.deadlock.turn, "deadlock_turn");
    check(settings.deadlock.stall_fraction, "deadlock_stall");
    BusyGuard guard(busy_);
    goal_settings_ = settings;
}

std::vector<std::int64_t> Engine::add_agents(int n, const AgentInput& input, bool name_scenes) {
    BusyGuard guard(busy_);
    check_new_drives(input, state_.scenes(), n, dimensions(), name_scenes);
    return state_.append(n, input);
}

void Engine::remove_agents(const std::int64_t* ids, std::size_t count) {
    BusyGuard guard(busy_);
    state_.remove(ids, count);
    features_.forget_removed(state_);
}

void Engine::validate() const {
    check_state(state_);
    check_kinematics(state_);
    method_->check_agents(state_, time_step_);
    obstacles_.check_moving();
}

void Engine::prepare_workspaces(int threads) {
    if (static_cast<int>(workspaces_.size()) < threads) workspaces_.resize(threads);
}

bool Engine::advance(Ticker* ticker, std::int64_t steps_done) {
    return with_vector_type(dimensions(), [&](auto v) { return advance_in<decltype(v)>(ticker, steps_done); });
}

// goals: obstacles and the goals scene features guide up to date, preferred velocities.
template <class V>
bool Engine::goals_phase(StepContext& step) {
    const Method& method = *step.method;
    build_obstacles();
    features_.advance_goals(state_, obstacles_.sight());
    update_pref_velocities<V>(state_, goal_settings_.noise, goal_settings_.deadlock, step_count_,
                              step.clock);
    features_.steer(state_, step.clock);  // scene features steer the agents they hold, scale their speeds
    features_.find_held(state_);          // (for the observe phase: held on purpose is not stalled)
    // What the goals phase wrote, before any method reads it. Without scene
    // features or a perturbation a preferred velocity is at most pref_speed
    // long, which the per-step check keeps in range: the pass is needed only with them.
    if (features_.steering() || goal_settings_.noise.magnitude > 0.0) check_goal_pref_velocities(state_);
    // Non-holonomic agents are presented to the method through its model
    // (validate refused them in 3D).
    nonholonomic_ = has_nonholonomic(state_);
    if (nonholonomic_) present_state(method, state_, presented_);
    return true;
}

// index: one neighbour grid per scene over the frozen positions.
template <class V>
bool Engine::index_phase(StepContext&) {
    order_.build<V>(state_);
    return true;
}

// velocities: every agent's new velocity from the method, in parallel (velocities_phase.cpp).
template <class V>
bool Engine::velocities_phase(StepContext& step) {
    return compute_new_velocities<V>(step.ticker, step.steps_done);
}

// integrate: velocities, positions and headings (line sinks need the positions before).
template <class V>
bool Engine::integrate_phase(StepContext& step) {
    const Method& method = *step.method;
    step.observing = wants_observation(goal_settings_, metrics_);
    step.exits = wants_exits(state_, features_);
    if (step.exits) features_.before_move(state_);  // (line exits need the positions before)
    // Methods that do not keep clear of obstacles themselves, nor model
    // soft walls, get the obstacle guard (plane only).
    step.guarded = kDim<V> == 2 && !method.keeps_clear_of_obstacles() && !method.walls_are_soft() &&
                   obstacle_world(obstacles_.shared(), obstacles_.own(), state_.scenes(), step.world);
    // Methods that ask for it get the resolve phase: overlapping agents
    // pushed apart, among the neighbours the velocities phase saw (gathered
    // now, before the positions move).
    step.resolution = kDim<V> == 2 ? method.overlap_resolution() : OverlapResolution{};
    if (step.resolution.iterations > 0) gather_overlap_neighbors();
    integrate<V>(state_, method, time_step_, nonholonomic_, step.observing ? &motion_before_ : nullptr,
                 step.guarded ? &step.world : nullptr);
    return true;
}

// resolve: overlapping agents pushed apart (resolve_phase.cpp).
template <class V>
bool Engine::resolve_phase(StepContext& step) {
    if (step.resolution.iterations > 0) resolve_overlaps(step.resolution, step.guarded ? &step.world : nullptr);
    return true;
}

// observe: run metrics and deadlock timers (after the resolve phase's pushes).
template <class V>
bool Engine::observe_phase(StepContext& step) {
    if (step.observing) {
        observe_motion<V>(state_, motion_before_, goal_settings_, features_, metrics_, step.clock, step_count_,
                          features_.held());
    }
    return true;
}

// exits: agents through a scene feature's exit (a sink), or at their final goal with remove_at_goal, leave
// (become inactive).
template <class V>
bool Engine::exits_phase(StepContext& step) {
    if (step.exits) remove_exits<V>(state_, features_, metrics_, step.clock, step_count_);
    return true;
}

// features: the scene features' own updates after the agents moved and left (features/scene_features.hpp).
template <class V>
bool Engine::features_phase(StepContext& step) {
    features_.update(state_, step.clock);
    return true;
}

// wrap: scene features may move agents (a periodic axis wraps them back into the period, with their goals).
template <class V>
bool Engine::wrap_phase(StepContext&) {
    features_.relocate(state_);
    return true;
}

// obstacle_motion: moving obstacles move with the agents, after the
// velocities were chosen against their current place and velocity; the
// clock advances.
template <class V>
bool Engine::obstacle_motion_phase(StepContext&) {
    obstacles_.advance(time_step_);
    time_ += time_step_;
    ++step_count_;
    return true;
}

// The step: the phases of step_phases.hpp in their order over one context,
// each timed (ARCHITECTURE.md, "The step"). Until the velocities phase
// completes nothing is advanced: the goals phase only rewrites the preferred
// velocities of goal-seeking agents, which the next attempt computes
// identically, so an abandoned step leaves the state as it was.
template <class V>
bool Engine::advance_in(Ticker* ticker, std::int64_t steps_done) {
    StepContext step;
    step.ticker = ticker;
    step.steps_done = steps_done;
    step.clock = StepClock{time_, time_step_};
    step.method = method_.get();
    // Unrolled from the table rather than looped over an array of member
    // pointers: GCC's bounds sanitizer misreads an index into such an array.
#define VOSIM_PHASE_RUN(name, doc)                                         \
    {                                                                     \
        const auto started = std::chrono::steady_clock::now();            \
        const bool finished = name##_phase<V>(step);                      \
        add_time_since(started, phase_times_[StepPhase::name]);           \
        if (!finished) return false;                                      \
    }
    VOSIM_STEP_PHASES(VOSIM_PHASE_RUN)
#undef VOSIM_PHASE_RUN
    return true;
}

bool Engine::step(Ticker* ticker) {
    BusyGuard guard(busy_);
    validate();
    return advance(ticker, step_count_);
}

}  // namespace vosim
