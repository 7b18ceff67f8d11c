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

// The three indicators: a time bound as integer milliseconds, another as a date.
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
  const two = await client.GET(path, { params: { query: { symbol: ["600519.SH", "600036.SH"] } } });
  expect(two.data !== undefined && Array.isArray(two.data.results), `${path}: multi form`);
  const head = await client.HEAD(path, { params: { query: { symbol: ["600519.SH"] } } });
  expect(head.response.status === 200, `HEAD ${path}`);
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
