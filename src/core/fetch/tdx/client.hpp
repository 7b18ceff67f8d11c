// Asking the TDX quote servers (D18): one request at a time on one connection, hosts tried in
// turn. A host that times out, closes, or answers with a malformed reply (a head that is not the
// request's, a body a reader refuses) is left for the next one, and the same request is sent
// there; when every host has failed `rounds` times over, the call fails (the fetch's exit 3). A
// host that can never answer (no TDX server, or no address:port) is asked no more, and said once. The
// core never touches a socket: a Connector opens Channels (the command line's is TCP over Asio,
// with zlib for flag-0x1c bodies), so tests run the client against a fake.
#pragma once

#include "core/domain/date.hpp"
#include "core/error.hpp"
#include "core/fetch/pacer.hpp"
#include "core/fetch/tdx/wire.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ashare::fetch::tdx {

// A whole reply: its head, and its body as the reader takes it (inflated when it came zipped).
struct Reply {
  ReplyHead head;
  std::vector<std::uint8_t> body;
};

// A connection to one host, set up (the set-up packets sent and answered).
class Channel {
public:
  virtual ~Channel() = default;
  // Send `request` and return its reply; an error when none came whole in time (the message says
  // what happened: a timeout, a closed connection, a frame that lies about its size).
  virtual Result<Reply> exchange(std::span<const std::uint8_t> request) = 0;
};

class Connector {
public:
  virtual ~Connector() = default;
  // Connect to `host` ("address:port") and set the connection up, or say why not: an
  // INVALID_INPUT error when asking `host` again cannot help (it answers, but not as a TDX
  // server; it is no address:port), any other error when it could not be reached this time.
  virtual Result<std::unique_ptr<Channel>> connect(const std::string& host) = 0;
};

struct ClientSettings {
  std::vector<std::string> hosts; // tried in this order, from the first
  int rounds = 2;                 // times every host may fail before a call does
  Pacer* pacer = nullptr;         // spaces the requests (D18's politeness); none: unpaced
};

class Client {
public:
  Client(Connector& connector, ClientSettings settings);

  // Return the daily bars (category 4: volume in shares, an index's in lots) of `code` of
  // `market`, read as `layout` (an index's or another's: D20), oldest first, from `from` on (all
  // there are when nullopt): pages of k_max_bars_per_call asked back from the newest until one is
  // short or reaches before `from`.
  Result<std::vector<RawBar>> daily_bars(Market market, const std::string& code,
                                         std::optional<domain::Date> from,
                                         BarLayout layout = BarLayout::security);

  // Return the ex-rights events of `code` of `market` (every category; oldest first as sent).
  Result<std::vector<XdxrEvent>> ex_rights(Market market, const std::string& code);

  // Return every code `market` lists, a page at a time.
  Result<std::vector<ListedCode>> listed_codes(Market market);

  // Return the host that answered last ("" before any answer): messages name it (D18: a bar that
  // fails is reported with host, code and day).
  const std::string& host() const { return m_answered_by; }

  // Return the requests sent so far, failed ones included; safe to ask from another thread than
  // the one calling.
  std::int64_t requests() const { return m_requests.load(); }

private:
  // Send the request `make(sequence)` and read its reply with `read`, failing over as the header
  // says; `read` returns an error for a body it refuses.
  template <class T>
  Result<T> call(Method method,
                 const std::function<std::vector<std::uint8_t>(std::uint32_t)>& make,
                 const std::function<Result<T>(std::span<const std::uint8_t>)>& read);
  // Return the channel to the current host, connecting (and failing over) as needed.
  Result<Channel*> channel(std::vector<std::string>& failures);
  void fail_over(std::vector<std::string>& failures, const std::string& why);
  // Return the error of a call that every host failed, `failures` the last of this call's.
  Error all_failed(const std::vector<std::string>& failures) const;

  Connector& m_connector;
  ClientSettings m_settings;
  std::unique_ptr<Channel> m_channel;
  std::size_t m_host = 0;       // index into m_settings.hosts
  std::map<std::size_t, std::string> m_unusable; // hosts asked no more, by index: why
  std::uint32_t m_sequence = 0; // of the last request
  std::string m_answered_by;
  std::atomic<std::int64_t> m_requests = 0;
};

} // namespace ashare::fetch::tdx
