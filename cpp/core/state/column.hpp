// One column of per-agent data with shared ownership.
//
// The engine replaces a column's buffer when it grows or compacts; anyone
// still holding the old shared pointer (a NumPy view, for instance) keeps
// valid, if stale, memory. That is what makes zero-copy views safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>

namespace vosim {

template <class T>
class Column {
public:
    Column() = default;

    // Allocates `elements` zero-initialised values.
    explicit Column(std::size_t elements)
        : data_(elements ? std::shared_ptr<T[]>(new T[elements]()) : nullptr),
          elements_(elements) {}

    T* data() { return data_.get(); }
    const T* data() const { return data_.get(); }
    std::size_t elements() const { return elements_; }
    const std::shared_ptr<T[]>& shared() const { return data_; }

    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }

private:
    std::shared_ptr<T[]> data_;
    std::size_t elements_ = 0;
};

}  // namespace vosim
