// The obstacles a scene feature may look past in the goals phase (the
// waypoints' visible rule): the shared set and each scene's own, built.
#pragma once

#include <memory>
#include <vector>

#include "obstacles/obstacles.hpp"

namespace vosim {

// Null or missing sets: none.
struct SightObstacles {
    const ObstacleSet* shared = nullptr;
    const std::vector<std::unique_ptr<ObstacleSet>>* own = nullptr;
    // Whether a-b keeps more than `clearance` from every edge of `scene`'s obstacles.
    bool clear(int scene, Vec2 a, Vec2 b, double clearance) const;
};

}  // namespace vosim
