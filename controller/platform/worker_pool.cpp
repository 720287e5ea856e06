// sc_spawn needs the dynamic-process API, which <systemc> only declares when asked.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "controller/platform/worker_pool.h"

namespace raidtlm::controller {

void worker_pool::run(group &g, std::function<void()> job) {
    ++g.remaining;
    worker *w;
    const bool fresh = m_idle.empty();
    if (fresh) {
        m_workers.push_back(std::make_unique<worker>());
        w = m_workers.back().get();
    } else {
        w = m_idle.back();
        m_idle.pop_back();
    }
    w->job = std::move(job);
    w->owner = &g;
    if (fresh) {
        sc_core::sc_spawn_options opts;
        opts.set_stack_size(int(m_stack_bytes));
        // The new thread starts with its job already assigned.
        sc_core::sc_spawn([this, w] { loop(w); }, sc_core::sc_gen_unique_name("worker"), &opts);
    } else {
        w->go.notify();
    }
}

void worker_pool::loop(worker *w) {
    for (;;) {
        while (!w->owner) sc_core::wait(w->go);
        w->job();
        group &g = *w->owner;
        w->job = nullptr;
        w->owner = nullptr;
        m_idle.push_back(w);
        if (--g.remaining == 0) g.done.notify();
    }
}

}  // namespace raidtlm::controller
