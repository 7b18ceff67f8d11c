#!/usr/bin/env python3
"""Cut the vendor-format test extracts from shared/data/real/ (see README.md beside this script).

Usage: python3 tests/data/vendor/make_extracts.py ../shared/data/real
Lines are copied byte for byte; only the stk_factor projections rewrite rows (selected columns,
Tushare's own names without the indiv_techin_ prefix, values unchanged as text).
"""
import sys
from pathlib import Path

real = Path(sys.argv[1])
out = Path(__file__).resolve().parent


def lines(path):
    return path.read_bytes().split(b"\n")


def keep(src, dst, predicate, header_lines=1):
    all_lines = [l for l in lines(src)]
    body = [l for l in all_lines[header_lines:] if l and predicate(l)]
    (out / dst).write_bytes(b"\n".join(all_lines[:header_lines] + body) + b"\n")


# Tushare daily, 600519.SH, 2023-12-01 .. 2024-07-31 (newest first, as Tushare writes it).
keep(real / "tushare_daily_jenny/600519.SH.csv", "tushare_daily_600519.SH.csv",
     lambda l: b"20231201" <= l.split(b",")[1] <= b"20240731")
# AkShare stock_zh_a_hist, 600519 (qfq, used for unit conversion only), first 30 days of 2024.
keep(real / "akshare_hist_qfq_tszlam/600519.csv", "akshare_600519.SH.csv",
     lambda l: b"2024-01-02" <= l[:10] <= b"2024-02-15")
# baostock, 000001.SZ around the 2010 suspension (tradestatus=0 rows), adjustflag 2.
keep(real / "baostock_qfq_hamger/000001.SZ.csv", "baostock_000001.SZ.csv",
     lambda l: b"2010-06-21" <= l[:10] <= b"2010-09-10")
# TDX .day, 600000.SH: the first 40 and the last 40 records.
day = (real / "tdx_day_hikyuu/sh600000.day").read_bytes()
(out / "sh600000.day").write_bytes(day[: 40 * 32] + day[-40 * 32 :])

# Tushare stk_factor (Bancob) projected to the daily and adj_factor layouts.
daily_columns = ["ts_code", "trade_date", "open", "high", "low", "close", "pre_close", "change",
                 "pct_change", "vol", "amount"]
for symbol in ["600519.SH", "600036.SH", "002594.SZ"]:
    src = lines(real / f"tushare_stk_factor_bancob/{symbol}_indiv_techin.csv")
    header = [h.strip().decode().removeprefix("indiv_techin_") for h in src[0].split(b",")]
    rows = [[f.strip() for f in l.split(b",")] for l in src[1:] if l.strip()]
    index = {name: i for i, name in enumerate(header)}
    daily = [b",".join(c.encode() if c != "pct_change" else b"pct_chg" for c in daily_columns)]
    daily += [b",".join(r[index[c]] for c in daily_columns) for r in rows]
    (out / f"stk_daily_{symbol}.csv").write_bytes(b"\n".join(daily) + b"\n")
    factors = [b"ts_code,trade_date,adj_factor"]
    factors += [b",".join(r[index[c]] for c in ["ts_code", "trade_date", "adj_factor"]) for r in rows]
    (out / f"adj_factor_{symbol}.csv").write_bytes(b"\n".join(factors) + b"\n")

# D20: indices and funds (shared/data/real/indices_etfs_turn4/PROVENANCE.md).
turn4 = real / "indices_etfs_turn4"
# TDX .day of the SSE Composite (an index: volume in lots): the first 40 records, every record of
# 2018 (the days of the Tushare index_daily file below) and the last 40.
day = (real / "tdx_day_hikyuu/sh000001.day").read_bytes()
records = [day[i : i + 32] for i in range(0, len(day), 32)]
in_2018 = [r for r in records if 20180101 <= int.from_bytes(r[:4], "little") <= 20181231]
(out / "sh000001.day").write_bytes(b"".join(records[:40] + in_2018 + records[-40:]))
# Tushare index_daily of 000001.SH over 2018 (YYYYMMDD dates), whole.
(out / "tushare_index_daily_000001.SH_2018.csv").write_bytes(
    (turn4 / "tushare_index_daily_000001.SH_2018_borenwu.csv").read_bytes())
# Tushare index_daily of 000300.SH (YYYY-MM-DD dates, close before open): the rows of 2005 (3
# decimals, fractional lots), 2015 (4 decimals from mid-year), 2019 (1-decimal amounts) and 2022.
keep(turn4 / "tushare_index_daily_000300.SH_2005-2022_nymath.csv",
     "tushare_index_daily_000300.SH.csv",
     lambda l: l.split(b",")[1][:4] in (b"2005", b"2015", b"2019", b"2022"))
# TDX text exports of 510300.SH (GBK, CRLF): the raw one whole; of the 后复权 one, the first 12
# lines and the last (its title is what refuses it).
(out / "tdx_text_510300.SH_raw.txt").write_bytes(
    (turn4 / "tdx_export_510300.SH_raw_zsh-a.txt").read_bytes())
hfq = (turn4 / "tdx_export_510300.SH_hfq_zsh-a.txt").read_bytes().split(b"\r\n")
(out / "tdx_text_510300.SH_hfq.txt").write_bytes(b"\r\n".join(hfq[:12] + hfq[-2:]))
