// Thread count for the parallel loops (OpenMP when the build has it).
// Results never depend on it: every parallel loop writes per-agent outputs
// only, and reductions are order-independent (min/max of exact values).
#pragma once

namespace vosim {

bool have_openmp();
int max_threads();
// k >= 1; without OpenMP only 1 is accepted.
void set_max_threads(int k);
int thread_index();

}  // namespace vosim
