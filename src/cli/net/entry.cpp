// The one symbol ashare-net.so exports: the table `ashare` finds with dlsym (cli/net/module.hpp).
#include "cli/net/serve.hpp"

#include "cli/output/report.hpp"
#include "core/store/store_unavailable.hpp"

namespace ashare::cli::net {
namespace {

// As main.cpp reports what a command throws: a database server that cannot be reached is exit
// status 3 (D15), anything else 1. No exception crosses into `ashare`.
int serve_entry(const ServeSettings& settings) noexcept {
  try {
    return serve(settings);
  } catch (const store::StoreUnavailable& error) {
    return fail(error.what(), k_exit_network);
  } catch (const std::exception& error) {
    return fail(error.what());
  } catch (...) {
    return fail("unexpected failure in the network module");
  }
}

} // namespace
} // namespace ashare::cli::net

extern "C" __attribute__((visibility("default"))) const ashare::cli::net::Module*
ashare_net_module() noexcept {
  using namespace ashare::cli::net;
  static const Module module{ASHARE_VERSION, k_module_abi, &open_http_transport, &serve_entry};
  return &module;
}
