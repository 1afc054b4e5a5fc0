// floor() to an integer without the library call: GCC calls floor() (or
// emits a long sequence) unless SSE4.1 is enabled, which the portable build
// does not assume. Exactly std::floor's result.
#pragma once

#include <cstdint>

namespace vosim {

// floor(x) as an integer, for x that is not NaN and whose magnitude is below
// 2^62 (callers clamp first): truncation toward zero, one less when that
// rounded a negative non-integer up.
inline std::int64_t floor_to_int(double x) {
    const auto t = static_cast<std::int64_t>(x);
    return t - static_cast<std::int64_t>(static_cast<double>(t) > x);
}

}  // namespace vosim
