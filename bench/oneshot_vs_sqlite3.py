"""P2 of issue 11: a cron job's query, `ashare bars SYMBOL FROM TO --format csv` as one cold
process, against the sqlite3 CLI running the equivalent SELECT (bench/sql/p2_bars.sql: the window,
forward-adjusted in SQL as D8 says) on the same store file, in the same run.

Both answer the same sequence of queries (a random symbol, a one-year window), one process each,
in alternating rounds; the figure is the median wall time per process and its ratio (target
<= 1.3). Also printed: `ashare --version` (process start alone) and `sqlite3 -version`, and
"P2 loop": a cron job's shell loop, --loop processes (default 5,000) from one `sh` script per
side, output to /dev/null, each side's loop run twice in the order ashare, sqlite3, sqlite3,
ashare; the figure is the mean wall time per process of the faster run of each side.

Usage: oneshot_vs_sqlite3.py ASHARE [--symbols N] [--days N] [--rounds N] [--processes N]
                                    [--loop N]
"""
import argparse
import datetime
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import market_data  # noqa: E402

from quiet import Quiet

SQL = os.path.join(ROOT, "bench", "sql", "p2_bars.sql")


def queries(rng, symbols, calendar, count):
    """Return `count` (symbol, from, to) queries: a random symbol, a random one-year window."""
    out = []
    for _ in range(count):
        symbol = market_data.symbol_name(rng.randrange(symbols))
        start = rng.choice(calendar[:-260])
        out.append((symbol, start, start + datetime.timedelta(days=364)))
    return out


def ashare_command(ashare, store, query):
    symbol, first, last = query
    return [ashare, "--db", store, "bars", symbol, first.isoformat(), last.isoformat(),
            "--format", "csv"]


def sqlite_command(store, query):
    symbol, first, last = query
    return ["sqlite3", "-csv", "-header", store,
            "-cmd", f".parameter set @symbol '{symbol}'",
            "-cmd", f".parameter set @from {first.strftime('%Y%m%d')}",
            "-cmd", f".parameter set @to {last.strftime('%Y%m%d')}",
            f".read {SQL}"]


def values(lines):
    """Return CSV `lines` as rows of values, numbers compared as numbers (1.0 == 1)."""
    def value(cell):
        try:
            return float(cell)
        except ValueError:
            return cell
    return [[value(cell) for cell in line.split(",")] for line in lines]


def time_processes(commands):
    """Run `commands` one after another; return the mean wall seconds per process."""
    start = time.perf_counter()
    for command in commands:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) / len(commands)


def time_shell_loop(work, name, commands):
    """Run `commands` as one `sh` script (a cron job's loop); return wall seconds per process."""
    script = os.path.join(work, name + ".sh")
    with open(script, "w") as out:
        for command in commands:
            out.write(" ".join(shlex.quote(word) for word in command) + " >/dev/null\n")
    start = time.perf_counter()
    subprocess.run(["sh", "-e", script], check=True)
    return (time.perf_counter() - start) / len(commands)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    market_data.add_arguments(parser, processes=200)
    parser.add_argument("--loop", type=int, default=5000,
                        help="processes of the shell-loop figure per side (0: skip it)")
    args = parser.parse_args()
    quiet = Quiet()

    with tempfile.TemporaryDirectory(prefix="ashare-p2-") as work:
        store = market_data.make_store(args.ashare, work, args, "ashare.db")
        calendar = market_data.sessions(args.days)
        rng = random.Random(11)
        # Both sides answer the same queries; check once that they return the same rows.
        sample = queries(rng, args.symbols, calendar, 1)[0]
        ours = subprocess.run(ashare_command(args.ashare, store, sample), check=True,
                              capture_output=True, text=True).stdout.splitlines()
        theirs = subprocess.run(sqlite_command(store, sample), check=True, capture_output=True,
                                text=True).stdout.splitlines()
        if len(ours) < 200 or values(ours) != values(theirs):
            sys.exit(f"the two sides disagree on {sample}")

        figures = {"ashare": [], "sqlite3": [], "ashare --version": [], "sqlite3 -version": []}
        with quiet.round():
            for round_number in range(args.rounds):
                batch = queries(rng, args.symbols, calendar, args.processes)
                sides = [("ashare", [ashare_command(args.ashare, store, q) for q in batch]),
                         ("sqlite3", [sqlite_command(store, q) for q in batch]),
                         ("ashare --version", [[args.ashare, "--version"]] * args.processes),
                         ("sqlite3 -version", [["sqlite3", "-version"]] * args.processes)]
                if round_number % 2:
                    sides.reverse()
                for name, commands in sides:
                    figures[name].append(time_processes(commands))

        loop = {"ashare": [], "sqlite3": []}
        if args.loop:
            batch = queries(rng, args.symbols, calendar, args.loop)
            commands = {"ashare": [ashare_command(args.ashare, store, q) for q in batch],
                        "sqlite3": [sqlite_command(store, q) for q in batch]}
            for name in ("ashare", "sqlite3", "sqlite3", "ashare"):
                loop[name].append(time_shell_loop(work, name, commands[name]))

        median = {name: statistics.median(values) * 1000 for name, values in figures.items()}
        print(f"{os.cpu_count()} cores; {args.symbols} symbols x {args.days} days; "
              f"{args.rounds} alternating rounds of {args.processes} processes a side; "
              f"one-year windows ({len(ours) - 1} bars in the checked one)")
        print(f"{'figure':<6} {'ashare ms':>10} {'sqlite3 ms':>11} {'ratio':>6} {'target':>7}")
        print(f"{'P2':<6} {median['ashare']:>10.2f} {median['sqlite3']:>11.2f} "
              f"{median['ashare'] / median['sqlite3']:>6.2f} {1.3:>7.2f}")
        print(f"{'start':<6} {median['ashare --version']:>10.2f} "
              f"{median['sqlite3 -version']:>11.2f} "
              f"{median['ashare --version'] / median['sqlite3 -version']:>6.2f}      -")
        if args.loop:
            ours, theirs = min(loop["ashare"]) * 1000, min(loop["sqlite3"]) * 1000
            print(f"{'P2 loop':<6} {ours:>10.2f} {theirs:>11.2f} {ours / theirs:>6.2f} {1.3:>7.2f}"
                  f"   ({args.loop} processes a side from sh)")
    print(quiet.summary())


if __name__ == "__main__":
    main()
