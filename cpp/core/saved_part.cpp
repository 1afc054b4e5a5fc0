#include "saved_part.hpp"

#include <stdexcept>

namespace vosim {

namespace {

template <class Entries>
const auto* find(const Entries& entries, const std::string& name) {
    for (const auto& entry : entries) {
        if (entry.first == name) return &entry.second;
    }
    return static_cast<decltype(&entries.front().second)>(nullptr);
}

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("saved state: " + what); }

}  // namespace

const std::vector<double>& FeatureArrays::real(const std::string& name) const {
    if (const auto* found = find(reals, name)) return *found;
    throw std::invalid_argument("no array '" + name + "'");
}

const std::vector<std::int64_t>& FeatureArrays::integer(const std::string& name) const {
    if (const auto* found = find(integers, name)) return *found;
    throw std::invalid_argument("no array '" + name + "'");
}

bool FeatureArrays::has_real(const std::string& name) const { return find(reals, name) != nullptr; }
bool FeatureArrays::has_integer(const std::string& name) const { return find(integers, name) != nullptr; }

std::vector<std::vector<double>> split_at_offsets(const std::vector<double>& flat,
                                                  const std::vector<std::int64_t>& offsets, std::size_t width,
                                                  const std::string& name) {
    if (width == 0 || flat.size() % width != 0) {
        refuse(name + " points do not have " + std::to_string(width) + " values each");
    }
    const std::int64_t total = static_cast<std::int64_t>(flat.size() / width);
    if (offsets.empty() || offsets.front() != 0 || offsets.back() != total) {
        refuse(name + " offsets do not match the points");
    }
    // All of them checked before any is used to read.
    for (std::size_t k = 0; k + 1 < offsets.size(); ++k) {
        if (offsets[k + 1] < offsets[k] || offsets[k + 1] > total) {
            refuse(name + " offsets must ascend from 0 to the number of points, " + std::to_string(total) +
                   "; offsets[" + std::to_string(k + 1) + "] is " + std::to_string(offsets[k + 1]) + " after " +
                   std::to_string(offsets[k]));
        }
    }
    std::vector<std::vector<double>> out;
    out.reserve(offsets.size() - 1);
    for (std::size_t k = 0; k + 1 < offsets.size(); ++k) {
        out.emplace_back(flat.begin() + static_cast<std::ptrdiff_t>(width * static_cast<std::size_t>(offsets[k])),
                         flat.begin() + static_cast<std::ptrdiff_t>(width * static_cast<std::size_t>(offsets[k + 1])));
    }
    return out;
}

}  // namespace vosim
