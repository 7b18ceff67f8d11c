// A client generated from the OpenAPI document (D11, issue 12), written as a TypeScript user would:
// validate.mjs generates `api.d.ts` beside this file with openapi-typescript, compiles both with
// `tsc --strict` and runs the result against a real `ashare serve`. Every operation is called with
// typed parameters (a symbol list as an array, a time bound as a number); a wrong type or name in
// the document fails the compilation, a wrong answer fails here.
// Usage: node calls.js BASE_URL API_KEY
import createClient from "openapi-fetch";
import type { paths } from "./api.js";

declare const process: { argv: string[] }; // Node's, without its type package

const [baseUrl, key] = process.argv.slice(2);
const client = createClient<paths>({
  baseUrl,
  headers: { Authorization: `Bearer ${key}` },
  // The document's `style: form, explode: false`: symbol=600519.SH,600036.SH.
  querySerializer: { array: { style: "form", explode: false } },
});

function expect(condition: boolean, what: string): void {
  if (!condition) {
    throw new Error(what);
  }
}

// |a - b| within 1e-9 relative (D13's tolerance).
function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

const bars = "/v1/ohlc/range/{multiplier}/{timespan}/{from}/{to}" as const;
const window = { multiplier: 1, timespan: "day", from: "2025-10-01", to: "2025-10-23" } as const;

// Bars, both forms.
{
  const { data, response } = await client.GET(bars, {
    params: { path: window, query: { symbol: ["600519.SH"], include: "summary", limit: 5 } },
  });
  expect(response.status === 200 && data !== undefined, `bars: ${response.status}`);
  expect(data !== undefined && "symbol" in data && data.symbol === "600519.SH", "single form");
  if (data !== undefined && "ohlc" in data) {
    expect(data.ohlc.length === 5 && typeof data.ohlc[0]?.volume === "number", "five bars");
    expect(typeof data.next_url === "string", "next_url: the window holds more bars");
  }
}
{
  const { data, response } = await client.GET(bars, {
    params: {
      path: window,
      query: { symbol: ["600519.SH", "600036.SH"], adjusted: false, sort: "desc" },
    },
  });
  expect(response.status === 200, `bars, two symbols: ${response.status}`);
  expect(data !== undefined && "results" in data && data.results.length === 2, "multi form");
}
{
  const { error, response } = await client.GET(bars, {
    params: { path: window, query: { symbol: ["999999.SH"] } },
  });
  expect(response.status === 400 && error?.error.code === "INVALID_SYMBOL", "error envelope");
}
{
  const { response } = await client.HEAD(bars, {
    params: { path: window, query: { symbol: ["600519.SH"] } },
  });
  expect(response.status === 200 && (await response.text()) === "", "HEAD bars");
}

// EMA, RSI and SMA: a time bound as integer milliseconds, another as a date.
for (const path of ["/v1/indicators/ema", "/v1/indicators/rsi", "/v1/indicators/sma"] as const) {
  const query = {
    symbol: ["600519.SH"],
    window: 5,
    series_type: "high" as const,
    order: "asc" as const,
    limit: 3,
    expand_underlying: true,
    "timestamp.gte": Date.UTC(2025, 8, 30, 16), // 2025-10-01 at UTC+8
    "timestamp.lte": "2025-10-23",
  };
  const { data, response } = await client.GET(path, { params: { query } });
  expect(response.status === 200 && data !== undefined, `${path}: ${response.status}`);
  if (data !== undefined && !Array.isArray(data.results)) {
    const results = data.results;
    expect(results.values.length === 3, `${path}: three values`);
    expect(results.underlying?.series_type === "high", `${path}: underlying`);
    expect(typeof results.next_url === "string", `${path}: next_url`);
  } else {
    expect(false, `${path}: not the single form`);
  }
}

