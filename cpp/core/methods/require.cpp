#include "require.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "state_check.hpp"

namespace vosim {

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
