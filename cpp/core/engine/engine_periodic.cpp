// Engine::set_periodic: the engine's side of a periodic axis (its data, checks and
// saved part are spatial/periodic.*); the neighbour gathering looks across its
// seam and the wrap phase keeps agents inside it.
#include <string>

#include "engine/engine.hpp"

namespace vosim {

void Engine::check_periodic_fits(const Periodic& periodic, const Method& method) const {
    check_periodic(periodic);
    if (!periodic.on()) return;
    require_plane("a periodic axis");
    if (!method.sees_periodic_neighbors()) {
        throw std::invalid_argument("method " + method.name() +
                                    " searches its own neighbours and cannot see across a periodic seam");
    }
}

void Engine::set_periodic(int axis, double low, double high) {
    const Periodic periodic{axis, low, high};
    check_periodic_fits(periodic, *method_);
    BusyGuard guard(busy_);
    periodic_ = periodic.on() ? periodic : Periodic{};
}

}  // namespace vosim
