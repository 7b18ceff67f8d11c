#include "core/fetch/write_batch.hpp"

#include <iterator>
#include <utility>

namespace ashare::fetch {

WriteBatch::WriteBatch(store::BarStore& store, std::string source) : m_store(store) {
  m_options.source = std::move(source);
  // The records run inside the loader's transaction, each unit's after its bars.
  m_options.before_commit = [this](store::BarStore& into) {
    for (const auto& record : m_records) {
      record(into);
    }
  };
  m_file.has_factor = true; // the fetch sets every factor (fetch/factor_chain.hpp)
}

WriteBatch::~WriteBatch() = default; // an open loader's transaction rolls back

void WriteBatch::add(std::vector<import::ParsedRow>&& rows,
                   const std::map<std::string, import::FactorOrigin>& origins,
                   std::function<void(store::BarStore&)> record) {
  if (m_records.empty()) {
    m_opened = std::chrono::steady_clock::now();
  }
  if (!rows.empty() && !m_loader) {
    m_loader.emplace(m_store, m_options);
  }
  for (auto& row : rows) {
    m_loader->add(std::move(row), m_file);
  }
  m_rows += static_cast<std::int64_t>(rows.size());
  // The latest unit's, as a transaction a unit would leave it; both maps in symbol order, so the
  // place of each is where the last one went.
  auto at = m_origins.begin();
  for (const auto& [symbol, origin] : origins) {
    at = std::next(m_origins.insert_or_assign(at, symbol, origin));
  }
  m_records.push_back(std::move(record));
}

std::chrono::steady_clock::duration WriteBatch::age() const {
  return m_records.empty() ? std::chrono::steady_clock::duration::zero()
                           : std::chrono::steady_clock::now() - m_opened;
}

Result<Committed> WriteBatch::commit() {
  const Committed committed{m_records.size(), m_rows};
  if (committed.units == 0) {
    return committed;
  }
  Result<Committed> outcome = committed;
  if (m_loader) {
    import::FactorSettlement settlement{import::FactorOrigin::pre_close_chain, false, false,
                                        &m_origins};
    const auto report = m_loader->finish(
        m_file, settlement, [](const std::function<void(const import::ParsedRow&)>&) {}, {});
    if (report.refusal) {
      outcome = make_error(ErrorCode::invalid_input, report.refusal->message);
    } else if (!report.problems.empty()) {
      outcome = make_error(ErrorCode::invalid_input, report.problems.front().message);
    }
    m_loader.reset(); // rolls back unless finish() committed
  } else {
    // Units without bars: the importer stores nothing for them, but their records still commit
    // (D18: an empty day is recorded as such).
    store::WriteTransaction transaction(m_store);
    m_options.before_commit(m_store);
    m_store.finish_change("");
    transaction.commit();
  }
  m_origins.clear();
  m_records.clear();
  m_rows = 0;
  return outcome;
}

} // namespace ashare::fetch
