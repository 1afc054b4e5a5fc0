// Optimal Reciprocal Collision Avoidance (van den Berg, Guy, Lin, Manocha,
// 2011), the algorithm of the RVO2 library.
//
// Each neighbour contributes one half-plane of admissible velocities: the
// smallest change u of the relative velocity that leaves the truncated
// velocity obstacle, of which this agent takes half. The new velocity is the
// admissible one nearest to the preferred velocity (linear programs 1 and 2),
// or, when the half-planes do not intersect inside the speed disc, the one
// that violates them least (linear program 3).
#pragma once

#include <vector>

#include "half_spaces.hpp"
#include "method.hpp"

namespace vosim {

// How ORCA sees non-holonomic agents: as their effective centres with the
// velocities their drive realises (ORCA-DD, kinematics.hpp), or as their
// own centres, enlarged by a tracking error, with the velocities they can
// track (NH-ORCA, nh_orca.hpp).
enum class NonholonomicModel { kEffectiveCenter, kTrackingError };

// ORCA's per-thread scratch: the half-planes (2D) or half-spaces (3D) of the
// agent being computed, and their projections for linear program 3.
struct OrcaScratch final : MethodScratch {
    std::vector<Line> lines;
    std::vector<Line> projected_lines;
    std::vector<Plane> planes;
    std::vector<Plane> projected_planes;
};

struct OrcaConfig {
    // Weight w of the projected lines of linear program 3,
    // normalize(w * d_j - d_i); 1 (the published bisector) reproduces RVO2.
    double bisector_weight = 1.0;
    // max_acceleration as hard constraints of the linear programs (the
    // velocities reachable in one step; reachable_velocities.hpp), or, when
    // false, clamped after the method as for every other method.
    bool acceleration_in_program = true;
    // How non-holonomic agents are seen (above).
    NonholonomicModel nonholonomic = NonholonomicModel::kEffectiveCenter;
    // Seconds; > 0: the preferred speed is capped at the spacing to the
    // nearest neighbour ahead over this gap (a headway rule for pedestrian
    // crowds, after Tordeux et al. 2016). 0 (RVO2's ORCA): off.
    double time_gap = 0.0;
};

// The agent's preferred velocity, capped by config.time_gap's headway rule:
// speed at most (spacing to the nearest neighbour ahead in its lane) / gap.
template <class V>
V headway_preferred_velocity(const SceneView& scene, int slot, const Workspace& ws, double time_gap);

// What ORCA decided for one agent, for inspection.
struct OrcaDecision {
    Vec2 velocity;
    std::size_t hard_lines = 0;  // the first lines come from obstacles
    bool used_least_violation = false;
};

class Orca final : public Method {
public:
    // Throws std::invalid_argument unless 0 < bisector_weight <= kMaxMagnitude.
    explicit Orca(OrcaConfig config = {});
    std::string name() const override { return "ORCA"; }
    // In the plane a polygon, in space a polyhedron of reachable velocities.
    bool models_acceleration(int) const override { return config_.acceleration_in_program; }
    bool keeps_clear_of_obstacles() const override { return true; }
    Presented present_agent(const AgentState& s, std::size_t i) const override;
    Motion motion_from_method(Vec2 u, const AgentState& s, std::size_t i, double time_step) const override;
    void check_agents(const AgentState& s, double time_step) const override;
    std::unique_ptr<MethodScratch> make_scratch() const override { return std::make_unique<OrcaScratch>(); }
    Vec2 new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const override;
    void inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const override;

    // The full computation; the half-planes are left in the scratch's lines.
    OrcaDecision decide(const SceneView& scene, int slot, Workspace& ws) const;

    // ORCA in 3D (orca3d.cpp), as the RVO2-3D library: half-spaces instead
    // of half-planes, left in the scratch's planes.
    bool supports_dimensions(int dimensions) const override { return dimensions == 2 || dimensions == 3; }
    Vec3 new_velocity(const SceneOf<Vec3>& scene, int slot, Workspace& ws) const override;
    void inspect(const SceneOf<Vec3>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec3>& out) const override;
    // (hard_planes: how many of the planes come first from the reachable
    // polyhedron and obstacles.)
    Vec3 decide_3d(const SceneView& scene, int slot, Workspace& ws, bool& used_least_violation,
                   std::size_t& hard_planes) const;

    const OrcaConfig& config() const { return config_; }

private:
    OrcaConfig config_;
};

// Appends to `lines` the half-planes the obstacle edges in ws impose on agent
// `slot` (skipping edges whose velocity obstacle earlier lines already cover).
void append_obstacle_lines(const SceneView& scene, int slot, const Workspace& ws,
                           std::vector<Line>& lines);

// Appends to `planes` a hard half-space of velocities per obstacle surface
// in ws (3D): the supporting plane at the closest point, shifted by the
// radius and scaled by the obstacle time horizon (at least one step).
void append_obstacle_planes(const SceneView& scene, int slot, const Workspace& ws, std::vector<Plane>& planes);

// Appends to `planes` the half-space of velocities each agent neighbour in ws
// leaves agent `slot` in 3D.
void append_agent_planes(const SceneView& scene, int slot, const Workspace& ws, std::vector<Plane>& planes);

// Agent A's share of the avoidance of a pair (ORCA's 1/2 when the
// priorities are equal, as RVO2; priority_b / (priority_a + priority_b)
// otherwise, all of it when A's is 0 and B's is not).
inline double avoidance_share(double own_priority, double other_priority) {
    const double priority_sum = own_priority + other_priority;
    return own_priority == other_priority || !(priority_sum > 0.0) ? 0.5 : other_priority / priority_sum;
}

// Appends to `lines` the half-plane each agent neighbour in ws imposes on
// agent `slot`.
void append_agent_lines(const SceneView& scene, int slot, const Workspace& ws,
                        std::vector<Line>& lines);

}  // namespace vosim
