// Printing shared by subcommands: aligned text tables.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace ashare::cli {

enum class Align { left, right };

struct TableColumn {
  std::string header;
  Align align = Align::left;
};

// Print `rows` under `columns`, each column as wide as its widest cell, two spaces apart.
void print_table(std::ostream& out,
                 const std::vector<TableColumn>& columns,
                 const std::vector<std::vector<std::string>>& rows);

} // namespace ashare::cli
