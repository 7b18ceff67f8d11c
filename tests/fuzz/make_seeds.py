#!/usr/bin/env python3
"""Write the seed inputs of the fuzz harnesses (tests/fuzz/seeds/NAME/) from real requests and the
real files of tests/data. scripts/fuzz.sh merges them with what exploration finds into
tests/fuzz/corpus/NAME/, which CI replays. Run again after adding a fixture or a route."""
import hashlib
import os
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE.parent / "data"
KEYS = {  # fuzz_world.hpp's RepeatedByte keys: free, basic, pro, metered pro
    "free": "ask_AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE",
    "basic": "ask_AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI",
    "pro": "ask_AwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwM",
    "metered": "ask_BAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ",
}


def write(name, data):
    folder = HERE / "seeds" / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def head(path, lines):
    with open(path, "rb") as f:
        return b"".join(f.readline() for _ in range(lines))


def dispatch_seeds():
    bars = "/v1/ohlc/range/1/day/{}/{}"
    requests = [
        ("GET", bars.format("2024-01-01", "2024-06-30"), "symbol=600519.SH", "pro"),
        ("GET", bars.format("2024-01-01", "2024-06-30"), "symbol=600519.SH,000001.SZ&limit=5", "metered"),
        ("GET", bars.format("2025-01-01", "2025-03-31"), "symbol=600036.SH&adjusted=false&sort=desc", "basic"),
        ("GET", bars.format("2025-06-01", "2025-10-23"), "symbol=600519.sh&include=summary", "free"),
        ("GET", bars.format("1704124800000", "1719676800000"), "symbol=000001.SZ&limit=3", "pro"),
        ("HEAD", bars.format("2024-01-01", "2024-01-31"), "symbol=600519.SH", "pro"),
        ("GET", "/v1/ohlc/range/1/week/2024-01-01/2024-06-30", "symbol=600519.SH", "pro"),
        ("GET", bars.format("2024%2F06%2F01", "2024-06-30"), "symbol=600519.SH", "pro"),
        ("GET", bars.format("2024-01-01", "2024-06-30"), "symbol=600519.SH&adjusted=FALSE&include=SUMMARY", "pro"),
        ("POST", bars.format("2024-01-01", "2024-06-30"), "symbol=600519.SH", "pro"),
        ("GET", "/healthz", "", None),
        ("HEAD", "/healthz", "", None),
        ("GET", "/v1/openapi.json", "", None),
        ("GET", "/v1/nothing", "", "pro"),
    ]
    for name in ("sma", "ema", "rsi"):
        requests.append(("GET", "/v1/indicators/" + name,
                         "symbol=600519.SH&window=20&timestamp.gte=2024-06-01&timestamp.lte=2024-06-30&order=asc&limit=50", "pro"))
        requests.append(("GET", "/v1/indicators/" + name,
                         "symbol=000001.SZ&window=14&convention=tdx&series_type=close&expand_underlying=true", "metered"))
    requests += [
        ("GET", "/v1/indicators/macd", "symbol=600519.SH&fast=12&slow=26&signal=9&convention=tdx", "pro"),
        ("GET", "/v1/indicators/bbands", "symbol=600519.SH&window=20&k=2.5&adjusted=false", "pro"),
        ("GET", "/v1/indicators/atr", "symbol=600036.SH&window=14&timestamp=2025-10-23", "basic"),
        ("GET", "/v1/indicators/kdj", "symbol=600036.SH&n=9&m1=3&m2=3&convention=tdx&limit=10", "free"),
    ]
    for method, path, query, key in requests:
        lines = [method, path, query]
        if key:
            lines.append("Bearer " + KEYS[key])
        write("dispatch", "\n".join(lines).encode())
    # D17: a fifth line is If-None-Match.
    for method, path, query, key, condition in [
        ("GET", bars.format("2024-01-01", "2024-06-30"), "symbol=600519.SH", "metered", "*"),
        ("HEAD", "/v1/indicators/sma", "symbol=600519.SH&window=5", "pro", 'W/"1-0", "x"'),
        ("GET", "/healthz", "", "pro", '*'),
    ]:
        lines = [method, path, query, "Bearer " + KEYS[key], condition]
        write("dispatch", "\n".join(lines).encode())


