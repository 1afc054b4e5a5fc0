// The kinematic models of agents: how a method's velocity becomes motion.
//
// Holonomic agents move in any direction: the method's velocity is their
// velocity. Non-holonomic ones (differential drives, unicycles) move along
// their heading at a forward speed v while turning at a rate w. Methods
// plan holonomic velocities, so such an agent is presented to them as its
// effective centre (Snape, van den Berg, Guy, Manocha 2010, ORCA-DD): the
// point p + D h a distance D ahead of the axle (h the heading), seen with
// radius r + D. Its velocity u = v h + w D h_perp can be any vector, and
// maps back exactly: v = u . h, w = (u . h_perp) / D. The enlarged radius
// covers the robot wherever the effective centre is.
//
// Every method shares this one model (one integrator for all): the engine
// presents agents to the method (present_agent), maps the method's
// velocity back (motion_from_method), keeps it within the drive's limits
// (saturate) and integrates the arc exactly (advance_pose). A method may
// present agents otherwise (Method::present_agent, motion_from_method:
// ORCA's NH-ORCA); this file knows no method.
#pragma once

#include <cstddef>
#include <cstdint>

#include "state/agent_state.hpp"
#include "limits.hpp"
#include "maths/vec2.hpp"

namespace vosim {

// The values of the `kinematics` column.
enum class Kinematics : std::int8_t { kHolonomic = 0, kDifferentialDrive = 1, kUnicycle = 2 };
// Their names, as Python takes and shows them (index: the value).
inline constexpr const char* kKinematicsNames[] = {"holonomic", "differential_drive", "unicycle"};
inline constexpr int kKinematicsCount = 3;
static_assert(kKinematicsRange.hi == kKinematicsCount - 1, "the kinematics column's range names every model");


// A forward speed (m/s, negative: backwards) and a turn rate (rad/s,
// counter-clockwise).
struct Motion {
    double speed = 0.0;
    double turn_rate = 0.0;
};

// What limits one non-holonomic agent's motion.
struct DriveLimits {
    Kinematics kind = Kinematics::kDifferentialDrive;
    double max_speed = 0.0;          // |v|
    double max_wheel_speed = 0.0;    // differential drive: |v -+ w * wheel_track / 2|
    double wheel_track = 0.0;        // differential drive
    double max_angular_speed = 0.0;  // |w| (inf: none)
};

DriveLimits drive_limits(const AgentState& s, std::size_t i);

// Every limit equal, bit for bit.
inline bool same_drive(const DriveLimits& a, const DriveLimits& b) {
    return a.kind == b.kind && a.max_speed == b.max_speed && a.max_wheel_speed == b.max_wheel_speed &&
           a.wheel_track == b.wheel_track && a.max_angular_speed == b.max_angular_speed;
}

// The motion scaled down (speed and turn rate by one factor, so the
// curvature stays) until it keeps within the limits.
Motion saturate(Motion motion, const DriveLimits& limits);

// An angle in (-pi, pi].
double wrap_angle(double angle);
// The same for the difference of two angles in (-pi, pi] (cheaper).
inline double wrap_turn(double difference) {
    constexpr double kPi = 3.14159265358979323846;
    if (difference > kPi) return difference - 2.0 * kPi;
    if (difference <= -kPi) return difference + 2.0 * kPi;
    return difference;
}

// A position and heading.
struct Pose {
    Vec2 position;
    double heading = 0.0;
};

// The pose after moving at `motion` for dt: exactly along the arc (a series
// for small turns), the heading wrapped to (-pi, pi].
Pose advance_pose(Pose pose, Motion motion, double dt);

// The velocities of the effective centre a distance D ahead that the drive
// can realise, a convex polygon in the agent's frame (x: forward speed v,
// y: w * D): a differential drive's wheel limits |v| + |w| L / 2 <= v_wheel
// are a diamond, a unicycle's |v| <= max_speed, |w| <= max_angular_speed a
// rectangle; both are cut by the speed and turn-rate limits. Writes the
// vertices counter-clockwise to `vertices` and returns how many (fewer than
// 3 when the drive cannot move: a zero limit).
constexpr int kMaxRealisableVertices = 8;
int realisable_polygon(const DriveLimits& limits, double distance, Vec2 (&vertices)[kMaxRealisableVertices]);

// What the method sees of one agent (its max_speed stays the robot's: a
// method keeps the presented velocity within it, ORCA within the realisable
// polygon).
struct Presented {
    Vec2 position;
    Vec2 velocity;
    double radius = 0.0;
};

// Non-holonomic agent i as its effective centre (its velocity from the
// agent's velocity and turn rate).
Presented present_effective_center(const AgentState& s, std::size_t i);

// The motion that gives the effective centre of an agent with this heading
// the velocity u (exact; not yet saturated).
Motion effective_center_motion(Vec2 u, double heading, double distance);

// Whether any active agent is non-holonomic (a scan of one byte per slot).
bool has_nonholonomic(const AgentState& s);

// What keeps one non-holonomic drive from working: the field, its value and
// what the drive needs of it ("> 0", "finite"; field null: nothing). The rules, in the order
// they are tried: wheel_track > 0 (differential drive), effective_center_distance
// > 0, max_angular_speed > 0, and finite on a unicycle.
struct DriveFault {
    const char* field = nullptr;
    double value = 0.0;
    const char* need = "";
};
DriveFault drive_fault(Kinematics kind, double wheel_track, double effective_center_distance,
                       double max_angular_speed);

// Throws std::invalid_argument naming the first active non-holonomic agent
// whose drive cannot work (drive_fault), or any non-holonomic agent in an
// engine of 3 dimensions.
void check_kinematics(const AgentState& s);

// The same rules for agents about to be added (n per scene), before they
// are: the error names the argument and the agent's index as the caller
// gave it, "[scene, k]", or "[k]" when `name_scenes` is false.
void check_new_drives(const AgentInput& in, int scenes, int n, int dimensions, bool name_scenes);

// Makes `presented` share every column of `s` but its own copies of
// positions, velocities and radius (reusing their buffers when the sizes
// match), for the engine to present non-holonomic agents in through the
// method (Method::present_agent).
void share_state_for_presentation(const AgentState& s, AgentState& presented);

}  // namespace vosim
