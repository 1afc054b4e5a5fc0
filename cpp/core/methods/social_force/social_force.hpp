// Helbing's social force model (Helbing & Molnar 1995; Helbing, Farkas &
// Vicsek 2000, "Simulating dynamical features of escape panic"), as JuPedSim
// implements it (its SocialForceModel), a second-order model: forces give an
// acceleration, integrated into the new velocity each step,
//
//   v' = v + dt * [ (v0 e0 - v) / tau + sum_j f_ij / m + sum_W f_iW / m ],
//
// with v0 e0 the agent's preferred velocity and, for a neighbour j at
// distance d (n from j to the agent, t = n turned 90 degrees
// anticlockwise, r_ij the sum of the radii, g(x) = max(x, 0)):
//
//   f_ij = [A exp((r_ij - d) / B) + k g(r_ij - d)] n
//          + kappa g(r_ij - d) ((v_j - v_i) . t) t,
//
// and for a wall (the closest point of an edge, n from it to the agent,
// r_i the agent's radius)
//
//   f_iW = [A_W exp((r_i - d) / B) + k g(r_i - d)] n - kappa g(r_i - d) (v_i . t) t.
//
// Walls as in JuPedSim: every edge of a closed obstacle near the agent
// pushes, whichever side of it the agent is on (at a door post both walls
// meeting there), and nothing but these forces keeps agents off walls (no
// obstacle guard). The wall's sliding friction has the paper's sign (it
// opposes sliding); JuPedSim's adds it. Coincident centres push the lower slot towards -x;
// a centre on an edge is pushed along the edge's outward normal.
#pragma once


#include "diagnostics.hpp"
#include "record.hpp"
#include "maths/vec2.hpp"
#include "method.hpp"
#include "methods/local_problem.hpp"

namespace vosim {

// Defaults: Helbing, Farkas & Vicsek 2000's parameter set, which is also
// JuPedSim's (SocialForceModel: body_force 1.2e5, friction 2.4e5;
// SocialForceModelAgentParameters: mass 80, reaction_time 0.5,
// agent_scale = obstacle_scale 2000, force_distance 0.08).
// The smallest mass and reaction time: the accelerations divide by them,
// and below these a step is no longer a step of the model (the agent would
// reach any velocity within a microsecond).
constexpr double kMinSocialForceMass = 1e-3;  // kg
constexpr double kMinReactionTime = 1e-3;     // s

struct SocialForceParams {
    double mass = 80.0;              // m (kg)
    double reaction_time = 0.5;      // tau (s)
    double agent_scale = 2000.0;     // A (N)
    double obstacle_scale = 2000.0;  // A_W (N)
    double force_distance = 0.08;    // B (m)
    double body_force = 1.2e5;       // k (kg / s^2)
    double friction = 2.4e5;         // kappa (kg / (m s))
};

// Throws std::invalid_argument naming the first bad parameter and its value.
void check_social_force_params(const SocialForceParams& params);

// The new velocity of `agent` among `neighbors` and wall `edges` (solid on
// their left) after a step of `time_step`; with `forces`, the accelerations
// (m/s^2) by kind, each a vector: driving, agents, walls.
Vec2 social_force_velocity(const SocialForceParams& params, const LocalAgent& agent, const LocalNeighbor* neighbors,
                           int neighbor_count, const LocalEdge* edges, int edge_count, double time_step,
                           Record* forces = nullptr);

class SocialForce final : public Method {
public:
    explicit SocialForce(SocialForceParams params);
    std::string name() const override { return "SocialForce"; }
    Vec2 new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const override;
    void inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const override;
    std::unique_ptr<MethodScratch> make_scratch() const override;
    // The forces are the acceleration model: no max_acceleration clamp after them.
    bool models_acceleration(int) const override { return true; }
    // As in JuPedSim: walls push by their forces alone (the body force
    // resists an overlap; no obstacle guard), and every wall segment near
    // the agent pushes, whichever side of it the agent is on.
    bool walls_are_soft() const override { return true; }
    bool sees_edges_from_both_sides() const override { return true; }

private:
    Vec2 solve(const SceneView& scene, int slot, Workspace& ws, Record* forces) const;

    SocialForceParams params_;
};

}  // namespace vosim
