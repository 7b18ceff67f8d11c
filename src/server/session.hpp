// One client connection as a small state machine (issue 9): read a request head (within the
// limits), hand it to the core, write the answer, then the next request (keep-alive, pipelining)
// or close. Requests the core defers are finished on the worker pool and the connection resumes
// after. Every deadline is checked by the thread's sweep.
#pragma once

#include "server/network_thread.hpp"

#include <utility>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <memory>

namespace ashare::server {

// Start serving `socket`, accepted for `thread`, over TLS when `tls` is set. Call on the thread.
void start_session(NetworkThread& thread,
                   boost::asio::ip::tcp::socket socket,
                   std::shared_ptr<boost::asio::ssl::context> tls);

} // namespace ashare::server
