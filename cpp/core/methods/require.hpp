// Argument checks of the methods' settings, with one wording everywhere:
// "<name> is <value>; must be ..." (as Python's checks word them).
#pragma once

#include <string>
#include <vector>

namespace vosim {

// Throws std::invalid_argument unless `value` is finite, >= minimum (> minimum
// when `exclusive_minimum`) and <= maximum.
void require_in_range(const std::string& name, double value, double minimum, double maximum,
                      bool exclusive_minimum = false);

// Throws std::invalid_argument unless `value` is one of `choices`.
void require_choice(const std::string& name, const std::string& value, const std::vector<std::string>& choices);

}  // namespace vosim
