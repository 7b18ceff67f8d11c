#!/usr/bin/env bash
# Load the bundled sample data (data/sample/, see its README) into the data store: the default
# one, or $ASHARE_DB. Usage: scripts/load-sample.sh [ASHARE_BINARY]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ashare="${1:-$root/build/release/src/cli/ashare}"

"$ashare" import "$root"/data/sample/tushare/*.csv "$root"/data/sample/akshare/430047.BJ.csv
