// The parallel runner of the step's velocity phase: agents [0, total) in
// chunks of kChunkAgents handed to whichever thread of the engine's pool is
// free (parallel.hpp), a ticker polled by the calling thread between its
// chunks (so that a step of a huge crowd can be stopped), the first error by
// agent index whatever the thread count, and the time of each chunk's two
// parts summed over threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <utility>
#include <vector>

#include "engine/ticker.hpp"
#include "parallel/first_error.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

// Agents of one chunk: their neighbours are found in one pass, then the
// method runs over them in a second, so each pass can be timed cheaply.
constexpr std::int64_t kChunkAgents = 64;

// What one thread's chunks report: the seconds of their two parts and the
// first agent whose result was bad (total: none); one cache line each.
struct alignas(64) ChunkTally {
    double first_seconds = 0.0;
    double second_seconds = 0.0;
    std::int64_t first_bad = 0;
};

// The whole run: false in `finished` when the ticker asked to stop between
// chunks (the other figures are then incomplete); the tallies of all threads.
struct BlockRun {
    bool finished = true;
    double first_seconds = 0.0;
    double second_seconds = 0.0;
    std::int64_t first_bad = 0;
};

// Calls run_chunk(begin, end, k, tally) for every chunk [begin, end) of
// [0, total), in parallel on up to `threads` threads; run_chunk keeps k at
// the agent it is working on, so that an exception is reported for that
// agent. Rethrows the first exception (by agent). With a ticker, the calling
// thread polls it between its chunks; the results do not depend on the
// chunks (every agent's result depends on the frozen state only).
template <class RunChunk>
BlockRun run_in_blocks(std::int64_t total, int threads, Ticker* ticker, std::int64_t steps_done,
                       RunChunk&& run_chunk) {
    const std::int64_t chunks = (total + kChunkAgents - 1) / kChunkAgents;
    const int team = total >= kParallelMinAgents ? threads : 1;
    std::vector<ChunkTally> tallies(static_cast<std::size_t>(std::max(threads, 1)));
    for (ChunkTally& t : tallies) t.first_bad = total;
    FirstError failure;
    const auto chunk_body = [&](std::int64_t c) {
        ChunkTally& tally = tallies[static_cast<std::size_t>(thread_index())];
        const std::int64_t begin = c * kChunkAgents;
        const std::int64_t end = std::min(total, begin + kChunkAgents);
        std::int64_t k = begin;
        try {
            run_chunk(begin, end, k, tally);
        } catch (...) {
            failure.keep(k, std::current_exception());
        }
    };
    BlockRun result;
    if (ticker) {
        result.finished = parallel_for_until(chunks, team, chunk_body, [&] { return !ticker->poll(steps_done); });
    } else {
        parallel_for(chunks, team, chunk_body);
    }
    failure.rethrow();
    result.first_bad = total;
    for (const ChunkTally& t : tallies) {
        result.first_bad = std::min(result.first_bad, t.first_bad);
        result.first_seconds += t.first_seconds;
        result.second_seconds += t.second_seconds;
    }
    return result;
}

}  // namespace vosim
