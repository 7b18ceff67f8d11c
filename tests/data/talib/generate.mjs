// Regenerates the TA-Lib reference values of tests/unit/test_indicators.cpp (D9): TA_SMA, TA_EMA and
// TA_RSI of TA-Lib's C code (the WebAssembly build in the npm package talib-web, pinned in
// package.json / package-lock.json), default compatibility, unstable period 0.
//
//   npm ci --prefix tests/data/talib && node tests/data/talib/generate.mjs
//
// Inputs are canonical CSV fixtures of tests/data (see README.md beside this file). For each input,
// each series_type (open, high, low, close) and each of raw and, when the input has a factor column,
// forward-adjusted unrounded prices (D9/D8: price * factor / F_latest, left to right in double,
// F_latest = factor of the latest row), it writes one file per indicator:
//
//   <symbol>_<raw|adjusted>_<sma|ema|rsi>.csv
//   trade_date,open_2,open_5,open_14,open_50,open_200,high_2,...,close_200
//
// Rows are ascending by trade_date, one per input row. A cell is empty in the warm-up (before the
// lookback of its window) and otherwise holds TA-Lib's value written with JS String(x), the shortest
// text that reads back as the same double.

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as talib from "talib-web";

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = dirname(here); // tests/data
const require = createRequire(import.meta.url);

const INPUTS = [
  { file: "bancob_600519.SH.csv", modes: ["raw", "adjusted"] },
  { file: "jenny_000001.SZ.csv", modes: ["raw"] },
];
const SERIES_TYPES = ["open", "high", "low", "close"];
const WINDOWS = [2, 5, 14, 50, 200];
// TA-Lib's lookback (index of the first value) with unstable period 0, as D9 states it.
const INDICATORS = {
  sma: { fn: "TA_SMA", wrapper: talib.SMA, lookback: (n) => n - 1 },
  ema: { fn: "TA_EMA", wrapper: talib.EMA, lookback: (n) => n - 1 },
  rsi: { fn: "TA_RSI", wrapper: talib.RSI, lookback: (n) => n },
};

function fail(message) {
  throw new Error(message);
}

// Reads a canonical CSV (no quoting in these fixtures) into rows sorted ascending by trade_date.
function readCanonical(path) {
  const lines = readFileSync(path, "utf8").split(/\r?\n/).filter((l) => l !== "");
  const header = lines[0].split(",");
  const col = (name) => header.indexOf(name);
  for (const name of ["symbol", "trade_date", ...SERIES_TYPES]) {
    if (col(name) < 0) fail(`${path}: no column ${name}`);
  }
  const rows = lines.slice(1).map((line, i) => {
    const f = line.split(",");
    if (f.length !== header.length) fail(`${path}:${i + 2}: ${f.length} fields`);
    const row = { symbol: f[col("symbol")], trade_date: f[col("trade_date")] };
    for (const name of [...SERIES_TYPES, "factor"]) {
      if (col(name) < 0) continue;
      const x = Number(f[col(name)]);
      if (f[col(name)] === "" || !Number.isFinite(x)) fail(`${path}:${i + 2}: bad ${name}`);
      row[name] = x;
    }
    return row;
  });
  rows.sort((a, b) => (a.trade_date < b.trade_date ? -1 : a.trade_date > b.trade_date ? 1 : 0));
  return { rows, hasFactor: col("factor") >= 0 };
}

// talib-web 0.1.3 quirks, worked around here:
// - init(path) on Node >= 18 tries fetch() on the plain path (global fetch exists) and fails, and a
//   file:// URL is not understood by its fs reader; hide fetch while it loads so it reads the file.
// - Its wrappers call TA_XXX(0, length, ...) (endIdx one past the input: TA-Lib's endIdx is
//   inclusive) with null outBegIdx/outNBElement, so the last output item is computed from memory past
//   the input and only the first length - lookback items are valid. generate() therefore calls the C
//   functions itself, with endIdx = length - 1 and real outBegIdx/outNBElement, and checks that the
//   valid part of the wrapper's output is identical.
async function initTalib() {
  const wasmPath = require.resolve("talib-web/lib/talib.wasm");
  const savedFetch = globalThis.fetch;
  delete globalThis.fetch;
  try {
    return await talib.init(wasmPath);
  } finally {
    globalThis.fetch = savedFetch;
  }
}

