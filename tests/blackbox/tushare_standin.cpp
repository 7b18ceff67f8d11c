#include "tushare_standin.hpp"

#include "server_process.hpp"
#include "support/build_paths.hpp"

#include <csignal>
#include <cstdlib>
#include <stdexcept>

#include <httplib.h>

namespace bb {

std::string tushare_standin_bin() {
  const char* value = std::getenv("TUSHARE_STANDIN_BIN");
  return value != nullptr && *value != '\0' ? value : ashare::test::built_tushare_standin();
}

TushareStandIn::TushareStandIn(const std::vector<std::string>& extra_args) {
  std::vector<std::string> argv{tushare_standin_bin(), "--port", "0", "--data",
                                (data_dir() / "tushare_standin").string()};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  m_process = std::make_unique<Process>(argv);
  const std::string prefix = "listening on 127.0.0.1:";
  const auto line = m_process->wait_for_stdout_line(prefix, k_start_timeout);
  if (!line) {
    const auto err = m_process->stderr_text();
    m_process.reset();
    throw std::runtime_error("tushare_standin did not print its port; stderr:\n" + err);
  }
  m_port = std::stoi(line->substr(prefix.size()));
}

TushareStandIn::~TushareStandIn() {
  m_process->send_signal(SIGTERM);
  if (!m_process->wait_for_exit(10s)) {
    m_process->send_signal(SIGKILL); // the Process destructor reaps it
  }
}

std::string TushareStandIn::url() const {
  return "http://127.0.0.1:" + std::to_string(m_port);
}

void TushareStandIn::control(const nlohmann::json& settings) {
  httplib::Client client("127.0.0.1", m_port);
  const auto result = client.Post("/_control", settings.dump(), "application/json");
  if (!result || result->status != 200) {
    throw std::runtime_error("tushare_standin /_control refused " + settings.dump() + ": "
                             + (result ? result->body : httplib::to_string(result.error())));
  }
}

nlohmann::json TushareStandIn::log() {
  httplib::Client client("127.0.0.1", m_port);
  const auto result = client.Get("/_log");
  if (!result || result->status != 200) {
    throw std::runtime_error("tushare_standin /_log failed");
  }
  return nlohmann::json::parse(result->body);
}

std::optional<std::string> TushareStandIn::wait_for_line(const std::string& prefix,
                                                         std::chrono::milliseconds timeout) {
  return m_process->wait_for_stdout_line(prefix, timeout);
}

nlohmann::json TushareStandIn::call(const std::string& api_name,
                                    const nlohmann::json& params,
                                    const std::string& fields,
                                    const std::string& token) {
  httplib::Client client("127.0.0.1", m_port);
  const nlohmann::json body{
      {"api_name", api_name}, {"token", token}, {"params", params}, {"fields", fields}};
  const auto result = client.Post("/", body.dump(), "application/json");
  if (!result) {
    throw std::runtime_error("tushare_standin call failed: " + httplib::to_string(result.error()));
  }
  return nlohmann::json::parse(result->body);
}

} // namespace bb
