// The goals phase's settings (engine/goals_phase.hpp) and the observe
// phase's deadlock timers: preference noise and deadlock resolution. The
// engine holds them (Engine::set_goal_settings); the Python package sets
// them with the method, whose options they are there.
#pragma once

#include <cstdint>

namespace vosim {

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

struct GoalSettings {
    PreferenceNoise noise;
    DeadlockResolution deadlock;  // detours draw from the noise's seed
};

}  // namespace vosim