// Calls TA-Lib's `fn` over the whole of `input` with one integer option `period`; returns
// { begIdx, values } with values[j] the output at input index begIdx + j.
function callTalib(M, fn, input, period) {
  const n = input.length;
  const inPtr = M._malloc(n * 8);
  const outPtr = M._malloc(n * 8);
  const intPtr = M._malloc(8); // outBegIdx, outNBElement
  try {
    M.HEAPF64.set(Float64Array.from(input), inPtr / 8);
    M.HEAPF64.fill(Number.NaN, outPtr / 8, outPtr / 8 + n);
    M.HEAP32.fill(-1, intPtr / 4, intPtr / 4 + 2);
    const types = ["number", "number", "number", "number", "number", "number", "number"];
    const rc = M.ccall(fn, "number", types, [0, n - 1, inPtr, period, intPtr, intPtr + 4, outPtr]);
    if (rc !== 0) fail(`${fn}(${period}): TA_RetCode ${rc}`);
    const begIdx = M.HEAP32[intPtr / 4];
    const nb = M.HEAP32[intPtr / 4 + 1];
    return { begIdx, values: Array.from(M.HEAPF64.subarray(outPtr / 8, outPtr / 8 + nb)) };
  } finally {
    M._free(intPtr);
    M._free(outPtr);
    M._free(inPtr);
  }
}

function seriesOf(rows, type, mode) {
  if (mode === "raw") return rows.map((r) => r[type]);
  const latest = rows[rows.length - 1].factor;
  return rows.map((r) => (r[type] * r.factor) / latest); // left to right, as D8/D9
}

function generate(M) {
  const written = [];
  for (const { file, modes } of INPUTS) {
    const { rows, hasFactor } = readCanonical(join(dataDir, file));
    const symbol = rows[0].symbol;
    if (rows.some((r) => r.symbol !== symbol)) fail(`${file}: more than one symbol`);
    for (const mode of modes) {
      if (mode === "adjusted" && !hasFactor) fail(`${file}: no factor column`);
      for (const [name, ind] of Object.entries(INDICATORS)) {
        const columns = [];
        for (const type of SERIES_TYPES) {
          const input = seriesOf(rows, type, mode);
          for (const window of WINDOWS) {
            const lookback = ind.lookback(window);
            const { begIdx, values } = callTalib(M, ind.fn, input, window);
            const expected = Math.max(0, input.length - lookback);
            if (expected > 0 && begIdx !== lookback) fail(`${ind.fn}(${window}): outBegIdx ${begIdx}`);
            if (values.length !== expected) fail(`${ind.fn}(${window}): outNBElement ${values.length}`);
            if (!values.every(Number.isFinite)) fail(`${ind.fn}(${window}): non-finite value`);
            const viaWrapper = ind.wrapper({ inReal: input, timePeriod: window }).output;
            for (let j = 0; j < expected; ++j) {
              if (!Object.is(viaWrapper[j], values[j])) {
                fail(`${file} ${mode} ${type} ${ind.fn}(${window}): wrapper differs at ${j}`);
              }
            }
            columns.push({ name: `${type}_${window}`, lookback, values });
          }
        }
        const lines = [["trade_date", ...columns.map((c) => c.name)].join(",")];
        rows.forEach((row, i) => {
          const cells = columns.map((c) => (i < c.lookback ? "" : String(c.values[i - c.lookback])));
          lines.push([row.trade_date, ...cells].join(","));
        });
        const out = `${symbol}_${mode}_${name}.csv`;
        writeFileSync(join(here, out), lines.join("\n") + "\n");
        written.push(out);
      }
    }
  }
  return written;
}

// D13: TA_MACD, TA_BBANDS (SMA middle), TA_ATR and TA_STOCH (SMA smoothing), each for several
// parameter sets; MACD and BBANDS for every series_type, ATR and STOCH of high, low and close.
// `args` are the options after the inputs; `outputs` how many output arrays the function writes.
function callTalibMulti(M, fn, inputs, args, outputs) {
  const n = inputs[0].length;
  const inPtrs = inputs.map((input) => {
    const ptr = M._malloc(n * 8);
    M.HEAPF64.set(Float64Array.from(input), ptr / 8);
    return ptr;
  });
  const outPtrs = Array.from({ length: outputs }, () => {
    const ptr = M._malloc(n * 8);
    M.HEAPF64.fill(Number.NaN, ptr / 8, ptr / 8 + n);
    return ptr;
  });
  const intPtr = M._malloc(8); // outBegIdx, outNBElement
  try {
    M.HEAP32.fill(-1, intPtr / 4, intPtr / 4 + 2);
    const values = [0, n - 1, ...inPtrs, ...args, intPtr, intPtr + 4, ...outPtrs];
    const rc = M.ccall(fn, "number", values.map(() => "number"), values);
    if (rc !== 0) fail(`${fn}(${args}): TA_RetCode ${rc}`);
    const begIdx = M.HEAP32[intPtr / 4];
    const nb = M.HEAP32[intPtr / 4 + 1];
    return { begIdx, outputs: outPtrs.map((p) => Array.from(M.HEAPF64.subarray(p / 8, p / 8 + nb))) };
  } finally {
    M._free(intPtr);
    [...outPtrs, ...inPtrs].forEach((p) => M._free(p));
  }
}

