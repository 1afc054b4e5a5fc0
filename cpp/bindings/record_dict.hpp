// Any Record (record.hpp) as Python values: its entries into a dict, arrays
// as NumPy arrays (real: float64, integer: int32, flag: bool), single values
// as numbers or str, texts with a shape as a list, nested records as dicts.
#pragma once

#include <pybind11/pybind11.h>

#include "record.hpp"

namespace vosim::bindings {

pybind11::object entry_value(const RecordEntry& entry);
// Puts every entry of `record` into `out` under its name.
void put_entries(const Record& record, pybind11::dict& out);

}  // namespace vosim::bindings
