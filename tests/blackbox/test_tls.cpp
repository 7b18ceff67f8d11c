// HTTPS end to end (issue 4): `ashare serve --tls-cert --tls-key` with a certificate from a test
// CA (make_test_pki, by the openssl command), and the CLI in remote mode trusting that CA via
// --ca-file.
#include "process.hpp"
#include "server_process.hpp"

#include <doctest/doctest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <optional>

namespace bb {

TEST_CASE("serve --tls-cert/--tls-key: HTTPS with a private CA, trusted by --ca-file") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("pro", std::nullopt, "tls");
  make_test_pki(store.dir());
  const auto pem = (store.dir() / "server.pem").string();
  const auto ca = (store.dir() / "ca.pem").string();

  std::vector<std::string> argv{ashare_bin()};
  for (const auto& arg : store.store_args()) {
    argv.push_back(arg);
  }
  argv.insert(argv.end(), {"serve", "--listen", "127.0.0.1:0", "--tls-cert", pem, "--tls-key",
                           (store.dir() / "server.key").string()});
  Process server(argv);
  const auto line = server.wait_for_stdout_line("listening on https://127.0.0.1:", k_start_timeout);
  REQUIRE(line);
  const std::string base_url = line->substr(std::string("listening on ").size());

  SUBCASE("a TLS client that trusts the CA gets answers") {
    httplib::SSLClient client("127.0.0.1", std::stoi(base_url.substr(base_url.rfind(':') + 1)));
    client.set_ca_cert_path(ca.c_str());
    client.enable_server_certificate_verification(true);
    const auto reply = client.Get("/healthz");
    REQUIRE(reply);
    CHECK(reply->status == 200);
    CHECK(reply->body.find("\"as_of\":\"2025-10-23\"") != std::string::npos);
  }
  SUBCASE("the CLI in remote mode prints the same bars as in local mode") {
    const auto remote = store.cli({"--base-url", base_url, "--api-key", key.plaintext, "--ca-file",
                                   ca, "bars", "600519.SH", "2024-06-17", "2024-06-21", "--format",
                                   "csv"});
    const auto local =
      store.cli({"bars", "600519.SH", "2024-06-17", "2024-06-21", "--format", "csv"});
    CHECK(remote.status == 0);
    CHECK(local.status == 0);
    CHECK(remote.out == local.out);
    CHECK(remote.out.find("600519.SH,2024-06-17,1718553600000,1449.7438") != std::string::npos);
  }
  SUBCASE("large answers, many on one connection, the same bytes as over plain HTTP") {
    store.import({fixture("jenny_000001.SZ.csv")});
    const std::string all = "/v1/ohlc/range/1/day/1990-12-19/2030-12-31?symbol=000001.SZ";
    httplib::SSLClient client("127.0.0.1", std::stoi(base_url.substr(base_url.rfind(':') + 1)));
    client.set_ca_cert_path(ca.c_str());
    client.enable_server_certificate_verification(true);
    client.set_keep_alive(true);
    client.set_decompress(false);
    const httplib::Headers headers{{"Authorization", "Bearer " + key.plaintext}};
    std::optional<std::string> first;
    for (int i = 0; i < 20; ++i) {
      const auto reply = client.Get(all.c_str(), headers);
      REQUIRE(reply);
      CHECK(reply->status == 200);
      auto body = nlohmann::json::parse(reply->body);
      CHECK(body["resultsCount"] == 1212);
      body.erase("request_id");
      if (!first) {
        first = body.dump();
      }
      CHECK(body.dump() == *first); // 250 KB in TLS records, whole every time
    }
    const auto head = client.Head(all.c_str(), headers);
    REQUIRE(head);
    CHECK(head->status == 200);
    CHECK(head->body.empty());
  }
  SUBCASE("without the CA the certificate is not trusted: a network error, exit 3") {
    const auto result = store.cli({"--base-url", base_url, "--api-key", key.plaintext,
                                   "--retries", "0", "bars", "600519.SH"});
    CHECK(result.status == 3);
    CHECK(result.err.find("ashare: error: cannot reach " + base_url) != std::string::npos);
  }
  server.send_signal(SIGTERM);
  CHECK(server.wait_for_exit(30s) == 0);
}

} // namespace bb
