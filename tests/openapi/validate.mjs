// The OpenAPI test (D11, issue 3 item 5): src/core/api/openapi.json must be a valid OpenAPI 3.1
// document, `ashare serve` must serve it byte for byte at /v1/openapi.json, and real responses of
// every documented (path, method, status) must validate against the document's schemas and carry
// its required headers.
//
// Usage: node tests/openapi/validate.mjs ASHARE_BIN   (or ASHARE_BIN=... node validate.mjs)
// Needs the pinned modules: npm ci --prefix tests/openapi
// Starts its servers on 127.0.0.1 with ephemeral ports in a temporary directory; every wait is
// bounded; the servers are stopped (SIGTERM) and the directory removed whatever happens.

import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual, promisify } from "node:util";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const DOC_PATH = path.join(REPO, "src/core/api/openapi.json");
const DOC_ID = "https://ashare.invalid/v1/openapi.json";
const BARS = "/v1/ohlc/range/{multiplier}/{timespan}/{from}/{to}";
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

// Start `ashare serve` on an ephemeral loopback port; resolve with its base URL.
function startServer(bin, db, name) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["--db", db, "serve", "--listen", "127.0.0.1:0"], {
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
  await check("openapi.json describes the served operations", () => {
    const expected = {
      [BARS]: ["get", "head"],
      [HEALTH]: ["get", "head"],
      [OPENAPI]: ["get", "head"],
    };
    assert(
      isDeepStrictEqual(Object.keys(document.paths).sort(), Object.keys(expected).sort()),
      `paths are ${Object.keys(document.paths).join(", ")}`,
    );
    assert(document.paths[BARS].get.operationId === "getOhlcRange", "bars GET is not getOhlcRange");
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
        const authenticated = c.key && needsKey && ![401, 404, 405, 500].includes(status);
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
        if (status === 200 && template === BARS) {
          assert(
            body.request_id === response.headers.get("X-Request-Id"),
            `${where}: request_id differs from X-Request-Id`,
          );
          const charged = body.meta.credits_charged;
          const expectCharged = c.key?.metered && (c.cost ?? 0) > 0 ? c.cost : undefined;
          assert(charged === expectCharged, `${where}: meta.credits_charged ${charged}, expected ${expectCharged}`);
        }
        if (c.expect) {
          c.expect(body, response);
        }
      });
    },
  };
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
    path.join(REPO, "tests/data/bancob_600036.SH.csv")]);
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

  // An empty store: as_of is null.
  const emptyDb = path.join(workDir, "empty", "ashare.db");
  const emptyKey = { name: "empty", value: await createKey(bin, emptyDb, "pro"), metered: false };
  const emptyBase = await startServer(bin, emptyDb, "empty-store");
  await req({ base: emptyBase, name: "200 /healthz on an empty store", status: 200, path: "/healthz",
    expect: (b) => assert(b.as_of === null, `as_of ${b.as_of}`) });
  await req({ base: emptyBase, name: "200 multi on an empty store", key: emptyKey, status: 200,
    path: bars(...W, "symbol=600519.SH,600036.SH"),
    expect: (b) => assert(b.status === "PARTIAL" && b.meta.as_of === null, "PARTIAL, as_of null") });

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
  await req({ base: brokenBase, name: "server keeps serving after 500", status: 200, path: "/v1/openapi.json" });

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
