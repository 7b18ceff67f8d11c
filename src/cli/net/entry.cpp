// The one symbol ashare-net.so exports: the table `ashare` finds with dlsym (cli/net/module.hpp).
#include "cli/net/module.hpp"

extern "C" __attribute__((visibility("default"))) const ashare::cli::net::Module*
ashare_net_module() {
  static const ashare::cli::net::Module module{
    ASHARE_VERSION, &ashare::cli::net::open_http_transport, &ashare::cli::net::serve};
  return &module;
}
