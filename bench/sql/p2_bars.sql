-- P2's baseline (issue 11): the sqlite3 CLI answering `ashare bars SYMBOL FROM TO --format csv`
-- on the same store file: one symbol's bars of a window, forward-adjusted as D8 says
-- (round(raw * factor / F_latest, 4), left to right, half away from zero), with t (D2), as CSV
-- with a header. The harness sets @symbol, @from and @to (YYYYMMDD) with .parameter.
-- Schema 3 keeps a symbol id in each row and a number as an INTEGER of 1/10000 units when that
-- is exact (src/core/store/stored_number.hpp): `v` decodes it as ashare does.
WITH v AS (
  SELECT b.trade_date,
         iif(typeof(b.open) = 'integer', b.open / 10000.0, b.open) AS open,
         iif(typeof(b.high) = 'integer', b.high / 10000.0, b.high) AS high,
         iif(typeof(b.low) = 'integer', b.low / 10000.0, b.low) AS low,
         iif(typeof(b.close) = 'integer', b.close / 10000.0, b.close) AS close,
         b.volume,
         iif(typeof(b.turnover) = 'integer', b.turnover / 10000.0, b.turnover) AS turnover,
         iif(typeof(b.change_pct) = 'integer', b.change_pct / 10000.0, b.change_pct) AS change_pct,
         iif(typeof(b.factor) = 'integer', b.factor / 10000.0, b.factor) AS factor
  FROM bars AS b
  WHERE b.symbol_id = (SELECT id FROM symbol_ids WHERE symbol = @symbol)
    AND b.trade_date BETWEEN @from AND @to
)
SELECT @symbol AS symbol,
       printf('%04d-%02d-%02d', v.trade_date / 10000, v.trade_date / 100 % 100,
              v.trade_date % 100) AS trade_date,
       (unixepoch(printf('%04d-%02d-%02d', v.trade_date / 10000, v.trade_date / 100 % 100,
                         v.trade_date % 100)) - 8 * 3600) * 1000 AS t,
       round(v.open * v.factor / s.latest_factor, 4) AS open,
       round(v.high * v.factor / s.latest_factor, 4) AS high,
       round(v.low * v.factor / s.latest_factor, 4) AS low,
       round(v.close * v.factor / s.latest_factor, 4) AS close,
       v.volume, v.turnover, v.change_pct, v.factor
FROM v JOIN symbols AS s ON s.symbol = @symbol
ORDER BY v.trade_date;
