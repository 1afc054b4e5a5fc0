// The collision-free speed model (Tordeux, Chraibi, Seyfried 2016,
// "Collision-free speed model for pedestrian dynamics"), a first-order
// model: the velocity is set outright each step, no acceleration.
//
//   direction  e = normalised(e0 + sum_j a exp((l_ij - d_ij) / D) n_ij
//                             + sum_w a_w exp((r - d_w) / D_w) n_w),
//              e0 the preferred direction, n_ij the unit vector from
//              neighbour j to the agent, l_ij = r_i + r_j, n_w the unit
//              vector from the closest point of wall w to the agent;
//   speed      V(s) = min(max(s / T, 0), v0), s the smallest spacing
//              d_ij - l_ij to a neighbour ahead (e . (x_j - x_i) > 0) whose
//              centre lies within l_ij of the line of motion (walls do
//              not slow, as in JuPedSim: an agent pressed against a wall
//              slides along it); v0 the preferred speed capped by
//              max_speed.
// As in JuPedSim, every wall segment near the agent repels it, whichever side
// of it the agent is on (at a door the post's other wall pushes too), and a
// neighbour behind a wall is not seen. Unlike JuPedSim, whose walls are soft,
// the engine's obstacle guard keeps agents from passing through a wall (so a
// long step cannot carry one across). With wall_hold, the model also removes
// motion into a wall the agent touches (or would reach within the step) and
// sees only the walls facing it; agents then pass doors more slowly than
// JuPedSim's (docs/guide/methods.md).
#pragma once

#include "maths/vec.hpp"
#include "method.hpp"
#include "methods/local_problem.hpp"

namespace vosim {

// Defaults: JuPedSim's CollisionFreeSpeedModel (time gap 1 s, neighbour
// repulsion 8 over 0.1 m, wall repulsion 5 over 0.02 m).
struct CollisionFreeSpeedParams {
    double time_gap = 1.0;
    double neighbor_strength = 8.0;
    double neighbor_range = 0.1;
    double wall_strength = 5.0;
    double wall_range = 0.02;
    bool wall_hold = false;
};

// Throws std::invalid_argument naming the first bad parameter and its value.
void check_collision_free_speed_params(const CollisionFreeSpeedParams& params);

// The new velocity of `agent` among `neighbors` and wall `edges` (solid on
// their left) for a step of `time_step`.
Vec2 collision_free_speed_velocity(const CollisionFreeSpeedParams& params, const LocalAgent& agent,
                                   const LocalNeighbor* neighbors, int neighbor_count, const LocalEdge* edges,
                                   int edge_count, double time_step);

class CollisionFreeSpeed final : public Method {
public:
    explicit CollisionFreeSpeed(CollisionFreeSpeedParams params);
    std::string name() const override { return "CollisionFreeSpeed"; }
    Vec2 new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const override;
    std::unique_ptr<MethodScratch> make_scratch() const override;
    bool sees_edges_from_both_sides() const override { return !params_.wall_hold; }

private:
    CollisionFreeSpeedParams params_;
};

}  // namespace vosim
