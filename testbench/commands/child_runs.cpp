#include "testbench/commands/child_runs.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <mutex>
#include <thread>

namespace raidtlm::testbench {

namespace {

std::string last_line(const std::string &path) {
    std::ifstream in(path);
    std::string line, last;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        // A progress line rewritten with '\r' keeps only its last state.
        const auto cr = line.rfind('\r');
        if (cr != std::string::npos) line = line.substr(cr + 1);
        if (line.find_first_not_of(" \t") != std::string::npos) last = line;
    }
    return last;
}

}  // namespace

child_outcome run_child(const child_job &job) {
    // Everything the child needs is prepared before fork: after it only async-signal-safe calls.
    std::vector<std::string> args = job.args;
    args.insert(args.begin(), "raidtlm");
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string out = job.dir + "/stdout.txt", err = job.dir + "/stderr.txt";
    child_outcome r;
    const pid_t pid = fork();
    if (pid < 0) {
        r.error = "cannot start a child process";
        return r;
    }
    if (pid == 0) {
        const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int in = open("/dev/null", O_RDONLY);
        if (o < 0 || e < 0 || in < 0) _exit(126);
        dup2(in, 0);
        dup2(o, 1);
        dup2(e, 2);
        execv("/proc/self/exe", argv.data());
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (r.exit_code != 0) {
        r.error = last_line(err);
        if (r.error.empty()) r.error = "the child run failed with exit code " + std::to_string(r.exit_code);
    }
    return r;
}

void parallel_for(size_t n, int parallel, const std::function<void(size_t)> &fn) {
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i; (i = next++) < n;) fn(i);
    };
    const int t = std::max(1, std::min<int>(parallel, static_cast<int>(n)));
    std::vector<std::thread> threads;
    for (int k = 0; k < t; ++k) threads.emplace_back(worker);
    for (auto &th : threads) th.join();
}

std::vector<child_outcome> run_children(const std::vector<child_job> &jobs, int parallel,
                                        const std::function<void(size_t)> &on_done) {
    std::vector<child_outcome> out(jobs.size());
    std::mutex report;
    parallel_for(jobs.size(), parallel, [&](size_t i) {
        out[i] = run_child(jobs[i]);
        if (on_done) {
            std::lock_guard<std::mutex> lock(report);
            on_done(i);
        }
    });
    return out;
}

int available_processors() {
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<int>(n) : 1;
}

}  // namespace raidtlm::testbench
