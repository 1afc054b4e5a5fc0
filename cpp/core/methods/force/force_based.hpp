// A force-based baseline, after Unreal Engine's Mass moving avoidance: no
// velocity obstacles, only accelerations that sum up.
//
//   steering    towards the preferred velocity, reached in `steering_time`;
//   separation  from each neighbour closer than r_a + r_b +
//               separation_distance: along the line between them, with
//               strength separation_stiffness * clamp(penetration /
//               separation_distance, 0, 1)^2, times standing_scale when the
//               neighbour stands still (so agents push through standing
//               crowds);
//   avoidance   from each neighbour's closest point of approach within
//               avoidance_time, assuming this agent keeps its preferred
//               velocity and the neighbour its velocity: away from the
//               neighbour's position at that moment when it comes closer
//               than r_a + r_b + avoidance_distance, with strength
//               avoidance_stiffness * clamp(penetration /
//               avoidance_distance, 0, 1)^2 * (1 - t / avoidance_time)
//               (sooner is stronger), standing neighbours scaled likewise;
//   obstacles   from each obstacle edge closer than r + obstacle_distance:
//               away from the edge's nearest point (beside the edge: its
//               normal, out of the solid; beyond its ends: radial), with strength
//               obstacle_stiffness * clamp(penetration / obstacle_distance, 0, 1)^2;
//               their sum loses its part against the preferred velocity
//               (walls steer, they do not brake: a door's jambs would
//               otherwise hold agents before a door narrower than
//               2 (r + obstacle_distance)).
// The new velocity is v + a * dt, limited to max_speed; finally, motion into
// an edge the agent touches is removed, so walls hold.
//
// In 3D the same forces act between balls, and obstacle surfaces take the
// place of edges (their outward normal at the closest point); an agent dead
// ahead is passed on the right seen from above (about the z axis).
#pragma once

#include <string>
#include <vector>

#include "method.hpp"
#include "methods/local_problem.hpp"
#include "maths/vec.hpp"

namespace vosim {

// Defaults are for pedestrians in metres and seconds.
struct ForceParams {
    double steering_time = 0.5;
    double separation_distance = 0.75;
    double separation_stiffness = 2.5;
    double avoidance_time = 2.5;
    double avoidance_distance = 0.75;
    double avoidance_stiffness = 7.0;
    double standing_scale = 0.65;
    double standing_speed = 0.1;  // below this speed a neighbour counts as standing
    double obstacle_distance = 0.5;
    double obstacle_stiffness = 5.0;
};

// One acceleration by kind (steering, separation, avoidance, obstacles,
// total), as inspection reports them.
struct NamedVector {
    std::string name;
    Vec2 value;
};

// Throws std::invalid_argument naming the first bad parameter and its value.
void check_force_params(const ForceParams& params);

// The kernel reads the local problem's types (methods/local_problem.hpp):
// `order` breaks the symmetry of exactly coincident agents (the lower one
// goes -x). Obstacles enter as surfaces: the outward unit normal at the
// point closest to the agent and that point's distance (a 2D edge, the solid
// on its left, or a 3D shape's contact).
template <class V>
struct ForceSurface {
    V normal;
    double distance = 0.0;
};

// The new velocity; with `forces` (2D), the accelerations by kind.
template <class V>
V force_based_velocity(const ForceParams& params, const LocalAgentT<V>& agent, int agent_order,
                       const LocalNeighborT<V>* neighbors, int neighbor_count, const ForceSurface<V>* surfaces,
                       int surface_count, double time_step, std::vector<NamedVector>* forces = nullptr);

// The plane version with edges (the solid on their left).
Vec2 force_based_velocity(const ForceParams& params, const LocalAgent& agent, int agent_order,
                          const LocalNeighbor* neighbors, int neighbor_count, const LocalEdge* segments,
                          int segment_count, double time_step, std::vector<NamedVector>* forces = nullptr);

class ForceBased final : public Method {
public:
    explicit ForceBased(ForceParams params);
    std::string name() const override { return "ForceBased"; }
    Vec2 new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const override;
    void inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const override;
    bool supports_dimensions(int dimensions) const override { return dimensions == 2 || dimensions == 3; }
    Vec3 new_velocity(const SceneOf<Vec3>& scene, int slot, Workspace& ws) const override;
    std::unique_ptr<MethodScratch> make_scratch() const override;
    const ForceParams& params() const { return params_; }

private:
    Vec2 solve(const SceneView& scene, int slot, Workspace& ws, std::vector<NamedVector>* forces) const;

    ForceParams params_;
};

}  // namespace vosim
