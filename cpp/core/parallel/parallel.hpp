// Parallel loops of the step on a persistent pool of threads that waits
// passively and hands out work item by item.
//
// Why not OpenMP's loops: on a machine whose cores other processes also use
// (a laptop with a browser open, a shared server), a team that spins at its
// barriers takes the core from the one thread everyone waits for, and a
// static schedule makes every barrier wait for a descheduled thread. Here
//   - the calling thread works too, and items go to whichever thread is
//     free (a thread the system deschedules simply does fewer);
//   - a worker that wakes after every item was handed out does not join,
//     so a loop never waits for a thread that has not started;
//   - idle workers spin only a few microseconds, then sleep.
// Results never depend on which thread runs an item: bodies write
// per-item outputs, and reductions go through per-part partials combined
// in part order (parts are fixed by the data, not by the threads).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace vosim {

namespace parallel_detail {

using ItemFn = void (*)(void* context, std::int64_t item);
using StopFn = bool (*)(void* context);

// Runs fn(context, item) for every item of [0, items) on up to `threads`
// threads; false when stop (polled by the calling thread between its
// items) returned true: then some items may not have run.
bool run_items(std::int64_t items, int threads, ItemFn fn, void* context, StopFn stop, void* stop_context);

// The running thread's index in the loop it works on, -1 outside loops.
int current_worker_index();

// The calling process's id: a child made by fork() sees its own, so state
// kept per process (the pool, the default thread count) is made anew there.
long process_id();

}  // namespace parallel_detail

// body(item) for every item of [0, items), on up to `threads` threads (the
// caller and pool workers), each thread taking the next item when done with
// one. body must not throw (catch inside, e.g. with FirstError). Runs on the
// calling thread alone when threads <= 1, items <= 1, or the pool is busy
// with another loop (a nested loop, or another simulator's step on another
// thread). thread_index() inside body is the running thread's index, below
// `threads`.
template <class Body>
void parallel_for(std::int64_t items, int threads, Body&& body) {
    using B = std::remove_reference_t<Body>;
    parallel_detail::run_items(
        items, threads, [](void* c, std::int64_t item) { (*static_cast<B*>(c))(item); },
        const_cast<void*>(static_cast<const void*>(&body)), nullptr, nullptr);
}

// The same, with stop() polled by the calling thread between its items:
// when it returns true no more items are started and false is returned
// (after every started item has finished).
template <class Body, class Stop>
bool parallel_for_until(std::int64_t items, int threads, Body&& body, Stop&& stop) {
    using B = std::remove_reference_t<Body>;
    using S = std::remove_reference_t<Stop>;
    return parallel_detail::run_items(
        items, threads, [](void* c, std::int64_t item) { (*static_cast<B*>(c))(item); },
        const_cast<void*>(static_cast<const void*>(&body)),
        [](void* c) { return static_cast<bool>((*static_cast<S*>(c))()); },
        const_cast<void*>(static_cast<const void*>(&stop)));
}

// The threads a loop asked for `threads` would start with now: 1 inside a
// loop of the pool, else loop_threads' rule (threads.hpp). For a phase whose
// algorithm depends on its team (a counting sort by parts), so that it takes
// the one-thread algorithm when its loops would run on one thread anyway.
int loop_team(int threads);

// Wall seconds the process has spent in loops that ran on several threads
// (measured by their calling thread): with a step's wall time, the share of
// the step outside parallel loops (benchmarks/bench_scaling.py).
double parallel_loop_seconds();

// Items of about `grain` values each over `total` values (at least 1 item).
inline std::int64_t items_of(std::int64_t total, std::int64_t grain) {
    return total <= grain ? 1 : (total + grain - 1) / grain;
}

// Values per item of parallel_for_values: tens of microseconds of the
// simple per-agent passes (checks, goals, integration), against about a
// microsecond to hand an item out.
constexpr std::int64_t kValuesPerItem = 4096;

// body(i) for every i of [0, total), by items of kValuesPerItem values.
template <class Body>
void parallel_for_values(std::int64_t total, int threads, Body&& body) {
    const std::int64_t items = items_of(total, kValuesPerItem);
    parallel_for(items, threads, [&](std::int64_t item) {
        const std::int64_t end = item + 1 == items ? total : (item + 1) * kValuesPerItem;
        for (std::int64_t i = item * kValuesPerItem; i < end; ++i) body(i);
    });
}

}  // namespace vosim
