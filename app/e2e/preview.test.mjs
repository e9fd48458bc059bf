// The CMS's preview in Chromium, against tools/strapi_fixture.py as the CMS
// and a page on another port standing in for Strapi's admin: inside the
// admin's frame the preview link opens the page with its bar, Strapi's
// `strapiUpdate` message from the admin's origin reloads it (the same
// message from any other origin does not), and in a tab the bar's exit
// leads back to the page as visitors see it, without the bar.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { launchBrowser, startSite, watchErrors } from "./harness.mjs";

const SECRET = "e2e-preview-secret";
const root = resolve(import.meta.dirname, "../..");

let cms;
let admin;
let site;
let browser;

function listen(server) {
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(`http://127.0.0.1:${server.address().port}`)));
}

async function startCms() {
  const probe = createServer();
  const port = Number(new URL(await listen(probe)).port);
  await new Promise((ok) => probe.close(ok));
  const child = spawn("python3", [resolve(root, "tools/strapi_fixture.py"), "--port", String(port), "--shape", "v5"], {
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${url}/api/home?locale=en`, { signal: AbortSignal.timeout(1000) });
      return { url, stop: () => child.kill() };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill();
  throw new Error("strapi_fixture.py did not start");
}

before(async () => {
  cms = await startCms();
  // The admin: a page framing whatever `?src=` names, as Strapi's preview does.
  admin = createServer((request, response) => {
    const src = new URL(request.url, "http://admin").searchParams.get("src") || "";
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(
      `<!doctype html><title>admin</title><iframe id="preview" src="${src.replace(/"/g, "&quot;")}" style="width:1000px;height:800px"></iframe>`,
    );
  });
  const adminUrl = await listen(admin);
  site = await startSite({
    CMS_URL: cms.url,
    CMS_ADMIN_URL: adminUrl,
    CMS_TOKEN: "e2e-token",
    PREVIEW_SECRET: SECRET,
    PRERENDER: "false",
    METRICS_ADDR: "off",
  });
  site.admin = adminUrl;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.stop();
  admin?.close();
  cms?.stop();
});

const previewLink = (path) =>
  `${site.base}/api/preview?${new URLSearchParams({ url: path, secret: SECRET, status: "draft" })}`;

test("inside the admin's frame: the bar, and a reload on the admin's update message alone", async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${site.admin}/?src=${encodeURIComponent(previewLink("/sw"))}`);
  const frame = page.frameLocator("#preview");
  await frame.locator(".preview-bar").waitFor();
  assert.match(await frame.locator(".preview-bar").textContent(), /Onyesho la awali: rasimu — toka/);
  const inner = page.frames().find((f) => f.url().startsWith(site.base));
  await inner.waitForFunction(() => document.documentElement.hasAttribute("data-ready"));
  await inner.evaluate(() => {
    window.marker = "before";
    // `location.reload()` fires the Navigation API's `navigate` event within
    // the call; kept in sessionStorage, which the reloaded page still reads.
    navigation.addEventListener("navigate", (event) => sessionStorage.setItem("e2e-navigate", event.navigationType));
  });
  // Posted by the page itself (its own origin, not the admin's): nothing happens.
  // The page's listener was added before `data-ready`, this one now: in the
  // message's one dispatch the page's runs first, so once this one has the
  // message the page has handled it, and a reload would have been recorded.
  await inner.evaluate(
    () =>
      new Promise((handled) => {
        window.addEventListener("message", (event) => event.data?.type === "strapiUpdate" && handled());
        window.postMessage({ type: "strapiUpdate" }, "*");
      }),
  );
  assert.equal(await inner.evaluate(() => sessionStorage.getItem("e2e-navigate")), null, "no navigation started");
  assert.equal(await inner.evaluate(() => window.marker), "before", "a message from another origin does not reload");
  // Posted by the admin: the preview reloads.
  const reloaded = inner.waitForNavigation();
  await page.evaluate(
    (origin) => document.getElementById("preview").contentWindow.postMessage({ type: "strapiUpdate" }, origin),
    site.base,
  );
  await reloaded;
  await inner.waitForFunction(() => document.documentElement.hasAttribute("data-ready"));
  assert.equal(await inner.evaluate(() => window.marker), undefined, "reloaded");
  // The record that stayed empty above saw this reload: its silence meant none.
  assert.equal(await inner.evaluate(() => sessionStorage.getItem("e2e-navigate")), "reload", "the reload was recorded");
  assert.ok(await frame.locator(".preview-bar").isVisible());
  assert.deepEqual(errors, []);
  await page.close();
});

test("in a tab: the bar's exit leads to the page as visitors see it", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(previewLink("/"));
  assert.equal(new URL(page.url()).pathname, "/");
  const bar = page.locator(".preview-bar");
  assert.ok(await bar.isVisible());
  assert.match(await bar.textContent(), /Preview: draft — exit/);
  await bar.getByRole("link", { name: "exit" }).click();
  await page.waitForURL(`${site.base}/`);
  await page.waitForLoadState();
  assert.equal(await page.locator(".preview-bar").count(), 0, "no bar once the preview ended");
  assert.equal(
    (await context.cookies()).filter((cookie) => cookie.name.includes("preview")).length,
    0,
    "the cookie is gone",
  );
  await context.close();
});
