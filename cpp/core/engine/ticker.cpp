#include "engine/ticker.hpp"

#include <stdexcept>
#include <utility>

namespace vosim {

Ticker::Ticker(Tick tick, double seconds)
    : tick_(std::move(tick)), seconds_(seconds), last_(std::chrono::steady_clock::now()) {}

bool Ticker::poll(std::int64_t steps_done) {
    if (!tick_) return true;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_).count() < seconds_) return true;
    last_ = now;
    return tick_(steps_done);
}

BusyGuard::BusyGuard(std::atomic<bool>& flag) : flag_(flag) {
    if (flag_.exchange(true)) {
        throw std::runtime_error(
            "the simulator is busy: another call (step, run, add or remove agents) is running on it "
            "in another thread; use one simulator per thread or wait for that call to return");
    }
}

BusyGuard::~BusyGuard() { flag_.store(false); }

}  // namespace vosim
