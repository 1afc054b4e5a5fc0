// Converting a run's metrics to a dict of NumPy arrays.
#pragma once

#include <pybind11/pybind11.h>

#include "engine/engine.hpp"

namespace vosim::bindings {

// Per scene (scenes,), per agent (scenes, count), per observed state
// (states, scenes) with their step numbers, and the time per phase.
pybind11::dict run_metrics_dict(const RunMetrics& metrics, const PhaseTimes& times);

}  // namespace vosim::bindings
