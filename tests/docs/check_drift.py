#!/usr/bin/env python3
"""Fail when the docs drift from the code (STYLE 7 and 10, issues 5 and 34). It checks that:

- every subcommand and option of `ashare --help` (and of each subcommand's) is in the man page and
  the bash, zsh and fish completions, and every subcommand in the README (being ahead of the
  binary is fine: only --help must be a subset of the docs);
- every relative markdown link in README.md, ARCHITECTURE.md and docs/*.md points at a file that
  exists, inside the repository (http(s) and mailto links and #anchors are not checked);
- every repository path those files quote as code (`src/...`, `tests/...`, `scripts/...`, ...)
  exists;
- every decision id cited in src/ (D1, D17, ...) has its `## D<n>: title` section in
  docs/decisions.md;
- every row of the error table in src/core/error.cpp (wire name, HTTP status, exit status) is a
  row of docs/api.md's error table with the same statuses, and that table names no other code;
- README.md is at most 200 lines and links ARCHITECTURE.md and each page of docs/.

Usage: check_drift.py ASHARE_BIN REPO_DIR"""
import re
import subprocess
import sys
from pathlib import Path

README_MAX_LINES = 200
# The pages README.md must link (each must exist: the link check sees to that).
README_MUST_LINK = ["ARCHITECTURE.md", "docs/api.md", "docs/decisions.md", "docs/deployment.md",
                    "docs/performance.md", "docs/store.md", "docs/testing.md"]
# The top-level directories whose paths a document may quote as code and that must then exist.
QUOTED_ROOTS = ("src", "tests", "scripts", "bench", "deploy", "data", "man", "completions", "docs")


# --- --help against the man page, the completions and the README ---------------------------------

