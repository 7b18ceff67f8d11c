// What a provider needs of the world outside the core (D18): one exchange of bytes with the
// source, and a clock to pace by. The command line implements Transport over the network module
// (cli/net); the tests fake both, or run a stand-in server, so that no rule needs the internet.
#pragma once

#include <chrono>
#include <string>
#include <thread>
#include <variant>

namespace ashare::fetch {

// The source's answer to one request: its HTTP status and body.
struct Answer {
  int status = 0;
  std::string body;
};

// Why no answer came: refused, timed out, dropped. `message` says it in the network's words.
struct NetworkFailure {
  std::string message;
};

using Exchange = std::variant<Answer, NetworkFailure>;

class Transport {
public:
  virtual ~Transport() = default;
  // Send `body` to the source (a POST of JSON for Tushare) and return what came back.
  virtual Exchange post(const std::string& body) = 0;
};

// The time a fetch paces itself by: a monotonic now, and waiting.
class Clock {
public:
  virtual ~Clock() = default;
  virtual std::chrono::steady_clock::time_point now() = 0;
  virtual void sleep_for(std::chrono::milliseconds duration) = 0;
};

class SystemClock final : public Clock {
public:
  std::chrono::steady_clock::time_point now() override { return std::chrono::steady_clock::now(); }
  void sleep_for(std::chrono::milliseconds duration) override {
    std::this_thread::sleep_for(duration);
  }
};

} // namespace ashare::fetch
