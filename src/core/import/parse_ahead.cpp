#include "core/import/parse_ahead.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace ashare::import {
namespace {

// A batch costs one lock and one wake-up on each side; 1,024 rows of about 150 bytes keep that
// well under a microsecond a row, and four in flight keep the writer busy while the parser
// refills a buffer from disk.
constexpr std::size_t k_batch_rows = 1024;
constexpr std::size_t k_batches_in_flight = 4;

struct Batch {
  std::vector<ParsedRow> rows;
  bool has_factor = true;
  bool has_change_pct = true;
};

// The bounded queue between the parser (producer) and the writer (consumer).
class BatchQueue {
public:
  // Wait for room and append `batch`; return false when the consumer has stopped.
  bool push(Batch&& batch) {
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return m_stopped || m_batches.size() < k_batches_in_flight; });
    if (m_stopped) {
      return false;
    }
    m_batches.push_back(std::move(batch));
    m_changed.notify_all();
    return true;
  }

  // Say that no batch follows: the parse returned `result`, or threw `error`.
  void close(std::optional<Result<ParsedFile>> result, std::exception_ptr error) {
    std::scoped_lock lock(m_mutex);
    m_result = std::move(result);
    m_error = error;
    m_closed = true;
    m_changed.notify_all();
  }

  // Wait for the next batch; nullopt once the producer has closed and every batch is taken.
  std::optional<Batch> pop() {
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return m_closed || !m_batches.empty(); });
    if (m_batches.empty()) {
      return std::nullopt;
    }
    auto batch = std::move(m_batches.front());
    m_batches.pop_front();
    m_changed.notify_all();
    return batch;
  }

  // Give `rows`' storage back for the producer's next batch, so batches stop allocating.
  void recycle(std::vector<ParsedRow>&& rows) {
    rows.clear();
    std::scoped_lock lock(m_mutex);
    m_spare.push_back(std::move(rows));
  }

  // Return storage for a batch, reused when the consumer has given some back.
  std::vector<ParsedRow> spare() {
    std::scoped_lock lock(m_mutex);
    if (m_spare.empty()) {
      std::vector<ParsedRow> rows;
      rows.reserve(k_batch_rows);
      return rows;
    }
    auto rows = std::move(m_spare.back());
    m_spare.pop_back();
    return rows;
  }

  // Make the producer's next push fail: the consumer will take nothing more.
  void stop() {
    std::scoped_lock lock(m_mutex);
    m_stopped = true;
    m_changed.notify_all();
  }

  // Return what the producer closed with (call after it has closed).
  std::optional<Result<ParsedFile>> take_result() { return std::move(m_result); }
  std::exception_ptr error() const { return m_error; }

private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Batch> m_batches;
  std::vector<std::vector<ParsedRow>> m_spare;
  std::optional<Result<ParsedFile>> m_result;
  std::exception_ptr m_error;
  bool m_closed = false;
  bool m_stopped = false;
};

// Thrown by the producer's sink to unwind a parse the consumer no longer wants.
struct ParseStopped {};

// Gathers the parser's rows into batches and pushes each full one onto the queue.
class Batcher {
public:
  // `progress`, when given, is called before each batch is pushed.
  Batcher(BatchQueue& queue, const std::function<void()>& progress)
      : m_queue(queue), m_progress(progress) {
    m_batch.rows = m_queue.spare();
  }

  // Add `row`, read from `file`; throws ParseStopped when the consumer has stopped.
  void add(ParsedRow&& row, const ParsedFile& file) {
    m_batch.rows.push_back(std::move(row));
    if (m_batch.rows.size() == k_batch_rows) {
      hand_over(file);
    }
  }

  // Push the last batch, if it has rows, with the flags of `file`, the whole file parsed.
  void flush(const ParsedFile& file) {
    if (!m_batch.rows.empty()) {
      hand_over(file);
    }
  }

private:
  void hand_over(const ParsedFile& file) {
    m_batch.has_factor = file.has_factor;
    m_batch.has_change_pct = file.has_change_pct;
    if (m_progress) {
      m_progress();
    }
    if (!m_queue.push(std::move(m_batch))) {
      throw ParseStopped{};
    }
    m_batch = Batch{};
    m_batch.rows = m_queue.spare();
  }

  BatchQueue& m_queue;
  const std::function<void()>& m_progress;
  Batch m_batch;
};

// The parser's thread: run `parse`, its rows pushed onto `queue` in batches, and close the queue
// with what it returns or throws.
void produce(BatchQueue& queue, const SinkingParse& parse, const std::function<void()>& progress) {
  Batcher batcher(queue, progress);
  try {
    auto result = parse([&batcher](ParsedRow&& row, const ParsedFile& file) {
      batcher.add(std::move(row), file);
    });
    if (result) {
      batcher.flush(*result);
    }
    queue.close(std::move(result), nullptr);
  } catch (const ParseStopped&) {
    queue.close(std::nullopt, nullptr);
  } catch (...) {
    queue.close(std::nullopt, std::current_exception());
  }
}

// The calling thread: hand each row of the batches of `queue` to `consume`, in order, then
// return what the parse returned, or rethrow what it threw.
Result<ParsedFile> consume_batches(BatchQueue& queue, const RowSink& consume) {
  ParsedFile view; // the flags the consumer sees; the rows and problems stay the parser's
  while (auto batch = queue.pop()) {
    view.has_factor = batch->has_factor;
    view.has_change_pct = batch->has_change_pct;
    for (auto& row : batch->rows) {
      consume(std::move(row), view);
    }
    queue.recycle(std::move(batch->rows));
  }
  if (const auto error = queue.error()) {
    std::rethrow_exception(error);
  }
  auto result = queue.take_result();
  if (!result) {
    return make_error(ErrorCode::internal, "the parse stopped without a result");
  }
  return std::move(*result);
}

} // namespace

Result<ParsedFile> parse_ahead(const SinkingParse& parse,
                               const RowSink& consume,
                               const std::function<void()>& progress) {
  BatchQueue queue;
  std::thread parser([&] { produce(queue, parse, progress); });

  // Joins the parser however this function ends; a consumer that throws stops it first.
  struct Joiner {
    BatchQueue& queue;
    std::thread& thread;
    ~Joiner() {
      queue.stop();
      thread.join();
    }
  } joiner{queue, parser};

  return consume_batches(queue, consume);
}

} // namespace ashare::import
