// Records dtCrowd::update on a flat navmesh of one rectangular polygon:
// every agent's position, velocity, desired velocity and sampled velocity
// after each update, as CSV. Agents go straight to a target
// (requestMoveTarget); updateFlags is DT_CROWD_OBSTACLE_AVOIDANCE only.
//
// usage: record_detour_crowd SCENE OUT.csv   (SCENE: circle, crossing, corridor, circle200)
// Writes OUT.csv (one row per agent and step; step 0 is the start) and
// OUT.csv.json (the scene: navmesh rectangle, agent parameters, targets).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "DetourCrowd.h"
#include "DetourNavMesh.h"
#include "DetourNavMeshBuilder.h"
#include "DetourNavMeshQuery.h"

namespace {

float kRadius = 0.3f;
float kMaxSpeed = 1.4f;
const float kMaxAcceleration = 8.0f;  // RecastDemo's agents
const float kDt = 0.1f;
int kSteps = 150;
const float kCell = 0.05f;

struct Scene {
    float xmin, xmax, zmin, zmax;  // the walkable rectangle (its border is the wall)
    std::vector<float> start;      // x, z per agent
    std::vector<float> target;
};

Scene make_scene(const std::string& name) {
    Scene s;
    const float pi = 3.14159265358979f;
    if (name == "circle200") {
        // 200 agents on a 15 m circle (radius 0.25, 1.3 m/s), each to the opposite point.
        s.xmin = s.zmin = -20.0f;
        s.xmax = s.zmax = 20.0f;
        const int n = 200;
        for (int i = 0; i < n; ++i) {
            const float a = 2.0f * pi * i / n;
            s.start.push_back(15.0f * std::cos(a));
            s.start.push_back(15.0f * std::sin(a));
            s.target.push_back(-15.0f * std::cos(a));
            s.target.push_back(-15.0f * std::sin(a));
        }
    } else if (name == "circle") {
        // 16 agents on a 4 m circle, each to the opposite point; starts
        // nudged by up to 0.05 rad so that the crowd is not exactly symmetric.
        s.xmin = s.zmin = -10.0f;
        s.xmax = s.zmax = 10.0f;
        const int n = 16;
        for (int i = 0; i < n; ++i) {
            const float a = 2.0f * pi * i / n + 0.05f * std::sin(7.0f * i);
            s.start.push_back(4.0f * std::cos(a));
            s.start.push_back(4.0f * std::sin(a));
            s.target.push_back(-4.0f * std::cos(a));
            s.target.push_back(-4.0f * std::sin(a));
        }
    } else if (name == "crossing") {
        // Two groups of 3 x 3 agents (1 m apart) cross at right angles.
        s.xmin = s.zmin = -10.0f;
        s.xmax = s.zmax = 10.0f;
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) {
                s.start.push_back(-6.0f - r);
                s.start.push_back(-1.0f + c);
                s.target.push_back(6.0f - r);
                s.target.push_back(-1.0f + c);
            }
        }
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) {
                s.start.push_back(-1.0f + c + 0.1f);
                s.start.push_back(-6.0f - r);
                s.target.push_back(-1.0f + c + 0.1f);
                s.target.push_back(6.0f - r);
            }
        }
    } else if (name == "corridor") {
        // A 3 m wide corridor, 20 m long; 6 agents from each end.
        s.xmin = -10.0f;
        s.xmax = 10.0f;
        s.zmin = -1.5f;
        s.zmax = 1.5f;
        for (int k = 0; k < 6; ++k) {
            const float z = -1.0f + 0.4f * k;
            const float x = -8.0f - 0.7f * (k % 2);
            s.start.push_back(x);
            s.start.push_back(z);
            s.target.push_back(8.0f);
            s.target.push_back(z);
            s.start.push_back(-x);
            s.start.push_back(-z + 0.1f);
            s.target.push_back(-8.0f);
            s.target.push_back(-z + 0.1f);
        }
    } else {
        std::fprintf(stderr, "unknown scene %s\n", name.c_str());
        std::exit(2);
    }
    return s;
}

