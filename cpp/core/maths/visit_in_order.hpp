// Reading a vector in ascending order while ordering only as much of it as
// is read: a search that stops at the first entry passing a costly test
// (HRVO's nearest free candidate) mostly stops among the first few.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace vosim {

// Calls visit(entry) on the entries of `items` in ascending order (operator<)
// until it returns true. The first few are found by selection, the rest by
// one sort; `items` is left partly reordered. Entries must be distinct
// (an index in each), so that the order read is that of std::sort.
template <class T, class Visit>
void visit_in_order(std::vector<T>& items, Visit visit) {
    constexpr std::size_t kSelected = 8;
    const std::size_t n = items.size();
    std::size_t i = 0;
    for (; i < n && i < kSelected; ++i) {
        std::size_t least = i;
        for (std::size_t j = i + 1; j < n; ++j) least = items[j] < items[least] ? j : least;
        std::swap(items[i], items[least]);
        if (visit(items[i])) return;
    }
    std::sort(items.begin() + static_cast<std::ptrdiff_t>(i), items.end());
    for (; i < n; ++i) {
        if (visit(items[i])) return;
    }
}

}  // namespace vosim
