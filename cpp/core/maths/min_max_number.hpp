// std::fmin / std::fmax without the library call (which GCC does not inline
// unless NaNs are ruled out): same results, so hot loops may use them.
#pragma once

namespace vosim {

// The smaller of a and b; a NaN argument loses to a number; equal values
// (+0 and -0 included) give a, as the C library does.
inline double min_number(double a, double b) { return b < a ? b : (a != a ? b : a); }

// The larger of a and b, with the same rules.
inline double max_number(double a, double b) { return b > a ? b : (a != a ? b : a); }

}  // namespace vosim
