// The parallel runner of the step's velocity phase: agents [0, total) in
// chunks handed to whichever thread of the engine's pool is free
// (parallel.hpp), a ticker polled by the calling thread between its chunks
// (so that a step of a huge crowd can be stopped), the first error by agent
// index whatever the thread count, and the time of each chunk's two parts
// summed over threads. How many threads follow the work per agent measured
// in the step before (a sampling method's agent costs tens of ORCA's), and
// a small crowd on several threads is cut into smaller chunks; results
// never depend on either.
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

// With costly agents: a phase of at least this much work runs on several
// threads however few its agents (handing out a chunk costs about a
// microsecond, waking a sleeping thread tens).
constexpr double kParallelMinSeconds = 100e-6;
// A crowd too small for kChunksPerThread chunks of kChunkAgents per thread
// is cut finer (down to kMinChunkAgents), so that the threads finish together.
constexpr std::int64_t kChunksPerThread = 4;
constexpr std::int64_t kMinChunkAgents = 4;

// The team and the chunk size for `total` agents that cost `seconds_per_agent`
// each (0: unknown, as at the first step: by the agent count alone).
struct BlockPlan {
    int team = 1;
    std::int64_t chunk = kChunkAgents;
};

inline BlockPlan plan_blocks(std::int64_t total, int threads, double seconds_per_agent) {
    BlockPlan plan;
    const double work = seconds_per_agent * static_cast<double>(total);
    plan.team = total >= kParallelMinAgents || work >= kParallelMinSeconds ? std::max(threads, 1) : 1;
    const std::int64_t wanted = kChunksPerThread * plan.team;
    if (plan.team > 1 && total < wanted * kChunkAgents) {
        plan.chunk = std::max(kMinChunkAgents, (total + wanted - 1) / wanted);
    }
    return plan;
}

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
    int team = 1;  // the threads it ran on (at most)
    double first_seconds = 0.0;
    double second_seconds = 0.0;
    std::int64_t first_bad = 0;
};

// Calls run_chunk(begin, end, k, tally) for every chunk [begin, end) of
// [0, total), in parallel on up to `threads` threads (plan_blocks); run_chunk keeps k at
// the agent it is working on, so that an exception is reported for that
// agent. Rethrows the first exception (by agent). With a ticker, the calling
// thread polls it between its chunks; the results do not depend on the
// chunks (every agent's result depends on the frozen state only).
template <class RunChunk>
BlockRun run_in_blocks(std::int64_t total, int threads, double seconds_per_agent, Ticker* ticker,
                       std::int64_t steps_done, RunChunk&& run_chunk) {
    const BlockPlan plan = plan_blocks(total, threads, seconds_per_agent);
    const std::int64_t chunk = plan.chunk;
    const std::int64_t chunks = (total + chunk - 1) / chunk;
    const int team = plan.team;
    std::vector<ChunkTally> tallies(static_cast<std::size_t>(std::max(threads, 1)));
    for (ChunkTally& t : tallies) t.first_bad = total;
    FirstError failure;
    const auto chunk_body = [&](std::int64_t c) {
        ChunkTally& tally = tallies[static_cast<std::size_t>(thread_index())];
        const std::int64_t begin = c * chunk;
        const std::int64_t end = std::min(total, begin + chunk);
        std::int64_t k = begin;
        try {
            run_chunk(begin, end, k, tally);
        } catch (...) {
            failure.keep(k, std::current_exception());
        }
    };
    BlockRun result;
    result.team = team;
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
