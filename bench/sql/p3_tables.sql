-- P3's baselines (issue 11): the tables `sqlite3 .import --csv` fills from the same files that
-- `ashare import` reads, with the same columns and no constraint (the cheapest load SQLite has).
-- The harness runs this on a fresh database, then `.import --csv --skip 1 FILE TABLE`.
CREATE TABLE canonical(
  symbol     TEXT,
  trade_date TEXT,
  open       REAL,
  high       REAL,
  low        REAL,
  close      REAL,
  volume     INTEGER,
  turnover   REAL,
  change_pct REAL,
  factor     REAL
);
CREATE TABLE tushare_daily(
  ts_code    TEXT,
  trade_date TEXT,
  open       REAL,
  high       REAL,
  low        REAL,
  close      REAL,
  pre_close  REAL,
  change     REAL,
  pct_chg    REAL,
  vol        REAL,
  amount     REAL
);
