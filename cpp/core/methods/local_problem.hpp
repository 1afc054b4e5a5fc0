// One vocabulary for a method's local problem: the agent, its neighbours
// (nearest first), the obstacle edges near it, the time step and what seeds
// its random draws. The kernels of the velocity obstacles, DetourCrowd's
// sampling and the force-based method take these types; one adapter builds
// them from the engine's frozen scene and the neighbours it gathered. (ORCA
// reads the workspace directly: its lines need nothing more.) Agents and
// neighbours are templated on the vector type; a 3D problem has obstacle
// surfaces (closest point, normal, distance) where a 2D one has edges.
#pragma once

#include <cstdint>
#include <vector>

#include "obstacles/obstacles3d.hpp"  // ObstacleContact3
#include "maths/vec2.hpp"
#include "maths/vec3.hpp"

namespace vosim {

struct SceneView;  // method.hpp
struct Workspace;

// The agent's numbers that the kernels read, each a per-agent field of the
// table (agent_fields.hpp says what it means) and its value when a local
// problem is given without it: (name, default). The adapter copies them from
// the state and the bindings read them by name, both from this list.
#define VOSIM_LOCAL_AGENT_NUMBERS(X) \
    X(radius, 0.0)                   \
    X(max_speed, 0.0)                \
    X(time_horizon, 1.0)             \
    X(time_horizon_obst, 1.0)        \
    X(uncertainty_offset, 0.0)

template <class V>
struct LocalAgentT {
    V position;
    V velocity;       // current velocity
    V pref_velocity;  // preferred (DetourCrowd: desired) velocity
#define VOSIM_LOCAL_AGENT_NUMBER(name, fallback) double name = fallback;
    VOSIM_LOCAL_AGENT_NUMBERS(VOSIM_LOCAL_AGENT_NUMBER)
#undef VOSIM_LOCAL_AGENT_NUMBER
    std::int64_t id = 0;  // seeds per-agent random draws
    int order = 0;        // the agent's slot: breaks the symmetry of exactly coincident agents
    // Within its arrival radius of its final goal (no waypoints left): the
    // engine's definition of arrived, for the state this step starts from.
    bool at_goal = false;
};

template <class V>
struct LocalNeighborT {
    V position;
    V velocity;
    V pref_velocity;  // decides the side to pass on (HRVO, DetourCrowd)
    double radius = 0.0;
    int order = 0;    // the neighbour's slot (see LocalAgentT::order)
};

using LocalAgent = LocalAgentT<Vec2>;
using LocalNeighbor = LocalNeighborT<Vec2>;
using LocalAgent3 = LocalAgentT<Vec3>;
using LocalNeighbor3 = LocalNeighborT<Vec3>;

// A static obstacle edge, the solid on the left of a -> b (the project's
// polygons are counter-clockwise); the engine's edges face the agent.
struct LocalEdge {
    Vec2 a;
    Vec2 b;
};

struct LocalProblem {
    LocalAgent agent;
    std::vector<LocalNeighbor> neighbors;
    std::vector<LocalEdge> edges;
    double time_step = 0.0;
    std::int64_t step = 0;  // steps taken before this one (seeds per-step draws)

    int neighbor_count() const { return static_cast<int>(neighbors.size()); }
    int edge_count() const { return static_cast<int>(edges.size()); }
};

// The 3D problem: the obstacle surfaces near the agent are the engine's
// contacts (nearest points of the shapes), read in place.
struct LocalProblem3 {
    LocalAgent3 agent;
    std::vector<LocalNeighbor3> neighbors;
    const ObstacleContact3* contacts = nullptr;
    int contact_count = 0;
    double time_step = 0.0;
    std::int64_t step = 0;

    int neighbor_count() const { return static_cast<int>(neighbors.size()); }
};

class Record;  // record.hpp

// A method whose kernel can be called on a local problem given outright,
// without an engine (the bindings' `solve_local`: tests against reference
// libraries, drawing one agent's velocity space). The problem is as the
// kernel takes it: edges are the obstacles the kernel tests against
// (DetourCrowd's: already eroded by the agent's radius, as its navmesh is).
// Checks the problem (std::invalid_argument naming the bad value), returns the
// new velocity and puts the method's own record of the solve in `record`:
// a summary always, everything it saw and weighed when `detailed`.
class LocalSolver {
public:
    virtual ~LocalSolver() = default;
    virtual Vec2 solve_local(const LocalProblem& problem, Record& record, bool detailed) const = 0;
};

// Fills `problem` (reusing its storage, so that a step does not allocate) for
// agent `slot` of the frozen scene, with the neighbours the engine put in ws.
void build_local_problem(const SceneView& scene, int slot, const Workspace& ws, LocalProblem& problem);
void build_local_problem(const SceneView& scene, int slot, const Workspace& ws, LocalProblem3& problem);

}  // namespace vosim
