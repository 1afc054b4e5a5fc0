// Argument checks of the methods' settings, with one wording everywhere:
// "<name> is <value>; must be ..." (as Python's checks word them).
#pragma once

#include <string>
#include <vector>

#include "maths/vec2.hpp"

namespace vosim {

// Throws std::invalid_argument "<name> is <value>; <rule>" unless ok.
void require(bool ok, const std::string& name, double value, const std::string& rule);

// Each component finite ("position[1] is nan; must be finite").
void require_finite(Vec2 v, const std::string& name);

// Both components finite, the vector named as a whole ("position is (nan, 0);
// must be finite").
void require_finite_vector(Vec2 v, const std::string& name);

// Finite and >= 0.
void require_non_negative(double value, const std::string& name);

// Throws std::invalid_argument unless `value` is finite, >= minimum (> minimum
// when `exclusive_minimum`) and <= maximum.
void require_in_range(const std::string& name, double value, double minimum, double maximum,
                      bool exclusive_minimum = false);

// Throws std::invalid_argument unless `value` is one of `choices`.
void require_choice(const std::string& name, const std::string& value, const std::vector<std::string>& choices);

}  // namespace vosim
