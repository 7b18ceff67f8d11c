// The TCP side of the TDX quote servers (D18): the core's fetch::tdx::Connector over the network
// module's TCP client and zlib, so that src/core never sees a socket. A connection sends the
// three set-up packets and reads their replies; an exchange writes a request, reads the 16-byte
// reply head, then exactly the body it announces (at most 64 KB: the head's size is a u16), and
// inflates a flag-0x1c body to exactly its announced size. Every step has the deadline `timeout`.
#pragma once

#include "core/fetch/tdx/client.hpp"

#include <chrono>
#include <string>

namespace ashare::cli {

class TdxConnector final : public fetch::tdx::Connector {
public:
  explicit TdxConnector(std::chrono::milliseconds timeout) : m_timeout(timeout) {}

  // Connect to `host` ("address:port", "[v6]:port", or "address" for port 7709) and set the
  // connection up. A host whose first reply does not start as a TDX reply is an INVALID_INPUT
  // error, "HOST does not answer as a TDX server (its reply starts ...)".
  Result<std::unique_ptr<fetch::tdx::Channel>> connect(const std::string& host) override;

private:
  std::chrono::milliseconds m_timeout;
};

} // namespace ashare::cli