def parse_seeds():
    # fuzz_parse.cpp's first byte: 0 CSV reader, 1 canonical, 2 Tushare, 3 AkShare, 4 and 5
    # baostock, 6 TDX, 7 adj_factor.
    files = {
        1: ["bancob_600519.SH.csv", "jenny_000001.SZ.csv"],
        2: ["vendor/tushare_daily_600519.SH.csv", "vendor/stk_daily_600036.SH.csv"],
        3: ["vendor/akshare_600519.SH.csv"],
        4: ["vendor/baostock_000001.SZ.csv"],
        6: ["vendor/sh600000.day"],
        7: ["vendor/adj_factor_600519.SH.csv"],
    }
    for selector, names in files.items():
        for name in names:
            path = DATA / name
            if not path.exists():
                raise SystemExit("missing fixture " + str(path))
            data = path.read_bytes()[:32 * 20] if selector == 6 else head(path, 12)
            write("parse", bytes([selector]) + data)
            if selector == 1:
                write("parse", bytes([0]) + data)
            if selector == 4:
                write("parse", bytes([5]) + data)
    write("import", bytes([0]) + head(DATA / "bancob_600519.SH.csv", 12))
    write("import", bytes([0x80]) + head(DATA / "bancob_600519.SH.csv", 12) + b"600519.SH,2024-01-0x,1\n")
    write("import", bytes([1]) + head(DATA / "vendor/tushare_daily_600519.SH.csv", 12))
    write("import", bytes([2]) + head(DATA / "vendor/akshare_600519.SH.csv", 12))
    write("import", bytes([3]) + head(DATA / "vendor/baostock_000001.SZ.csv", 12))
    write("import", bytes([4]) + (DATA / "vendor/sh600000.day").read_bytes()[:32 * 12])
    write("import", bytes([5]) + head(DATA / "jenny_000001.SZ.csv", 12))


def parser_seeds():
    # fuzz_parsers.cpp's first byte: 0 numbers, 1 dates, 2 symbols, 3 parameters, 4 printable.
    for text in ["39354.45", "-1.5", "+7", "1e3", ".5", "1e-320", "1e308", "0.0000001",
                 "1" * 40, "12345678901234567890", "-0", "8398945.449"]:
        write("parsers", b"\0" + text.encode())
    for text in ["1990-12-19", "2024-02-29", "0001-01-01", "9999-12-31", "2024-13-01"]:
        write("parsers", b"\1" + text.encode())
    for text in ["600519.SH", "000001.sz", " 600036.SH ,002594.SZ", "430047.BJ", "60051.SH"]:
        write("parsers", b"\2" + text.encode())
    for text in ["true", "FALSE", "0", "5000", "2.5", "10.0000000000000000001", "desc"]:
        write("parsers", b"\3" + text.encode())
    write("parsers", b"\4" + b"\x1b[2J\xff\xfe caf\xc3\xa9")


def config_seeds():
    write("config", b'db = "/home/u/ashare.db"\nkeys_db = "postgresql://u:secret@h/db"\n'
                    b'api_key = "ask_x"\n# comment\nlisten = "127.0.0.1:8080"\n')
    write("config", b'format = "table"\nplan = "pro"\nthreads = "4"\n')


def remote_seeds():
    # fuzz_remote_json.cpp's first byte: 0 bars, 1 indicators, 2 error, 3 health.
    write("remote_json", b"\0" + (HERE / "samples/bars.json").read_bytes())
    write("remote_json", b"\1" + (HERE / "samples/sma.json").read_bytes())
    write("remote_json", b"\2" + b'{"error":{"code":"PLAN_LIMIT","message":"beyond the plan"}}')
    write("remote_json", b"\3" + b'{"status":"ok","as_of":"2025-10-23","schema_version":1}')


if __name__ == "__main__":
    dispatch_seeds()
    parse_seeds()
    parser_seeds()
    config_seeds()
    if (HERE / "samples").exists():
        remote_seeds()