// D13's four indicators: their own parameters and named fields. The types say what D13 says (a
// wrong one fails the compilation): ATR and KDJ, which read high, low and close, take no
// series_type, and BBANDS' k is decimal text.
type Query<P extends keyof paths> = NonNullable<paths[P]["get"]["parameters"]["query"]>;
const d13Types: [
  "series_type" extends keyof Query<"/v1/indicators/atr"> ? never : true,
  "series_type" extends keyof Query<"/v1/indicators/kdj"> ? never : true,
  Query<"/v1/indicators/bbands">["k"] extends string | undefined ? true : never,
  "fast" | "slow" | "signal" extends keyof Query<"/v1/indicators/macd"> ? true : never,
  "n" | "m1" | "m2" extends keyof Query<"/v1/indicators/kdj"> ? true : never,
] = [true, true, true, true, true];
expect(d13Types.length === 5, "the D13 type checks");
{
  const query = { symbol: ["600519.SH"], fast: 5, slow: 10, signal: 3, series_type: "open" as const,
    convention: "tdx" as const, limit: 2, expand_underlying: true };
  const { data, response } = await client.GET("/v1/indicators/macd", { params: { query } });
  const results = data !== undefined && !Array.isArray(data.results) ? data.results : undefined;
  const first = results?.values[0];
  expect(response.status === 200 && results?.values.length === 2, `macd: ${response.status}`);
  expect(first !== undefined && near(first.histogram, 2 * (first.value - first.signal)), "macd: tdx histogram");
  expect(results?.underlying?.series_type === "open", "macd: underlying");
}
{
  const query = { symbol: ["600519.SH"], window: 10, k: "2.5", order: "asc" as const, limit: 2 };
  const { data, response } = await client.GET("/v1/indicators/bbands", { params: { query } });
  const first = data !== undefined && !Array.isArray(data.results) ? data.results.values[0] : undefined;
  expect(response.status === 200 && first !== undefined, `bbands: ${response.status}`);
  expect(first !== undefined && first.lower < first.value && first.value < first.upper, "bbands: the bands");
}
{
  const query = { symbol: ["600519.SH"], window: 7, convention: "talib" as const, expand_underlying: true };
  const { data, response } = await client.GET("/v1/indicators/atr", { params: { query } });
  const results = data !== undefined && !Array.isArray(data.results) ? data.results : undefined;
  expect(response.status === 200 && results?.values.length === 10, `atr: ${response.status}`);
  expect(results?.underlying?.adjusted === true && !("series_type" in results.underlying), "atr: underlying");
}
{
  const query = { symbol: ["600519.SH"], n: 5, m1: 2, m2: 4, "timestamp.gte": "2025-10-01" };
  const { data, response } = await client.GET("/v1/indicators/kdj", { params: { query } });
  const first = data !== undefined && !Array.isArray(data.results) ? data.results.values[0] : undefined;
  expect(response.status === 200 && first !== undefined, `kdj: ${response.status}`);
  expect(first !== undefined && near(first.j, 3 * first.value - 2 * first.d), "kdj: J = 3K - 2D");
}

// Every indicator: the multi-symbol form and HEAD.
for (const path of ["/v1/indicators/ema", "/v1/indicators/rsi", "/v1/indicators/sma", "/v1/indicators/macd",
  "/v1/indicators/bbands", "/v1/indicators/atr", "/v1/indicators/kdj"] as const) {
  const two = await client.GET(path, { params: { query: { symbol: ["600519.SH", "600036.SH"] } } });
  expect(two.data !== undefined && Array.isArray(two.data.results) && two.data.results.length === 2,
    `${path}: multi form`);
  const head = await client.HEAD(path, { params: { query: { symbol: ["600519.SH"] } } });
  expect(head.response.status === 200, `HEAD ${path}`);
}

// D20: an index's members on a day, and every span.
{
  const members = "/v1/indices/{symbol}/members" as const;
  const { data, response } = await client.GET(members, {
    params: { path: { symbol: "000300.SH" }, query: { date: "2023-06-30", source: "import" } },
  });
  expect(response.status === 200 && data?.resultsCount === 300, `members: ${response.status}`);
  expect(data?.results[0]?.weight === null && data?.results[0]?.source === "import", "members: imported");
  const history = await client.GET(members, {
    params: { path: { symbol: "000300.SH" }, query: { history: true } },
  });
  expect(history.data?.date === null && (history.data?.resultsCount ?? 0) > 300, "members: history");
  const head = await client.HEAD(members, { params: { path: { symbol: "000300.SH" } } });
  expect(head.response.status === 200, "HEAD members");
}

// The service operations.
{
  const { data, response } = await client.GET("/healthz");
  expect(response.status === 200 && data?.status === "ok", `healthz: ${response.status}`);
  expect((await client.HEAD("/healthz")).response.status === 200, "HEAD healthz");
  const document = await client.GET("/v1/openapi.json");
  expect(document.response.status === 200, "openapi.json");
  expect((await client.HEAD("/v1/openapi.json")).response.status === 200, "HEAD openapi.json");
}
console.log("every operation answered as documented");
