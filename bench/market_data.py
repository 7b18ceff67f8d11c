"""Deterministic market data for the benchmarks (issue 11): canonical CSV of SYMBOLS symbols with
DAYS sessions each, a random walk with realistic prices and volumes, factors that step at yearly
dividends, and a few suspended days. Nothing large is committed; every bench generates its own.

Usage: market_data.py OUT.csv [--symbols N] [--days N] [--seed N]
"""
import argparse
import datetime
import os
import random
import subprocess

HEADER = "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"


def sessions(days, last=datetime.date(2024, 12, 31)):
    """Return `days` weekdays ending on `last`, ascending."""
    out = []
    day = last
    while len(out) < days:
        if day.weekday() < 5:
            out.append(day)
        day -= datetime.timedelta(days=1)
    return out[::-1]


def symbol_name(i):
    """600000.SH, 600001.SH, ... then 000001.SZ, ...: valid A-share symbols."""
    return f"{600000 + i}.SH" if i < 4000 else f"{i - 3999:06d}.SZ"


def write(path, symbols, days, seed=20261123):
    rng = random.Random(seed)
    calendar = sessions(days)
    with open(path, "w") as out:
        out.write(HEADER)
        for i in range(symbols):
            name = symbol_name(i)
            price = rng.uniform(3, 300)
            factor = 1.0
            previous = None
            for day in calendar:
                if rng.random() < 0.01:
                    continue  # suspended
                if day.month == 6 and day.day <= 7 and rng.random() < 0.25:
                    factor *= 1 + rng.uniform(0.005, 0.03)  # an ex-dividend day
                    price /= 1 + rng.uniform(0.005, 0.03)
                open_ = round(price * (1 + rng.gauss(0, 0.005)), 2)
                close = round(max(0.5, price * (1 + rng.gauss(0, 0.02))), 2)
                high = round(max(open_, close) * (1 + abs(rng.gauss(0, 0.006))), 2)
                low = round(min(open_, close) * (1 - abs(rng.gauss(0, 0.006))), 2)
                volume = int(rng.lognormvariate(11, 0.8)) * 100  # lots of 100 shares
                turnover = round(volume * (open_ + close) / 2, 2)
                change = 0.0 if previous is None else round((close / previous - 1) * 100, 4)
                out.write(f"{name},{day.isoformat()},{open_},{high},{low},{close},{volume},"
                          f"{turnover},{change},{factor:.3f}\n")
                previous = close
                price = close


def add_arguments(parser, processes):
    """Declare what the process benches (P2, P6) take: the binary, the market, the rounds."""
    parser.add_argument("ashare", help="the ashare binary (a Release build)")
    parser.add_argument("--symbols", type=int, default=20)
    parser.add_argument("--days", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    parser.add_argument("--processes", type=int, default=processes,
                        help="processes per round and side")


def make_store(ashare, work, args, name, env=None):
    """Write the market of `args` under `work` and import it into store `name` there; return
    the store's path."""
    csv = os.path.join(work, "market.csv")
    store = os.path.join(work, name)
    write(csv, args.symbols, args.days)
    subprocess.run([ashare, "--db", store, "import", csv, "--source", "bench"], check=True,
                   capture_output=True, env=env)
    return store


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--symbols", type=int, default=20)
    parser.add_argument("--days", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=20261123)
    args = parser.parse_args()
    write(args.out, args.symbols, args.days, args.seed)


if __name__ == "__main__":
    main()
