#include "tdx_standin.hpp"

#include "server_process.hpp"
#include "support/build_paths.hpp"

#include <csignal>
#include <cstdlib>
#include <stdexcept>

namespace bb {

TdxStandIn::TdxStandIn(const std::vector<std::string>& extra_args) {
  const char* bin = std::getenv("TDX_STANDIN_BIN");
  std::vector<std::string> argv{bin != nullptr && *bin != '\0' ? bin : ashare::test::built_tdx_standin(), "--port", "0"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  m_process = std::make_unique<Process>(argv);
  const std::string prefix = "listening on 127.0.0.1:";
  const auto line = m_process->wait_for_stdout_line(prefix, k_start_timeout);
  if (!line) {
    const auto err = m_process->stderr_text();
    m_process.reset();
    throw std::runtime_error("tdx_standin did not print its port; stderr:\n" + err);
  }
  m_port = std::stoi(line->substr(prefix.size()));
}

TdxStandIn::~TdxStandIn() {
  m_process->send_signal(SIGTERM);
  if (!m_process->wait_for_exit(10s)) {
    m_process->send_signal(SIGKILL); // the Process destructor reaps it
  }
}

std::string TdxStandIn::host() const {
  return "127.0.0.1:" + std::to_string(m_port);
}

std::optional<std::string> TdxStandIn::wait_for_line(const std::string& prefix,
                                                     std::chrono::milliseconds timeout) {
  return m_process->wait_for_stdout_line(prefix, timeout);
}

} // namespace bb
