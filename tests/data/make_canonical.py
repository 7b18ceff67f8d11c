#!/usr/bin/env python3
"""Regenerate the canonical-CSV fixtures of tests/data from ../shared/data/real (see README.md).

Vendor units are converted exactly, in decimal (D12): Tushare `vol` lots x 100 = shares,
`amount` thousand CNY x 1000 = CNY. Usage: python3 tests/data/make_canonical.py SHARED_REAL_DIR
"""
import csv
import sys
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent


def iso(yyyymmdd):
    return f"{yyyymmdd[:4]}-{yyyymmdd[4:6]}-{yyyymmdd[6:]}"


def plain(value):
    text = f"{value.normalize():f}"
    return text


def bancob(real, symbol):
    """Tushare stk_factor rows (raw prices + adj_factor), ascending, with change_pct and factor."""
    source = real / "tushare_stk_factor_bancob" / f"{symbol}_indiv_techin.csv"
    rows = list(csv.DictReader(source.open(encoding="utf-8", newline="")))
    rows.sort(key=lambda r: r["indiv_techin_trade_date"])
    out = HERE / f"bancob_{symbol}.csv"
    with out.open("w", encoding="utf-8", newline="") as f:
        f.write("symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n")
        for r in rows:
            g = lambda k: r["indiv_techin_" + k]
            volume = Decimal(g("vol")) * 100
            turnover = Decimal(g("amount")) * 1000
            f.write(",".join([g("ts_code"), iso(g("trade_date")), g("open"), g("high"), g("low"),
                              g("close"), plain(volume), plain(turnover), g("pct_change"),
                              g("adj_factor")]) + "\n")


def jenny(real, symbol):
    """Tushare daily rows (raw prices, no factor), ascending, without change_pct or factor."""
    source = real / "tushare_daily_jenny" / f"{symbol}.csv"
    rows = list(csv.DictReader(source.open(encoding="utf-8", newline="")))
    rows.sort(key=lambda r: r["trade_date"])
    out = HERE / f"jenny_{symbol}.csv"
    with out.open("w", encoding="utf-8", newline="") as f:
        f.write("trade_date,symbol,open,high,low,close,volume,turnover\n")
        for r in rows:
            volume = Decimal(r["vol"]) * 100
            turnover = Decimal(r["amount"]) * 1000
            if volume != volume.to_integral_value():
                sys.exit(f"{source}: vol {r['vol']} is not a whole number of shares")
            f.write(",".join([iso(r["trade_date"]), r["ts_code"], r["open"], r["high"], r["low"],
                              r["close"], plain(volume), plain(turnover)]) + "\n")


def main():
    real = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parents[2] / "shared" / "data" / "real"
    for symbol in ["600519.SH", "600036.SH", "002594.SZ"]:
        bancob(real, symbol)
    for symbol in ["000001.SZ", "600276.SH"]:
        jenny(real, symbol)


if __name__ == "__main__":
    main()
