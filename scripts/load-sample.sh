#!/usr/bin/env bash
# Load the bundled sample data (data/sample/, see its README) into the data store: the default
# one, or $ASHARE_DB. Usage: scripts/load-sample.sh [ASHARE_BINARY]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ashare="${1:-$root/build/release/src/cli/ashare}"

# Bars: each file's format is detected from its header (Tushare daily and index_daily, AkShare,
# TDX's text export), each symbol's kind from its code (D20).
"$ashare" import "$root"/data/sample/tushare/*.csv "$root"/data/sample/akshare/430047.BJ.csv \
  "$root/data/sample/tdx/SH#510300.txt"
# CSI 300's membership as the index company announced it (D20).
"$ashare" import --format members --index 000300.SH "$root"/data/sample/members/000300.SH.csv
