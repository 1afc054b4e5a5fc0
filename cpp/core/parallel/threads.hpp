// Thread count for the parallel loops (parallel.hpp's pool; one thread in a
// build with VOSIM_THREADS off).
// Results never depend on it: every parallel loop writes per-agent outputs
// only, and reductions are order-independent (min/max of exact values).
#pragma once

#include <cstdint>

namespace vosim {

// Loops over fewer agents than this run on the calling thread alone:
// handing work to other threads costs microseconds, and far more when other
// processes occupy the cores. Per-agent work of a method is about a
// microsecond. (The simple per-agent passes go by kValuesPerItem of
// parallel.hpp.)
constexpr std::int64_t kParallelMinAgents = 512;

// Whether the build steps on several threads.
bool have_threads();
// set_max_threads' count, else the calling thread's budget (set_thread_budget),
// else the default: OMP_NUM_THREADS when set, otherwise the processors
// this process may run on (its CPU affinity). The engine's loops run on
// parallel.hpp's pool with that many threads.
int max_threads();
// A default for the loops started from the calling thread only (0 clears it):
// a thread that shares the machine with sibling threads doing the same work
// (a Dask worker's task threads) takes its share of the cores. A count set by
// set_max_threads still wins. 0 <= k <= thread_limit().
void set_thread_budget(int k);
int thread_budget();
// The largest thread count set_max_threads accepts: 4 per processor, at
// least 64 (1 without threads). Far more threads than processors only slow
// the loops down, and an absurd count would fail to start them.
int thread_limit();
// 1 <= k <= thread_limit().
void set_max_threads(int k);
// Back to the default (no count set process-wide).
void clear_max_threads();
// The threads a loop of the pool starts with when asked for `threads`: as
// many with a count set (set_max_threads, a budget, OMP_NUM_THREADS); by
// default no more than the processors that other processes' runnable
// threads leave idle (at least 1), as OpenMP's dynamic adjustment: a thread
// that waits for a core holds up every loop it has a share of. `own_running`
// is how many of this process's threads are running now (the caller, and
// pool workers spinning between loops). Read from /proc/stat at most every
// 20 ms (Linux, for a process that may use every processor online; else,
// as for a process pinned to some of them, `threads`).
int loop_threads(int threads, int own_running);
// loop_threads' rule: `threads` less one for each runnable thread beyond
// this process's own that the `usable` processors would have to share, at
// least 1; `threads` when `runnable` is unknown (< 0).
int spare_threads(int threads, int usable, int runnable, int own_running);
// The running thread's index in a loop of the pool (0 outside one).
int thread_index();

}  // namespace vosim
