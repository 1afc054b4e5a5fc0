#include "parallel/parallel.hpp"

#include "parallel/threads.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace vosim {

namespace {

// How long an idle thread polls before it sleeps: long enough to catch the
// next loop of the same step (phases follow each other within
// microseconds), short enough not to take a busy machine's core for long.
constexpr std::chrono::microseconds kSpin(30);

// The index of the running thread in the loop it works on (-1: none).
thread_local int current_worker = -1;

// Sets current_worker for a scope.
class WorkerScope {
public:
    explicit WorkerScope(int index) : saved_(current_worker) { current_worker = index; }
    ~WorkerScope() { current_worker = saved_; }
    WorkerScope(const WorkerScope&) = delete;
    WorkerScope& operator=(const WorkerScope&) = delete;

private:
    int saved_;
};

// Pool workers polling between loops: running threads of this process that
// loop_threads must not count as other processes' load.
std::atomic<int> spinning_workers{0};

template <class Done>
void spin_until(Done&& done) {
    const auto until = std::chrono::steady_clock::now() + kSpin;
    while (!done() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
}

class Pool {
public:
    // Whether this caller may use the pool (one loop at a time).
    bool acquire() { return !in_use_.exchange(true, std::memory_order_acquire); }
    void release() { in_use_.store(false, std::memory_order_release); }

    bool run(std::int64_t items, int threads, parallel_detail::ItemFn fn, void* context,
             parallel_detail::StopFn stop, void* stop_context) {
        add_workers(threads - 1);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            fn_ = fn;
            context_ = context;
            items_ = items;
            threads_ = threads;
            next_.store(0, std::memory_order_relaxed);
            stopped_.store(false, std::memory_order_relaxed);
            open_ = true;
            generation_.fetch_add(1, std::memory_order_release);
        }
        wake_.notify_all();
        std::exception_ptr error;
        {
            WorkerScope scope(0);
            try {
                // stop is polled only between items, with an item left to
                // run: never before the caller's first item nor after the last.
                for (bool first = true;; first = false) {
                    const std::int64_t item = next_.fetch_add(1, std::memory_order_relaxed);
                    if (item >= items) break;
                    if (!first && stop && stop(stop_context)) {
                        stopped_.store(true, std::memory_order_relaxed);
                        break;
                    }
                    fn(context, item);
                }
            } catch (...) {
                // (Bodies should not throw.) The workers must be out of the
                // loop before the caller's frame goes: stop, wait, rethrow.
                stopped_.store(true, std::memory_order_relaxed);
                error = std::current_exception();
            }
        }
        // Every item is handed out: workers that wake from now on stay out,
        // and those inside finish their last item.
        {
            std::lock_guard<std::mutex> lock(mutex_);
            open_ = false;
        }
        spin_until([&] { return joined_.load(std::memory_order_acquire) == 0; });
        if (joined_.load(std::memory_order_acquire) != 0) {
            std::unique_lock<std::mutex> lock(mutex_);
            left_.wait(lock, [&] { return joined_.load(std::memory_order_acquire) == 0; });
        }
        if (error) std::rethrow_exception(error);
        return !stopped_.load(std::memory_order_relaxed);
    }

private:
    void add_workers(int count) {
        // Only the caller holding the pool adds workers; they live as long
        // as the process (the pool is never destroyed: see pool()).
        while (static_cast<int>(workers_.size()) < count) {
            const int index = static_cast<int>(workers_.size()) + 1;
            const std::uint64_t seen = generation_.load(std::memory_order_acquire);
            try {
                workers_.emplace_back([this, index, seen] { work(index, seen); });
            } catch (const std::system_error&) {
                return;  // the system has no more threads to give: loops run on fewer
            }
            workers_.back().detach();
        }
    }

    void work(int index, std::uint64_t seen) {
        for (;;) {
            spinning_workers.fetch_add(1, std::memory_order_relaxed);
            spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; });
            spinning_workers.fetch_sub(1, std::memory_order_relaxed);
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
            seen = generation_.load(std::memory_order_acquire);
            if (!open_ || index >= threads_) continue;
            joined_.fetch_add(1, std::memory_order_relaxed);
            const parallel_detail::ItemFn fn = fn_;
            void* const context = context_;
            const std::int64_t items = items_;
            lock.unlock();
            {
                WorkerScope scope(index);
                while (!stopped_.load(std::memory_order_relaxed)) {
                    const std::int64_t item = next_.fetch_add(1, std::memory_order_relaxed);
                    if (item >= items) break;
                    fn(context, item);
                }
            }
            lock.lock();
            if (joined_.fetch_sub(1, std::memory_order_release) == 1) left_.notify_one();
        }
    }

    std::atomic<bool> in_use_{false};
    std::vector<std::thread> workers_;  // worker k has index k + 1 (the caller is 0)
    std::mutex mutex_;
    std::condition_variable wake_;  // a new loop
    std::condition_variable left_;  // the last worker left the loop
    std::atomic<std::uint64_t> generation_{0};
    // The loop under way (written under mutex_ before generation_ moves on).
    parallel_detail::ItemFn fn_ = nullptr;
    void* context_ = nullptr;
    std::int64_t items_ = 0;
    int threads_ = 0;
    bool open_ = false;  // workers may still join (under mutex_)
    std::atomic<std::int64_t> next_{0};
    std::atomic<bool> stopped_{false};
    std::atomic<int> joined_{0};
};

