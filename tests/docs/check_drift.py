#!/usr/bin/env python3
"""Fail when `ashare --help` (or a subcommand's) lists a subcommand or option that the man page or
one of the bash, zsh and fish completions lacks, or a subcommand that the README lacks (STYLE 7,
issue 5). Being ahead of the binary is fine: only --help must be a subset of the docs.
Usage: check_drift.py ASHARE_BIN REPO_DIR"""
import re
import subprocess
import sys
from pathlib import Path


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


def main():
    binary, repo = sys.argv[1], Path(sys.argv[2])

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
    for problem in problems:
        print(problem)
    print(f"{checked - len(problems)} passed, {len(problems)} failed")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
