// The engine's pool of threads (parallel.hpp).
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

using namespace vosim;

TEST_CASE("parallel_for runs every item exactly once, on threads indexed below the count asked for") {
    for (int threads : {1, 2, 3, 8}) {
        for (std::int64_t items : {0, 1, 2, 7, 1000}) {
            std::vector<std::atomic<int>> runs(static_cast<std::size_t>(items));
            std::atomic<int> bad_index{0};
            parallel_for(items, threads, [&](std::int64_t item) {
                runs[static_cast<std::size_t>(item)].fetch_add(1);
                const int t = thread_index();
                if (t < 0 || t >= threads) bad_index.fetch_add(1);
            });
            for (const auto& r : runs) CHECK(r.load() == 1);
            CHECK(bad_index.load() == 0);
        }
    }
}

TEST_CASE("a loop inside a loop runs on its calling thread") {
    std::atomic<std::int64_t> sum{0};
    parallel_for(8, 4, [&](std::int64_t outer) {
        const int t = thread_index();
        parallel_for(10, 4, [&](std::int64_t inner) {
            CHECK(thread_index() == t);
            sum.fetch_add(outer * 10 + inner);
        });
    });
    CHECK(sum.load() == 79 * 80 / 2);
}

TEST_CASE("parallel_for_until stops handing out items when asked") {
    std::atomic<std::int64_t> done{0};
    int polls = 0;
    const bool finished = parallel_for_until(
        100000, 2, [&](std::int64_t) { done.fetch_add(1); }, [&] { return ++polls > 3; });
    CHECK_FALSE(finished);
    CHECK(done.load() < 100000);
    CHECK(parallel_for_until(10, 2, [](std::int64_t) {}, [] { return false; }));
}

TEST_CASE("loops from several threads at once all complete (one uses the pool, the others run alone)") {
    std::vector<std::thread> callers;
    std::vector<std::int64_t> sums(4, 0);
    for (int c = 0; c < 4; ++c) {
        callers.emplace_back([&, c] {
            for (int round = 0; round < 50; ++round) {
                std::vector<std::int64_t> values(257, 0);
                parallel_for(257, 3, [&](std::int64_t i) { values[static_cast<std::size_t>(i)] = i; });
                for (const std::int64_t v : values) sums[c] += v;
            }
        });
    }
    for (auto& t : callers) t.join();
    for (const std::int64_t s : sums) CHECK(s == 50 * 256 * 257 / 2);
}

TEST_CASE("an exception from the calling thread's item leaves the pool usable") {
    bool thrown = false;
    try {
        parallel_for(1000, 2, [&](std::int64_t item) {
            if (item == 0 && thread_index() == 0) throw std::runtime_error("item 0");
        });
    } catch (const std::runtime_error&) {
        thrown = true;
    }
    (void)thrown;  // item 0 may have gone to the other thread
    std::atomic<int> count{0};
    parallel_for(100, 2, [&](std::int64_t) { count.fetch_add(1); });
    CHECK(count.load() == 100);
}

TEST_CASE("parallel_for_values covers [0, total) once, whatever the total") {
    for (std::int64_t total : {0, 1, 4095, 4096, 4097, 20000}) {
        std::vector<std::uint8_t> seen(static_cast<std::size_t>(total), 0);
        parallel_for_values(total, 2, [&](std::int64_t i) { ++seen[static_cast<std::size_t>(i)]; });
        for (const auto v : seen) CHECK(v == 1);
    }
}

TEST_CASE("a thread's budget is its own default; a process-wide count wins over it") {
    clear_max_threads();
    const int process_default = max_threads();
    const int budget = have_threads() ? process_default + 1 : 1;  // differs from the default with threads
    int seen_with_budget = 0, seen_with_count = budget;
    std::thread worker([&] {
        set_thread_budget(budget);
        seen_with_budget = max_threads();
        if (have_threads()) {
            set_max_threads(budget + 1);
            seen_with_count = max_threads();
            clear_max_threads();
        }
    });
    worker.join();
    CHECK(seen_with_budget == (have_threads() ? budget : 1));
    CHECK(seen_with_count == (have_threads() ? budget + 1 : budget));
    CHECK(max_threads() == process_default);  // the calling thread's default is untouched
    CHECK(thread_budget() == 0);
    CHECK_THROWS_AS(set_thread_budget(-1), std::invalid_argument);
    CHECK_THROWS_AS(set_thread_budget(thread_limit() + 1), std::invalid_argument);
}

TEST_CASE("by default a loop leaves out the processors other processes keep busy") {
    // spare_threads(threads, usable processors, runnable threads, this process's own running)
    CHECK(spare_threads(2, 2, 1, 1) == 2);   // nothing else runs
    CHECK(spare_threads(2, 2, 2, 1) == 1);   // one busy process beside: one thread
    CHECK(spare_threads(2, 2, 3, 1) == 1);   // two: still one, never none
    CHECK(spare_threads(8, 16, 10, 2) == 8); // 8 others on 16 processors leave 8
    CHECK(spare_threads(8, 16, 12, 2) == 6);
    CHECK(spare_threads(4, 4, -1, 1) == 4);  // unknown load: as asked
    CHECK(spare_threads(1, 4, 9, 1) == 1);
    // A count that was set is used as it is, whatever the load.
    set_max_threads(3);
    CHECK(loop_threads(3, 1) == 3);
    clear_max_threads();
    set_thread_budget(2);
    CHECK(loop_threads(2, 1) == 2);
    set_thread_budget(0);
}

TEST_CASE("loop_team is the team a loop would start with: one inside a loop, as asked with a count set") {
    CHECK(loop_team(1) == 1);
    CHECK(loop_team(0) == 1);
    if (!have_threads()) return;
    set_max_threads(3);
    CHECK(loop_team(3) == 3);  // a count that was set is used whatever the load
    std::vector<int> inside(8, 0);
    parallel_for(8, 3, [&](std::int64_t item) { inside[static_cast<std::size_t>(item)] = loop_team(3); });
    clear_max_threads();
    for (int team : inside) CHECK(team == 1);  // a loop inside a loop runs on its calling thread
    // By default, within loop_threads' bounds: at least one, at most as asked.
    const int by_default = loop_team(2);
    CHECK(by_default >= 1);
    CHECK(by_default <= 2);
}
