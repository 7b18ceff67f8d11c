// Issue 35, part 2: how a cached answer should reach the socket. A minimal HTTP/1.1 keep-alive
// server (epoll, one loop per core) answers every request with the same body, sent one of three
// ways, so that bench/send_modes.py can load each with wrk and compare requests per second and
// CPU per request with nothing else in the way:
//   copy      the head and the body copied into one buffer, then write() (serve before issue 35)
//   writev    the head and the body where it lies, one writev() (serve now: api::Body pieces)
//   sendfile  the head sent with MSG_MORE, the body from a memfd with sendfile() (as nginx)
// Usage: ashare_bench_send_modes MODE FILE   prints "listening on PORT", serves until killed.
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

enum class Mode { copy, writev, sendfile };

struct Shared {
  Mode mode = Mode::writev;
  std::string head;
  std::string body;
  int memfd = -1;
};

// One connection: what it has read and not answered, and the response it is still sending.
struct Connection {
  std::string in;
  std::string copied;     // Mode::copy: the response being sent
  std::size_t sent = 0;   // bytes of the current response sent
  std::size_t pending = 0; // responses still to send after the current one
  bool sending = false;
};

// Send what remains of `c`'s current response; return false when the socket is full.
bool send_some(int fd, Connection& c, const Shared& shared) {
  const std::size_t total = shared.head.size() + shared.body.size();
  while (c.sent < total) {
    ssize_t n = 0;
    if (shared.mode == Mode::copy) {
      if (c.sent == 0) {
        c.copied.assign(shared.head);
        c.copied.append(shared.body);
      }
      n = ::send(fd, c.copied.data() + c.sent, total - c.sent, MSG_NOSIGNAL);
    } else if (shared.mode == Mode::writev || c.sent >= shared.head.size()) {
      if (shared.mode == Mode::sendfile) {
        off_t offset = static_cast<off_t>(c.sent - shared.head.size());
        n = ::sendfile(fd, shared.memfd, &offset, total - c.sent);
      } else {
        iovec parts[2];
        int count = 0;
        if (c.sent < shared.head.size()) {
          parts[count++] = {const_cast<char*>(shared.head.data()) + c.sent,
                            shared.head.size() - c.sent};
        }
        const std::size_t body_at = c.sent > shared.head.size() ? c.sent - shared.head.size() : 0;
        parts[count++] = {const_cast<char*>(shared.body.data()) + body_at,
                          shared.body.size() - body_at};
        n = ::writev(fd, parts, count);
      }
    } else {
      n = ::send(fd, shared.head.data() + c.sent, shared.head.size() - c.sent,
                 MSG_NOSIGNAL | MSG_MORE);
    }
    if (n < 0) {
      return errno != EAGAIN && errno != EWOULDBLOCK; // an error: give up on the response
    }
    c.sent += static_cast<std::size_t>(n);
  }
  return true;
}

void serve(int listener, const Shared& shared) {
  const int epoll = ::epoll_create1(0);
  epoll_event event{};
  event.events = EPOLLIN | EPOLLEXCLUSIVE;
  event.data.fd = listener;
  ::epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event);
  std::unordered_map<int, Connection> connections;
  std::vector<epoll_event> ready(256);
  char buffer[16384];
  while (true) {
    const int count = ::epoll_wait(epoll, ready.data(), static_cast<int>(ready.size()), -1);
    for (int i = 0; i < count; ++i) {
      const int fd = ready[static_cast<std::size_t>(i)].data.fd;
      if (fd == listener) {
        const int client = ::accept4(listener, nullptr, nullptr, SOCK_NONBLOCK);
        if (client >= 0) {
          const int one = 1;
          ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          epoll_event add{};
          add.events = EPOLLIN | EPOLLOUT | EPOLLET;
          add.data.fd = client;
          ::epoll_ctl(epoll, EPOLL_CTL_ADD, client, &add);
          connections.emplace(client, Connection{});
        }
        continue;
      }
      auto& c = connections[fd];
      bool closed = false;
      while (true) {
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n > 0) {
          c.in.append(buffer, static_cast<std::size_t>(n));
          continue;
        }
        closed = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
        break;
      }
      for (std::size_t end; (end = c.in.find("\r\n\r\n")) != std::string::npos;) {
        c.in.erase(0, end + 4);
        ++c.pending;
      }
      while (!closed) {
        if (!c.sending) {
          if (c.pending == 0) {
            break;
          }
          --c.pending;
          c.sending = true;
          c.sent = 0;
        }
        if (!send_some(fd, c, shared)) {
          closed = true;
          break;
        }
        if (c.sent < shared.head.size() + shared.body.size()) {
          break; // the socket is full: EPOLLOUT resumes
        }
        c.sending = false;
      }
      if (closed) {
        ::close(fd);
        connections.erase(fd);
      }
    }
  }
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: ashare_bench_send_modes copy|writev|sendfile FILE\n");
    return 2;
  }
  Shared shared;
  const std::string_view mode = argv[1];
  shared.mode = mode == "copy" ? Mode::copy : mode == "sendfile" ? Mode::sendfile : Mode::writev;
  std::ifstream file(argv[2], std::ios::binary);
  shared.body.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  shared.head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                + std::to_string(shared.body.size()) + "\r\n\r\n";
  shared.memfd = ::memfd_create("body", MFD_CLOEXEC);
  if (::write(shared.memfd, shared.body.data(), shared.body.size())
      != static_cast<ssize_t>(shared.body.size())) {
    std::perror("memfd");
    return 1;
  }
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0
      || ::listen(listener, 1024) != 0
      || ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    std::perror("listen");
    return 1;
  }
  std::printf("listening on %d\n", ntohs(address.sin_port));
  std::fflush(stdout);
  const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  std::vector<std::thread> loops;
  for (unsigned i = 1; i < cores; ++i) {
    loops.emplace_back(serve, listener, std::cref(shared));
  }
  serve(listener, shared);
}
