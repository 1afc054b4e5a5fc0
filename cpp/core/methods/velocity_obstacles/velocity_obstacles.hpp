// The velocity-obstacle family as one pure kernel: the new velocity of one
// agent from its neighbours and the static segments near it.
//
// Cones (each neighbour's set of velocities that lead to a collision):
//   VO   apex at the neighbour's velocity (Fiorini & Shiller 1998);
//   RVO  apex at the mean of both velocities (van den Berg, Lin, Manocha 2008);
//   HRVO the RVO leg on the side the agent prefers to pass and the VO leg on
//        the other, the apex where the two meet (Snape, van den Berg, Guy,
//        Manocha 2011).
// A static segment gives the velocity obstacle of the segment grown by the
// agent's radius (a capsule), apex at zero velocity. With `truncate`, a
// neighbour's cone only holds velocities that collide within the agent's
// time_horizon, a segment's within time_horizon_obst.
//
// Selections (each works with every cone):
//   sampling   `samples` velocities drawn uniformly in the max-speed disc plus
//              the preferred velocity; the one of least penalty
//              safety_factor / time_to_collision + |v_pref - v| wins (RVO 2008);
//   geometric  the admissible velocity nearest to the preferred one among the
//              preferred velocity itself, its projections onto the cone
//              boundaries, the boundaries' crossings with each other and with
//              the max-speed circle (ClearPath, the HRVO library); when none is
//              admissible, the candidate left free by the longest run of cones
//              in the order given (segments first, then neighbours nearest
//              first), which is the HRVO library's rule.
//
// Overlaps. An agent that already overlaps a neighbour (or a segment) gets a
// half-plane instead of a cone: the velocities that do not separate the pair
// by the overlap depth within one time step, the agent taking half of it for
// RVO and HRVO (HRVO's published overlap rule) and all of it for VO and
// segments. Geometric selection treats the half-plane's boundary like two
// legs. A half-plane so deep that it lies beyond the max speed leaves no
// admissible candidate, and the fallback rule may then pick a velocity that
// deepens the overlap (the HRVO library does, typically the preferred
// velocity). With `escape_overlaps` (the default) the fastest way out,
// max_speed away from the obstacle, is offered as a candidate on that
// half-plane's boundary. Sampling gives a
// velocity inside the half-plane a time to collision of 0; times to collision
// below a thousandth of the time step count as that floor, so the penalty
// stays finite, and a velocity inside a half-plane pays in addition for the
// speed it lacks to separate in time (a bounded increasing function of it,
// at half weight when it equals max_speed), so that the least bad candidate
// wins. A neighbour at exactly the agent's position is
// taken to lie behind the agent's motion relative to it (then relative to the
// preferred velocities; +x if both are equal), which splits such a pair
// symmetrically.
//
// The kernel computes in double, allocates nothing once the scratch space has
// grown to the largest problem, and is deterministic: sampling draws from a
// counter-based stream seeded by the caller (see vo_sample_seed).
#pragma once

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "kinematics/integration.hpp"
#include "methods/local_problem.hpp"
#include "methods/velocity_obstacles/vo_lanes.hpp"
#include "maths/vec2.hpp"

