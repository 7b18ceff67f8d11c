// Parsing a file on a thread of its own while the calling thread writes its rows (issue 11, P3).
// Reading and parsing take about a third of an import's CPU and SQLite's inserts the rest, so on
// two cores an import lasts about as long as its inserts alone. Rows cross in batches through a
// bounded queue: memory stays a few batches whatever the file's size, and the rows arrive in the
// order the parser read them. Only the calling thread touches the store.
#pragma once

#include "core/error.hpp"
#include "core/import/parsed_file.hpp"

#include <functional>

namespace ashare::import {

// A parse to run: it hands each good row to the given sink and returns the file as parsed (with
// its problems, and no rows).
using SinkingParse = std::function<Result<ParsedFile>(RowSink)>;

// Run `parse` on a thread of its own, handing each row it reads to `consume` on the calling
// thread, in the parser's order, with a ParsedFile whose flags (has_factor, has_change_pct) are
// the parser's when it read that row. `progress`, when given, is called on the parser's thread
// after each batch and may read the parser's input (the fraction of the file read, say).
// Return what `parse` returns, once `consume` has had every row. When `consume` throws, the
// parse is stopped and the exception rethrown; an exception of `parse` is rethrown here too.
Result<ParsedFile> parse_ahead(const SinkingParse& parse,
                               const RowSink& consume,
                               const std::function<void()>& progress = {});

} // namespace ashare::import
