// The OpenAPI test (D11, issue 3 item 5): src/core/api/openapi.json must be a valid OpenAPI 3.1
// document, `ashare serve` must serve it byte for byte at /v1/openapi.json, and real responses of
// every documented (path, method, status) must validate against the document's schemas and carry
// its required headers. The indicator endpoints (EMA, RSI, SMA; D13's MACD, BBANDS, ATR, KDJ) are
// exercised in both response forms and both conventions, with every filter, parameter error, plan
// limit and status they can answer (issue 3, issue 12).
// D11 (issue 12): a request per value of every parameter's schema is accepted, and a TypeScript
// client generated from the document (openapi-typescript, openapi-fetch) compiles with --strict
// and calls every operation (client/calls.ts).
//
// Usage: node tests/openapi/validate.mjs ASHARE_BIN   (or ASHARE_BIN=... node validate.mjs)
// Needs the pinned modules: npm ci --prefix tests/openapi
// Starts its servers on 127.0.0.1 with ephemeral ports in a temporary directory; every wait is
// bounded; the servers are stopped (SIGTERM) and the directory removed whatever happens.

import { execFile, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync,
  writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual, promisify } from "node:util";
import net from "node:net";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const DOC_PATH = path.join(REPO, "src/core/api/openapi.json");
const DOC_ID = "https://ashare.invalid/v1/openapi.json";
const BARS = "/v1/ohlc/range/{multiplier}/{timespan}/{from}/{to}";
const EMA = "/v1/indicators/ema";
const RSI = "/v1/indicators/rsi";
const SMA = "/v1/indicators/sma";
const MACD = "/v1/indicators/macd";
const BBANDS = "/v1/indicators/bbands";
const ATR = "/v1/indicators/atr";
const KDJ = "/v1/indicators/kdj";
const MEMBERS = "/v1/indices/{symbol}/members";
const HEALTH = "/healthz";
const OPENAPI = "/v1/openapi.json";
const COMMAND_TIMEOUT_MS = 60_000;
const LISTEN_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 10_000;
// Documented responses no black-box request can provoke: /v1/openapi.json is a static body.
const UNPROVOKABLE = new Set([`GET ${OPENAPI} 500`, `HEAD ${OPENAPI} 500`]);

let passed = 0;
let failed = 0;
const servers = [];
let workDir;

class Fatal extends Error {}

function pass() {
  passed += 1;
}

function fail(name, message) {
  failed += 1;
  console.error(`FAIL ${name}: ${message}`);
}

// Run `fn`; count a pass when it returns, a failure (with its message) when it throws.
async function check(name, fn) {
  try {
    await fn();
    pass();
  } catch (error) {
    fail(name, error instanceof Error ? error.message : String(error));
  }
}

function assert(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

// --- the indicator endpoints --------------------------------------------------------------------

const int = (minimum, maximum, dflt) => ({ type: "integer", minimum, maximum, default: dflt });
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// The message of an invalid parameter: it names the parameter and quotes the value (D10).
const invalid = (name, value) => new RegExp(`^invalid ${escaped(name)} "${escaped(value)}"`);
// The errors of integer parameter `name` (min to 5000, D4, D13), the first with a later parameter
// `next` invalid too, to show which answers first.
const periodErrors = (name, min, next) => [
  [`${name}=${min - 1}&${next}`, invalid(name, String(min - 1))],
  ...["5001", "-3", "1.5", "", "1e3"].map((value) => [`${name}=${value}`, invalid(name, value)]),
];
// |a - b| within 1e-9 relative (D13's tolerance).
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

// The indicator endpoints (SPEC sections 2-4, D9; D13), a row each:
// - op: the stem of the operationIds (getEma, headEma); own: the indicator's own parameters and
//   their documented schemas; seriesType: whether `series_type` is a parameter (ATR and KDJ read
//   high, low and close); fields: the value item's named fields beside `timestamp` and `value`;
// - small: own parameters giving values early in the history, the first at index first[convention];
//   huge: own parameters no stored history is long enough for (talib); bad: the first own
//   parameter, invalid; ownErrors: [query, message] of the own parameters in the documented check
//   order; spellings: [other, canonical] spellings of own parameters that their descriptions name
//   (D11); relation(v, convention): what D9/D13 say of a value item, else a message.
const INDICATORS = {
  ema: { path: EMA, op: "Ema", own: { window: int(1, 5000, 50) }, seriesType: true, fields: [],
    small: "window=5", first: { talib: 4, tdx: 0 }, huge: "window=5000", bad: "window=0",
    ownErrors: periodErrors("window", 1, "series_type=x"), relation: () => null },
  rsi: { path: RSI, op: "Rsi", own: { window: int(1, 5000, 14) }, seriesType: true, fields: [],
    small: "window=5", first: { talib: 5, tdx: 1 }, huge: "window=5000", bad: "window=0",
    ownErrors: periodErrors("window", 1, "series_type=x"),
    relation: (v) => (v.value >= 0 && v.value <= 100 ? null : `RSI ${v.value} outside [0, 100]`) },
  sma: { path: SMA, op: "Sma", own: { window: int(1, 5000, 50) }, seriesType: true, fields: [],
    small: "window=5", first: { talib: 4, tdx: 4 }, huge: "window=5000", bad: "window=0",
    ownErrors: periodErrors("window", 1, "series_type=x"), relation: () => null },
  macd: { path: MACD, op: "Macd", seriesType: true, fields: ["signal", "histogram"],
    // D13: 2-5000 with fast < slow, so no request accepts a fast of 5000 or a slow of 2.
    own: { fast: int(2, 4999, 12), slow: int(3, 5000, 26), signal: int(1, 5000, 9) },
    small: "fast=3&slow=5&signal=2", first: { talib: 5, tdx: 0 }, huge: "slow=5000", bad: "fast=1",
    ownErrors: [
      ...periodErrors("fast", 2, "slow=1"),
      ...periodErrors("slow", 2, "signal=0"),
      ["fast=30&slow=5001", invalid("slow", "5001")], // the range of slow before fast < slow
      ["fast=26&signal=0", invalid("fast", "26")], // fast < slow (26) before signal
      ["fast=40&slow=30", invalid("fast", "40")],
      ["fast=5000&slow=5000", invalid("fast", "5000")],
      ["slow=2", invalid("fast", "12")],
      ...periodErrors("signal", 1, "series_type=x"),
    ],
    relation: (v, convention) => (near(v.histogram, (convention === "tdx" ? 2 : 1) * (v.value - v.signal))
      ? null : `histogram ${v.histogram} of value ${v.value} and signal ${v.signal} (${convention})`) },
  bbands: { path: BBANDS, op: "Bbands", seriesType: true, fields: ["upper", "lower"],
    own: { window: int(2, 5000, 20), k: { type: "string", default: "2" } },
    small: "window=5&k=1.5", first: { talib: 4, tdx: 4 }, huge: "window=5000", bad: "window=1",
    ownErrors: [
      ...periodErrors("window", 2, "k=0"),
      ["k=0&series_type=x", invalid("k", "0")],
      ...["0.0", "10.5", "11", "10.0000000001", "10.00000000000000000001", "1e1", "-1", ".5", "2.", "", "2,5"]
        .map((value) => [`k=${value}`, invalid("k", value.slice(0, 64))]),
      ["k=%2B2", invalid("k", "+2")],
    ],
    // Bounds as written (D13: 0 < k <= 10), the value the nearest double (see k's description).
    spellings: [["k=02.50", "k=2.5"], ["k=0010.000", "k=10"], ["k=9.99999999999999999999", "k=10"]],
    relation: (v) => (v.lower <= v.value && v.value <= v.upper && near(v.upper - v.value, v.value - v.lower)
      ? null : `bands ${v.lower}, ${v.value}, ${v.upper} are not symmetric`) },
  atr: { path: ATR, op: "Atr", own: { window: int(1, 5000, 14) }, seriesType: false, fields: [],
    small: "window=5", first: { talib: 5, tdx: 5 }, huge: "window=5000", bad: "window=0",
    ownErrors: periodErrors("window", 1, "convention=x"),
    relation: (v) => (v.value >= 0 ? null : `ATR ${v.value} is negative`) },
  kdj: { path: KDJ, op: "Kdj", seriesType: false, fields: ["d", "j"],
    own: { n: int(1, 5000, 9), m1: int(1, 5000, 3), m2: int(1, 5000, 3) },
    small: "n=5&m1=2&m2=2", first: { talib: 6, tdx: 0 }, huge: "n=5000", bad: "n=0",
    ownErrors: [...periodErrors("n", 1, "m1=0"), ...periodErrors("m1", 1, "m2=0"),
      ...periodErrors("m2", 1, "convention=x")],
    relation: (v) => (near(v.j, 3 * v.value - 2 * v.d)
      && [v.value, v.d].every((x) => x >= -1e-9 && x <= 100 + 1e-9)
      ? null : `K ${v.value}, D ${v.d}, J ${v.j}: not J = 3K - 2D with K and D in [0, 100]`) },
};
const INDICATOR_PATHS = Object.values(INDICATORS).map((d) => d.path);

// --- setup -------------------------------------------------------------------------------------

function childEnv() {
  const env = { ...process.env };
  delete env.ASHARE_DB;
  delete env.ASHARE_KEYS_DB;
  env.XDG_DATA_HOME = workDir;
  return env;
}

async function run(bin, args) {
  try {
    const { stdout } = await promisify(execFile)(bin, args, {
      env: childEnv(),
      timeout: COMMAND_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    throw new Fatal(`\`ashare ${args.join(" ")}\` failed: ${error.message}`);
  }
}

async function runQuiet(command, args) {
  try {
    await promisify(execFile)(command, args, { env: childEnv(), timeout: COMMAND_TIMEOUT_MS });
  } catch (error) {
    throw new Fatal(`\`${command} ${args.join(" ")}\` failed: ${error.message}`);
  }
}

async function createKey(bin, db, plan, credits) {
  const args = ["--db", db, "keys", "create", "--plan", plan];
  if (credits !== undefined) {
    args.push("--credits", String(credits));
  }
  const lines = (await run(bin, args)).trim().split("\n");
  const key = lines[lines.length - 1].trim();
  if (!key) {
    throw new Fatal(`\`keys create --plan ${plan}\` printed no key`);
  }
  return key;
}

// Start `ashare serve` on an ephemeral loopback port (with `extra` arguments, and `globals` before
// the command); resolve with its
// base URL and keep the child in `servers`.
function startServer(bin, db, name, extra = [], globals = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["--db", db, ...globals, "serve", "--listen", "127.0.0.1:0", ...extra], {
      env: childEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const server = { name, child, stderr: "", exited: false };
    servers.push(server);
    let stdout = "";
    let settled = false;
    const finish = (error, url) => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      if (error) {
        reject(new Fatal(`${name} server: ${error}; stderr: ${server.stderr.slice(-2000)}`));
      } else {
        resolve(url);
      }
    };
    const timer = setTimeout(
      () => finish(`no "listening on" line within ${LISTEN_TIMEOUT_MS} ms`),
      LISTEN_TIMEOUT_MS,
    );
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(stdout);
      if (match) {
        finish(null, match[1]);
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      server.stderr = (server.stderr + chunk).slice(-20000);
    });
    child.on("error", (error) => finish(`cannot start: ${error.message}`));
    child.on("exit", (code, signal) => {
      server.exited = true;
      finish(`exited early (code ${code}, signal ${signal})`);
    });
  });
}

