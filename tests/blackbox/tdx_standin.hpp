// The stand-in TDX quote server (tests/standin/tdx_standin.cpp, issue 33) as a black-box test
// fixture: starts `tdx_standin --port 0` on 127.0.0.1 with its real rows, reads its port, and
// stops it when it goes. A fetch under test points its hosts at host().
#pragma once

#include "process.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bb {

class TdxStandIn {
public:
  // Start the stand-in with `extra_args` (e.g. {"--fault", "hang:600519"}); throws with its
  // stderr when it does not print its port within k_start_timeout.
  explicit TdxStandIn(const std::vector<std::string>& extra_args = {});
  ~TdxStandIn();
  TdxStandIn(const TdxStandIn&) = delete;
  TdxStandIn& operator=(const TdxStandIn&) = delete;

  // Return "127.0.0.1:PORT".
  std::string host() const;

  // Return the stand-in's first stdout line that starts with `prefix` ("hanging 600519" once a
  // call for 600519's bars reached the `hang` fault), waiting up to `timeout` for it; nullopt at
  // the deadline.
  std::optional<std::string> wait_for_line(const std::string& prefix,
                                           std::chrono::milliseconds timeout);

private:
  std::unique_ptr<Process> m_process;
  int m_port = 0;
};

} // namespace bb
