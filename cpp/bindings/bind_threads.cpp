#include <pybind11/pybind11.h>

#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace py = pybind11;

namespace vosim::bindings {

void bind_threads(py::module_& m) {
    m.def("set_num_threads", &set_max_threads, py::arg("num_threads"),
          "Number of threads the parallel loops use (process-wide).");
    m.def("clear_num_threads", &clear_max_threads, "Back to the default thread count (none set process-wide).");
    m.def("get_num_threads", &max_threads, "Number of threads the parallel loops use.");
    m.def("set_thread_budget", &set_thread_budget, py::arg("num_threads"),
          "Default thread count for the loops started from the calling thread (0: none).");
    m.def("thread_budget", &thread_budget, "The calling thread's default thread count (0: none).");
    m.def("have_threads", &have_threads, "Whether this build runs steps on several threads.");
    m.def("parallel_loop_seconds", &parallel_loop_seconds,
          "Wall seconds spent in loops that ran on several threads, since the process started.");
    m.def("thread_limit", &thread_limit, "The largest number of threads set_num_threads accepts.");
#ifdef VOSIM_SANITIZED
    m.attr("SANITIZED") = true;
#else
    m.attr("SANITIZED") = false;
#endif
}

}  // namespace vosim::bindings
