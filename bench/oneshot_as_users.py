"""P2 as a user measures it (issue 43): `ashare bars 600519.SH 2024-01-01 2024-12-31 --format csv`
on the bundled sample store (scripts/load-sample.sh), one cold process each, against the sqlite3
CLI on a plain table of the same raw bars (filled from `ashare bars 600519.SH --raw --format csv`)
with D8's forward adjustment, `round(price * factor / latest, 4)`, written in its SELECT.

This differs from oneshot_vs_sqlite3.py, whose sqlite3 side reads ashare's own store (schema 3:
numbers kept as integers of 1/10000, a symbol id in each row) and so pays the same decoding
ashare pays; here the baseline is the table a user would make by hand, so the figure is the whole
cost of asking ashare rather than SQLite (docs/performance.md says more).

The two sides run in alternating rounds (the order flips each round), --processes processes a
side a round, --rounds rounds (default 15); each round's figure is the mean wall time per process,
and the figure printed is the median of the rounds, with the CPU time (user + system) per process
beside it. The two sides' rows are compared once before timing.

Usage: oneshot_as_users.py ASHARE [--rounds N] [--processes N]
"""
import argparse
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from quiet import Quiet  # noqa: E402

SYMBOL, FIRST, LAST = "600519.SH", "2024-01-01", "2024-12-31"
PRICES = ("open", "high", "low", "close")
TEXT_COLUMNS = ("symbol", "trade_date")
INTEGER_COLUMNS = ("t", "volume")


def load_sample(ashare, store):
    """Fill `store` from the bundled sample data, as README's first command does."""
    env = dict(os.environ, ASHARE_DB=store)
    subprocess.run([os.path.join(ROOT, "scripts", "load-sample.sh"), ashare], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def plain_table(ashare, store, work):
    """Write the symbol's raw bars into a plain sqlite3 table; return the file and its columns."""
    raw = subprocess.run([ashare, "--db", store, "bars", SYMBOL, "--raw", "--format", "csv"],
                         check=True, capture_output=True, text=True).stdout
    csv_path = os.path.join(work, "raw.csv")
    with open(csv_path, "w") as out:
        out.write(raw)
    columns = raw.splitlines()[0].split(",")

    def declared(column):
        if column in TEXT_COLUMNS:
            return "TEXT"
        return "INTEGER" if column in INTEGER_COLUMNS else "REAL"

    plain = os.path.join(work, "plain.db")
    schema = ", ".join(f"{column} {declared(column)}" for column in columns)
    subprocess.run(["sqlite3", plain, f"CREATE TABLE bars ({schema});",
                    f".import --csv --skip 1 {csv_path} bars",
                    "CREATE INDEX bars_date ON bars (trade_date);"], check=True)
    return plain, columns


def select(columns):
    """The SELECT a user writes: the window, prices adjusted to the latest factor (D8)."""
    latest = "(SELECT factor FROM bars ORDER BY trade_date DESC LIMIT 1)"
    cells = [f"round({column} * factor / {latest}, 4) AS {column}" if column in PRICES else column
             for column in columns]
    return (f"SELECT {', '.join(cells)} FROM bars WHERE trade_date BETWEEN '{FIRST}' AND '{LAST}'"
            " ORDER BY trade_date;")


def same_rows(ours, theirs):
    """Whether two CSV texts hold the same rows, numbers compared as numbers: 1.0 equals 1, and
    the sqlite3 CLI prints a REAL to 15 significant digits where ashare prints the shortest text
    that reads back as the same double (D12)."""
    def same(a, b):
        try:
            return math.isclose(float(a), float(b), rel_tol=1e-14)
        except ValueError:
            return a == b
    rows = [(x.split(","), y.split(",")) for x, y in zip(ours.splitlines(), theirs.splitlines())]
    return len(ours.splitlines()) == len(theirs.splitlines()) and all(
        len(x) == len(y) and all(same(a, b) for a, b in zip(x, y)) for x, y in rows)


def time_processes(command, count):
    """Run `command` `count` times; return (wall, CPU) seconds per process."""
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    for _ in range(count):
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    return wall / count, cpu / count


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ashare", help="the ashare binary (a Release build)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--processes", type=int, default=100, help="processes a side a round")
    args = parser.parse_args()
    ashare = os.path.abspath(args.ashare)
    quiet = Quiet()

    with tempfile.TemporaryDirectory(prefix="ashare-p2-users-") as work:
        store = os.path.join(work, "ashare.db")
        load_sample(ashare, store)
        plain, columns = plain_table(ashare, store, work)
        sides = {
            "ashare": [ashare, "--db", store, "bars", SYMBOL, FIRST, LAST, "--format", "csv"],
            "sqlite3": ["sqlite3", "-csv", "-header", plain, select(columns)],
        }
        answers = {name: subprocess.run(command, check=True, capture_output=True,
                                        text=True).stdout for name, command in sides.items()}
        if len(answers["ashare"].splitlines()) < 200 or \
                not same_rows(answers["ashare"], answers["sqlite3"]):
            sys.exit("the two sides disagree:\n" + answers["ashare"][:400] + "\n---\n"
                     + answers["sqlite3"][:400])

        walls = {name: [] for name in sides}
        cpus = {name: [] for name in sides}
        with quiet.round():
            for round_number in range(args.rounds):
                order = list(sides) if round_number % 2 == 0 else list(reversed(sides))
                for name in order:
                    wall, cpu = time_processes(sides[name], args.processes)
                    walls[name].append(wall)
                    cpus[name].append(cpu)

    wall = {name: statistics.median(figures) * 1000 for name, figures in walls.items()}
    cpu = {name: statistics.median(figures) * 1000 for name, figures in cpus.items()}
    print(f"{os.cpu_count()} cores; {args.rounds} alternating rounds of {args.processes} "
          f"processes a side; {len(answers['ashare'].splitlines()) - 1} bars of {SYMBOL}, "
          f"{FIRST}..{LAST}")
    print(f"{'figure':<8} {'ashare ms':>10} {'sqlite3 ms':>11} {'ratio':>6} {'target':>7}")
    print(f"{'P2 user':<8} {wall['ashare']:>10.3f} {wall['sqlite3']:>11.3f} "
          f"{wall['ashare'] / wall['sqlite3']:>6.2f} {1.3:>7.2f}")
    print(f"{'CPU':<8} {cpu['ashare']:>10.3f} {cpu['sqlite3']:>11.3f} "
          f"{cpu['ashare'] / cpu['sqlite3']:>6.2f}      -")
    print(quiet.summary())


if __name__ == "__main__":
    main()
