// Where a user's data and keys live is private to that user (issue 13, as the XDG base
// directory specification asks of its directories): directories ashare creates are 0700 and the
// files it creates 0600. SQLite gives a database's -wal and -shm files the database's own mode, so
// creating the database file first is enough for all three.
#pragma once

#include <filesystem>

namespace ashare::store {

// Create each missing directory of `dir` with mode 0700 (less what the umask removes); leave
// existing ones as they are. Throws std::filesystem::filesystem_error when one cannot be made.
void create_private_directories(const std::filesystem::path& dir);

// Create `path` empty with mode 0600 when it does not exist (an empty file is an empty SQLite
// database); leave an existing file, its mode included, as it is. Errors are left to the opener.
void create_private_file(const std::filesystem::path& path);

} // namespace ashare::store
