"""P3 of issue 11: `ashare import` of a large canonical CSV (and of the same rows as a Tushare
`daily` file, whose factors ashare derives along the pre_close chain) into a new store, against
`sqlite3 .import --csv` of the same file into a table of the same columns (bench/sql/p3_tables.sql),
in alternating rounds of the same run. Prints the median wall times, their ratio (target <= 1.0)
and each side's peak RSS (target for ashare: <= 64 MB whatever the file's size). Also prints
P5's store size: the store file's bytes per bar after the canonical import.

Usage: import_vs_sqlite3.py ASHARE [--symbols N] [--days N] [--rounds N]
"""
import argparse
import decimal
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import market_data  # noqa: E402

from quiet import Quiet

TABLES = os.path.join(ROOT, "bench", "sql", "p3_tables.sql")


def write_tushare(canonical, path):
    """Write the rows of `canonical` as one Tushare `daily` file: vol in lots, amount in thousand
    CNY (exact decimals), pre_close the previous close made ex-rights by the factor step, newest
    first per symbol as Tushare answers."""
    D = decimal.Decimal
    with open(canonical) as rows, open(path, "w") as out:
        out.write("ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount\n")
        next(rows)
        block, previous = [], None

        def flush():
            out.writelines(reversed(block))
            block.clear()

        for line in rows:
            symbol, day, open_, high, low, close, volume, turnover, change, factor = \
                line.rstrip("\n").split(",")
            if previous and previous[0] != symbol:
                flush()
                previous = None
            if previous:
                pre = (D(previous[1]) * D(previous[2]) / D(factor)).quantize(D("0.01"))
            else:
                pre = D(close)
            block.append(f"{symbol},{day.replace('-', '')},{open_},{high},{low},{close},{pre},"
                         f"{D(close) - pre},{change},{D(volume) / 100},{D(turnover) / 1000}\n")
            previous = (symbol, close, factor)
        flush()


def run(command, work):
    """Run `command`; return its wall seconds and peak RSS in MB. The RSS comes from GNU time
    (Debian package `time`): the rusage of a child that Python spawned starts from Python's own
    pages (about 16 MB), which would hide a smaller peak."""
    report = os.path.join(work, "maxrss")
    start = time.perf_counter()
    process = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report] + command,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if process.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}: {process.stderr.decode()}")
    with open(report) as text:
        return wall, int(text.read().split()[-1]) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ashare", help="the ashare binary (a Release build)")
    parser.add_argument("--symbols", type=int, default=700)
    parser.add_argument("--days", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    args = parser.parse_args()
    quiet = Quiet()

    with tempfile.TemporaryDirectory(prefix="ashare-p3-") as work:
        canonical = os.path.join(work, "market.csv")
        tushare = os.path.join(work, "daily.csv")
        market_data.write(canonical, args.symbols, args.days)
        write_tushare(canonical, tushare)
        rows = sum(1 for _ in open(canonical)) - 1
        print(f"{os.cpu_count()} cores; {rows:,} rows ({args.symbols} symbols x up to {args.days} "
              f"days; canonical {os.path.getsize(canonical) / 1e6:.0f} MB, Tushare "
              f"{os.path.getsize(tushare) / 1e6:.0f} MB); {args.rounds} alternating rounds")
        figures = {}
        with quiet.round():
            for _ in range(args.rounds):
                for name, path, table in (("canonical", canonical, "canonical"),
                                          ("tushare", tushare, "tushare_daily")):
                    store = os.path.join(work, "ashare.db")
                    baseline = os.path.join(work, "sqlite3.db")
                    for leftover in os.listdir(work):
                        if leftover.startswith(("ashare.db", "sqlite3.db")):
                            os.remove(os.path.join(work, leftover))
                    ours = run([args.ashare, "--db", store, "import", path, "--source", "bench"], work)
                    if name == "canonical":  # P5's bytes per bar, on the store just written
                        subprocess.run(["sqlite3", store, "PRAGMA wal_checkpoint(TRUNCATE)"],
                                       check=True, capture_output=True)
                        bytes_per_bar = os.path.getsize(store) / rows
                    theirs = run(["sqlite3", baseline, f".read {TABLES}",
                                  f".import --csv --skip 1 {path} {table}"], work)
                    figures.setdefault(name, []).append((ours, theirs))
        print(f"{'figure':<14} {'ashare s':>9} {'sqlite3 s':>10} {'ratio':>6} {'target':>7} "
              f"{'ashare MB':>10} {'sqlite3 MB':>11}")
        for name, runs in figures.items():
            ours = statistics.median(r[0][0] for r in runs)
            theirs = statistics.median(r[1][0] for r in runs)
            print(f"{'P3 ' + name:<14} {ours:>9.2f} {theirs:>10.2f} {ours / theirs:>6.2f} "
                  f"{1.0:>7.2f} {max(r[0][1] for r in runs):>10.1f} "
                  f"{max(r[1][1] for r in runs):>11.1f}")
        print(f"P5 store: {bytes_per_bar:.1f} bytes per bar (file size / bars; target <= 64)")
    print(quiet.summary())


if __name__ == "__main__":
    main()
