// The TDX quote servers `fetch tdx` asks by default (D18: a compiled-in list of public hosts,
// tried in turn; `tdx_hosts` / ASHARE_TDX_HOSTS replaces it). Public hosts come and go (mootdx
// #157: stale lists are the protocol's commonest complaint): these are the ones that several
// peers' host lists, dated 2026, name as answering. Keep the list short and refresh it from them.
#pragma once

#include <array>
#include <string_view>

namespace ashare::fetch::tdx {

inline constexpr std::array<std::string_view, 8> k_default_hosts{
    "180.153.18.170:7709",  // Shanghai
    "180.153.18.171:7709",  // Shanghai
    "119.147.212.81:7709",  // Shenzhen
    "60.191.117.167:7709",  // Hangzhou
    "115.238.90.165:7709",  // Hangzhou
    "218.75.126.9:7709",    // Hangzhou
    "202.108.253.130:7709", // Beijing
    "110.41.147.114:7709",  // TDX's own
};

} // namespace ashare::fetch::tdx