// The process's pool. A child made by fork() has none of its parent's
// threads (and maybe a mutex held by one of them): it makes its own. The
// old one is deliberately leaked, as is the last one at exit: destroying a
// pool would mean joining threads that may be blocked for good.
Pool* pool() {
    static std::atomic<Pool*> current{nullptr};
    static std::atomic<pid_t> owner{0};
    static std::mutex making;
    const pid_t me = getpid();
    Pool* p = current.load(std::memory_order_acquire);
    if (p && owner.load(std::memory_order_acquire) == me) return p;
    std::lock_guard<std::mutex> lock(making);
    p = current.load(std::memory_order_acquire);
    if (!p || owner.load(std::memory_order_acquire) != me) {
        p = new Pool();
        owner.store(me, std::memory_order_release);
        current.store(p, std::memory_order_release);
    }
    return p;
}

bool run_inline(std::int64_t items, parallel_detail::ItemFn fn, void* context, parallel_detail::StopFn stop,
                void* stop_context) {
    WorkerScope scope(current_worker >= 0 ? current_worker : 0);
    for (std::int64_t item = 0; item < items; ++item) {
        if (item > 0 && stop && stop(stop_context)) return false;
        fn(context, item);
    }
    return true;
}

// Nanoseconds in loops run by the pool (only the pool's holder adds).
std::atomic<std::int64_t> pool_nanoseconds{0};

}  // namespace

int loop_team(int threads) {
    if (threads <= 1 || current_worker >= 0) return 1;
    return loop_threads(threads, 1 + spinning_workers.load(std::memory_order_relaxed));
}

double parallel_loop_seconds() { return 1e-9 * static_cast<double>(pool_nanoseconds.load()); }

namespace parallel_detail {

int current_worker_index() { return current_worker; }

long process_id() { return static_cast<long>(getpid()); }

bool run_items(std::int64_t items, int threads, ItemFn fn, void* context, StopFn stop, void* stop_context) {
    if (items <= 0) return true;
    if (threads <= 1 || items <= 1 || current_worker >= 0) {
        return run_inline(items, fn, context, stop, stop_context);
    }
    if (threads > items) threads = static_cast<int>(items);
    threads = loop_threads(threads, 1 + spinning_workers.load(std::memory_order_relaxed));
    if (threads <= 1) return run_inline(items, fn, context, stop, stop_context);
    Pool* p = pool();
    if (!p->acquire()) return run_inline(items, fn, context, stop, stop_context);
    struct Release {
        Pool* p;
        ~Release() { p->release(); }
    } release{p};
    const auto began = std::chrono::steady_clock::now();
    const bool finished = p->run(items, threads, fn, context, stop, stop_context);
    pool_nanoseconds.fetch_add(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - began).count(),
        std::memory_order_relaxed);
    return finished;
}

}  // namespace parallel_detail

}  // namespace vosim
