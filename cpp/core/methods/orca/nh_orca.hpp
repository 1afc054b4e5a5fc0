// NH-ORCA's tracking-error model of a non-holonomic robot (Alonso-Mora,
// Breitenmoser, Rufli, Beardsley, Siegwart, "Optimal reciprocal collision
// avoidance for multiple non-holonomic robots", DARS 2010).
//
// The avoidance method plans a holonomic velocity u for the robot's own
// centre, seen with its radius enlarged by a tracking error eps. The robot,
// heading along +x of its frame, tracks u (speed V, direction theta in
// (-pi, pi] from the heading) with a fixed controller: it turns at the
// constant rate w = theta / T_theta, reaching u's direction after T_theta,
// at the constant forward speed that keeps it closest to the holonomic path,
//     v* = V f(theta),  f(theta) = theta sin(theta) / (2 (1 - cos theta)),
// (less when the wheels cannot give v* while turning), then drives straight
// at V. After T_theta both paths run parallel, so the distance between them
// is largest at T_theta (checked numerically for every theta and v <= v*):
// with v = v* it is V T_theta |sin(theta / 2)|. u is trackable when that
// stays <= eps and the drive's limits hold; the largest such speed in each
// direction bounds the set of allowed holonomic velocities, which
// tracking_polygon approximates from inside by a convex polygon.
//
// T_theta is the given tracking time T, lengthened where the drive cannot
// turn by theta in T: T_theta = max(T, |theta| / w_max, |theta| L / (2 v_w))
// (the last term: turning in place with both wheels at full speed). So every
// direction is trackable, slowly where turning takes long.
//
// The maths is in the robot's frame (x forward, y to its left); the last
// functions apply it to an agent of the engine (kinematics.hpp dispatches
// to them for ORCA(nonholonomic="nh_orca")).
#pragma once

#include <cstddef>
#include <limits>

#include "state/agent_state.hpp"
#include "kinematics/kinematics.hpp"
#include "maths/vec2.hpp"

namespace vosim {

// What limits one robot's tracking: its drive (kinematics.hpp; a unicycle's
// has no wheels to couple v and w: unbounded wheel speed, no track), and
// how far and how long it may stray from the holonomic path.
struct TrackingLimits : DriveLimits {
    TrackingLimits() {
        max_wheel_speed = std::numeric_limits<double>::infinity();
        max_angular_speed = std::numeric_limits<double>::infinity();
    }
    double tracking_error = 0.0;  // eps > 0: the largest distance from the holonomic path
    double tracking_time = 0.0;   // T > 0 (at least one time step: the controls are held that long)

    // Every limit equal (the same bits: a cached polygon serves both).
    bool operator==(const TrackingLimits& o) const {
        return same_drive(*this, o) && tracking_error == o.tracking_error && tracking_time == o.tracking_time;
    }
    bool operator!=(const TrackingLimits& o) const { return !(*this == o); }
};

// v* / V = theta sin(theta) / (2 (1 - cos theta)), 1 at theta = 0, 0 at pi.
double tracking_speed_factor(double angle);

// T_theta: the time the robot takes to turn by `angle`.
double turn_time(const TrackingLimits& limits, double angle);

// The largest forward speed while turning at rate w: max_speed, and the
// faster wheel's limit max_wheel_speed - |w| L / 2 (not below 0).
double turning_speed_limit(const TrackingLimits& limits, double turn_rate);

// The largest speed of a trackable holonomic velocity `angle` away from the
// heading: the tracking error stays <= eps, every limit holds, and the
// straight after the turn is no faster than max_speed and max_wheel_speed.
double max_tracking_speed(const TrackingLimits& limits, double angle);

// The distance between the holonomic path (speed V along `angle`) and the
// robot's (turning at angle / time for `time`, forward speed v) at `time`.
double tracking_error_after_turn(double angle, double time, double holonomic_speed, double speed);

// The controls that track `velocity` (the robot's frame); zero for a zero
// velocity. Within every limit for any velocity; within eps of the
// holonomic path for velocities no faster than max_tracking_speed.
Motion tracking_motion(const TrackingLimits& limits, Vec2 velocity);

// The polygon of allowed holonomic velocities, convex, inside the exact
// set: sampled on the exact boundary in kTrackingDirections directions
// evenly spaced from straight behind, one straight ahead; shrunk about the
// origin if the boundary between two samples dips inside their edge
// (checked at three more directions per edge); then the kernel of that
// star-shaped polygon (the intersection of its edges' half-planes: the
// polygon itself wherever the boundary is convex), without the vertices
// that lie within 1e-3 of its size of their neighbours' chord (fewer
// lines for the linear program). The origin lies strictly inside. Writes the vertices counter-clockwise and returns how many (0
// when the robot cannot move: a zero limit, eps or T not > 0).
constexpr int kTrackingDirections = 32;
constexpr int kMaxTrackingVertices = kTrackingDirections + 8;
int tracking_polygon(const TrackingLimits& limits, Vec2 (&vertices)[kMaxTrackingVertices]);

// The smallest tracking error NH-ORCA works with, as a share of the robot's
// top speed times the time it takes to turn to the polygon's first direction
// off its heading. As eps shrinks, the polygon narrows to a needle along the
// heading whose two long edges meet at an angle of about
// 4 eps / (time x speed); below about 2.5e-6 (kParallelEpsilon / 4) the
// linear program takes them for parallel and the robot drifts or stops
// without a word (measured: 10 m covered as 8.6 m with 1 m sideways drift).
// The floor keeps a margin of 40 above that.
constexpr double kMinTrackingErrorShare = 1e-4;
double min_tracking_error(const TrackingLimits& limits);

// Throws std::invalid_argument naming the first active non-holonomic agent
// whose tracking_error lies below min_tracking_error (NH-ORCA only).
void check_tracking_errors(const AgentState& s, double time_step);

// Agent i's limits: its drive's (a unicycle's turn rate and speed are
// independent), its tracking_error, and its tracking_time, at least
// `time_step` (the controls are held for a step).
TrackingLimits tracking_limits(const AgentState& s, std::size_t i, double time_step);

// Agent i as NH-ORCA presents it to the method: its own centre and
// velocity, its radius enlarged by its tracking error.
Presented present_tracking_robot(const AgentState& s, std::size_t i);

// The controls with which agent i tracks the method's velocity u.
Motion tracking_robot_motion(Vec2 u, const AgentState& s, std::size_t i, double time_step);

}  // namespace vosim
