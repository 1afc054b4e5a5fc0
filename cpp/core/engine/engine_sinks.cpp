// Engine::add_sink and remove_sink: the engine's side of sinks (sinks.hpp);
// agents leave through them in the exits phase (exit_phase.hpp).
#include "engine/engine.hpp"

namespace vosim {

int Engine::add_sink(int scene, const Vec2* points, int count, bool line) {
    require_plane("a sink");
    BusyGuard guard(busy_);
    return sinks_.add(scene, state_.scenes(), points, count, line);
}

void Engine::remove_sink(int id) {
    BusyGuard guard(busy_);
    sinks_.remove(id);
}

void Engine::set_sink_open(int id, double opens, double closes) {
    BusyGuard guard(busy_);
    sinks_.set_open(id, opens, closes);
}

}  // namespace vosim
