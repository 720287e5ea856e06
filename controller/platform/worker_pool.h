// A pool of SC_THREADs for the pieces of a request that run in parallel (one per disk): a job is
// handed to an idle worker, and the pool grows to the peak number of jobs in flight and is reused,
// so no thread is spawned per request once it has grown. The caller waits for a group of jobs.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <systemc>

namespace raidtlm::controller {

class worker_pool {
public:
    // Jobs that finish together.
    struct group {
        int remaining = 0;
        sc_core::sc_event done;
        // Blocks the calling SC_THREAD until every job of the group has returned.
        void wait() {
            while (remaining > 0) sc_core::wait(done);
        }
    };

    explicit worker_pool(size_t stack_bytes = 128 * 1024) : m_stack_bytes(stack_bytes) {}
    worker_pool(const worker_pool &) = delete;
    worker_pool &operator=(const worker_pool &) = delete;

    // Runs `job` on a worker thread (starting in this time step) as part of `g`.
    void run(group &g, std::function<void()> job);
    size_t workers() const { return m_workers.size(); }

private:
    struct worker {
        sc_core::sc_event go;
        std::function<void()> job;
        group *owner = nullptr;
    };
    void loop(worker *w);

    size_t m_stack_bytes;
    std::vector<std::unique_ptr<worker>> m_workers;
    std::vector<worker *> m_idle;
};

}  // namespace raidtlm::controller
