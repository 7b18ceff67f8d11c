// The SQLite store backend of the unit tests (store_backend.hpp): two files in a TempDir.
#include "store_backend.hpp"

#include "support/temp_dir.hpp"

namespace ashare::test {

struct StoreBackend::State {
  TempDir dir{"ashare-unit"};
};

StoreBackend::StoreBackend() : m_state(std::make_unique<State>()) {}

StoreBackend::~StoreBackend() = default;

const char* StoreBackend::name() { return "sqlite"; }

std::string StoreBackend::data_locator() const { return (m_state->dir / "ashare.db").string(); }

std::string StoreBackend::keys_locator() const {
  return (m_state->dir / "ashare-keys.db").string();
}

} // namespace ashare::test
