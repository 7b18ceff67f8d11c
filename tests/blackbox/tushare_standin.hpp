// The stand-in Tushare Pro server (tests/standin, issue 32) as a black-box test fixture: starts
// `tushare_standin --port 0` on 127.0.0.1, reads its port, and stops it (SIGTERM, then SIGKILL)
// when it goes. A fetch under test points its Tushare URL at url().
#pragma once

#include "process.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bb {

// The stand-in's executable (env TUSHARE_STANDIN_BIN, else the one this build made).
std::string tushare_standin_bin();

class TushareStandIn {
public:
  // The token the stand-in accepts unless `--token` says otherwise.
  static constexpr const char* k_token = "standin-token";

  // Start the stand-in on tests/data/tushare_standin with `extra_args` (e.g. {"--daily-cap",
  // "4"}, {"--generate", "50"}, {"--control", "{...}"}); throws with its stderr when it does not
  // print its port within k_start_timeout.
  explicit TushareStandIn(const std::vector<std::string>& extra_args = {});
  ~TushareStandIn();
  TushareStandIn(const TushareStandIn&) = delete;
  TushareStandIn& operator=(const TushareStandIn&) = delete;

  int port() const { return m_port; }
  // Return the base URL, "http://127.0.0.1:PORT".
  std::string url() const;

  // POST `settings` to /_control (keys in tests/standin/README.md); throws unless it answers 200.
  void control(const nlohmann::json& settings);

  // Return GET /_log: the calls received since start or the last reset, oldest first.
  nlohmann::json log();

  // Return the stand-in's first stdout line that starts with `prefix` ("holding " once a call is
  // held by the `hold` switch), waiting up to `timeout` for it; nullopt at the deadline.
  std::optional<std::string> wait_for_line(const std::string& prefix, std::chrono::milliseconds timeout);

  // POST one Tushare call and return the parsed reply; throws on a transport error or a body
  // that is not JSON.
  nlohmann::json call(const std::string& api_name,
                      const nlohmann::json& params = nlohmann::json::object(),
                      const std::string& fields = "",
                      const std::string& token = k_token);

private:
  std::unique_ptr<Process> m_process;
  int m_port = 0;
};

} // namespace bb
