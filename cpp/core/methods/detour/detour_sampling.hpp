// DetourCrowd's velocity sampling (recastnavigation, dtObstacleAvoidanceQuery):
// the adaptive ring sampler and the grid sampler, as pure functions.
//
// Each candidate velocity v gets the penalty
//     w_des * |v - v_des| / v_max + w_cur * |v - v_cur| / v_max
//   + w_side * side + w_toi / (0.1 + t_min / horiz_time)
// where t_min is the earliest time of impact (capped at horiz_time) with a
// neighbour, using the reciprocal relative velocity 2v - v_cur - v_neighbour,
// or with a wall segment (ray from the agent centre, hits within 1 s of
// travel, time doubled), and side (averaged over the neighbours) favours
// passing every neighbour on the same side. The lowest penalty wins; on an
// exact tie the first sample in evaluation order wins.
//
// The adaptive sampler evaluates a pattern of a centre and `rings` rings of
// `divs` points around the search centre, oriented along the desired
// velocity, keeps the best, and repeats `depth` times around it with half the
// radius. The order within a ring is start, right 1, left 1, right 2, left 2,
// ...; odd rings start half a division further round. The grid sampler
// evaluates a grid_size x grid_size grid, row by row.
//
// vosim computes in double where the library uses float32; results agree with
// the library except where two samples' penalties are within rounding of each
// other (the winner may then differ, and the search centre with it).
//
// Where the library is undefined or degenerate, vosim defines:
// - Even adaptive_divs: the library reads uninitialised memory for each ring's
//   last point. Here that point is the ring's start rotated by 180 degrees, so
//   every ring has divs evenly spaced points, symmetric about its start.
// - A neighbour centred exactly on the agent: the library's side direction is
//   0/0 and every penalty NaN, so it returns (0, 0). Here such a neighbour has
//   no side term (it is left out of the side average) but still counts for the
//   time of impact like any overlapping neighbour (continuous as it moves onto
//   the centre).
// - Zero desired velocity: the library's adaptive pattern collapses onto its
//   centre and always returns (0, 0), whatever the threats. Here the pattern is
//   oriented along the current velocity instead, or along +x when that is zero
//   too, so a standing agent can still step aside. The grid sampler needs no
//   orientation and is unchanged.
// Everywhere else the library's behaviour is kept, including its quirks:
// values of adaptive_divs above 32 and adaptive_rings above 4 are clamped, a
// neighbour moving at |relative velocity| < 0.01 is never hit, walls are seen
// only within 1 s of travel, and max_speed 0 penalises any speed with a huge
// but finite weight.
#pragma once

#include <vector>

#include "methods/local_problem.hpp"
#include "maths/vec2.hpp"

namespace vosim {

// Defaults are DetourCrowd's (dtCrowd::init()).
struct DetourParams {
    double vel_bias = 0.4;        // search centre = desired * vel_bias; radius = max_speed * (1 - vel_bias)
    double weight_des_vel = 2.0;  // distance to the desired velocity
    double weight_cur_vel = 0.75; // distance to the current velocity
    double weight_side = 0.75;    // passing neighbours on the agreed side
    double weight_toi = 2.5;      // time of impact
    double horiz_time = 2.5;      // impacts later than this are not penalised further
    int grid_size = 33;
    int adaptive_divs = 7;
    int adaptive_rings = 2;
    int adaptive_depth = 5;
};

// The agent, its neighbours (circles) and the wall edges are the local
// problem's types (methods/local_problem.hpp); the preferred velocity is
// DetourCrowd's desired velocity, and a neighbour's only decides which side
// its side term prefers. An edge's endpoints a, b are in the order
// DetourCrowd's addSegment(p, q) takes them. The order matters only when the
// agent centre is within 0.01 of the segment ("touching"): the velocities
// with dot(perp(b - a), v) >= 0 then collide at once. dtCrowd orients kept
// segments so that this normal points away from the agent, across the wall.

// One evaluated candidate, for diagnostics. The terms are always computed in
// full; `pruned` says that the sampler's early-out skipped this candidate
// because it could not beat the best one so far (it then lost the selection).
struct DetourSample {
    Vec2 velocity;
    double penalty = 0.0;
    double vpen = 0.0;   // desired-velocity term
    double vcpen = 0.0;  // current-velocity term
    double spen = 0.0;   // side term
    double tpen = 0.0;   // time-of-impact term
    int level = 0;       // refinement level (always 0 for the grid)
    bool pruned = false;
};

struct DetourResult {
    Vec2 velocity;
    int samples = 0;  // candidates evaluated (those outside the speed limit are not)
};

// Throws std::invalid_argument naming the first bad parameter and its value:
// weights must be finite and >= 0, vel_bias in [0, 1], horiz_time finite and
// > 0, grid_size >= 2, adaptive_divs/rings/depth >= 1.
void check_detour_params(const DetourParams& params);

// Throws std::invalid_argument naming the first non-finite input (or negative
// radius or max_speed), with its index for circles and segments.
void check_detour_inputs(const LocalAgent& agent, const LocalNeighbor* circles, int n_circles,
                         const LocalEdge* segments, int n_segments);

// Both samplers expect checked parameters and inputs. They allocate nothing
// unless `record` is given or there are more than 32 circles or segments; a
// non-null `record` is cleared and receives every evaluated sample in order.
// The result does not depend on whether samples are recorded.
DetourResult sample_velocity_adaptive(const DetourParams& params, const LocalAgent& agent,
                                      const LocalNeighbor* circles, int n_circles,
                                      const LocalEdge* segments, int n_segments,
                                      std::vector<DetourSample>* record = nullptr);

DetourResult sample_velocity_grid(const DetourParams& params, const LocalAgent& agent,
                                  const LocalNeighbor* circles, int n_circles,
                                  const LocalEdge* segments, int n_segments,
                                  std::vector<DetourSample>* record = nullptr);

// DetourCrowd's time-threshold rule drops a candidate when
//     (weight_toi / d - 0.1) * horiz_time - horiz_time > -FLT_EPSILON
// for d = (best penalty - vpen) - vcpen. Each operation is monotone, so in
// floating point the rule holds for d > 0 exactly up to a largest d; this
// returns it (0 when it holds for none, or when weight_toi or horiz_time is
// not finite and positive), so that the samplers compare d with it instead
// of dividing. Found by bisection over the bit patterns of the doubles.
double detour_threshold_divisor_bound(double weight_toi, double horiz_time);

}  // namespace vosim
