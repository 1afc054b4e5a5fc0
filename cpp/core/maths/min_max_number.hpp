// std::fmin / std::fmax without the library call (which GCC does not inline
// unless NaNs are ruled out): same results, so hot loops may use them.
#pragma once

namespace vosim {

// The smaller of a and b; a NaN argument loses to a number; equal values
// (+0 and -0 included) give a, as the C library does.
// Written as a select the compiler makes a minsd (and maxsd below), then
// the NaN case: no branch on which is smaller, a coin toss in hot loops.
inline double min_number(double a, double b) {
    const double smaller = b < a ? b : a;
    return a != a ? b : smaller;
}

// The larger of a and b, with the same rules.
inline double max_number(double a, double b) {
    const double larger = b > a ? b : a;
    return a != a ? b : larger;
}

}  // namespace vosim
