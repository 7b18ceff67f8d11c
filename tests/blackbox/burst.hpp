// Many requests at once, each on a client of its own: how the black-box tests check that credits
// are never overspent under concurrency (D7), on one server or several sharing a key store.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bb {

struct Outcome {
  int status = 0;
  std::string remaining; // X-Credits-Remaining
  std::string error;     // transport error, if any
  std::int64_t charged = -1;
};

// Send `count` requests for `target` with `key` at once, request i to ports[i % ports.size()],
// each thread with its own client.
std::vector<Outcome> burst(const std::vector<int>& ports,
                           const std::string& target,
                           const std::string& key,
                           std::size_t count);

} // namespace bb
