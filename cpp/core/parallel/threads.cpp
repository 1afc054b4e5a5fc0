#include "parallel/threads.hpp"

#include "parallel/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#ifdef __linux__
#include <sched.h>
#include <unistd.h>
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

// The processors online on the machine (0 where unknown).
int online_processors() {
#ifdef __linux__
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? static_cast<int>(online) : 0;
#else
    return 0;
#endif
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

// Runnable threads on the machine now (/proc/stat's procs_running; -1 where
// unknown). Read at most every kLoadPeriod: one read costs tens of
// microseconds, a step's loops follow each other within microseconds.
constexpr std::chrono::milliseconds kLoadPeriod(20);

int runnable_threads() {
#ifdef __linux__
    static std::atomic<int> cached{-1};
    static std::atomic<std::int64_t> read_at{-1};  // steady-clock nanoseconds of the last read; -1: none yet
    const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count();
    const std::int64_t last = read_at.load(std::memory_order_relaxed);
    if (last >= 0 && now - last < std::chrono::nanoseconds(kLoadPeriod).count()) {
        return cached.load(std::memory_order_relaxed);
    }
    read_at.store(now, std::memory_order_relaxed);
    int running = -1;
    if (std::FILE* stat = std::fopen("/proc/stat", "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, stat)) {
            if (std::strncmp(line, "procs_running ", 14) == 0) {
                running = std::atoi(line + 14);
                break;
            }
        }
        std::fclose(stat);
    }
    cached.store(running, std::memory_order_relaxed);
    return running;
#else
    return -1;
#endif
}

}  // namespace

int loop_threads(int threads, int own_running) {
#ifdef VOSIM_HAVE_THREADS
    if (threads <= 1 || requested_threads.load() > 0 || thread_budget_threads > 0 || threads_from_environment() > 0) {
        return threads;
    }
    // procs_running counts the whole machine's runnable threads: it says how
    // busy this process's processors are only when they are all of them. A
    // process pinned to some (a container's cpuset, taskset) keeps the count.
    const int usable = usable_processors();
    if (usable != online_processors()) return threads;
    return spare_threads(threads, usable, runnable_threads(), own_running);
#else
    (void)own_running;
    return threads;
#endif
}

int spare_threads(int threads, int usable, int runnable, int own_running) {
    if (threads <= 1 || runnable < 0) return threads;
    const int others = std::max(0, runnable - own_running);
    return std::clamp(usable - others, 1, threads);
}

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
