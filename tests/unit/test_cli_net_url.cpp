// cli/net/url: the base URL of remote mode (scheme, host, port, path prefix) and a proxy's URL.
#include "cli/net/url.hpp"

#include <doctest/doctest.h>

using namespace ashare::cli::net;

TEST_CASE("cli::net::parse_url") {
  struct Row {
    const char* text;
    Scheme scheme;
    const char* user_info;
    const char* host;
    unsigned short port;
    const char* path;
  };
  const Row rows[] = {
    {"http://127.0.0.1:8080", Scheme::http, "", "127.0.0.1", 8080, ""},
    {"http://127.0.0.1:8080/", Scheme::http, "", "127.0.0.1", 8080, ""},
    {"https://Data.Example.COM", Scheme::https, "", "data.example.com", 443, ""},
    {"HTTPS://h.example:8443/prefix", Scheme::https, "", "h.example", 8443, "/prefix"},
    {"http://h.example/a/b//", Scheme::http, "", "h.example", 80, "/a/b"},
    {"http://api.tushare.pro", Scheme::http, "", "api.tushare.pro", 80, ""},
    // No scheme: http, as a bare host:port always meant for --base-url.
    {"127.0.0.1:8080", Scheme::http, "", "127.0.0.1", 8080, ""},
    {"localhost", Scheme::http, "", "localhost", 80, ""},
    // IPv6 literals, in brackets.
    {"http://[::1]:8080/api", Scheme::http, "", "::1", 8080, "/api"},
    {"https://[2001:DB8::1]", Scheme::https, "", "2001:db8::1", 443, ""},
    // User info (a proxy's credentials), kept as written.
    {"http://user:p%40ss@proxy.lan:3128", Scheme::http, "user:p%40ss", "proxy.lan", 3128, ""},
    {"http://u@h", Scheme::http, "u", "h", 80, ""},
  };
  for (const auto& row : rows) {
    CAPTURE(std::string(row.text));
    const auto url = parse_url(row.text);
    REQUIRE(url.ok());
    CHECK(url->scheme == row.scheme);
    CHECK(url->user_info == row.user_info);
    CHECK(url->host == row.host);
    CHECK(url->port == row.port);
    CHECK(url->path == row.path);
  }
}

TEST_CASE("cli::net::parse_url: what is refused, and why") {
  struct Row {
    const char* text;
    const char* message;
  };
  const Row rows[] = {
    {"", "invalid URL \"\": it is empty"},
    {"ftp://h.example", "invalid URL \"ftp://h.example\": the scheme must be http or https"},
    {"http://", "invalid URL \"http://\": no host"},
    {"http://:8080", "invalid URL \"http://:8080\": no host"},
    {"http://h:0", "invalid URL \"http://h:0\": the port must be a whole number from 1 to 65535"},
    {"http://h:65536", "invalid URL \"http://h:65536\": the port must be a whole number from 1 to "
                       "65535"},
    {"http://h:", "invalid URL \"http://h:\": the port must be a whole number from 1 to 65535"},
    {"http://h:80x", "invalid URL \"http://h:80x\": the port must be a whole number from 1 to "
                     "65535"},
    {"http://[::1", "invalid URL \"http://[::1\": an IPv6 address needs its closing ']'"},
    {"http://[nope]:80", "invalid URL \"http://[nope]:80\": \"nope\" is not an IPv6 address"},
    {"http://[::1]x", "invalid URL \"http://[::1]x\": expected ':' and a port after the host"},
    {"http://h/p?q=1", "invalid URL \"http://h/p?q=1\": a query or fragment cannot be part of it"},
    {"http://h/#f", "invalid URL \"http://h/#f\": a query or fragment cannot be part of it"},
    {"http://h/a b", "invalid URL \"http://h/a b\": it holds a space or a control character"},
    {"http://h/\r\nX: y", "invalid URL \"http://h/\r\nX: y\": it holds a space or a control "
                          "character"},
    {"http://h*st", "invalid URL \"http://h*st\": \"h*st\" is not a host name or address"},
  };
  for (const auto& row : rows) {
    CAPTURE(std::string(row.text));
    const auto url = parse_url(row.text);
    REQUIRE_FALSE(url.ok());
    CHECK(url.error().code == ashare::ErrorCode::invalid_input);
    CHECK(url.error().message == row.message);
  }
}

TEST_CASE("cli::net::authority and origin") {
  CHECK(authority(*parse_url("http://h.example")) == "h.example");
  CHECK(authority(*parse_url("http://h.example"), true) == "h.example:80");
  CHECK(authority(*parse_url("https://h.example:443/x")) == "h.example");
  CHECK(authority(*parse_url("https://h.example:80")) == "h.example:80");
  CHECK(authority(*parse_url("http://[::1]:8080")) == "[::1]:8080");
  CHECK(authority(*parse_url("https://[::1]"), true) == "[::1]:443");
  CHECK(origin(*parse_url("https://u:p@H.example:8443/prefix")) == "https://h.example:8443");
  CHECK(origin(*parse_url("127.0.0.1:8080")) == "http://127.0.0.1:8080");
}

TEST_CASE("cli::net::is_ip_address and percent_decoded") {
  CHECK(is_ip_address("127.0.0.1"));
  CHECK(is_ip_address("::1"));
  CHECK(is_ip_address("2001:db8::1"));
  CHECK_FALSE(is_ip_address("localhost"));
  CHECK_FALSE(is_ip_address("127.0.0.1.example.com"));
  CHECK_FALSE(is_ip_address(""));
  CHECK(percent_decoded("p%40ss%3a%2F") == "p@ss:/");
  CHECK(percent_decoded("100%") == "100%");
  CHECK(percent_decoded("%zz%4") == "%zz%4");
}