def help_text(binary, args):
    result = subprocess.run([binary, *args, "--help"], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        sys.exit(f"{' '.join(args)} --help exited {result.returncode}: {result.stderr}")
    return result.stdout


def subcommands(text):
    part = text.split("Subcommands:", 1)
    if len(part) < 2:
        return []
    names = []
    for line in part[1].splitlines():
        match = re.match(r"^  ([a-z][a-z-]*)\s", line)
        if match:
            names.append(match.group(1))
        elif line.strip() == "" and names:
            break
    return names


def options(text):
    return sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", text.split("Environment:")[0])))


def option_pattern(option, fish):
    """fish names a long option as `-l NAME`; the other documents spell it `--NAME`."""
    if fish:
        return r"(?:-l|--long-option)\s+['\"]?" + re.escape(option[2:]) + r"(?![\w-])"
    return re.escape(option) + r"(?![\w-])"


def check_help(binary, repo):
    """Every option and subcommand of --help in each document (subcommands in the README too)."""
    def read(*parts):
        return repo.joinpath(*parts).read_text(encoding="utf-8")

    # (name, text, is fish) of every document that must name each option and subcommand.
    docs = [
        ("man page", read("man", "ashare.1.adoc"), False),
        ("bash completion", read("completions", "ashare.bash"), False),
        ("zsh completion", read("completions", "_ashare"), False),
        ("fish completion", read("completions", "ashare.fish"), True),
    ]
    readme = read("README.md")
    problems = []
    checked = 0

    def visit(path):
        nonlocal checked
        text = help_text(binary, path)
        where = "ashare " + " ".join(path) if path else "ashare"
        for option in options(text):
            if option == "--help":
                continue
            checked += 1
            for name, doc, fish in docs:
                if not re.search(option_pattern(option, fish), doc):
                    problems.append(f"{where}: option {option} is missing from the {name}")
        for command in subcommands(text):
            checked += 1
            full = " ".join([*path, command])
            for name, doc in [(name, doc) for name, doc, _ in docs] + [("README", readme)]:
                if not re.search(r"\b" + re.escape(command) + r"\b", doc):
                    problems.append(f"{where}: subcommand {full} is missing from the {name}")
            visit([*path, command])

    visit([])
    return checked, problems


# --- markdown: links and quoted paths --------------------------------------------------------------

def markdown_files(repo):
    """README.md, ARCHITECTURE.md and docs/*.md: the documents these checks cover."""
    files = [repo / "README.md", repo / "ARCHITECTURE.md"]
    return files + sorted((repo / "docs").glob("*.md"))


def prose(text):
    """`text` without fenced code blocks, so that a link in an example is not taken for one."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def links(text):
    """The targets of the markdown links `[label](target)` of `text`, outside code."""
    outside_code = re.sub(r"`[^`\n]*`", "", prose(text))
    return re.findall(r"\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", outside_code)


def is_external(target):
    return re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) is not None or target.startswith("#")


def link_target(document, target):
    """The file `target`, a link of `document`, names (its #anchor dropped), resolved."""
    path = target.split("#", 1)[0]
    return (document.parent / path).resolve()


def relative_name(path, repo):
    return path.relative_to(repo).as_posix() if path.is_relative_to(repo) else str(path)


def check_links(repo):
    """Every relative link of the covered documents names an existing file inside the repository."""
    problems = []
    checked = 0
    for document in markdown_files(repo):
        if not document.exists():
            problems.append(f"{relative_name(document, repo)}: missing")
            continue
        name = relative_name(document, repo)
        for target in links(document.read_text(encoding="utf-8")):
            if is_external(target):
                continue
            checked += 1
            path = link_target(document, target)
            if not path.is_relative_to(repo):
                problems.append(f"{name}: link ({target}) points outside the repository")
            elif not path.exists():
                problems.append(f"{name}: link ({target}) points at {relative_name(path, repo)}, "
                                "which does not exist")
    return checked, problems


def quoted_paths(text):
    """Repository paths quoted as inline code, e.g. `src/core/error.cpp` or `tests/fuzz/`, leaving
    out placeholders (`tests/fuzz/corpus/NAME`, `test_<dir>_<file>.cpp`) and globs."""
    roots = "|".join(QUOTED_ROOTS)
    found = []
    for code in re.findall(r"`([^`\n]+)`", text):
        match = re.fullmatch(r"(?:" + roots + r")/[\w./+-]*", code.strip())
        if not match:
            continue
        path = match.group(0)
        if re.search(r"(^|/)[A-Z][A-Z_]*(/|$)", path):
            continue  # a placeholder segment such as NAME or FILE
        found.append(path)
    return found


def check_quoted_paths(repo):
    """Every repository path the covered documents quote as code exists."""
    problems = []
    checked = 0
    for document in markdown_files(repo):
        if not document.exists():
            continue  # check_links says so
        for path in quoted_paths(prose(document.read_text(encoding="utf-8"))):
            checked += 1
            if not (repo / path).exists():
                problems.append(f"{relative_name(document, repo)}: `{path}` does not exist")
    return checked, problems


# --- decision ids, error codes, the README ---------------------------------------------------------

def cited_decisions(repo):
    """The decision numbers cited anywhere in src/, each with one place that cites it."""
    cited = {}
    for path in sorted((repo / "src").rglob("*")):
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for number in re.findall(r"\bD(\d{1,2})\b", text):
            cited.setdefault(int(number), relative_name(path, repo))
    return cited


def check_decisions(repo):
    """Every decision cited in src/ has its `## D<n>: title` section in docs/decisions.md, once."""
    page = repo / "docs" / "decisions.md"
    if not page.exists():
        return 1, ["docs/decisions.md: missing (src/ cites decisions D1-D19)"]
    headings = re.findall(r"^## D(\d{1,2}): \S", page.read_text(encoding="utf-8"), re.M)
    problems = [f"docs/decisions.md: more than one section D{n}"
                for n in sorted({int(n) for n in headings if headings.count(n) > 1})]
    sections = {int(n) for n in headings}
    cited = cited_decisions(repo)
    for number, where in sorted(cited.items()):
        if number not in sections:
            problems.append(f"docs/decisions.md: no section '## D{number}: ...', "
                            f"though src/ cites D{number} (e.g. {where})")
    return len(cited), problems


def error_table(repo):
    """The rows (wire name, HTTP status, exit status) of src/core/error.cpp's error table."""
    text = (repo / "src" / "core" / "error.cpp").read_text(encoding="utf-8")
    rows = re.findall(r"ErrorInfo\s*\{\s*ErrorCode::\w+\s*,\s*\"([A-Z][A-Z0-9_]*)\"\s*,"
                      r"\s*(\d{3})\s*,\s*(\d+)\s*\}", text)
    return [(name, int(http), int(exit_status)) for name, http, exit_status in rows]


def api_error_rows(text):
    """docs/api.md's error table: {wire name: (HTTP status cell, exit status cell)}, from its rows
    `| `NAME` | HTTP | exit | when |`."""
    rows = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.lstrip().startswith("|") and len(cells) >= 4:
            match = re.fullmatch(r"`([A-Z][A-Z0-9_]*)`", cells[0])
            if match:
                rows[match.group(1)] = (cells[1], cells[2])
    return rows


def check_errors(repo):
    """docs/api.md's error table has the rows of src/core/error.cpp's, and no others."""
    table = error_table(repo)
    if not table:
        return 1, ["src/core/error.cpp: no ErrorInfo{ErrorCode::..., \"NAME\", HTTP, EXIT} rows "
                   "found: update check_drift.py's error_table()"]
    page = repo / "docs" / "api.md"
    if not page.exists():
        return len(table), ["docs/api.md: missing (it lists the error codes of src/core/error.cpp)"]
    rows = api_error_rows(page.read_text(encoding="utf-8"))
    problems = []
    for name, http, exit_status in table:
        if name not in rows:
            problems.append(f"docs/api.md: error code {name} ({http}, exit {exit_status}) of "
                            "src/core/error.cpp is not a row of its error table")
        elif rows[name] != (str(http), str(exit_status)):
            problems.append(f"docs/api.md: {name} is HTTP {rows[name][0]}, exit {rows[name][1]}; "
                            f"src/core/error.cpp says HTTP {http}, exit {exit_status}")
    known = {name for name, _, _ in table}
    for name in sorted(set(rows) - known):
        problems.append(f"docs/api.md: error code {name} is not in src/core/error.cpp")
    return len(table), problems


def check_readme(repo):
    """README.md stays short and links ARCHITECTURE.md and each page of docs/."""
    readme = repo / "README.md"
    text = readme.read_text(encoding="utf-8")
    problems = []
    lines = len(text.splitlines())
    if lines > README_MAX_LINES:
        problems.append(f"README.md: {lines} lines, more than {README_MAX_LINES}: move the detail "
                        "to docs/ and link it")
    linked = {link_target(readme, target) for target in links(text) if not is_external(target)}
    for page in README_MUST_LINK:
        if (repo / page).resolve() not in linked:
            problems.append(f"README.md: no link to {page}")
    return 1 + len(README_MUST_LINK), problems


def main():
    binary, repo = sys.argv[1], Path(sys.argv[2]).resolve()
    checked = 0
    problems = []
    for check in (lambda: check_help(binary, repo), lambda: check_links(repo),
                  lambda: check_quoted_paths(repo), lambda: check_decisions(repo),
                  lambda: check_errors(repo), lambda: check_readme(repo)):
        count, found = check()
        checked += count
        problems += found
    for problem in problems:
        print(problem)
    print(f"{checked - len(problems)} passed, {len(problems)} failed")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
