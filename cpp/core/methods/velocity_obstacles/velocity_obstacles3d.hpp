// VO and RVO in 3D, selected by sampling (the RVO paper's rule): the
// velocity obstacles of neighbours are cones around balls, apex at the
// neighbour's velocity (VO) or at the mean of both velocities (RVO); an
// obstacle surface's is the half-space of velocities reaching its supporting
// plane, grown by the radius. With `truncate`, only collisions within
// time_horizon (neighbours) or time_horizon_obst (surfaces) count.
//
// Candidates (deterministic, the same for every agent and step, so the seed
// plays no part in 3D): the preferred velocity clamped to max_speed, then
// `samples` points spread evenly through the ball of radius max_speed, the
// k-th at radius max_speed * cbrt(u1), height z = 2 u2 - 1 and azimuth 2 pi u3
// on the unit sphere, (u1, u2, u3) = frac(0.5 + k * (1/g, 1/g^2, 1/g^3)) with
// g = 1.22074408... (the plastic-number lattice, low discrepancy in 3D).
// Each pays |v_pref - v| + safety_factor / time_to_collision, as in the
// plane: times below a thousandth of the time step count as that floor, and
// a velocity that does not leave an overlap within one step (agents: the
// overlap depth over the time step in relative speed, RVO sharing it;
// surfaces: all of it) has time 0 and pays for the speed it lacks too. The
// least penalty wins, ties to the earlier candidate.
#pragma once

#include <vector>

#include "methods/local_problem.hpp"  // LocalAgent3, LocalNeighbor3
#include "obstacles/obstacles3d.hpp"
#include "maths/vec3.hpp"
#include "methods/velocity_obstacles/velocity_obstacles.hpp"  // VoConfig, Cone

namespace vosim {

struct VoCandidates3 {
    std::vector<Vec3> velocities;
    std::vector<double> penalties;
    int chosen = -1;
};

// The new velocity; with `seen`, every candidate and its penalty.
Vec3 vo_new_velocity_3d(const VoConfig& config, const LocalAgent3& agent, const LocalNeighbor3* neighbors,
                        int neighbor_count, const ObstacleContact3* surfaces, int surface_count, double time_step,
                        VoCandidates3* seen = nullptr);

}  // namespace vosim
