// Signed-in page times while the operator API hangs: starts one `site` as
// the operator sandbox, a fault-injecting proxy in front of its API
// (`tools/operator-proxy.mjs`) and the site under test pointed at the proxy
// (`DIGITAL_API_URL`), signs a subscriber in, then times `/` and `/account`
// for that subscriber with the API answering and with it hung (and an
// anonymous `/` for reference). Prints seconds per request (median of
// `RUNS`, default 3). Asserts nothing: the numbers are for reading.
//
//   node bench/operator-hang.mjs                 # SITE_BIN, default target/release/site
//   SITE_BIN=target/debug/site DIGITAL_API_TIMEOUT_MS=10000 node bench/operator-hang.mjs
//   ACCOUNT_CACHE_SECS=0 node bench/operator-hang.mjs   # every account page asks the operator
import { resolve } from "node:path";
import { startSite } from "../app/e2e/harness.mjs";
import { startOperatorProxy } from "../tools/operator-proxy.mjs";

const root = resolve(import.meta.dirname, "..");
process.env.SITE_BIN ||= resolve(root, "target/release/site");
const RUNS = Number(process.env.RUNS || 3);
const AMINA = { local: "0754000001", international: "255754000001" };
const quiet = { RENDER_WORKERS: "1", PRERENDER: "false", METRICS_ADDR: "off" };

const sandbox = await startSite(quiet);
const proxy = await startOperatorProxy(`${sandbox.base}/sandbox/digital`);
const site = await startSite({ ...quiet, DIGITAL_API_URL: `${proxy.url}/` });
try {
  const post = (path, body) =>
    fetch(site.base + path, { method: "POST", headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" }, body: JSON.stringify(body) });
  await post("/api/auth/request-otp", { msisdn: AMINA.local });
  const { code } = await (await fetch(`${sandbox.base}/sandbox/inbox?msisdn=${AMINA.international}`)).json();
  const signedIn = await post("/api/auth/validate-otp", { msisdn: AMINA.local, code });
  if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.status}`);
  const cookie = signedIn.headers.get("set-cookie").split(";")[0];

  const time = async (path, headers = {}) => {
    const started = performance.now();
    const response = await fetch(site.base + path, { headers });
    await response.text();
    return (performance.now() - started) / 1000;
  };
  const median = async (path, headers) => {
    const times = [];
    for (let run = 0; run < RUNS; run++) times.push(await time(path, headers));
    return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  };
  const rows = [];
  const measure = async (what, path, headers) => rows.push([what, path, (await median(path, headers)).toFixed(3)]);

  await time("/");
  await measure("anonymous", "/", {});
  await measure("signed in, API answering", "/", { cookie });
  await measure("signed in, API answering", "/account", { cookie });
  proxy.behave("hang");
  await measure("anonymous, API hung", "/", {});
  await measure("signed in, API hung", "/", { cookie });
  await measure("signed in, API hung", "/account", { cookie });
  const setting = (name) => `${name}=${process.env[name] ?? "default"}`;
  console.log(`site: ${process.env.SITE_BIN}; ${setting("DIGITAL_API_TIMEOUT_MS")}; ${setting("ACCOUNT_CACHE_SECS")}; median of ${RUNS}`);
  for (const [what, path, secs] of rows) console.log(`${what.padEnd(28)} ${path.padEnd(9)} ${secs} s`);
  console.log(`operator API requests through the proxy: ${proxy.requests().length}`);
} finally {
  await proxy.stop();
  await site.stop();
  await sandbox.stop();
}
