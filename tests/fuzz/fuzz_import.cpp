// The importers on a real store: the input's first byte picks the format (low 3 bits: canonical,
// Tushare, AkShare, baostock, TDX, else detected) and --skip-invalid (0x80); the rest is the
// file, imported into a copy of a store holding two real symbols, one with factors other than 1.
// Beyond "no crash" (D16, issue 13): an import that is refused, or loads no row, leaves the store
// file byte-identical; one that loads rows reports them and passes the store's integrity check.
#include "fuzz_check.hpp"
#include "fuzz_world.hpp"

#include <SQLiteCpp/Database.h>

#include <fstream>
#include <iterator>
#include <string>

using namespace ashare;

namespace {

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct World {
  fuzz::TempDir dir{"ashare-fuzz"};
  std::filesystem::path pristine = dir / "pristine.db";
  std::string pristine_bytes;

  World() {
    fuzz::import_fixture(pristine, "bancob_600519.SH.csv"); // factors other than 1
    fuzz::import_fixture(pristine, "jenny_000001.SZ.csv");
    pristine_bytes = read_bytes(pristine); // closed: the WAL is checkpointed into the file
  }
};

constexpr import::SourceFormat k_formats[] = {
  import::SourceFormat::canonical, import::SourceFormat::tushare, import::SourceFormat::akshare,
  import::SourceFormat::baostock,  import::SourceFormat::tdx};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static World world;
  if (size == 0) {
    return 0;
  }
  const auto work = world.dir / "work.db";
  std::filesystem::remove(work);
  std::filesystem::remove(std::filesystem::path(work.string() + "-wal"));
  std::filesystem::remove(std::filesystem::path(work.string() + "-shm"));
  std::filesystem::copy_file(world.pristine, work);
  const unsigned selector = data[0] & 0x7f;
  const bool tdx = selector % 8 == 4;
  const auto file = world.dir / (tdx ? "sh600000.day" : "600519.SH.csv");
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data) + 1, static_cast<std::streamsize>(size - 1));
  }
  import::ImportOptions options;
  options.skip_invalid = (data[0] & 0x80) != 0;
  if (selector % 8 < 5) {
    options.format = k_formats[selector % 8];
  }
  bool changed = false;
  {
    store::SqliteBarStore store(work);
    const auto report = import::import_file(store, file, options);
    if (report) {
      changed = report->committed && report->rows_loaded > 0;
      FUZZ_CHECK(changed || report->rows_loaded == 0 || !report->committed);
      FUZZ_CHECK(!changed || !report->symbols.empty());
    }
  }
  if (!changed) {
    FUZZ_CHECK(read_bytes(work) == world.pristine_bytes);
  } else {
    SQLite::Database db(work.string());
    FUZZ_CHECK(db.execAndGet("PRAGMA integrity_check").getString() == "ok");
  }
  return 0;
}
