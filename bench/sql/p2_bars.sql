-- P2's baseline (issue 11): the sqlite3 CLI answering `ashare bars SYMBOL FROM TO --format csv`
-- on the same store file: one symbol's bars of a window, forward-adjusted as D8 says
-- (round(raw * factor / F_latest, 4), left to right, half away from zero), with t (D2), as CSV
-- with a header. The harness sets @symbol, @from and @to (YYYYMMDD) with .parameter.
SELECT b.symbol,
       printf('%04d-%02d-%02d', b.trade_date / 10000, b.trade_date / 100 % 100,
              b.trade_date % 100) AS trade_date,
       (unixepoch(printf('%04d-%02d-%02d', b.trade_date / 10000, b.trade_date / 100 % 100,
                         b.trade_date % 100)) - 8 * 3600) * 1000 AS t,
       round(b.open * b.factor / s.latest_factor, 4) AS open,
       round(b.high * b.factor / s.latest_factor, 4) AS high,
       round(b.low * b.factor / s.latest_factor, 4) AS low,
       round(b.close * b.factor / s.latest_factor, 4) AS close,
       b.volume, b.turnover, b.change_pct, b.factor
FROM bars AS b JOIN symbols AS s ON s.symbol = b.symbol
WHERE b.symbol = @symbol AND b.trade_date BETWEEN @from AND @to
ORDER BY b.trade_date;