async function stopServers() {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise((resolve) => {
          if (server.exited || server.child.exitCode !== null || server.child.signalCode !== null) {
            resolve();
            return;
          }
          const timer = setTimeout(() => {
            console.error(`${server.name} server did not stop on SIGTERM; sending SIGKILL`);
            server.child.kill("SIGKILL");
            resolve();
          }, STOP_TIMEOUT_MS);
          server.child.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
          server.child.kill("SIGTERM");
        }),
    ),
  );
}

// --- the document ------------------------------------------------------------------------------

function pointerGet(document, pointer) {
  assert(pointer.startsWith("#/"), `unsupported $ref "${pointer}"`);
  let node = document;
  for (const raw of pointer.slice(2).split("/")) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    assert(node && typeof node === "object" && part in node, `unresolved $ref "${pointer}"`);
    node = node[part];
  }
  return node;
}

function pointerPart(text) {
  return text.replace(/~/g, "~0").replace(/\//g, "~1");
}

// Follow Reference Objects; return the target and its JSON pointer.
function deref(document, node, pointer) {
  let current = node;
  let where = pointer;
  for (let hops = 0; current && typeof current === "object" && "$ref" in current; ++hops) {
    assert(hops < 10, `$ref loop at ${where}`);
    where = current.$ref;
    current = pointerGet(document, where);
  }
  return { node: current, pointer: where };
}

async function validateDocument(text) {
  const { Validator } = await import("@seriousme/openapi-schema-validator");
  let document;
  await check("openapi.json is JSON", () => {
    document = JSON.parse(text);
  });
  if (!document) {
    throw new Fatal("src/core/api/openapi.json is not JSON");
  }
  await check("openapi.json is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    assert(result.valid, `not valid OpenAPI: ${JSON.stringify(result.errors, null, 2)}`);
    assert(validator.version === "3.1", `validated as OpenAPI ${validator.version}, expected 3.1`);
  });
  await check("openapi.json header fields", () => {
    assert(document.openapi === "3.1.0", `openapi is ${document.openapi}`);
    assert(document.info?.version === "2026-05-27", `info.version is ${document.info?.version}`);
    assert(
      !/@[A-Za-z0-9_]+@/.test(text) && !text.includes(')openapi_json"'),
      "contains @NAME@ or )openapi_json\" (breaks the configure_file embedding)",
    );
  });
  await check("openapi.json describes the served operations", async () => {
    const expected = {
      [BARS]: ["get", "head"],
      ...Object.fromEntries(INDICATOR_PATHS.map((p) => [p, ["get", "head"]])),
      [MEMBERS]: ["get", "head"],
      [HEALTH]: ["get", "head"],
      [OPENAPI]: ["get", "head"],
    };
    assert(
      isDeepStrictEqual(Object.keys(document.paths).sort(), Object.keys(expected).sort()),
      `paths are ${Object.keys(document.paths).join(", ")}, expected ${Object.keys(expected).join(", ")}`,
    );
    for (const [p, methods] of Object.entries(expected)) {
      const described = Object.keys(document.paths[p])
        .filter((k) => !["summary", "description", "parameters"].includes(k));
      assert(isDeepStrictEqual(described.sort(), methods), `${p}: operations ${described.join(", ")}`);
    }
    assert(document.paths[BARS].get.operationId === "getOhlcRange", "bars GET is not getOhlcRange");
    // The indicator operations and their parameters (SPEC sections 2-4, D4, D9, D13).
    const common = ["symbol", "timestamp", "timespan", "adjusted", "convention", "expand_underlying", "order",
      "limit", "timestamp.gte", "timestamp.gt", "timestamp.lte", "timestamp.lt"];
    for (const d of Object.values(INDICATORS)) {
      const p = d.path;
      const item = document.paths[p];
      assert(item.get.operationId === `get${d.op}` && item.head.operationId === `head${d.op}`,
        `${p}: operationIds are ${item.get.operationId}, ${item.head.operationId}`);
      const names = [...common, ...Object.keys(d.own), ...(d.seriesType ? ["series_type"] : [])].sort();
      for (const method of ["get", "head"]) {
        const params = [...(item.parameters ?? []), ...(item[method].parameters ?? [])]
          .map((x) => deref(document, x, "").node)
          .filter((x) => x.in === "query");
        const byName = Object.fromEntries(params.map((x) => [x.name, x]));
        assert(isDeepStrictEqual(Object.keys(byName).sort(), names),
          `${method} ${p} query parameters are ${Object.keys(byName).join(", ")}, expected ${names.join(", ")}`);
        assert(byName.symbol.required === true, `${p}: symbol is not required`);
        const schema = (n) => deref(document, byName[n].schema, "").node;
        for (const [name, want] of Object.entries(d.own)) {
          for (const [keyword, value] of Object.entries(want)) {
            assert(schema(name)[keyword] === value,
              `${p}: ${name} has ${keyword} ${schema(name)[keyword]}, expected ${value}`);
          }
        }
        assert(schema("limit").default === 10 && schema("limit").maximum === 5000, `${p}: limit default/maximum`);
        assert(schema("order").default === "desc" && (!d.seriesType || schema("series_type").default === "close")
          && schema("expand_underlying").default === false && schema("adjusted").default === true
          && schema("timespan").default === "day", `${p}: defaults of order/series_type/expand_underlying/adjusted/timespan`);
        assert(isDeepStrictEqual(schema("convention").enum, ["talib", "tdx"])
          && schema("convention").default === "talib", `${p}: convention is not talib (default) or tdx (D13)`);
      }
      // The value items carry D13's named fields and nothing else, in both forms; `underlying`
      // names `series_type` only where it is a parameter.
      const body = deref(document, deref(document, item.get.responses["200"], "").node
        .content["application/json"].schema, "").node;
      const [single, multi] = body.oneOf.map((x) => deref(document, x, "").node);
      const results = deref(document, single.properties.results, "").node;
      const symbolResult = deref(document, multi.properties.results.items, "").node;
      for (const container of [results, symbolResult]) {
        const value = deref(document, container.properties.values.items, "").node;
        assert(isDeepStrictEqual([...value.required].sort(), ["timestamp", "value", ...d.fields].sort())
          && value.additionalProperties === false
          && isDeepStrictEqual(Object.keys(value.properties).sort(), [...value.required].sort()),
          `${p}: value items have ${value.required}, expected timestamp, value${d.fields.map((f) => `, ${f}`).join("")}`);
        const underlying = deref(document, container.properties.underlying, "").node;
        const wanted = d.seriesType ? ["adjusted", "series_type"] : ["adjusted"];
        assert(isDeepStrictEqual([...underlying.required].sort(), wanted) && underlying.additionalProperties === false,
          `${p}: underlying requires ${underlying.required}, expected ${wanted}`);
      }
    }
    // D11 (issue 12): what generated clients and validating proxies need.
    assert(!("jsonSchemaDialect" in document), "a redundant jsonSchemaDialect");
    for (const builtin of ["Date", "Symbol", "Error", "Object", "Array", "Number", "String"]) {
      assert(!(builtin in document.components.schemas), `schema ${builtin} shadows a built-in`);
    }
    for (const p of [BARS, ...INDICATOR_PATHS]) {
      const symbol = [...(document.paths[p].parameters ?? []), ...(document.paths[p].get.parameters ?? [])]
        .map((x) => deref(document, x, "").node)
        .find((x) => x.name === "symbol");
      assert(symbol.style === "form" && symbol.explode === false && symbol.schema.type === "array",
        `${p}: symbol is not an array serialised comma-separated`);
    }
    const timeBound = document.components.schemas.TimeBound;
    const { default: Ajv2020 } = await import("ajv/dist/2020.js");
    const { default: addFormats } = await import("ajv-formats");
    const plain = new Ajv2020({ strict: false });
    addFormats(plain);
    const validTime = plain.compile(timeBound);
    for (const value of ["2024-01-02", 1704124800000, -28800000, "0001-01-01"]) {
      assert(validTime(value), `TimeBound refuses ${JSON.stringify(value)}`);
    }
    for (const value of ["0000-01-01", "2024-1-02", "1704124800000x", 1.5]) {
      assert(!validTime(value), `TimeBound allows ${JSON.stringify(value)}`);
    }
    // D2: every date the document patterns (as_of included) is of the years 0001-9999.
    const datePatterns = [];
    const walk = (node) => {
      if (node && typeof node === "object") {
        if (node.format === "date" && typeof node.pattern === "string") {
          datePatterns.push(node.pattern);
        }
        Object.values(node).forEach(walk);
      }
    };
    walk(document);
    assert(datePatterns.length >= 3, `only ${datePatterns.length} date patterns found`);
    for (const pattern of datePatterns) {
      assert(new RegExp(pattern, "u").test("2024-01-02"), `${pattern} refuses 2024-01-02`);
      assert(!new RegExp(pattern, "u").test("0000-01-01"), `${pattern} allows year 0000 (D2)`);
    }
    // D13's `k`, decimal text: the schema allows canonical texts of 0 < k <= 10 only.
    const k = deref(document, document.components.parameters.bbandsK.schema, "").node;
    const validK = plain.compile(k);
    for (const value of ["2", "0.5", "10", "0.1", "9.99", "1.25", "0.000001", `0.${"0".repeat(k.maxLength - 3)}1`]) {
      assert(validK(value), `k refuses ${JSON.stringify(value)}`);
    }
    for (const value of ["0", "0.0", "00.5", "02", "2.50", "10.0", "10.5", "11", "100", "1e1", "1E1", "-1", "+1",
      ".5", "2.", "", " 2", "2,5", 2, `0.${"0".repeat(k.maxLength - 2)}1`]) {
      assert(!validK(value), `k allows ${JSON.stringify(value)}`);
    }
    const scheme = document.components?.securitySchemes?.bearerAuth;
    assert(scheme?.type === "http" && scheme?.scheme === "bearer", "no HTTP bearer scheme");
    assert(isDeepStrictEqual(document.security, [{ bearerAuth: [] }]), "bearer is not global");
    for (const p of [HEALTH, OPENAPI]) {
      for (const method of expected[p]) {
        assert(isDeepStrictEqual(document.paths[p][method].security, []), `${method} ${p} needs a key`);
      }
    }
  });
  return document;
}

