#include "methods/require.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "state/state_check.hpp"

namespace vosim {

void require(bool ok, const std::string& name, double value, const std::string& rule) {
    if (!ok) throw std::invalid_argument(name + " is " + format_number(value) + "; " + rule);
}

void require_finite(Vec2 v, const std::string& name) {
    require(std::isfinite(v.x), name + "[0]", v.x, "must be finite");
    require(std::isfinite(v.y), name + "[1]", v.y, "must be finite");
}

void require_finite_vector(Vec2 v, const std::string& name) {
    if (!(std::isfinite(v.x) && std::isfinite(v.y))) {
        throw std::invalid_argument(name + " is (" + format_number(v.x) + ", " + format_number(v.y) +
                                    "); must be finite");
    }
}

void require_non_negative(double value, const std::string& name) {
    require(std::isfinite(value) && value >= 0.0, name, value, "must be finite and >= 0");
}

void require_in_range(const std::string& name, double value, double minimum, double maximum,
                      bool exclusive_minimum) {
    const std::string is = name + " is " + format_number(value) + "; must be ";
    if (!std::isfinite(value)) throw std::invalid_argument(is + "finite");
    if (exclusive_minimum ? !(value > minimum) : !(value >= minimum)) {
        throw std::invalid_argument(is + (exclusive_minimum ? "> " : ">= ") + format_number(minimum));
    }
    if (!(value <= maximum)) throw std::invalid_argument(is + "<= " + format_number(maximum));
}

void require_choice(const std::string& name, const std::string& value, const std::vector<std::string>& choices) {
    if (std::find(choices.begin(), choices.end(), value) != choices.end()) return;
    // "'a' or 'b'"; "one of 'a', 'b', 'c'" for more.
    std::string listed = choices.size() > 2 ? "one of " : "";
    for (std::size_t k = 0; k < choices.size(); ++k) {
        if (k > 0) listed += choices.size() > 2 ? ", " : " or ";
        listed += "'" + choices[k] + "'";
    }
    throw std::invalid_argument(name + " is '" + value + "'; must be " + listed);
}

}  // namespace vosim
