// Exceptions out of parallel loops: a loop's body must not throw, so it
// keeps what it caught here and the caller rethrows after the loop.
#pragma once

#include <cstdint>
#include <exception>
#include <mutex>

namespace vosim {

// The first exception thrown inside a parallel loop (exceptions must not
// leave a loop's body), by loop index so that the same one is reported
// whatever the thread count.
class FirstError {
public:
    void keep(std::int64_t index, std::exception_ptr error) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_ || index < index_) {
            index_ = index;
            error_ = std::move(error);
        }
    }
    void rethrow() const {
        if (error_) std::rethrow_exception(error_);
    }

private:
    std::int64_t index_ = 0;
    std::exception_ptr error_;
    std::mutex mutex_;
};

}  // namespace vosim
