// Saves render requests (`{url, data, expectedHtml}`, as `render-node.mjs
// --save` does) from a running site with the sandbox operator API: one page
// of each page kind (render-node.mjs's KIND_PATHS), /account signed in, and
// the CPM page with a CPM session.
//
//   node bench/requests/save.mjs <site-url> <out.json> [--sitemap]
//
// `--sitemap` adds every URL of the site's /sitemap.xml (both languages), for
// `render-node.mjs --compare`. `kinds.json` beside this script is its output
// for the embedded content (`site` with no CMS_URL and no DIGITAL_API_URL).
import { writeFileSync } from "node:fs";
import { KIND_PATHS, loadPages } from "../render-node.mjs";

const SUBSCRIBER = "0754000001";
const CPM_SUBSCRIBER = "0754000002";

/** The session cookies of `msisdn` signed in at `/api/<api>/…` with the sandbox's code. */
async function signIn(site, api, msisdn, purpose) {
  const cookies = new Map();
  const post = async (path, body) => {
    const response = await fetch(new URL(path, site), {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin", cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  await post(`/api/${api}/request-otp`, { msisdn });
  const international = `255${msisdn.slice(1)}`;
  const inbox = await (await fetch(new URL(`/sandbox/inbox?msisdn=${international}&purpose=${purpose}`, site))).json();
  if (!inbox.code) throw new Error(`no ${purpose} code in the sandbox inbox: ${JSON.stringify(inbox)}`);
  await post(`/api/${api}/validate-otp`, { msisdn, code: inbox.code });
  return [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

const args = process.argv.slice(2);
const sitemap = args.includes("--sitemap");
const [site, out] = args.filter((arg) => arg !== "--sitemap");
if (!site || !out) {
  console.error("usage: node bench/requests/save.mjs <site-url> <out.json> [--sitemap]");
  process.exit(2);
}
let paths = KIND_PATHS;
if (sitemap) {
  const xml = await (await fetch(new URL("/sitemap.xml", site))).text();
  const listed = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map(([, loc]) => new URL(loc).pathname);
  paths = [...new Set([...KIND_PATHS, ...listed, "/account?step=code&msisdn=0754000001", "/sw/cpm-login", "/sw/account"])];
}
const pages = [
  ...(await loadPages(site, paths)),
  ...(await loadPages(site, ["/account", "/sw/account"], { cookie: await signIn(site, "auth", SUBSCRIBER, "sign-in") })),
  ...(await loadPages(site, ["/customer-permission-management"], { cookie: await signIn(site, "cpm", CPM_SUBSCRIBER, "cpm") })),
];
writeFileSync(out, JSON.stringify(pages));
console.log(`${pages.length} requests saved to ${out}`);
