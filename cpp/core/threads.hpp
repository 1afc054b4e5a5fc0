// Thread count for the parallel loops (OpenMP when the build has it).
// Results never depend on it: every parallel loop writes per-agent outputs
// only, and reductions are order-independent (min/max of exact values).
#pragma once

#include <cstdint>

namespace vosim {

// Loops over fewer items than these run on the calling thread alone:
// starting and joining a team of threads costs microseconds, and far more
// when other processes occupy the cores (the team's threads then wait for
// each other at every barrier). Per-agent work of a method is about a
// microsecond; the simple per-agent passes (checks, integration) are a few
// nanoseconds.
constexpr std::int64_t kParallelMinAgents = 512;
constexpr std::int64_t kParallelMinValues = 32768;

bool have_openmp();
int max_threads();
// The largest thread count set_max_threads accepts: 4 per processor, at
// least 64 (1 without OpenMP). Far more threads than processors only slow
// the loops down, and an absurd count would fail to start them.
int thread_limit();
// 1 <= k <= thread_limit().
void set_max_threads(int k);
int thread_index();
// Threads in the calling parallel region (1 outside one).
int team_size();

}  // namespace vosim
