// The parallel block runner of the step's velocity phase: agents [0, total)
// in chunks of kChunkAgents spread over the threads, grouped in blocks of a
// few milliseconds' work between which a ticker is polled (so that a step of
// a huge crowd can be stopped), the first error by agent index whatever the
// thread count, and the time of each chunk's two parts summed over threads.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <utility>

#include "engine/ticker.hpp"
#include "threads.hpp"

namespace vosim {

// Agents of one chunk: their neighbours are found in one pass, then the
// method runs over them in a second, so each pass can be timed cheaply.
constexpr std::int64_t kChunkAgents = 64;

// When a ticker is polled between blocks, each block aims at this much wall
// time (against microseconds to start one): the block size adapts to the
// cost per agent, which ranges from under a microsecond to tens of
// microseconds with hundreds of neighbours.
constexpr double kBlockSeconds = 0.005;
constexpr std::int64_t kFirstBlockAgentsPerThread = 1024;

// The first exception thrown inside a parallel loop (exceptions must not
// leave an OpenMP region), by loop index so that the same one is reported
// whatever the thread count.
class FirstError {
public:
    void keep(std::int64_t index, std::exception_ptr error) {
#pragma omp critical(vosim_first_error)
        {
            if (!error_ || index < index_) {
                index_ = index;
                error_ = std::move(error);
            }
        }
    }
    void rethrow() const {
        if (error_) std::rethrow_exception(error_);
    }

private:
    std::int64_t index_ = 0;
    std::exception_ptr error_;
};

// What one thread's chunks report: the seconds of their two parts and the
// first agent whose result was bad (total: none).
struct ChunkTally {
    double first_seconds = 0.0;
    double second_seconds = 0.0;
    std::int64_t first_bad = 0;
};

// The whole run: false in `finished` when the ticker asked to stop between
// blocks (the other figures are then incomplete); the tallies of all threads.
struct BlockRun {
    bool finished = true;
    double first_seconds = 0.0;
    double second_seconds = 0.0;
    std::int64_t first_bad = 0;
};

// Calls run_chunk(begin, end, k, tally) for every chunk [begin, end) of
// [0, total), in parallel on `threads` threads; run_chunk keeps k at the
// agent it is working on, so that an exception is reported for that agent.
// Rethrows the first exception (by agent). With a ticker, blocks of agents
// are run one after the other and the ticker polled between them; the
// results do not depend on the blocks (every agent's result depends on the
// frozen state only).
template <class RunChunk>
BlockRun run_in_blocks(std::int64_t total, int threads, Ticker* ticker, std::int64_t steps_done,
                       RunChunk&& run_chunk) {
    // Blocks never shrink below the first size: on a machine busy with other
    // work a block's wall time is mostly waiting for a core, and ever smaller
    // blocks would then mean ever more waits at their ends.
    const std::int64_t smallest_block = kFirstBlockAgentsPerThread * threads;
    std::int64_t block = ticker ? kFirstBlockAgentsPerThread * threads : total;
    BlockRun result;
    result.first_bad = total;
    FirstError failure;
    for (std::int64_t start = 0, stop = 0; start < total; start = stop) {
        stop = std::min(total, start + block);
        const auto began = std::chrono::steady_clock::now();
        const std::int64_t chunks = (stop - start + kChunkAgents - 1) / kChunkAgents;
#pragma omp parallel num_threads(threads) if (stop - start >= kParallelMinAgents)
        {
            ChunkTally tally;
            tally.first_bad = total;
#pragma omp for schedule(static, 4)
            for (std::int64_t c = 0; c < chunks; ++c) {
                const std::int64_t begin = start + c * kChunkAgents;
                const std::int64_t end = std::min(stop, begin + kChunkAgents);
                std::int64_t k = begin;
                try {
                    run_chunk(begin, end, k, tally);
                } catch (...) {
                    failure.keep(k, std::current_exception());
                }
            }
#pragma omp critical(vosim_phase_times)
            {
                result.first_bad = std::min(result.first_bad, tally.first_bad);
                result.first_seconds += tally.first_seconds;
                result.second_seconds += tally.second_seconds;
            }
        }
        failure.rethrow();
        if (stop < total) {
            const double took =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
            const double scale =
                took > 0.0 ? std::fmin(4.0, std::fmax(0.25, kBlockSeconds / took)) : 4.0;
            block = std::max(smallest_block,
                             static_cast<std::int64_t>(static_cast<double>(block) * scale));
            if (!ticker->poll(steps_done)) {
                result.finished = false;
                return result;
            }
        }
    }
    return result;
}

}  // namespace vosim
