// Engine::add_speed_zone and remove_speed_zone: the engine's side of speed
// zones (speed_zones.hpp); the goals phase applies them.
#include "engine/engine.hpp"

namespace vosim {

int Engine::add_speed_zone(int scene, const Vec2* points, int count, double factor) {
    require_plane("a speed zone");
    BusyGuard guard(busy_);
    return speed_zones_.add(scene, state_.scenes(), points, count, factor);
}

void Engine::remove_speed_zone(int id) {
    BusyGuard guard(busy_);
    speed_zones_.remove(id);
}

}  // namespace vosim
