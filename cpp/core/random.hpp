// Counter-based random numbers: a value depends only on (seed, stream,
// counter), never on how many draws came before or on which thread asks,
// which keeps runs bit-identical whatever the thread count.
#pragma once

#include <cstdint>

namespace vosim {

// The splitmix64 finaliser: a bijective mix of 64 bits.
inline std::uint64_t mix64(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The `index`-th 64-bit value of the stream (seed, stream, counter).
inline std::uint64_t random_bits(std::uint64_t seed, std::uint64_t stream, std::uint64_t counter,
                                 std::uint64_t index = 0) {
    return mix64(mix64(mix64(seed ^ mix64(stream)) ^ counter) + index);
}

// A double in [0, 1) with 53 random bits.
inline double to_unit(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

}  // namespace vosim
