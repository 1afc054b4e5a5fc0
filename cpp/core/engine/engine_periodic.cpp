// Engine::set_periodic: the engine's side of a periodic axis; the neighbour
// gathering looks across its seam and the wrap phase keeps agents inside it.
#include <string>

#include "engine/engine.hpp"
#include "engine/wrap_phase.hpp"

namespace vosim {

void Engine::set_periodic(int axis, double low, double high) {
    const Periodic periodic{axis, low, high};
    check_periodic(periodic);
    if (periodic.on()) {
        require_plane("a periodic axis");
        if (!method_->sees_periodic_neighbors()) {
            throw std::invalid_argument("method " + method_->name() +
                                        " searches its own neighbours and cannot see across a periodic seam");
        }
    }
    BusyGuard guard(busy_);
    periodic_ = periodic.on() ? periodic : Periodic{};
}

}  // namespace vosim
