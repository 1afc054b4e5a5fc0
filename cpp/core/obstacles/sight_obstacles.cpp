#include "obstacles/sight_obstacles.hpp"

namespace vosim {

bool SightObstacles::clear(int scene, Vec2 a, Vec2 b, double clearance) const {
    if (shared && !shared->sight_clear(a, b, clearance)) return false;
    if (own && scene >= 0 && static_cast<std::size_t>(scene) < own->size()) {
        const auto& set = (*own)[static_cast<std::size_t>(scene)];
        if (set && !set->sight_clear(a, b, clearance)) return false;
    }
    return true;
}

}  // namespace vosim