namespace vosim {

enum class Cone { vo, rvo, hrvo };
enum class Selection { sampling, geometric };

// HRVO's apex when the agent prefers to pass with the neighbour on its left
// (det(p_B - p_A, v_pref_A - v_pref_B) <= 0). `symmetric` is the mirror image
// of the construction for the other side: the crossing of the VO's left leg
// with the RVO's right leg, v_B + s * left_leg. `library` is what the HRVO
// library computes there, v_B - s * left_leg: the crossing reflected through
// the neighbour's velocity along that leg. The default, `symmetric`, is the
// paper's apex on both sides; `library` replays the library's runs (and its
// reference data).
enum class HrvoApex { library, symmetric };

struct VoConfig {
    Cone cone = Cone::hrvo;
    Selection selection = Selection::geometric;
    int samples = 250;            // sampling: random candidates besides v_pref
    double safety_factor = 7.5;   // sampling: weight of 1 / time to collision
    bool truncate = false;        // cones limited to time_horizon(_obst)
    std::uint64_t seed = 0;       // sampling: base of the per-agent streams
    HrvoApex hrvo_apex = HrvoApex::symmetric;
    bool escape_overlaps = true;  // geometric: see "Overlaps"; false is the HRVO library
};

// VO and RVO select by sampling, as in the RVO paper; HRVO geometrically, as
// in the HRVO library.
VoConfig default_vo_config(Cone cone);

// Throws std::invalid_argument naming the first bad field and its value.
void check_vo_config(const VoConfig& config);

// The agent, its neighbours and the static edges: the local problem's types
// (methods/local_problem.hpp). The HRVO library derives the agent's preferred
// velocity from the goal g = goal - position as g / dt when
// (pref_speed * dt)^2 > |g|^2 (the goal is reached within the step), else
// pref_speed * g / |g|; the engine must do the same to reproduce the
// library's runs. (The library's neighbours also read each other's preferred
// velocities half updated, from this step for lower indices and from the last
// for higher ones; vosim does not copy that.) The kernel treats any edge
// correctly (its velocity obstacle does not depend on the direction), and only
// uses the direction to push an agent whose centre lies on the edge to its
// right.

// Throws std::invalid_argument naming the first bad input and its value.
void check_vo_inputs(const LocalAgent& agent, const LocalNeighbor* neighbors, int neighbor_count,
                     const LocalEdge* segments, int segment_count, double time_step,
                     bool truncate);

enum class VoConeKind : std::uint8_t { agent, agent_overlap, segment, segment_overlap };

// One velocity obstacle. Velocity v is inside when the relative velocity
// scale * (v - apex), followed from the agent's centre, reaches the obstacle:
// the capsule of radius `radius` around the segment [obstacle_a, obstacle_b],
// relative to the agent (a disc when both ends are equal), within `horizon`.
// Overlap kinds are half-planes instead: v is inside when
// det(right_leg, v - apex) > 0, and left_leg = -right_leg.
struct VoCone {
    VoConeKind kind = VoConeKind::agent;
    int source = 0;       // index of the neighbour or segment
    Vec2 apex;
    Vec2 right_leg;       // unit directions of the boundary rays from the apex;
    Vec2 left_leg;        // the inside is left of right_leg and right of left_leg
    Vec2 obstacle_a;      // relative position of the obstacle (both ends equal
    Vec2 obstacle_b;      // for a neighbour)
    double radius = 0.0;  // combined radius (the agent's alone for segments)
    double scale = 1.0;   // 2 where the agents share the avoidance (RVO, HRVO)
    double horizon = std::numeric_limits<double>::infinity();  // truncation time
    // Distance from the agent's centre to where each leg touches the
    // obstacle, in position units: the leg touches the truncated cone's cap
    // at apex + leg * tangent / (scale * horizon).
    double right_tangent = 0.0;
    double left_tangent = 0.0;

