// A counter-based random stream: value k of a stream is a pure function of
// (seed, k), so results never depend on which thread draws them or in which
// order agents are processed. The mixing function is splitmix64 (Steele,
// Lea, Flood 2014), which passes BigCrush as a counter-based generator.
#pragma once

#include <cstdint>

namespace vosim {

// splitmix64's constants: the step between a stream's words, and the two
// multipliers of its finaliser (also drawn on lanes, maths/simd/unit_draws.hpp).
constexpr std::uint64_t kSplitmixGamma = 0x9E3779B97F4A7C15ull;
constexpr std::uint64_t kSplitmixMultiplier1 = 0xBF58476D1CE4E5B9ull;
constexpr std::uint64_t kSplitmixMultiplier2 = 0x94D049BB133111EBull;

// The splitmix64 finaliser: a bijective mix of 64 bits.
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * kSplitmixMultiplier1;
    z = (z ^ (z >> 27)) * kSplitmixMultiplier2;
    return z ^ (z >> 31);
}

// Combines a seed with further words (agent id, step, ...) into a new seed;
// different words give unrelated streams.
constexpr std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t word) {
    return splitmix64_mix(seed ^ splitmix64_mix(word + kSplitmixGamma));
}

class CounterRng {
public:
    constexpr explicit CounterRng(std::uint64_t seed) : seed_(seed) {}

    // Value number `counter_` of the stream, then the next one.
    constexpr std::uint64_t next_u64() {
        ++counter_;
        return splitmix64_mix(seed_ + counter_ * kSplitmixGamma);
    }

    // Uniform in [0, 1), 53 random bits.
    constexpr double next_unit() {
        return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
    }

    // Value number `counter` (1, 2, ...) of the stream as next_unit() gives
    // it, without moving along the stream: for drawing a block at once.
    constexpr double unit_at(std::uint64_t counter) const {
        return static_cast<double>(splitmix64_mix(seed_ + counter * kSplitmixGamma) >> 11) * 0x1.0p-53;
    }

    // Moves past the next value without working it out: the stream goes on
    // as if it had been drawn.
    constexpr void skip() { ++counter_; }

    // Uniform in [-1, 1).
    constexpr double next_signed_unit() { return 2.0 * next_unit() - 1.0; }

private:
    std::uint64_t seed_;
    std::uint64_t counter_ = 0;
};

}  // namespace vosim
