// The names users give the velocity-obstacle options (the registration and
// the kernel's bindings read them).
#pragma once

#include <stdexcept>
#include <string>

#include "methods/velocity_obstacles/velocity_obstacles.hpp"

namespace vosim {

inline Cone parse_cone(const std::string& name) {
    if (name == "vo") return Cone::vo;
    if (name == "rvo") return Cone::rvo;
    if (name == "hrvo") return Cone::hrvo;
    throw std::invalid_argument("cone is '" + name + "'; must be 'vo', 'rvo' or 'hrvo'");
}

inline Selection parse_selection(const std::string& name) {
    if (name == "sampling") return Selection::sampling;
    if (name == "geometric") return Selection::geometric;
    throw std::invalid_argument("selection is '" + name + "'; must be 'sampling' or 'geometric'");
}

inline HrvoApex parse_apex(const std::string& name) {
    if (name == "library") return HrvoApex::library;
    if (name == "symmetric") return HrvoApex::symmetric;
    throw std::invalid_argument("hrvo_apex is '" + name + "'; must be 'library' or 'symmetric'");
}

}  // namespace vosim
