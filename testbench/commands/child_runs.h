// Runs of the `raidtlm` command itself in child processes. SystemC elaborates once per process,
// so anything that needs several simulations (several seeds, a search over load) runs each in a
// child: this process re-executed (/proc/self/exe) with its own arguments, stdout and stderr
// going to files in the child's directory. Plain C++ (POSIX).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace raidtlm::testbench {

struct child_job {
    std::vector<std::string> args;  // after the program name, e.g. {"run", "s.yaml", "--out", dir}
    std::string dir;                // an existing directory for stdout.txt and stderr.txt
};

struct child_outcome {
    int exit_code = -1;  // 128 + signal when killed
    std::string error;   // the last non-empty line of its stderr
};

// Calls fn(0) .. fn(n - 1), at most `parallel` at a time, each on a thread of its own.
void parallel_for(size_t n, int parallel, const std::function<void(size_t)> &fn);
// Runs one child and waits for it.
child_outcome run_child(const child_job &job);
// Runs the jobs, at most `parallel` at a time; `on_done(i)` is called (serialised) as job i ends.
std::vector<child_outcome> run_children(const std::vector<child_job> &jobs, int parallel,
                                        const std::function<void(size_t)> &on_done = {});
// Processors available (at least 1).
int available_processors();

}  // namespace raidtlm::testbench
