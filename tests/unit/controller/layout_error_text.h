// What building a layout says: the layout_error's text, or "no error" (layout tests).
#pragma once

#include <string>

#include "controller/layouts/layout.h"

template <class Make>
std::string layout_error_text(Make make) {
    try {
        make();
    } catch (const raidtlm::controller::layout_error &e) {
        return e.what();
    }
    return "no error";
}