const SMA_MA_TYPE = 0; // TA_MAType_SMA
const D13 = {
  macd: {
    fn: "TA_MACD",
    inputs: SERIES_TYPES.map((type) => ({ prefix: type, series: [type] })),
    sets: [[12, 26, 9], [6, 13, 5], [2, 3, 2], [5, 50, 20]], // not signal 1: see README.md
    args: (set) => set,
    lookback: ([, slow, signal]) => slow - 1 + signal - 1,
    outputs: ["macd", "signal", "hist"],
  },
  bbands: {
    fn: "TA_BBANDS",
    inputs: SERIES_TYPES.map((type) => ({ prefix: type, series: [type] })),
    sets: [[20, 2], [5, 1.5], [2, 1], [50, 2.5]],
    args: ([window, k]) => [window, k, k, SMA_MA_TYPE],
    lookback: ([window]) => window - 1,
    outputs: ["upper", "middle", "lower"],
  },
  atr: {
    fn: "TA_ATR",
    inputs: [{ prefix: "atr", series: ["high", "low", "close"] }],
    sets: [[1], [2], [5], [14], [50]],
    args: (set) => set,
    lookback: ([window]) => window,
    outputs: ["value"],
  },
  stoch: {
    fn: "TA_STOCH",
    inputs: [{ prefix: "stoch", series: ["high", "low", "close"] }],
    sets: [[9, 3, 3], [5, 3, 3], [14, 1, 1], [1, 1, 1], [20, 5, 7]],
    args: ([n, m1, m2]) => [n, m1, SMA_MA_TYPE, m2, SMA_MA_TYPE],
    lookback: ([n, m1, m2]) => n - 1 + m1 - 1 + m2 - 1,
    outputs: ["k", "d"],
  },
};

function generateD13(M) {
  const written = [];
  for (const { file, modes } of INPUTS) {
    const { rows } = readCanonical(join(dataDir, file));
    const symbol = rows[0].symbol;
    for (const mode of modes) {
      for (const [name, ind] of Object.entries(D13)) {
        const columns = [];
        for (const { prefix, series } of ind.inputs) {
          const inputs = series.map((type) => seriesOf(rows, type, mode));
          for (const set of ind.sets) {
            const lookback = ind.lookback(set);
            const { begIdx, outputs } = callTalibMulti(M, ind.fn, inputs, ind.args(set),
                                                       ind.outputs.length);
            const expected = Math.max(0, rows.length - lookback);
            if (expected > 0 && begIdx !== lookback) fail(`${ind.fn}(${set}): outBegIdx ${begIdx}`);
            ind.outputs.forEach((output, o) => {
              const values = outputs[o];
              if (values.length !== expected) fail(`${ind.fn}(${set}): outNBElement ${values.length}`);
              if (!values.every(Number.isFinite)) fail(`${ind.fn}(${set}): non-finite value`);
              columns.push({ name: [prefix, ...set, output].join("_"), lookback, values });
            });
          }
        }
        const lines = [["trade_date", ...columns.map((c) => c.name)].join(",")];
        rows.forEach((row, i) => {
          const cells = columns.map((c) => (i < c.lookback ? "" : String(c.values[i - c.lookback])));
          lines.push([row.trade_date, ...cells].join(","));
        });
        const out = `${symbol}_${mode}_${name}.csv`;
        writeFileSync(join(here, out), lines.join("\n") + "\n");
        written.push(out);
      }
    }
  }
  return written;
}

const M = await initTalib();
for (const out of [...generate(M), ...generateD13(M)]) console.log(`wrote tests/data/talib/${out}`);