    bool is_overlap() const {
        return kind == VoConeKind::agent_overlap || kind == VoConeKind::segment_overlap;
    }
    bool is_truncated() const { return horizon < std::numeric_limits<double>::infinity(); }
};

// A candidate velocity with the cones on whose boundary it was built (-1:
// none); those cones are not tested against it, so rounding cannot reject it.
struct VoCandidate {
    Vec2 velocity;
    int cone_a = -1;
    int cone_b = -1;
    double key = 0.0;  // |v_pref - v|^2
};

// A piece of a cone's boundary, for geometric selection: a segment or ray of
// a line, or the part of a circle that faces the apex.
struct VoBoundaryPiece {
    enum class Shape : std::uint8_t { line, arc };
    Shape shape = Shape::line;
    int cone = 0;
    Vec2 origin;     // line: first point; arc: centre of the circle
    Vec2 direction;  // line: unit direction
    Vec2 inner;      // line: unit normal pointing into the cone
    double length = std::numeric_limits<double>::infinity();  // line
    double radius = 0.0;  // arc
    Vec2 viewpoint;       // arc: the apex; only the part facing it counts
    Vec2 clip;            // arc: if nonzero, only points q with (q - centre).clip <= 0
};

// Reused from call to call so that the kernel does not allocate.
struct VoScratch {
    std::vector<VoCone> cones;
    std::vector<VoBoundaryPiece> pieces;
    std::vector<int> piece_begin;  // pieces of cone k: [piece_begin[k], piece_begin[k + 1])
    std::vector<VoCandidate> candidates;
    std::vector<std::pair<double, int>> order;  // (key, candidate): geometric selection's order
    std::vector<char> useless_pieces;  // geometric selection: pieces whose crossings cannot be chosen
    // Geometric selection: (key, index) of the nearest candidate before the
    // crossings that no cone blocks; (inf, INT_MAX) when none or unpruned.
    std::pair<double, int> nearest_free{std::numeric_limits<double>::infinity(), std::numeric_limits<int>::max()};
    bool used_fallback = false;  // the last call found no admissible candidate (geometric)
    // Sampling: the neighbours' cones as lanes, and the other cones (walls,
    // overlaps) taken one at a time.
    VoLaneBuffer lanes;
    std::vector<int> single_cones;
};

struct VoCandidateInfo {
    Vec2 velocity;
    double penalty = 0.0;  // sampling: the penalty; geometric: |v_pref - v|
    double time_to_collision = 0.0;  // earliest over all cones (inf: none)
    int blocking_cone = -1;  // geometric: first cone containing it (-1: admissible);
                             // sampling: the cone of the earliest collision
    int cone_a = -1;
    int cone_b = -1;
};

// What the kernel saw and chose, to draw the velocity space.
struct VoDiagnostics {
    std::vector<VoCone> cones;
    std::vector<VoCandidateInfo> candidates;  // in the order they were built
    int chosen = -1;                          // index into candidates
    bool used_fallback = false;               // geometric: no admissible candidate
    Vec2 velocity;
};

// The new velocity of `agent`. Neighbours are given nearest first (their
// order matters only for the geometric fallback). `time_step` sets how fast
// overlaps are resolved; `sample_seed` is the seed of this agent's stream in
// this step (see vo_sample_seed). Inputs must pass check_vo_inputs.
Vec2 vo_new_velocity(const VoConfig& config, const LocalAgent& agent, const LocalNeighbor* neighbors,
                     int neighbor_count, const LocalEdge* segments, int segment_count,
                     double time_step, std::uint64_t sample_seed, VoScratch& scratch,
                     VoDiagnostics* diagnostics = nullptr);

// The seed of one agent's candidate stream in one step: a hash of the
// configuration's seed, the agent's id and the step number.
std::uint64_t vo_sample_seed(std::uint64_t config_seed, std::int64_t agent_id, std::int64_t step);

// The cones of one agent, segments first, then neighbours in the order given.
void build_vo_cones(const VoConfig& config, const LocalAgent& agent, const LocalNeighbor* neighbors,
                    int neighbor_count, const LocalEdge* segments, int segment_count,
                    double time_step, std::vector<VoCone>& cones);

// The neighbours' cones (VoConeKind::agent) among `cones`, in order, laid out
// in `buffer` for the lane kernels (vo_lanes.hpp), each disc shrunk for
// vo_surely_dropped by margin_share of its radius.
VoConeLanes vo_cone_lanes(const std::vector<VoCone>& cones, VoLaneBuffer& buffer,
                          double margin_share = kVoDropMarginShare);

// Earliest time at which velocity v collides with the cone's obstacle
// (+inf: never, or not within the truncation horizon; 0 for a velocity
// inside an overlap half-plane).
double vo_time_to_collision(const VoCone& cone, Vec2 v);

// Whether v lies strictly inside the cone.
bool vo_cone_contains(const VoCone& cone, Vec2 v);

// A lower bound on the distance from q to any point of the piece (an arc:
// to its whole circle), less a margin far above the rounding of the points
// built on it. Geometric selection skips the crossings of pieces whose bound
// exceeds the distance of a candidate it already has.
double vo_piece_distance_below(const VoBoundaryPiece& piece, Vec2 q);

}  // namespace vosim
