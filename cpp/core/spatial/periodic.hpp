// A periodic axis: positions along `axis` wrap into [low, high), and an agent
// sees its neighbours across the seam at their nearest image (the minimum
// image convention). Planar only; off (axis -1) by default, which costs the
// neighbour search and the step one branch each. The scene feature that
// holds one, saves it and wraps agents: features/periodic/periodic_axis.hpp.
#pragma once

#include <cstdint>

#include "maths/vec2.hpp"
#include "maths/vec3.hpp"

namespace vosim {

struct Periodic {
    int axis = -1;  // 0: x, 1: y; -1: no periodic axis
    double low = 0.0;
    double high = 0.0;

    bool on() const { return axis >= 0; }
    double period() const { return high - low; }

    // The coordinate of v along the axis (on() only).
    template <class V>
    double along(V v) const {
        return axis == 0 ? v.x : v.y;
    }
    // The vector `image` periods along the axis (zero when image is 0).
    template <class V>
    V offset(std::int32_t image) const {
        V d{};
        if (image == 0) return d;
        const double shift = image * period();
        if (axis == 0) {
            d.x = shift;
        } else {
            d.y = shift;
        }
        return d;
    }

};

// Checks a periodic axis as set_periodic takes it (axis -1: off, then low and
// high are ignored): std::invalid_argument naming the argument and value.
void check_periodic(const Periodic& periodic);

}  // namespace vosim
