#include "parallel/threads.hpp"

#include "parallel/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#ifdef __linux__
#include <sched.h>
#endif

namespace vosim {

namespace {

// The requested thread count, process-wide, so that it holds for steps
// started from any thread. 0: the default.
std::atomic<int> requested_threads{0};
// The calling thread's own default (set_thread_budget); 0: none.
thread_local int thread_budget_threads = 0;

// The processors this process may run on: its CPU affinity where the system
// says, else the machine's hardware threads (at least 1).
int usable_processors() {
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        const int count = CPU_COUNT(&set);
        if (count > 0) return count;
    }
#endif
    return std::max(1u, std::thread::hardware_concurrency());
}

// OMP_NUM_THREADS's first entry when it is a positive integer (the variable
// every numerical library reads, and what Dask's nanny sets), else 0.
int threads_from_environment() {
    const char* text = std::getenv("OMP_NUM_THREADS");
    if (text == nullptr) return 0;
    char* end = nullptr;
    const long k = std::strtol(text, &end, 10);
    if (end == text || (*end != '\0' && *end != ',') || k < 1) return 0;
    return static_cast<int>(std::min<long>(k, 1 << 20));
}

// The default count, read once per process (a child made by fork() reads
// it again: its affinity may differ).
int default_threads() {
#ifdef VOSIM_HAVE_THREADS
    static std::atomic<int> cached{0};
    static std::atomic<long> cached_for{-1};
    const long me = parallel_detail::process_id();
    if (cached_for.load(std::memory_order_acquire) != me) {
        const int from_environment = threads_from_environment();
        cached.store(std::min(thread_limit(), from_environment > 0 ? from_environment : usable_processors()),
                     std::memory_order_relaxed);
        cached_for.store(me, std::memory_order_release);
    }
    return cached.load(std::memory_order_relaxed);
#else
    return 1;
#endif
}

}  // namespace

bool have_threads() {
#ifdef VOSIM_HAVE_THREADS
    return true;
#else
    return false;
#endif
}

int max_threads() {
#ifdef VOSIM_HAVE_THREADS
    const int k = requested_threads.load();
    if (k > 0) return k;
    return thread_budget_threads > 0 ? thread_budget_threads : default_threads();
#else
    return 1;
#endif
}

int thread_limit() {
#ifdef VOSIM_HAVE_THREADS
    return std::max(64, 4 * usable_processors());
#else
    return 1;
#endif
}

void set_max_threads(int k) {
    if (k < 1) {
        throw std::invalid_argument("num_threads is " + std::to_string(k) + "; must be >= 1");
    }
#ifndef VOSIM_HAVE_THREADS
    if (k != 1) {
        throw std::invalid_argument("this build of vosim steps on one thread; num_threads must be 1, got " +
                                    std::to_string(k));
    }
#endif
    if (k > thread_limit()) {
        throw std::invalid_argument("num_threads is " + std::to_string(k) + "; must be <= " +
                                    std::to_string(thread_limit()) +
                                    " (4 per processor, at least 64): more threads only slow steps down");
    }
    requested_threads.store(k);
}

void clear_max_threads() { requested_threads.store(0); }

void set_thread_budget(int k) {
    if (k < 0 || k > thread_limit()) {
        throw std::invalid_argument("thread budget is " + std::to_string(k) + "; must be 0 (none) to " +
                                    std::to_string(thread_limit()));
    }
    thread_budget_threads = k;
}

int thread_budget() { return thread_budget_threads; }

int thread_index() {
    // Inside a loop of the engine's pool (parallel.hpp): its index there.
    const int worker = parallel_detail::current_worker_index();
    return worker >= 0 ? worker : 0;
}

}  // namespace vosim