async function buildAjv(document) {
  const { default: Ajv2020 } = await import("ajv/dist/2020.js");
  const { default: addFormats } = await import("ajv-formats");
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
  addFormats(ajv);
  // The document's top-level fields are not JSON Schema keywords: declare them as annotations so
  // that strict mode accepts the document as the base of the `#/...` references.
  for (const keyword of ["openapi", "info", "jsonSchemaDialect", "servers", "security", "tags",
    "paths", "components", "webhooks", "externalDocs"]) {
    ajv.addKeyword(keyword);
  }
  ajv.addSchema({ ...structuredClone(document), $id: DOC_ID });
  const validators = new Map();
  const compile = (pointer) => {
    if (!validators.has(pointer)) {
      const validate = ajv.getSchema(`${DOC_ID}${pointer}`);
      assert(validate, `no schema at ${pointer}`);
      validators.set(pointer, validate);
    }
    return validators.get(pointer);
  };
  await check("every component schema compiles (JSON Schema 2020-12, ajv strict)", () => {
    for (const name of Object.keys(document.components.schemas)) {
      compile(`#/components/schemas/${pointerPart(name)}`);
    }
  });
  await check("parameter and header schemas compile and examples validate", () => {
    for (const [kind, items] of Object.entries({
      parameters: document.components.parameters ?? {},
      headers: document.components.headers ?? {},
    })) {
      for (const [name, item] of Object.entries(items)) {
        const validate = compile(`#/components/${kind}/${pointerPart(name)}/schema`);
        if ("example" in item) {
          const example = item.schema?.type === "integer" ? Number(item.example) : item.example;
          assert(validate(example), `example of ${name}: ${ajv.errorsText(validate.errors)}`);
        }
        for (const example of item.schema?.examples ?? []) {
          assert(validate(example),
            `schema example ${JSON.stringify(example)} of ${name}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
  });
  return { ajv, compile };
}

// --- the requests ------------------------------------------------------------------------------

function templateOf(document, requestPath) {
  for (const template of Object.keys(document.paths)) {
    const pattern = new RegExp(
      `^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`,
    );
    if (pattern.test(requestPath)) {
      return template;
    }
  }
  return undefined;
}

function headerValue(schema, text) {
  return schema?.type === "integer" && /^-?[0-9]+$/.test(text) ? Number(text) : text;
}

function makeTester(document, { ajv, compile }) {
  const exercised = new Set();
  const balances = new Map(); // metered keys: the balance the next response should report

  // Send one request and check it against the document. `c`: name, method, url, path, key
  // (a {name, value, metered} record), headers, status, code, docPath, cost, expect(body, res).
  return {
    exercised,
    balances,
    async request(c) {
      await check(c.name, async () => {
        const method = c.method ?? "GET";
        const headers = { ...(c.headers ?? {}) };
        if (c.key) {
          headers.Authorization = `${c.authScheme ?? "Bearer"} ${c.key.value}`;
        }
        const response = await fetch(`${c.base}${c.path}`, {
          method,
          headers,
          redirect: "manual",
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await response.text();
        const status = response.status;
        const where = `${method} ${c.path} -> ${status}`;
        assert(status === c.status, `${where}, expected ${c.status}; body: ${text.slice(0, 400)}`);

        // The documented operation and response.
        const template = c.docPath ?? templateOf(document, c.path.split("?")[0]);
        assert(template, `${where}: no documented path matches`);
        const pathItem = document.paths[template];
        let operation = pathItem[method.toLowerCase()];
        if (!operation && (status === 404 || status === 405)) {
          operation = pathItem.get; // documented on GET: 404 for any method, 405 for the others
        }
        assert(operation, `${where}: method not documented on ${template}`);
        const opMethod = operation === pathItem.get ? "get" : method.toLowerCase();
        const basePointer = `#/paths/${pointerPart(template)}/${opMethod}/responses/${status}`;
        assert(String(status) in operation.responses, `${where}: status not documented`);
        const { node: documented, pointer } = deref(document, operation.responses[status], basePointer);
        exercised.add(`${opMethod.toUpperCase()} ${template} ${status}`);

        // Headers the document requires (and the values it allows).
        for (const [name, headerRef] of Object.entries(documented.headers ?? {})) {
          const { node: header } = deref(document, headerRef, "");
          const value = response.headers.get(name);
          if (header.required) {
            assert(value !== null, `${where}: required header ${name} missing`);
          }
          if (value !== null && header.schema) {
            const { pointer: hp } = deref(document, headerRef, `${pointer}/headers/${pointerPart(name)}`);
            const validate = compile(`${hp}/schema`);
            assert(
              validate(headerValue(header.schema, value)),
              `${where}: header ${name}: "${value}": ${ajv.errorsText(validate.errors)}`,
            );
          }
        }

        // D7: X-Credits-Remaining for metered keys that passed authentication.
        const credits = response.headers.get("X-Credits-Remaining");
        const needsKey = !(Array.isArray(operation.security) && operation.security.length === 0);
        // A 500 of a key route comes after authentication here (every key the tests send to one is
        // valid); a 503 (D15) has no balance to report, as the key store cannot be reached.
        // D20: the members route's 404 of an index without spans comes after every check (`spans`).
        const authenticated = c.key && needsKey && ![401, 405, 503].includes(status)
          && (status !== 404 || c.spans404 === true);
        if (authenticated && c.key.metered) {
          const cost = status === 200 ? (c.cost ?? 0) : 0;
          const expected = balances.get(c.key.name) - cost;
          assert(credits === String(expected), `${where}: X-Credits-Remaining "${credits}", expected ${expected}`);
          balances.set(c.key.name, expected);
        } else {
          assert(credits === null, `${where}: unexpected X-Credits-Remaining "${credits}"`);
        }

        // The body.
        const content = documented.content;
        if (status === 304) {
          assert(text === "", `${where}: a 304 has a body`);
          assert(!content, `${where}: the document gives a 304 a body`);
          assert(response.headers.get("Content-Length") === null, `${where}: a 304 has a Content-Length`);
          return;
        }
        if (method === "HEAD") {
          assert(text === "", `${where}: HEAD response has a body`);
          assert(!content, `${where}: the document gives HEAD a body`);
          return;
        }
        assert(content, `${where}: the document gives no body, but one was sent`);
        const mediaType = Object.keys(content)[0];
        const contentType = response.headers.get("Content-Type") ?? "";
        assert(
          contentType.split(";")[0].trim() === mediaType,
          `${where}: Content-Type "${contentType}", documented ${mediaType}`,
        );
        let body;
        try {
          body = JSON.parse(text);
        } catch {
          throw new Error(`${where}: body is not JSON: ${text.slice(0, 200)}`);
        }
        const validate = compile(`${pointer}/content/${pointerPart(mediaType)}/schema`);
        assert(
          validate(body),
          `${where}: body does not match the documented schema: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 1000)}`,
        );
        if (c.code) {
          assert(body.error?.code === c.code, `${where}: code ${body.error?.code}, expected ${c.code}`);
        }
        if (c.message) {
          assert(c.message.test(body.error?.message ?? ""), `${where}: message "${body.error?.message}" does not match ${c.message}`);
        }
        if (status === 200 && template === BARS) {
          assert(
            body.request_id === response.headers.get("X-Request-Id"),
            `${where}: request_id differs from X-Request-Id`,
          );
          const charged = body.meta.credits_charged;
          const expectCharged = c.key?.metered && (c.cost ?? 0) > 0 ? c.cost : undefined;
          assert(charged === expectCharged, `${where}: meta.credits_charged ${charged}, expected ${expectCharged}`);
        }
        if (status === 200 && INDICATOR_PATHS.includes(template)) {
          assert(
            body.request_id === response.headers.get("X-Request-Id"),
            `${where}: request_id differs from X-Request-Id`,
          );
          if (Array.isArray(body.results)) {
            assert(body.resultsCount === body.results.length, `${where}: resultsCount is not the number of symbols`);
            for (const item of body.results) {
              assert(item.resultsCount === item.values.length, `${where}: ${item.symbol}: resultsCount is not the number of values`);
            }
            const partial = body.results.some((item) => item.values.length === 0);
            assert(body.status === (partial ? "PARTIAL" : "OK"), `${where}: status ${body.status}`);
          }
        }
        if (c.expect) {
          c.expect(body, response);
        }
      });
    },
  };
}

// --- the indicator endpoints (SPEC sections 2-4, D9 with D1, D4-D7, D10) ------------------------

// t(D): the day's midnight at UTC+8, Unix milliseconds (D2).
const tOf = (iso) => Date.parse(`${iso}T00:00:00+08:00`);
const DAY_MS = 86_400_000;

function tradeDates(file) {
  return readFileSync(path.join(REPO, "tests/data", file), "utf8").trim().split("\n").slice(1)
    .map((line) => line.split(",")[1]);
}

// Check `values` as returned: day timestamps, order, limit, filters, and what D9/D13 say of the
// value items of indicator `name` in `convention` (the RSI range, MACD's histogram, ...).
function checkValues(values,
  { name, order = "desc", limit = 10, accept = () => true, convention = "talib" } = {}) {
  assert(Array.isArray(values), "values is not an array");
  assert(values.length <= limit, `${values.length} values, limit ${limit}`);
  values.forEach((item, i) => {
    const { timestamp } = item;
    assert((timestamp + 8 * 3_600_000) % DAY_MS === 0, `timestamp ${timestamp} is not a day's t (UTC+8)`);
    assert(accept(timestamp), `timestamp ${timestamp} is outside the filters`);
    if (i > 0) {
      const previous = values[i - 1].timestamp;
      assert(order === "desc" ? previous > timestamp : previous < timestamp, `values are not in ${order} order`);
    }
    const wrong = INDICATORS[name].relation(item, convention);
    assert(wrong === null, `${name} at ${timestamp}: ${wrong}`);
  });
}

const stamps = (values) => values.map((v) => v.timestamp);

// Return the values a generated client may send for a parameter whose schema is `schema` (D11):
// every enumeration value, both booleans, the bounds and default of an integer, both forms of a
// time bound, for the symbol list 1 to maxItems symbols (the first known to the store), and for
// decimal text (D13's `k`) its default, its examples and the smallest and the largest value below
// 10 of maxLength characters.
function schemaValues(document, name, schema) {
  const node = deref(document, schema, "").node;
  if (node.format === "date") { // D20's `date`: a day
    return [...(node.examples ?? [])];
  }
  if (node.type === "string" && node.pattern) {
    const values = [...new Set([node.default, ...(node.examples ?? []),
      `0.${"0".repeat(node.maxLength - 3)}1`, `9.${"9".repeat(node.maxLength - 2)}`])];
    const pattern = new RegExp(node.pattern, "u");
    for (const value of values) {
      assert(pattern.test(value) && value.length <= node.maxLength, `${name}: the schema refuses "${value}"`);
    }
    return values;
  }
  if (node.type === "array") {
    const symbols = ["600519.SH", ...Array.from({ length: node.maxItems - 1 },
      (_, i) => `6010${String(i).padStart(2, "0")}.SH`)];
    return Array.from({ length: node.maxItems }, (_, n) => symbols.slice(0, n + 1).join(","));
  }
  if (node.enum) {
    return node.enum.map(String);
  }
  if (node.type === "boolean") {
    return ["true", "false"];
  }
  if (node.type === "integer") {
    return [...new Set([node.minimum, node.maximum, node.default].filter((v) => v !== undefined))]
      .map(String);
  }
  if (node.oneOf) { // a time bound: a date, or integer milliseconds
    return name === "timestamp.lt" || name === "timestamp.lte"
      ? ["2025-10-23", String(Date.UTC(2025, 9, 23) - 8 * 3_600_000)]
      : ["2024-01-02", String(Date.UTC(2024, 0, 2) - 8 * 3_600_000)];
  }
  throw new Error(`no values for parameter ${name}`);
}

// D11: "every value its schema allows, in an otherwise valid request, is accepted": one request per
// value of every query parameter of the bars and indicator operations, built from the document's
// schemas, each answered 200 and validated against the documented response. A rule across
// parameters has a companion make the request otherwise valid: MACD's fast < slow.
const COMPANIONS = { [MACD]: { fast: "slow=5000", slow: "fast=2" }, [MEMBERS]: { offset: "history=true" } };

async function schemaTable(req, document, { base, open }) {
  const operations = [
    [BARS, "/v1/ohlc/range/1/day/2024-01-02/2025-10-23", "symbol=600519.SH"],
    [MEMBERS, "/v1/indices/000300.SH/members", "source=import"],
    ...INDICATOR_PATHS.map((p) => [p, p, "symbol=600519.SH"]),
  ];
  let requests = 0;
  for (const [template, target, baseQuery] of operations) {
    const item = document.paths[template];
    const params = [...(item.parameters ?? []), ...(item.get.parameters ?? [])]
      .map((x) => deref(document, x, "").node)
      .filter((x) => x.in === "query");
    for (const param of params) {
      for (const value of schemaValues(document, param.name, param.schema)) {
        const companion = COMPANIONS[template]?.[param.name];
        const query = param.name === "symbol"
          ? `symbol=${value}`
          : `${baseQuery}&${param.name}=${encodeURIComponent(value)}${companion ? `&${companion}` : ""}`;
        await req({ base, name: `D11 table: ${template} ${param.name}=${value.slice(0, 40)}`,
          key: open, status: 200, path: `${target}?${query}` });
        requests += 1;
      }
    }
  }
  await check("D11 table: every parameter's schema values were sent", () => {
    // Per operation: 20 symbol lists and two or three values of most other parameters.
    assert(requests > 40 * operations.length, `only ${requests} requests for ${operations.length} operations`);
  });
}

// D11: a client generated from the document by a standard generator (openapi-typescript types
// with openapi-fetch, pinned in package.json) compiles with `tsc --strict` and calls every
// operation against the real server (client/calls.ts).
async function generatedClient(document, { base, open }) {
  await check("D11: a generated TypeScript client compiles and calls every operation", async () => {
    const calls = readFileSync(path.join(HERE, "client", "calls.ts"), "utf8");
    for (const p of Object.keys(document.paths)) {
      assert(calls.includes(`"${p}"`), `client/calls.ts does not call ${p}`);
    }
    const dir = path.join(workDir, "client");
    mkdirSync(dir);
    symlinkSync(path.join(HERE, "node_modules"), path.join(dir, "node_modules"));
    writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
    copyFileSync(path.join(HERE, "client", "calls.ts"), path.join(dir, "calls.ts"));
    const node = async (script, args) => {
      try {
        const { stdout } = await promisify(execFile)(process.execPath, [script, ...args], {
          cwd: dir, timeout: COMMAND_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
        return stdout;
      } catch (error) {
        throw new Error(`${path.basename(script)} failed: ${error.stdout ?? ""}${error.stderr ?? error.message}`);
      }
    };
    const modules = path.join(HERE, "node_modules");
    await node(path.join(modules, "openapi-typescript", "bin", "cli.js"),
      [DOC_PATH, "--output", path.join(dir, "api.d.ts")]);
    await node(path.join(modules, "typescript", "bin", "tsc"),
      ["--strict", "--noUncheckedIndexedAccess", "--target", "es2022", "--module", "nodenext",
        "--moduleResolution", "nodenext", "--outDir", dir, path.join(dir, "calls.ts")]);
    const out = await node(path.join(dir, "calls.js"), [base, open.value]);
    assert(out.includes("every operation answered as documented"), `the client said: ${out}`);
  });
}

// D20: GET and HEAD /v1/indices/{symbol}/members, every status but those of the shared loops (429,
// 500, 503 and the 304 of D17 are sent with the other operations').
async function membersChecks(req, { base, pro, basic, free, broke }) {
  const m = (index, query) => `/v1/indices/${index}/members${query ? `?${query}` : ""}`;
  await req({ base, name: "200 members on a day", key: pro, cost: 1, status: 200,
    path: m("000300.SH", "date=2023-06-30"),
    expect: (b) => assert(b.resultsCount === 300 && b.date === "2023-06-30" && !("next_url" in b),
      "300 members on 2023-06-30") });
  await req({ base, name: "200 members on as_of, a closed day's", key: basic, status: 200,
    path: m("000300.sh", "date=2025-10-25"),
    expect: (b) => assert(b.date === "2025-10-24" || b.date === "2025-10-23", `date ${b.date}`) });
  await req({ base, name: "200 members history", key: pro, cost: 1, status: 200,
    path: m("000300.SH", "history=true&source=import"),
    expect: (b) => assert(b.date === null && b.resultsCount === b.results.length, "history") });
  await req({ base, name: "HEAD 200 members", method: "HEAD", key: pro, cost: 1, status: 200,
    path: m("000300.SH") });
  for (const [code, q] of [["INVALID_SYMBOL", m("000300", "")], ["INVALID_PARAMETER", m("000300.SH", "date=2023-02-30")],
    ["INVALID_PARAMETER", m("000300.SH", "date=2023-06-30&history=true")],
    ["INVALID_PARAMETER", m("000300.SH", "source=csi")], ["INVALID_PARAMETER", m("000300.SH", "offset=5")]]) {
    await req({ base, name: `400 ${code} ${q}`, key: pro, status: 400, code, path: q });
  }
  await req({ base, name: "HEAD 400 members", method: "HEAD", key: pro, status: 400, path: m("000300", "") });
  await req({ base, name: "401 members", status: 401, code: "UNAUTHORIZED", path: m("000300.SH") });
  await req({ base, name: "HEAD 401 members", method: "HEAD", status: 401, path: m("000300.SH") });
  await req({ base, name: "402 members", key: broke, status: 402, code: "INSUFFICIENT_CREDITS",
    path: m("000300.SH") });
  await req({ base, name: "HEAD 402 members", method: "HEAD", key: broke, status: 402, path: m("000300.SH") });
  await req({ base, name: "403 members before the plan's history", key: free, status: 403, code: "PLAN_LIMIT",
    path: m("000300.SH", "date=2020-01-02") });
  await req({ base, name: "HEAD 403 members", method: "HEAD", key: free, status: 403,
    path: m("000905.SH", "date=2020-01-02") });
  for (const index of ["000905.SH", "600519.SH"]) {
    await req({ base, name: `404 members of ${index}, free`, key: pro, status: 404, code: "NOT_FOUND",
      spans404: true, path: m(index) });
  }
  await req({ base, name: "404 members from a source without spans", key: broke, status: 404,
    code: "NOT_FOUND", spans404: true, path: m("000300.SH", "source=tushare") });
  await req({ base, name: "HEAD 404 members", method: "HEAD", key: pro, status: 404, spans404: true,
    path: m("000905.SH") });
  await req({ base, name: "404 members trailing slash", status: 404, code: "NOT_FOUND", docPath: MEMBERS,
    path: `${m("000300.SH")}/` });
  await req({ base, name: "405 POST members", method: "POST", key: pro, status: 405,
    code: "METHOD_NOT_ALLOWED", path: m("000300.SH") });
}

async function indicatorChecks(req, { base, pro, basic, free, broke, revoked }) {
  const dates = tradeDates("bancob_600519.SH.csv");
  const latest = tOf(dates[dates.length - 1]); // 2025-10-23, as_of
  const [t20, t21, t22] = ["2025-10-20", "2025-10-21", "2025-10-22"].map(tOf);
  const freeEarliest = tOf("2023-10-23"); // as_of minus 2 years (D6)
  const many = Array.from({ length: 21 }, (_, i) => `6000${String(i).padStart(2, "0")}.SH`).join(",");

  for (const [name, d] of Object.entries(INDICATORS)) {
    const p = d.path;
    const q = (query) => (query === undefined ? p : `${p}?${query}`);
    const seen = new Map(); // timestamp -> value item, across requests with the default parameters
    // The `underlying` D9 describes; ATR and KDJ read high, low and close: `adjusted` alone (D13).
    const underlying = (seriesType, adjusted) =>
      (d.seriesType ? { series_type: seriesType, adjusted } : { adjusted });
    const seriesType = (value) => (d.seriesType ? `&series_type=${value}` : "");

    const remember = (values) => {
      for (const item of values) {
        if (seen.has(item.timestamp)) {
          assert(isDeepStrictEqual(seen.get(item.timestamp), item),
            `value at ${item.timestamp} depends on the filters`);
        }
        seen.set(item.timestamp, item);
      }
    };
    const single = (b) => {
      assert(b.status === "OK" && !Array.isArray(b.results) && !("resultsCount" in b), "not the single form");
      return b.results.values;
    };

    // 200, single-symbol form.
    let defaults;
    await req({ base, name: `200 ${name} single, defaults`, key: pro, cost: 1, status: 200,
      path: q("symbol=600519.sh"),
      expect: (b) => {
        const values = single(b);
        assert(values.length === 10 && values[0].timestamp === latest, "the latest 10 values expected");
        assert(!("underlying" in b.results), "underlying without expand_underlying");
        checkValues(values, { name });
        defaults = values;
        remember(values);
      } });
    const ownDefaults = Object.entries(d.own).map(([param, { default: value }]) => `${param}=${value}`).join("&");
    await req({ base, name: `200 ${name} single, the defaults spelled out`, key: basic, status: 200,
      path: q(`symbol=600519.SH&timespan=day&adjusted=true&${ownDefaults}${seriesType("close")}`
        + "&convention=talib&expand_underlying=false&order=desc&limit=10"),
      expect: (b) => assert(isDeepStrictEqual(single(b), defaults), "differs from the defaults") });
    // D4: parameters of other indicators (series_type for ATR and KDJ) are ignored.
    const foreign = ["window=0", "fast=0", "slow=0", "signal=0", "k=0", "n=0", "m1=0", "m2=0", "series_type=vwap"]
      .filter((param) => !(param.split("=")[0] in d.own) && !(d.seriesType && param.startsWith("series_type=")));
    await req({ base, name: `200 ${name} single, others' parameters ignored: ${foreign.join("&")}`, key: basic,
      status: 200, path: q(`symbol=600519.SH&${foreign.join("&")}`),
      expect: (b) => assert(isDeepStrictEqual(single(b), defaults), "differs from the defaults") });
    for (const [other, canonical] of d.spellings ?? []) {
      let expected;
      await req({ base, name: `200 ${name} single, ${canonical}`, key: basic, status: 200,
        path: q(`symbol=600519.SH&${canonical}&limit=3`), expect: (b) => { expected = single(b); } });
      await req({ base, name: `200 ${name} single, ${other} as ${canonical} (D11: named in its description)`,
        key: basic, status: 200, path: q(`symbol=600519.SH&${other}&limit=3`),
        expect: (b) => assert(isDeepStrictEqual(single(b), expected), `differs from ${canonical}`) });
    }
    await req({ base, name: `200 ${name} single, every parameter in another case`, key: pro, cost: 1, status: 200,
      path: q(`symbol=600519.sh&timespan=DAY&adjusted=FALSE&${d.small}${seriesType("High")}&convention=TALIB`
        + "&expand_underlying=True&order=ASC&limit=3"),
      expect: (b) => {
        const values = single(b);
        assert(isDeepStrictEqual(b.results.underlying, underlying("high", false)), "underlying");
        assert(values.length === 3 && values[0].timestamp === tOf(dates[d.first.talib]),
          `the first value is at index ${d.first.talib} of the history (D9, D13)`);
        checkValues(values, { name, order: "asc", limit: 3 });
      } });
    await req({ base, name: `200 ${name} single, convention=Tdx`, key: pro, cost: 1, status: 200,
      path: q(`symbol=600519.SH&${d.small}&convention=Tdx&order=asc&limit=3`),
      expect: (b) => {
        const values = single(b);
        assert(values.length === 3 && values[0].timestamp === tOf(dates[d.first.tdx]),
          `the first tdx value is at index ${d.first.tdx} of the history (D13)`);
        checkValues(values, { name, order: "asc", limit: 3, convention: "tdx" });
      } });
    await req({ base, name: `200 ${name} single, expand_underlying with defaults`, key: basic, status: 200,
      path: q("symbol=600036.SH&expand_underlying=1&limit=1"),
      expect: (b) => assert(isDeepStrictEqual(b.results.underlying, underlying("close", true)), "underlying") });

    // 200, multi-symbol form.
    await req({ base, name: `200 ${name} multi, all known`, key: pro, cost: 2, status: 200,
      path: q("symbol=600519.SH, 600036.sh&limit=2"),
      expect: (b) => {
        assert(b.status === "OK" && b.resultsCount === 2, "OK with 2 items expected");
        assert(isDeepStrictEqual(b.results.map((r) => r.symbol), ["600519.SH", "600036.SH"]), "request order");
        for (const r of b.results) {
          assert(!r.error && !r.underlying, "no error or underlying expected");
          checkValues(r.values, { name, limit: 2 });
          assert(r.values.length === 2, "limit applies per symbol");
        }
      } });
    await req({ base, name: `200 ${name} multi, unknown symbol -> PARTIAL, expand_underlying, tdx`, key: pro,
      cost: 1, status: 200,
      path: q(`symbol=000001.sz,600519.SH&expand_underlying=true&adjusted=0${seriesType("open")}&convention=tdx`),
      expect: (b) => {
        assert(b.status === "PARTIAL", "PARTIAL expected");
        const [unknown, known] = b.results;
        assert(unknown.symbol === "000001.SZ" && unknown.error?.code === "INVALID_SYMBOL", "item error expected");
        assert(unknown.values.length === 0 && unknown.resultsCount === 0, "empty values expected");
        assert(!known.error && known.values.length === 10, "the known symbol is served");
        checkValues(known.values, { name, convention: "tdx" });
        for (const r of b.results) {
          assert(isDeepStrictEqual(r.underlying, underlying("open", false)), "underlying on every item");
        }
      } });
    await req({ base, name: `200 ${name} multi, known symbol without values -> PARTIAL`, key: pro, cost: 2,
      status: 200, path: q("symbol=600519.SH,600276.SH&timestamp.gte=2025-01-01"),
      expect: (b) => {
        assert(b.status === "PARTIAL" && b.results.every((r) => !r.error), "PARTIAL without errors expected");
        assert(b.results[0].values.length === 10 && b.results[1].values.length === 0, "600276.SH has no 2025 value");
      } });
    await req({ base, name: `200 ${name} multi, all unknown, cost 0 at balance 0`, key: broke, cost: 0, status: 200,
      path: q("symbol=000001.SZ,000002.SZ"),
      expect: (b) => assert(b.status === "PARTIAL" && b.results.every((r) => r.error), "PARTIAL expected") });

    // 200, the filters (D9): date and millisecond forms, combined with AND.
    const filters = [
      ["timestamp date", "timestamp=2025-10-22", [t22]],
      ["timestamp ms inside the day", `timestamp=${t22 + 3_600_000}`, [t22]],
      ["timestamp ms, the day before", `timestamp=${t22 - 1}`, [t21]],
      ["timestamp on a Saturday", "timestamp=2025-10-25", []],
      ["gte/lte dates", "timestamp.gte=2025-10-20&timestamp.lte=2025-10-22", [t22, t21, t20]],
      ["gt/lt dates", "timestamp.gt=2025-10-20&timestamp.lt=2025-10-22", [t21]],
      ["gte/lte ms, asc", `timestamp.gte=${t20}&timestamp.lte=${t22}&order=asc`, [t20, t21, t22], "asc"],
      ["gt/lt ms", `timestamp.gt=${t20}&timestamp.lt=${t22}`, [t21]],
      ["gt/lt ms off midnight", `timestamp.gt=${t20 - 1}&timestamp.lt=${t22 + 1}`, [t22, t21, t20]],
      ["gte alone", "timestamp.gte=2025-10-22", [latest, t22]],
      ["lte alone", `timestamp.lte=${t21}&limit=2`, [t21, t20]],
      ["gt alone", `timestamp.gt=${t22}`, [latest]],
      ["lt alone", "timestamp.lt=2025-10-21&limit=1", [t20]],
      ["timestamp AND range", "timestamp=2025-10-22&timestamp.gte=2025-10-01&timestamp.lte=2025-10-31", [t22]],
      ["timestamp AND a range excluding it", "timestamp=2025-10-22&timestamp.lt=2025-10-22", []],
      ["empty range", "timestamp.gt=2025-10-22&timestamp.lt=2025-10-23", []],
      ["after the data", "timestamp.gte=2030-01-01", []],
      ["periods longer than the history", d.huge, []],
    ];
    for (const [label, query, expected, order = "desc"] of filters) {
      await req({ base, name: `200 ${name} filter: ${label}`, key: pro, cost: 1, status: 200,
        path: q(`symbol=600519.SH&${query}`),
        expect: (b) => {
          const values = single(b);
          checkValues(values, { name, order });
          assert(isDeepStrictEqual(stamps(values), expected), `timestamps ${stamps(values)}, expected ${expected}`);
          if (query !== d.huge) {
            remember(values);
          }
        } });
    }

    // D6: the free plan is clipped silently, sees the same numbers, and may start at its earliest day.
    let firstFree;
    await req({ base, name: `200 ${name} free plan, no lower bound: clipped`, key: free, status: 200,
      path: q(`symbol=600519.SH&${d.small}&order=asc&limit=1`),
      expect: (b) => {
        firstFree = single(b)[0];
        assert(firstFree?.timestamp === freeEarliest, `first value at ${firstFree?.timestamp}, expected ${freeEarliest}`);
      } });
    await req({ base, name: `200 ${name} free plan, lower bound at the earliest day`, key: free, status: 200,
      path: q(`symbol=600519.SH&${d.small}&timestamp.gte=2023-10-23&timestamp.lte=${freeEarliest}`),
      expect: (b) => assert(isDeepStrictEqual(single(b), [firstFree]), "the same value expected") });
    await req({ base, name: `200 ${name} another plan sees the same value`, key: basic, status: 200,
      path: q(`symbol=600519.SH&${d.small}&timestamp=2023-10-23`),
      expect: (b) => assert(isDeepStrictEqual(single(b), [firstFree]), "plans see different numbers") });
    await req({ base, name: `200 ${name} free plan, an early upper bound is no lower bound`, key: free, status: 200,
      path: q(`symbol=600519.SH&${d.small}&timestamp.lte=2023-10-01`),
      expect: (b) => assert(single(b).length === 0, "clipped to nothing") });

    // 400, in the documented check order; each message names the parameter.
    const bad = [
      ["INVALID_PARAMETER", "", /symbol/],
      ["INVALID_PARAMETER", "symbol=", /symbol/],
      ["INVALID_PARAMETER", "symbol=%20", /symbol/],
      ["INVALID_PARAMETER", "symbol=600519.SH,", /symbol/],
      ["INVALID_PARAMETER", "symbol=600519.SH,,600036.SH", /symbol/],
      ["INVALID_PARAMETER", "symbol=600519.SH,600519.sh", /600519\.SH/],
      ["INVALID_SYMBOL", "symbol=600519", /600519/],
      ["INVALID_SYMBOL", "symbol=600519.HK", /600519\.HK/],
      ["INVALID_SYMBOL", "symbol=600519.SH,60036.SH", /60036\.SH/],
      ["INVALID_SYMBOL", "symbol=,600519.SH,600519.SH,60036.SH", /60036\.SH/],
      ["INVALID_SYMBOL", `symbol=bad&timespan=week&${d.bad}`, /bad/],
      ["INVALID_PARAMETER", "symbol=600519.SH&timespan=week&adjusted=x", /timespan "week"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&timespan=", /timespan/],
      ["INVALID_PARAMETER", `symbol=600519.SH&adjusted=maybe&${d.bad}`, /adjusted "maybe"/],
      ...d.ownErrors.map(([query, message]) => ["INVALID_PARAMETER", `symbol=600519.SH&${query}`, message]),
      ...(d.seriesType
        ? [["INVALID_PARAMETER", "symbol=600519.SH&series_type=vwap&convention=x", /series_type "vwap"/]]
        : []),
      ["INVALID_PARAMETER", "symbol=600519.SH&convention=wilder&expand_underlying=x", /convention "wilder"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&expand_underlying=yes&order=x", /expand_underlying "yes"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&order=up&limit=0", /order "up"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&limit=0&timestamp=x", /limit "0"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&limit=5001", /limit "5001"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&limit=1e3", /limit "1e3"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&timestamp=2025-02-30&timestamp.gte=x", /timestamp "2025-02-30"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&timestamp=2025-1-5", /timestamp "2025-1-5"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&timestamp=1.7e12", /timestamp "1\.7e12"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&timestamp=99999999999999999999", /timestamp "9+"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&timestamp=", /timestamp ""/],
      ["INVALID_PARAMETER", "symbol=600519.SH&timestamp.gte=2025-13-01&timestamp.gt=x", /timestamp\.gte "2025-13-01"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&timestamp.gt=abc&timestamp.lte=x", /timestamp\.gt "abc"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&timestamp.lte=2025/10/01&timestamp.lt=x", /timestamp\.lte "2025\/10\/01"/],
      ["INVALID_PARAMETER", "symbol=600519.SH&timestamp.lt=%2B1", /timestamp\.lt "\+1"/],
      ["INVALID_PARAMETER", "symbol=000001.SZ&timestamp.lt=x", /timestamp\.lt "x"/],
      ["INVALID_SYMBOL", "symbol=000001.SZ", /000001\.SZ/],
    ];
    for (const [code, query, message] of bad) {
      await req({ base, name: `400 ${code} ${q(query)}`, key: pro, status: 400, code, message, path: q(query) });
    }
    await req({ base, name: `400 ${name} before 403 (free, 2 symbols, ${d.bad})`, key: free, status: 400,
      code: "INVALID_PARAMETER", path: q(`symbol=600519.SH,600036.SH&${d.bad}`) });
    await req({ base, name: `400 ${name} unknown single symbol before 403`, key: free, status: 400,
      code: "INVALID_SYMBOL", path: q("symbol=000001.SZ&limit=501") });

    // 401
    const ok = q("symbol=600519.SH");
    await req({ base, name: `401 ${name} no Authorization`, status: 401, code: "UNAUTHORIZED", path: ok });
    await req({ base, name: `401 ${name} Basic scheme`, status: 401, code: "UNAUTHORIZED", path: ok,
      headers: { Authorization: "Basic dXNlcjpwYXNz" } });
    await req({ base, name: `401 ${name} unknown key`, status: 401, code: "UNAUTHORIZED", path: ok,
      headers: { Authorization: "Bearer ask_not_a_real_key" } });
    await req({ base, name: `401 ${name} revoked key`, key: revoked, status: 401, code: "UNAUTHORIZED", path: ok });
    await req({ base, name: `401 ${name} before 400`, status: 401, code: "UNAUTHORIZED", path: q(`symbol=bad&${d.bad}`) });

    // 402
    await req({ base, name: `402 ${name} metered key with 0 credits`, key: broke, status: 402,
      code: "INSUFFICIENT_CREDITS", path: ok });
    await req({ base, name: `402 ${name} multi with one known symbol`, key: broke, status: 402,
      code: "INSUFFICIENT_CREDITS", path: q("symbol=000001.SZ,600036.SH") });

    // 403 (D6), in the documented check order.
    const forbidden = [
      [free, "symbol=600519.SH,600036.SH&limit=501&timestamp.gte=2020-01-01", /too many symbols/],
      [basic, "symbol=600519.SH,600036.SH,000001.SZ,000002.SZ,000004.SZ,000005.SZ", /too many symbols/],
      [free, "symbol=600519.SH&limit=501&timestamp.gte=2020-01-01", /limit 501/],
      [free, "symbol=600519.SH&timestamp=2023-10-20&timestamp.gte=2020-01-01", /^timestamp reaches/],
      [free, `symbol=600519.SH&timestamp=${freeEarliest - 1}`, /^timestamp reaches/],
      [free, "symbol=600519.SH&timestamp.gte=2023-10-01&timestamp.gt=2020-01-01", /^timestamp\.gte reaches/],
      [free, `symbol=600519.SH&timestamp.gte=${freeEarliest - 1}`, /^timestamp\.gte reaches/],
      [free, "symbol=600519.SH&timestamp.gt=2023-10-22", /^timestamp\.gt reaches/],
      [free, `symbol=600519.SH&timestamp.gt=${freeEarliest - DAY_MS}&timestamp.lte=2025-01-01`, /^timestamp\.gt reaches/],
      [basic, "symbol=600519.SH&timestamp.gte=2020-10-22", /^timestamp\.gte reaches/],
      [broke, `symbol=${many}`, /too many symbols/], // 403 before 402
    ];
    for (const [key, query, message] of forbidden) {
      await req({ base, name: `403 ${name} ${key.name} ${query.slice(0, 80)}`, key, status: 403, code: "PLAN_LIMIT",
        message, path: q(query) });
    }

    // 404 and 405
    await req({ base, name: `404 ${name} trailing slash`, key: pro, status: 404, code: "NOT_FOUND", docPath: p,
      path: `${p}/?symbol=600519.SH` });
    await req({ base, name: `404 ${name} path in upper case`, key: pro, status: 404, code: "NOT_FOUND", docPath: p,
      path: `${p.toUpperCase()}?symbol=600519.SH` });
    await req({ base, name: `404 ${name} before 405`, method: "POST", status: 404, code: "NOT_FOUND", docPath: p,
      path: `${p}/` });
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      await req({ base, name: `405 ${method} ${name}`, method, key: method === "POST" ? pro : undefined,
        status: 405, code: "METHOD_NOT_ALLOWED", path: ok });
    }

    // HEAD answers as GET (D10), with the same credit charge.
    await req({ base, name: `HEAD 200 ${name}`, method: "HEAD", key: pro, cost: 1, status: 200, path: ok });
    await req({ base, name: `HEAD 200 ${name} multi`, method: "HEAD", key: pro, cost: 1, status: 200,
      path: q("symbol=600519.SH,000001.SZ") });
    await req({ base, name: `HEAD 400 ${name}`, method: "HEAD", key: pro, status: 400, path: q(`symbol=600519.SH&${d.bad}`) });
    await req({ base, name: `HEAD 401 ${name}`, method: "HEAD", status: 401, path: ok });
    await req({ base, name: `HEAD 402 ${name}`, method: "HEAD", key: broke, status: 402, path: ok });
    await req({ base, name: `HEAD 403 ${name}`, method: "HEAD", key: free, status: 403,
      path: q("symbol=600519.SH&timestamp.gte=2023-01-01") });
    await req({ base, name: `HEAD 404 ${name}`, method: "HEAD", status: 404, docPath: p, path: `${p}/` });
  }
  await req({ base, name: "404 unknown indicator", key: pro, status: 404, code: "NOT_FOUND", docPath: EMA,
    path: "/v1/indicators/wma?symbol=600519.SH" });
  await req({ base, name: "404 the indicators prefix", key: pro, status: 404, code: "NOT_FOUND", docPath: EMA,
    path: "/v1/indicators?symbol=600519.SH" });
}

// --- main --------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(path.join(HERE, "node_modules"))) {
    throw new Fatal(
      "tests/openapi/node_modules is missing: run `npm ci --prefix tests/openapi` from the repository root",
    );
  }
  const bin = process.argv[2] ?? process.env.ASHARE_BIN;
  if (!bin) {
    throw new Fatal("usage: node tests/openapi/validate.mjs ASHARE_BIN (or set ASHARE_BIN)");
  }
  if (!existsSync(bin)) {
    throw new Fatal(`no ashare binary at ${bin}`);
  }

  const text = readFileSync(DOC_PATH, "utf8");
  const document = await validateDocument(text);
  const schemas = await buildAjv(document);
  const tester = makeTester(document, schemas);
  const req = tester.request;

  workDir = mkdtempSync(path.join(tmpdir(), "ashare-openapi-"));
  const db = path.join(workDir, "main", "ashare.db");
  await run(bin, ["--db", db, "import",
    path.join(REPO, "tests/data/bancob_600519.SH.csv"),
    path.join(REPO, "tests/data/bancob_600036.SH.csv"),
    // 600276.SH ends on 2024-12-31: a known symbol with no indicator value in 2025.
    path.join(REPO, "tests/data/jenny_600276.SH.csv")]);
  // D20: the CSI 300's membership, for the members route.
  await run(bin, ["--db", db, "import", "--format", "members", "--index", "000300.SH",
    path.join(REPO, "tests/data/members/csi300_history_unliftedq.csv")]);
  const key = async (name, plan, credits) => ({
    name,
    value: await createKey(bin, db, plan, credits),
    metered: credits !== undefined,
  });
  const pro = await key("pro", "pro", 1000); // metered
  const basic = await key("basic", "basic"); // unmetered
  const free = await key("free", "free");
  const broke = await key("broke", "pro", 0);
  const revoked = await key("revoked", "pro");
  await run(bin, ["--db", db, "keys", "revoke", revoked.value]);
  tester.balances.set("pro", 1000);
  tester.balances.set("broke", 0);
  const base = await startServer(bin, db, "main");

  // The document as served.
  await check("GET /v1/openapi.json serves src/core/api/openapi.json byte for byte", async () => {
    const response = await fetch(`${base}/v1/openapi.json`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const served = await response.text();
    assert(response.status === 200, `status ${response.status}`);
    if (served !== text) {
      const same = (() => {
        try {
          return isDeepStrictEqual(JSON.parse(served), JSON.parse(text));
        } catch {
          return false;
        }
      })();
      throw new Error(
        same
          ? "served document has the same JSON but different text (rebuild?)"
          : "served document differs from the repository file: rebuild (re-run cmake) so that the binary embeds the current openapi.json",
      );
    }
  });

  const bars = (from, to, query, interval = "1/day") =>
    `/v1/ohlc/range/${interval}/${from}/${to}${query ? `?${query}` : ""}`;
  const W = ["2025-10-01", "2025-10-23"]; // inside every plan's history (as_of 2025-10-23)

  // 200
  await req({ base, name: "200 single symbol", key: pro, cost: 1, status: 200,
    path: bars(...W, "symbol=600519.sh"),
    expect: (b) => {
      assert(b.symbol === "600519.SH" && b.status === "OK", "not the canonical single form");
      assert(b.resultsCount === b.ohlc.length && b.resultsCount > 0, "resultsCount");
      assert(!("next_url" in b) && !("summary" in b), "next_url or summary without cause");
    } });
  await req({ base, name: "200 single, include=summary, next_url, desc, raw", key: pro, cost: 1, status: 200,
    path: bars(...W, "symbol=600519.SH&include=summary&limit=3&sort=desc&adjusted=false"),
    expect: (b) => {
      assert(b.ohlc.length === 3 && b.summary?.bars_count === 3, "3 bars and a summary expected");
      assert(typeof b.next_url === "string", "next_url expected");
      assert(b.adjusted === false, "adjusted echo");
    } });
  await req({ base, name: "200 single, empty range with summary", key: pro, cost: 1, status: 200,
    path: bars("2025-10-25", "2025-10-25", "symbol=600036.SH&include=summary"),
    expect: (b) => {
      assert(b.resultsCount === 0 && b.ohlc.length === 0, "empty series expected");
      assert(b.summary.return_pct === null && b.summary.open_first === null, "null summary expected");
    } });
  await req({ base, name: "200 multi with an unknown symbol -> PARTIAL, summary, next_url", key: pro, cost: 2,
    status: 200, path: bars(...W, "symbol=600519.SH,600036.SH,000001.SZ&include=summary&limit=2"),
    expect: (b) => {
      assert(b.status === "PARTIAL" && b.resultsCount === 3, "PARTIAL with 3 items expected");
      assert(b.results[2].error?.code === "INVALID_SYMBOL", "item error expected");
      assert(typeof b.results[0].next_url === "string" && b.results[0].summary, "item next_url and summary");
    } });
  await req({ base, name: "200 scheme word in any letter case", key: pro, authScheme: "bEARer", cost: 1,
    status: 200, path: bars("2025-10-23", "2025-10-23", "symbol=600036.SH") });
  await req({ base, name: "200 multi, all known, unmetered key", key: basic, status: 200,
    path: bars(...W, "symbol=600519.SH,600036.SH"),
    expect: (b) => assert(b.status === "OK" && b.results.every((r) => !r.error), "OK expected") });
  await req({ base, name: "200 multi, all unknown, cost 0", key: pro, cost: 0, status: 200,
    path: bars(...W, "symbol=000001.SZ,000002.SZ") });
  await req({ base, name: "200 multi, cost 0 passes at balance 0", key: broke, cost: 0, status: 200,
    path: bars(...W, "symbol=000001.SZ,000002.SZ") });
  await req({ base, name: "200 GET /healthz", status: 200, path: "/healthz",
    expect: (b) => assert(b.as_of === "2025-10-23", `as_of ${b.as_of}`) });
  await req({ base, name: "200 GET /healthz ignores a key", key: pro, status: 200, path: "/healthz" });
  await req({ base, name: "200 GET /v1/openapi.json", status: 200, path: "/v1/openapi.json" });

  // 400, in the documented check order.
  const bad = [
    ["UNSUPPORTED_INTERVAL", bars(...W, "symbol=600519.SH", "2/day")],
    ["UNSUPPORTED_INTERVAL", bars(...W, "symbol=600519.SH", "1/week")],
    ["UNSUPPORTED_INTERVAL", bars(...W, "symbol=600519.SH", "01/day")],
    ["UNSUPPORTED_INTERVAL", bars(...W, "symbol=600519.SH", "1/DAY")],
    ["UNSUPPORTED_INTERVAL", bars("bad", "2025-10-23", "", "1/week")],
    ["INVALID_PARAMETER", bars("2025-02-30", "2025-10-23", "symbol=600519.SH")],
    ["INVALID_PARAMETER", bars("2025-10-01", "2025-1-5", "symbol=600519.SH")],
    ["INVALID_PARAMETER", bars("2025-10-23", "2025-10-01", "symbol=600519.SH")],
    ["INVALID_PARAMETER", bars(...W, "")],
    ["INVALID_PARAMETER", bars(...W, "symbol=")],
    ["INVALID_PARAMETER", bars(...W, "symbol=600519.SH,")],
    ["INVALID_PARAMETER", bars(...W, "symbol=600519.SH,600519.sh")],
    ["INVALID_SYMBOL", bars(...W, "symbol=600519")],
    ["INVALID_SYMBOL", bars(...W, "symbol=600519.SH,60036.SH")],
    ["INVALID_PARAMETER", bars(...W, "symbol=600519.SH&adjusted=maybe")],
    ["INVALID_PARAMETER", bars(...W, "symbol=600519.SH&sort=up")],
    ["INVALID_PARAMETER", bars(...W, "symbol=600519.SH&limit=0")],
    ["INVALID_PARAMETER", bars(...W, "symbol=600519.SH&limit=5001")],
    ["INVALID_PARAMETER", bars(...W, "symbol=600519.SH&limit=1e3")],
    ["INVALID_PARAMETER", bars(...W, "symbol=600519.SH&include=everything")],
    ["INVALID_SYMBOL", bars(...W, "symbol=000001.SZ")],
  ];
  for (const [code, p] of bad) {
    await req({ base, name: `400 ${code} ${p}`, key: pro, status: 400, code, path: p });
  }

  // 401
  const p1 = bars(...W, "symbol=600519.SH");
  await req({ base, name: "401 no Authorization", status: 401, code: "UNAUTHORIZED", path: p1 });
  await req({ base, name: "401 Basic scheme", status: 401, code: "UNAUTHORIZED", path: p1,
    headers: { Authorization: "Basic dXNlcjpwYXNz" } });
  await req({ base, name: "401 unknown key", status: 401, code: "UNAUTHORIZED", path: p1,
    headers: { Authorization: "Bearer ask_not_a_real_key" } });
  await req({ base, name: "401 revoked key", key: revoked, status: 401, code: "UNAUTHORIZED", path: p1 });
  await req({ base, name: "401 before 400", status: 401, code: "UNAUTHORIZED",
    path: bars(...W, "symbol=bad", "2/day") });

  // 402
  await req({ base, name: "402 metered key with 0 credits", key: broke, status: 402,
    code: "INSUFFICIENT_CREDITS", path: p1 });

  // 403
  await req({ base, name: "403 free plan history", key: free, status: 403, code: "PLAN_LIMIT",
    path: bars("2023-09-25", "2023-10-31", "symbol=600519.SH") });
  await req({ base, name: "403 free plan limit", key: free, status: 403, code: "PLAN_LIMIT",
    path: bars(...W, "symbol=600519.SH&limit=501") });
  await req({ base, name: "403 free plan symbols", key: free, status: 403, code: "PLAN_LIMIT",
    path: bars(...W, "symbol=600519.SH,600036.SH") });
  await req({ base, name: "403 basic plan symbols", key: basic, status: 403, code: "PLAN_LIMIT",
    path: bars(...W, "symbol=600519.SH,600036.SH,000001.SZ,000002.SZ,000004.SZ,000005.SZ") });
  await req({ base, name: "403 before 402", key: broke, status: 403, code: "PLAN_LIMIT",
    path: bars(...W, "symbol=" + Array.from({ length: 21 }, (_, i) => `6000${String(i).padStart(2, "0")}.SH`).join(",")) });

  // 404 and 405
  await req({ base, name: "404 trailing slash", key: pro, status: 404, code: "NOT_FOUND", docPath: BARS,
    path: `${bars(...W)}/?symbol=600519.SH` });
  await req({ base, name: "404 empty segment, any method", method: "POST", status: 404, code: "NOT_FOUND",
    docPath: BARS, path: "/v1/ohlc/range/1//2025-10-01/2025-10-23" });
  await req({ base, name: "405 POST bars", method: "POST", key: pro, status: 405,
    code: "METHOD_NOT_ALLOWED", path: p1 });
  await req({ base, name: "405 OPTIONS bars", method: "OPTIONS", status: 405,
    code: "METHOD_NOT_ALLOWED", path: p1 });
  await req({ base, name: "405 DELETE /healthz", method: "DELETE", status: 405,
    code: "METHOD_NOT_ALLOWED", path: "/healthz" });
  await req({ base, name: "405 PUT /v1/openapi.json", method: "PUT", status: 405,
    code: "METHOD_NOT_ALLOWED", path: "/v1/openapi.json" });

  // HEAD answers as GET (D10), with the same credit charge.
  await req({ base, name: "HEAD 200 bars", method: "HEAD", key: pro, cost: 1, status: 200, path: p1 });
  await req({ base, name: "HEAD 400 bars", method: "HEAD", key: pro, status: 400,
    path: bars(...W, "symbol=600519.SH", "2/day") });
  await req({ base, name: "HEAD 401 bars", method: "HEAD", status: 401, path: p1 });
  await req({ base, name: "HEAD 402 bars", method: "HEAD", key: broke, status: 402, path: p1 });
  await req({ base, name: "HEAD 403 bars", method: "HEAD", key: free, status: 403,
    path: bars(...W, "symbol=600519.SH&limit=501") });
  await req({ base, name: "HEAD 404 bars", method: "HEAD", status: 404, docPath: BARS, path: `${p1.split("?")[0]}/` });
  await req({ base, name: "HEAD 200 /healthz", method: "HEAD", status: 200, path: "/healthz" });
  await req({ base, name: "HEAD 200 /v1/openapi.json", method: "HEAD", status: 200, path: "/v1/openapi.json" });

  await indicatorChecks(req, { base, pro, basic, free, broke, revoked });
  await membersChecks(req, { base, pro, basic, free, broke });

  // D14: a server with --rate-limit (Free 1 a second, a bucket of 2): each data operation's 429,
  // GET and HEAD, after a burst that used the bucket up; a metered key's 429 costs nothing.
  const limitedBase = await startServer(bin, db, "rate-limited", ["--rate-limit", "free=1,pro=1"]);
  const slow = await key("slow", "free");
  const exhaust = async (k, p) => {
    for (let i = 0; i < 10; ++i) {
      const response = await fetch(limitedBase + p, {
        headers: { Authorization: `Bearer ${k.value}` },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const body = await response.arrayBuffer();
      if (response.status === 200 && k.metered) {
        tester.balances.set(k.name, tester.balances.get(k.name) - 1);
      }
      if (response.status === 429) {
        return;
      }
      assert(response.status === 200, `${p}: ${response.status} while using up the bucket: ${Buffer.from(body).toString().slice(0, 200)}`);
    }
    throw new Error(`${p}: no 429 after 10 requests`);
  };
  const limitedPaths = [p1, ...["ema", "rsi", "sma", "macd", "bbands", "atr", "kdj"].map(
    (name) => `/v1/indicators/${name}?symbol=600519.SH&timestamp.gte=2025-10-01`),
    "/v1/indices/000300.SH/members"];
  for (const p of limitedPaths) {
    await exhaust(slow, p);
    await req({ base: limitedBase, name: `429 ${p}`, key: slow, status: 429, code: "RATE_LIMITED", path: p });
    await req({ base: limitedBase, name: `HEAD 429 ${p}`, method: "HEAD", key: slow, status: 429, path: p });
  }
  await exhaust(pro, p1);
  await req({ base: limitedBase, name: "429 metered: X-Credits-Remaining, nothing charged", key: pro,
    status: 429, code: "RATE_LIMITED", path: p1 });

  const open = await key("open", "pro");
  await schemaTable(req, document, { base, open });
  await generatedClient(document, { base, open });

  // An empty store: as_of is null.
  const emptyDb = path.join(workDir, "empty", "ashare.db");
  const emptyKey = { name: "empty", value: await createKey(bin, emptyDb, "pro"), metered: false };
  const emptyBase = await startServer(bin, emptyDb, "empty-store");
  await req({ base: emptyBase, name: "200 /healthz on an empty store", status: 200, path: "/healthz",
    expect: (b) => assert(b.as_of === null, `as_of ${b.as_of}`) });
  await req({ base: emptyBase, name: "200 multi on an empty store", key: emptyKey, status: 200,
    path: bars(...W, "symbol=600519.SH,600036.SH"),
    expect: (b) => assert(b.status === "PARTIAL" && b.meta.as_of === null, "PARTIAL, as_of null") });
  for (const [name, { path: p }] of Object.entries(INDICATORS)) {
    await req({ base: emptyBase, name: `200 ${name} multi on an empty store`, key: emptyKey, status: 200,
      path: `${p}?symbol=600519.SH,600036.SH`,
      expect: (b) => assert(b.status === "PARTIAL" && b.results.every((r) => r.error), "PARTIAL with errors") });
    await req({ base: emptyBase, name: `400 ${name} single on an empty store`, key: emptyKey, status: 400,
      code: "INVALID_SYMBOL", path: `${p}?symbol=600519.SH` });
  }

  // 500: a store whose `meta` table vanished under a running server (sqlite3 CLI needed).
  const brokenDb = path.join(workDir, "broken", "ashare.db");
  await run(bin, ["--db", brokenDb, "import", path.join(REPO, "tests/data/bancob_600519.SH.csv")]);
  const brokenKey = { name: "broken", value: await createKey(bin, brokenDb, "pro"), metered: false };
  const brokenBase = await startServer(bin, brokenDb, "broken-store");
  await runQuiet("sqlite3", [brokenDb, "DROP TABLE meta"]);
  await req({ base: brokenBase, name: "500 bars", key: brokenKey, status: 500, code: "INTERNAL_ERROR", path: p1 });
  await req({ base: brokenBase, name: "500 HEAD bars", method: "HEAD", key: brokenKey, status: 500, path: p1 });
  await req({ base: brokenBase, name: "500 /healthz", status: 500, code: "INTERNAL_ERROR", path: "/healthz" });
  await req({ base: brokenBase, name: "500 HEAD /healthz", method: "HEAD", status: 500, path: "/healthz" });
  // D7: a 500 after authentication still reports the balance of a metered key (nothing charged).
  const brokenMetered = { name: "broken-metered", value: await createKey(bin, brokenDb, "pro", 5), metered: true };
  tester.balances.set("broken-metered", 5);
  for (const [name, { path: p }] of Object.entries(INDICATORS)) {
    await req({ base: brokenBase, name: `500 ${name}`, key: brokenKey, status: 500, code: "INTERNAL_ERROR",
      path: `${p}?symbol=600519.SH` });
    await req({ base: brokenBase, name: `500 ${name}, metered key`, key: brokenMetered, status: 500,
      code: "INTERNAL_ERROR", path: `${p}?symbol=600519.SH,600036.SH` });
    await req({ base: brokenBase, name: `500 HEAD ${name}, metered key`, method: "HEAD", key: brokenMetered,
      status: 500, path: `${p}?symbol=600519.SH` });
  }
  for (const [name, k] of [["500 members", brokenKey], ["500 members, metered key", brokenMetered]]) {
    await req({ base: brokenBase, name, key: k, status: 500, code: "INTERNAL_ERROR",
      path: "/v1/indices/000300.SH/members?date=2025-10-23" });
    await req({ base: brokenBase, name: `HEAD ${name}`, method: "HEAD", key: k, status: 500,
      path: "/v1/indices/000300.SH/members?date=2025-10-23" });
  }
  await req({ base: brokenBase, name: "500 bars, metered key", key: brokenMetered, status: 500,
    code: "INTERNAL_ERROR", path: p1 });
  await req({ base: brokenBase, name: "server keeps serving after 500", status: 200, path: "/v1/openapi.json" });

  // D15: /healthz answers 503 "unavailable" while a server drains after SIGTERM. A request in
  // flight keeps it draining: pipelined answers to a client that stops reading (socket paused).
  const drainBase = await startServer(bin, db, "draining", ["--drain-timeout", "10"]);
  const draining = servers[servers.length - 1];
  const { port: drainPort } = new URL(drainBase);
  const stalled = net.connect(Number(drainPort), "127.0.0.1");
  await new Promise((resolve) => stalled.once("connect", resolve));
  stalled.pause();
  const big = `GET ${bars("2020-10-23", "2025-10-23", "symbol=600276.SH")} HTTP/1.1\r\n`
    + `Host: 127.0.0.1\r\nAuthorization: Bearer ${basic.value}\r\n\r\n`; // unmetered, ~200 KB
  stalled.write(big.repeat(64));
  await new Promise((resolve) => setTimeout(resolve, 500));
  draining.child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 200));
  await req({ base: drainBase, name: "503 /healthz while draining", status: 503, path: "/healthz",
    expect: (b) => assert(b.status === "unavailable", `status ${b.status}`) });
  await req({ base: drainBase, name: "503 HEAD /healthz while draining", method: "HEAD", status: 503,
    path: "/healthz" });
  stalled.destroy(); // nothing in flight any more: the server stops

  // D15: a server whose keys are on the PostgreSQL server of scripts/with-postgres.sh, that
  // server stopped: each data operation's 503, GET and HEAD, and /healthz's; then it comes back.
  const pg = {
    server: process.env.ASHARE_TEST_POSTGRES,
    ctl: process.env.ASHARE_TEST_POSTGRES_CTL,
    bin: process.env.PG_BINDIR,
  };
  if (!pg.server || !pg.ctl || !pg.bin) {
    throw new Fatal("ASHARE_TEST_POSTGRES is not set: run under scripts/with-postgres.sh (D15's 503 "
      + "needs a database server to stop)");
  }
  await runQuiet(path.join(pg.bin, "psql"), [pg.server, "-v", "ON_ERROR_STOP=1", "-qc",
    `CREATE DATABASE ashare_openapi_${process.pid}`]);
  const pgKeys = ["--keys-db", `${pg.server}&dbname=ashare_openapi_${process.pid}`];
  const pgKeyLines = (await run(bin, ["--db", db, ...pgKeys, "keys", "create", "--plan", "pro",
    "--credits", "100"])).trim().split("\n");
  const pgMetered = { name: "pg-metered", value: pgKeyLines[pgKeyLines.length - 1].trim(), metered: true };
  tester.balances.set("pg-metered", 100);
  const pgBase = await startServer(bin, db, "postgres-keys", [], pgKeys);
  await req({ base: pgBase, name: "200 with the keys on PostgreSQL", key: pgMetered, status: 200,
    cost: 1, path: p1 });
  await runQuiet(pg.ctl, ["stop"]);
  try {
    for (const p of limitedPaths) {
      await req({ base: pgBase, name: `503 ${p}`, key: pgMetered, status: 503,
        code: "SERVICE_UNAVAILABLE", path: p });
      await req({ base: pgBase, name: `HEAD 503 ${p}`, method: "HEAD", key: pgMetered, status: 503,
        path: p });
    }
    await req({ base: pgBase, name: "503 /healthz: the key store cannot be reached", status: 503,
      path: "/healthz", expect: (b) => assert(b.status === "unavailable", `status ${b.status}`) });
  } finally {
    await runQuiet(pg.ctl, ["start"]);
  }
  await req({ base: pgBase, name: "200 once the key store is back", key: pgMetered, status: 200,
    cost: 1, path: p1 });

  // D17: every operation's 200 carries an ETag (checked against its documented schema by the
  // tester), and naming it in If-None-Match gets the 304, uncharged for a metered key.
  for (const p of [...limitedPaths, "/healthz", "/v1/openapi.json"]) {
    const needsKey = !p.startsWith("/healthz") && !p.startsWith("/v1/openapi.json");
    const key = needsKey ? pro : undefined;
    let etag = null;
    await req({ base, name: `200 ${p} carries an ETag`, key, status: 200, cost: needsKey ? 1 : 0,
      path: p, expect: (b, res) => { etag = res.headers.get("ETag"); } });
    assert(etag, `${p}: no ETag on a 200`);
    for (const method of ["GET", "HEAD"]) {
      await req({ base, name: `${method} 304 ${p} with If-None-Match`, method, key, status: 304,
        path: p, headers: { "If-None-Match": etag } });
    }
  }
  await req({ base, name: "304 for a key with no credits left (D17)", key: broke, status: 304,
    path: p1, headers: { "If-None-Match": "*" } });

  // Every documented response was exercised.
  await check("every documented (method, path, status) was exercised", () => {
    const missing = [];
    for (const [template, item] of Object.entries(document.paths)) {
      for (const method of ["get", "head", "post", "put", "delete", "options", "patch", "trace"]) {
        for (const status of Object.keys(item[method]?.responses ?? {})) {
          const id = `${method.toUpperCase()} ${template} ${status}`;
          if (!tester.exercised.has(id) && !UNPROVOKABLE.has(id)) {
            missing.push(id);
          }
        }
      }
    }
    assert(missing.length === 0, `not exercised: ${missing.join("; ")}`);
  });
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  failed += 1;
  console.error(error instanceof Fatal ? `FAIL ${error.message}` : `FAIL (unexpected) ${error.stack ?? error}`);
} finally {
  await stopServers();
  if (workDir) {
    rmSync(workDir, { recursive: true, force: true });
  }
}
if (failed > 0) {
  exitCode = 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = exitCode;
// Let stdout drain, but never hang on a stray handle.
setTimeout(() => process.exit(exitCode), 2000).unref();