dtNavMesh* make_navmesh(const Scene& s) {
    const float bmin[3] = {s.xmin, 0.0f, s.zmin};
    const float bmax[3] = {s.xmax, 1.0f, s.zmax};
    const unsigned short nx = static_cast<unsigned short>(std::lround((s.xmax - s.xmin) / kCell));
    const unsigned short nz = static_cast<unsigned short>(std::lround((s.zmax - s.zmin) / kCell));
    // One quad; its vertices in Recast's order (clockwise seen from +y).
    const unsigned short verts[] = {0, 0, 0, 0, 0, nz, nx, 0, nz, nx, 0, 0};
    const int nvp = 6;
    unsigned short polys[2 * nvp];
    for (int j = 0; j < 2 * nvp; ++j) polys[j] = 0xffff;  // no vertex / border edge
    for (int j = 0; j < 4; ++j) polys[j] = static_cast<unsigned short>(j);
    const unsigned short flags[] = {1};
    const unsigned char areas[] = {0};
    dtNavMeshCreateParams p;
    std::memset(&p, 0, sizeof p);
    p.verts = verts;
    p.vertCount = 4;
    p.polys = polys;
    p.polyFlags = flags;
    p.polyAreas = areas;
    p.polyCount = 1;
    p.nvp = nvp;
    p.walkableHeight = 2.0f;
    p.walkableRadius = 0.0f;
    p.walkableClimb = 0.5f;
    std::memcpy(p.bmin, bmin, sizeof bmin);
    std::memcpy(p.bmax, bmax, sizeof bmax);
    p.cs = kCell;
    p.ch = 0.1f;
    p.buildBvTree = true;
    unsigned char* data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&p, &data, &size)) {
        std::fprintf(stderr, "dtCreateNavMeshData failed\n");
        std::exit(1);
    }
    dtNavMesh* mesh = dtAllocNavMesh();
    if (dtStatusFailed(mesh->init(data, size, DT_TILE_FREE_DATA))) {
        std::fprintf(stderr, "dtNavMesh::init failed\n");
        std::exit(1);
    }
    return mesh;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s circle|crossing|corridor OUT.csv\n", argv[0]);
        return 2;
    }
    const Scene scene = make_scene(argv[1]);
    if (std::string(argv[1]) == "circle200") {
        kRadius = 0.25f;
        kMaxSpeed = 1.3f;
        kSteps = 1000;
    }
    dtNavMesh* mesh = make_navmesh(scene);
    dtNavMeshQuery* query = dtAllocNavMeshQuery();
    query->init(mesh, 2048);
    const int n = static_cast<int>(scene.start.size() / 2);
    dtCrowd* crowd = dtAllocCrowd();
    crowd->init(n, kRadius, mesh);  // obstacle avoidance slot 0 keeps dtCrowd::init's values
    const float extents[3] = {1.0f, 2.0f, 1.0f};
    dtQueryFilter filter;
    for (int i = 0; i < n; ++i) {
        dtCrowdAgentParams ap;
        std::memset(&ap, 0, sizeof ap);
        ap.radius = kRadius;
        ap.height = 2.0f;
        ap.maxAcceleration = kMaxAcceleration;
        ap.maxSpeed = kMaxSpeed;
        ap.collisionQueryRange = kRadius * 12.0f;    // RecastDemo's
        ap.pathOptimizationRange = kRadius * 30.0f;  // RecastDemo's
        ap.separationWeight = 0.0f;
        ap.updateFlags = DT_CROWD_OBSTACLE_AVOIDANCE;
        ap.obstacleAvoidanceType = 0;
        ap.queryFilterType = 0;
        const float pos[3] = {scene.start[2 * i], 0.0f, scene.start[2 * i + 1]};
        if (crowd->addAgent(pos, &ap) != i) {
            std::fprintf(stderr, "addAgent %d failed\n", i);
            return 1;
        }
        const float goal[3] = {scene.target[2 * i], 0.0f, scene.target[2 * i + 1]};
        dtPolyRef ref = 0;
        float nearest[3];
        query->findNearestPoly(goal, extents, &filter, &ref, nearest);
        if (!ref || !crowd->requestMoveTarget(i, ref, nearest)) {
            std::fprintf(stderr, "requestMoveTarget %d failed\n", i);
            return 1;
        }
    }
    std::FILE* out = std::fopen(argv[2], "w");
    std::fprintf(out, "step,agent,x,z,vx,vz,dvx,dvz,nvx,nvz\n");
    for (int i = 0; i < n; ++i) {
        const dtCrowdAgent* ag = crowd->getAgent(i);
        std::fprintf(out, "0,%d,%.9g,%.9g,%.9g,%.9g,0,0,0,0\n", i, ag->npos[0], ag->npos[2], ag->vel[0], ag->vel[2]);
    }
    for (int step = 1; step <= kSteps; ++step) {
        crowd->update(kDt, nullptr);
        for (int i = 0; i < n; ++i) {
            const dtCrowdAgent* ag = crowd->getAgent(i);
            std::fprintf(out, "%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", step, i, ag->npos[0], ag->npos[2],
                         ag->vel[0], ag->vel[2], ag->dvel[0], ag->dvel[2], ag->nvel[0], ag->nvel[2]);
        }
    }
    std::fclose(out);
    // The scene beside it: the navmesh rectangle, the agents' parameters, the targets.
    const std::string meta_path = std::string(argv[2]) + ".json";
    std::FILE* meta = std::fopen(meta_path.c_str(), "w");
    std::fprintf(meta, "{\"scene\": \"%s\", \"navmesh\": [%g, %g, %g, %g], \"radius\": %.9g, \"max_speed\": %.9g, "
                 "\"max_acceleration\": %.9g, \"collision_query_range\": %.9g, \"max_neighbours\": %d, "
                 "\"time_step\": %.9g, \"steps\": %d, \"targets\": [",
                 argv[1], scene.xmin, scene.xmax, scene.zmin, scene.zmax, kRadius, kMaxSpeed, kMaxAcceleration,
                 kRadius * 12.0f, DT_CROWDAGENT_MAX_NEIGHBOURS, kDt, kSteps);
    for (int i = 0; i < n; ++i) {
        std::fprintf(meta, "%s[%.9g, %.9g]", i ? ", " : "", scene.target[2 * i], scene.target[2 * i + 1]);
    }
    std::fprintf(meta, "]}\n");
    std::fclose(meta);
    return 0;
}
