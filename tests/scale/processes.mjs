// The processes of the tests that start real services (`make test-scale`,
// `make test-caches`): started on free loopback ports, their output kept
// for the log tails a failure prints, all stopped when the file's tests end.
// Each test file runs in its own process, so each has its own set.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { before, test as nodeTest } from "node:test";

/** The processes running now. */
export const children = new Set();
/** Every process started, running or not, for the log tails. */
export const everyChild = [];

/** `count` distinct free loopback ports: each listener is held until all are chosen. */
export async function freePorts(count) {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise((ok, fail) => {
      const server = createServer().listen(0, "127.0.0.1", () => ok(server));
      server.on("error", fail);
    })),
  );
  const chosen = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((ok) => server.close(ok))));
  return chosen;
}

/**
 * Starts `command` as `name`; its output is kept, the last 200 chunks of it,
 * or all of it with `keepAll` (for a test that reads its log).
 */
export function start(name, command, args, env = {}, { keepAll = false } = {}) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const log = [];
  const keep = (chunk) => log.push(chunk.toString()) > 200 && !keepAll && log.shift();
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.log = log;
  child.name = name;
  children.add(child);
  everyChild.push(child);
  child.on("exit", () => children.delete(child));
  return child;
}

export function stop(child, signal = "SIGKILL") {
  return new Promise((ok) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return ok();
    child.once("exit", () => ok());
    child.kill(signal);
  });
}

export const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** Polls `check` until it is truthy; the timeout names the last answer or error `check` gave. */
export async function waitFor(what, check, ms = 20000) {
  const until = Date.now() + ms;
  let last = "no answer";
  for (;;) {
    try {
      if (await check((seen) => (last = seen))) return;
    } catch (error) {
      last = error.cause?.message ?? error.message;
    }
    if (Date.now() > until) throw new Error(`${what} not within ${ms} ms; last: ${last}`);
    await sleep(50);
  }
}

export const up = (url) =>
  waitFor(url, async (saw) => {
    const response = await fetch(url);
    saw(`${response.status} ${(await response.text()).slice(0, 300)}`);
    return response.ok;
  });

/** What each process started so far printed last, and how it ended if it did. */
export function logTails() {
  for (const child of everyChild) {
    const ended = child.exitCode ?? child.signalCode;
    console.log(`--- ${child.name}${ended === null ? "" : ` (ended: ${ended})`} log tail ---\n${child.log.join("").slice(-3000)}`);
  }
}


/** Whether a test of this file failed: its `after` prints the log tails then. */
let failed = false;
export const anyFailed = () => failed;

/** `node:test`'s test, noting a failure for the log tails. */
export const test = (name, body) =>
  nodeTest(name, async (t) => {
    try {
      await body(t);
    } catch (error) {
      failed = true;
      throw error;
    }
  });

/** Runs `setUp` before the file's tests; where it fails, `tails` prints the log tails at once. */
export function setUpFirst(setUp, tails = logTails) {
  before(async () => {
    try {
      await setUp();
    } catch (error) {
      tails();
      throw error;
    }
  });
}
