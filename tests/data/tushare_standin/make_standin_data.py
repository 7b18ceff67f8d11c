#!/usr/bin/env python3
"""Build the stand-in Tushare server's derived tables (issue 32) from the real files.

Run: python3 tests/data/tushare_standin/make_standin_data.py ../shared/data/real
Writes, next to this script: trade_cal.csv (from akshare_calendar/calendar.json), adj_factor.csv
(derived from the pre_close chain of daily/*.csv) and daily_synthetic.csv (bars of the synthetic
delisted symbol); D20's index_daily.csv (real), fund_daily.csv (derived from TDX's raw export)
and fund_adj.csv (made up). stock_basic.csv, suspend_d.csv, fund_basic.csv and index_basic.csv are
written by hand (see README.md).
"""
import csv
import datetime
import json
import pathlib
import sys
from decimal import ROUND_HALF_UP, Decimal

HERE = pathlib.Path(__file__).resolve().parent
DAILY_HEADER = ["ts_code", "trade_date", "open", "high", "low", "close", "pre_close", "change",
                "pct_chg", "vol", "amount"]


def tushare_number(value: Decimal, places: int) -> str:
    """Round half up to `places` and write it as Tushare's JSON does (Python float repr: 1.0, 11.96)."""
    rounded = value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return repr(float(rounded))


def write_trade_cal(real: pathlib.Path) -> list:
    open_days = json.loads((real / "akshare_calendar" / "calendar.json").read_text())
    open_set = set(open_days)
    day = datetime.date(2019, 1, 1)
    previous_open = max(d for d in open_days if d < "20190101")
    rows = []
    while day <= datetime.date(2026, 12, 31):
        text = day.strftime("%Y%m%d")
        rows.append(["SSE", text, "1" if text in open_set else "0", previous_open])
        if text in open_set:
            previous_open = text
        day += datetime.timedelta(days=1)
    with open(HERE / "trade_cal.csv", "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["exchange", "cal_date", "is_open", "pretrade_date"])
        writer.writerows(rows)
    return [r[1] for r in rows if r[2] == "1"]


def write_synthetic_delisted(open_days: list) -> None:
    # 600001.SH, delisted 2023-06-30 in stock_basic.csv: five invented bars before that day,
    # falling 5% a day as a stock in its delisting period might (not real data).
    days = [d for d in open_days if d < "20230630"][-5:]
    close = Decimal("1.20")
    rows = []
    for day in days:
        pre_close = close
        close = (pre_close * Decimal("0.95")).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        open_ = pre_close
        high = pre_close
        low = close
        vol = Decimal("123456.78")
        amount = (vol * 100 * (high + low) / 2 / 1000).quantize(Decimal("0.001"))
        change = close - pre_close
        rows.append(["600001.SH", day, tushare_number(open_, 2), tushare_number(high, 2),
                     tushare_number(low, 2), tushare_number(close, 2), tushare_number(pre_close, 2),
                     tushare_number(change, 2), tushare_number(change / pre_close * 100, 4),
                     tushare_number(vol, 2), tushare_number(amount, 3), "synthetic"])
    with open(HERE / "daily_synthetic.csv", "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(DAILY_HEADER + ["note"])
        writer.writerows(reversed(rows))  # descending, as the real files


def write_adj_factor() -> None:
    rows = []
    sources = sorted((HERE / "daily").glob("*.csv")) + [HERE / "daily_synthetic.csv"]
    for path in sources:
        with open(path, newline="") as f:
            bars = sorted(csv.DictReader(f), key=lambda r: r["trade_date"])
        factor = Decimal(1)
        for i, bar in enumerate(bars):
            if i > 0:
                factor = factor * Decimal(bars[i - 1]["close"]) / Decimal(bar["pre_close"])
            rows.append([bar["ts_code"], bar["trade_date"], tushare_number(factor, 3)])
    with open(HERE / "adj_factor.csv", "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["ts_code", "trade_date", "adj_factor"])
        writer.writerows(rows)


def write_index_daily(real: pathlib.Path) -> None:
    # D20: Tushare index_daily as recorded: 000300.SH over 2019-2022 and 000001.SH over 2018, the
    # cells unchanged but the date written YYYYMMDD (the 000300.SH file writes YYYY-MM-DD).
    turn4 = real / "indices_etfs_turn4"
    rows = []
    for name, keep in [("tushare_index_daily_000300.SH_2005-2022_nymath.csv", ("2019", "2020", "2021", "2022")),
                       ("tushare_index_daily_000001.SH_2018_borenwu.csv", ("2018",))]:
        with open(turn4 / name, newline="") as f:
            for row in csv.DictReader(f):
                row["trade_date"] = row["trade_date"].replace("-", "")
                if row["trade_date"][:4] in keep:
                    rows.append([row[c] for c in DAILY_HEADER])
    with open(HERE / "index_daily.csv", "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(DAILY_HEADER)
        writer.writerows(rows)


# 510300.SH's cash dividends per unit by ex-date, as TDX's 后复权 export steps by them
# (indices_etfs_turn4/PROVENANCE.md).
DIVIDENDS = {"20121218": "0.033", "20140121": "0.048", "20150120": "0.035", "20160120": "0.051",
             "20170123": "0.055", "20180123": "0.046", "20190116": "0.059", "20191211": "0.062",
             "20210118": "0.072", "20220119": "0.075", "20230116": "0.064", "20240118": "0.069"}


def write_fund_daily(real: pathlib.Path) -> None:
    # D20: Tushare fund_daily of 510300.SH derived from TDX's raw export: vol = shares / 100 (lots),
    # amount = CNY / 1000, pre_close the previous close less the recorded dividend on its ex-dates.
    text = (real / "indices_etfs_turn4" / "tdx_export_510300.SH_raw_zsh-a.txt").read_bytes().decode("gbk")
    bars = [line.split(",") for line in text.splitlines()[2:] if line[:1].isdigit()]
    daily, adj = [], []
    close_before = None
    factor = Decimal("1.5")  # the made-up fund_adj's scale
    for day, open_, high, low, close, shares, cny in bars:
        day = day.replace("/", "")
        close_d = Decimal(close)
        pre_close = close_d if close_before is None else close_before - Decimal(DIVIDENDS.get(day, "0"))
        if close_before is not None:
            factor = factor * close_before / pre_close
        change = close_d - pre_close
        daily.append(["510300.SH", day, open_, high, low, close, tushare_number(pre_close, 3),
                      tushare_number(change, 3), tushare_number(change / pre_close * 100, 4),
                      tushare_number(Decimal(shares) / 100, 2), tushare_number(Decimal(cny) / 1000, 3)])
        adj.append(["510300.SH", day, tushare_number(factor, 4), "made up"])
        close_before = close_d
    with open(HERE / "fund_daily.csv", "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(DAILY_HEADER)
        writer.writerows(daily)
    with open(HERE / "fund_adj.csv", "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["ts_code", "trade_date", "adj_factor", "note"])
        writer.writerows(adj)


def main() -> None:
    real = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/real")
    open_days = write_trade_cal(real)
    write_synthetic_delisted(open_days)
    write_adj_factor()
    write_index_daily(real)
    write_fund_daily(real)


if __name__ == "__main__":
    main()
