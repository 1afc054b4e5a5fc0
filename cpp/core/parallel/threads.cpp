#include "parallel/threads.hpp"

#include "parallel/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

#ifdef VOSIM_HAVE_OPENMP
#include <omp.h>
#endif

namespace vosim {

namespace {

// The requested thread count, process-wide like OpenMP's own setting, but
// kept here so that it holds for steps started from any thread (OpenMP's
// omp_set_num_threads only affects the calling thread). 0: OpenMP's default.
std::atomic<int> requested_threads{0};
// The calling thread's own default (set_thread_budget); 0: none.
thread_local int thread_budget_threads = 0;

}  // namespace

bool have_openmp() {
#ifdef VOSIM_HAVE_OPENMP
    return true;
#else
    return false;
#endif
}

int max_threads() {
#ifdef VOSIM_HAVE_OPENMP
    const int k = requested_threads.load();
    if (k > 0) return k;
    return thread_budget_threads > 0 ? thread_budget_threads : omp_get_max_threads();
#else
    return 1;
#endif
}

int thread_limit() {
#ifdef VOSIM_HAVE_OPENMP
    return std::max(64, 4 * omp_get_num_procs());
#else
    return 1;
#endif
}

void set_max_threads(int k) {
    if (k < 1) {
        throw std::invalid_argument("num_threads is " + std::to_string(k) + "; must be >= 1");
    }
#ifndef VOSIM_HAVE_OPENMP
    if (k != 1) {
        throw std::invalid_argument(
            "this build of vosim has no OpenMP; num_threads must be 1, got " + std::to_string(k));
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
    if (worker >= 0) return worker;
#ifdef VOSIM_HAVE_OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

int team_size() {
#ifdef VOSIM_HAVE_OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

}  // namespace vosim
