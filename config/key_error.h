// A problem with a configuration value the user gave (a scenario file or a --set override);
// what() is one line: "WHERE: key 'a.b': problem; expected form". testbench::scenario_error is
// this type, so a block's own checks and the scenario loader raise the same error.
#pragma once

#include <stdexcept>

namespace raidtlm::config {

class key_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace raidtlm::config
