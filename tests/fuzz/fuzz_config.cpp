// The config file reader (src/cli/config.cpp, compiled in) on any bytes. Beyond "no crash": a
// file that parses holds only known keys, and each value written back as `key = "value"` parses
// to the same file again.
#include "fuzz_check.hpp"

#include "cli/config.hpp"

#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto file = ashare::cli::parse_config_file(text, "/fuzz/config.toml");
  if (!file) {
    FUZZ_CHECK(file.error().code == ashare::ErrorCode::invalid_input);
    FUZZ_CHECK(file.error().message.rfind("/fuzz/config.toml:", 0) == 0);
    return 0;
  }
  std::string written;
  bool writable = true;
  for (const auto& [key, value] : *file) {
    writable = writable && value.find_first_of("\"\n\r") == std::string::npos;
    written += key + " = \"" + value + "\"\n";
  }
  if (writable) {
    const auto again = ashare::cli::parse_config_file(written, "/fuzz/config.toml");
    FUZZ_CHECK(again.ok() && *again == *file);
  }
  (void)ashare::cli::holds_password(text);
  return 0;
}
