// Engine::run: many steps in one call, recording into caller-owned arrays.
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "engine/engine.hpp"
#include "navigation/waypoints.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

std::int64_t frames_for(std::int64_t steps, std::int64_t record_every) {
    if (steps < 0) throw std::invalid_argument("steps must be >= 0, got " + std::to_string(steps));
    if (record_every < 1) {
        throw std::invalid_argument("record_every must be >= 1, got " + std::to_string(record_every));
    }
    return 1 + steps / record_every + (steps % record_every != 0 ? 1 : 0);
}

void Engine::record(const Recording& rec, std::int64_t frame) const {
    const AgentState& s = state_;
    if (rec.times) rec.times[frame] = time_;
    if (rec.steps) rec.steps[frame] = step_count_;
    const std::size_t per_scene = static_cast<std::size_t>(s.count()) * s.dimensions();
    if (per_scene == 0) return;  // (and no loop over the scenes of an empty batch)
    const std::size_t per_frame = per_scene * s.scenes();
    // Scene by scene on the engine's pool (parallel.hpp), a large scene in
    // parts of the same agents' positions, velocities and headings.
    const std::size_t agents = static_cast<std::size_t>(s.count());
    const std::size_t dims = static_cast<std::size_t>(s.dimensions());
    const std::int64_t parts = items_of(static_cast<std::int64_t>(agents), kValuesPerItem);
    parallel_for(parts * s.scenes(), max_threads(), [&](std::int64_t item) {
        const int b = static_cast<int>(item / parts);
        const std::size_t part = static_cast<std::size_t>(item % parts);
        const std::size_t lo = part * kValuesPerItem;
        const std::size_t hi = std::min(agents, lo + kValuesPerItem);
        const std::size_t src = s.index(b, 0) * dims;
        const std::size_t dst = static_cast<std::size_t>(frame) * per_frame + b * per_scene;
        for (std::size_t k = lo * dims; k < hi * dims; ++k) {
            if (rec.positions) rec.positions[dst + k] = s.positions[src + k];
            if (rec.velocities) rec.velocities[dst + k] = s.velocities[src + k];
        }
        if (rec.headings) {
            const std::size_t at = static_cast<std::size_t>(frame) * agents * s.scenes() + b * agents;
            for (std::size_t k = lo; k < hi; ++k) rec.headings[at + k] = s.headings[s.index(b, 0) + k];
        }
    });
}

RunResult Engine::run(const RunOptions& options, const Recording& recording, const Tick& tick, const Pause& pause) {
    const std::int64_t frames_needed = frames_for(options.steps, options.record_every);
    if (recording.max_frames < frames_needed) {
        throw std::invalid_argument("recording holds " + std::to_string(recording.max_frames) +
                                    " frames, the run needs " + std::to_string(frames_needed));
    }
    BusyGuard guard(busy_);
    validate();  // a bad start is an error of the call itself: nothing is recorded

    RunResult result;
    Ticker ticker(tick, options.tick_seconds);
    record(recording, result.frames++);
    bool recorded_last = true;
    // Metrics are gathered through metrics_ while the run lasts.
    const PhaseTimes times_before = phase_times_;
    const std::vector<std::int64_t> fallbacks_before = fallbacks_;
    if (options.metrics && state_.count() > 0) {
        result.metrics = std::make_shared<RunMetrics>(state_, max_threads(), options.record_every,
                                                      options.metrics_settings);
    }
    struct Attach {
        RunMetrics*& slot;
        ~Attach() { slot = nullptr; }
    } attach{metrics_ = result.metrics.get()};
    // Arrival as the metrics count it: from the first step after which an
    // agent is at its final goal, even if it is pushed off later.
    std::vector<std::uint8_t> reached;
    bool everyone_reached = false;
    try {
        for (std::int64_t k = 1; k <= options.steps; ++k) {
            // The views may have been written since the last step (by a
            // progress callback, or by another thread): check again. The
            // check is a few comparisons per agent.
            const auto step_started = std::chrono::steady_clock::now();
            if (k > 1) validate();
            const bool done = advance(&ticker, k - 1);
            result.step_seconds +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - step_started).count();
            if (!done) {
                result.stopped = true;
                break;
            }
            result.steps_done = k;
            recorded_last = false;
            if (k % options.record_every == 0 || k == options.steps) {
                record(recording, result.frames++);
                recorded_last = true;
            }
            everyone_reached = mark_arrivals(reached);
            if (options.until_arrived && everyone_reached) break;
            if (pause && options.pause_every > 0 && k % options.pause_every == 0 && k < options.steps) {
                const NewTracks tracks = pause(k);
                if (tracks.offsets.size() != tracks.ids.size() + 1 || tracks.offsets.front() != 0 || tracks.radius.size() != tracks.ids.size() ||
                    (!tracks.advance.empty() && tracks.advance.size() != tracks.ids.size()) ||
                    tracks.offsets.back() * state_.dimensions() != static_cast<std::int64_t>(tracks.points.size())) {
                    throw std::invalid_argument("pause: the new tracks' entries differ in length");
                }
                features_.get<Waypoints>().replace(state_, tracks.ids.data(), tracks.ids.size(), tracks.offsets.data(),
                                                   tracks.points.data(), tracks.radius.data(),
                                                   tracks.advance.empty() ? nullptr : tracks.advance.data());
            }
            if (k < options.steps && !ticker.poll(k)) {
                result.stopped = true;
                break;
            }
        }
    } catch (...) {
        // The failed step advanced nothing: what was recorded is kept.
        result.error = std::current_exception();
    }
    // The final state is always the last frame.
    if (!recorded_last) record(recording, result.frames++);
    // Without a step, the state as it is.
    if (!result.error) result.all_arrived = result.steps_done > 0 ? everyone_reached : all_arrived();
    if (result.metrics) {
        // The last state is observed by one more neighbour pass, as no step
        // follows; not after Ctrl-C (the caller wants control back at once)
        // nor after an error (the state may hold what caused it).
        if (!result.error && !result.stopped) {
            try {
                observe_state();
            } catch (...) {
                result.error = std::current_exception();
            }
        }
        std::vector<std::int64_t> fallbacks(fallbacks_);
        fallbacks.resize(state_.scenes(), 0);
        for (std::size_t b = 0; b < fallbacks.size() && b < fallbacks_before.size(); ++b) {
            fallbacks[b] -= fallbacks_before[b];
        }
        result.metrics->finish(state_, result.steps_done, time_step_, fallbacks);
    }
    result.times = phase_times_ - times_before;
    return result;
}

}  // namespace vosim
