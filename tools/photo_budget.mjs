// What a phone downloads for pages with photos: the newsroom of
// tools/photo_fixture.mjs served by tools/strapi_fixture.py, and a visit at
// 390 px, DPR 2, empty cache, counted through the DevTools protocol as
// Chromium counts transfers (compressed bodies and headers). Used by the
// browser test of the image budget (app/e2e/images.test.mjs) and by `make
// bench` (bench/images.mjs).
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { makeNewsroom } from "./photo_fixture.mjs";

const root = resolve(import.meta.dirname, "..");

export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** The newsroom in `dir` served Strapi 5-style; resolves to { url, photos, stop }. */
export async function startNewsroom(dir) {
  const { content, media, photos, uploads } = await makeNewsroom(dir);
  const child = spawn("python3", [join(root, "tools/strapi_fixture.py"), "--port", "0", "--shape", "v5", "--content", content, "--media", media], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((ok, fail) => {
    child.once("exit", (code) => fail(new Error(`strapi_fixture.py exited with ${code}`)));
    child.stdout.on("data", (chunk) => {
      const match = /listening on (\S+)/.exec(String(chunk));
      if (match) ok(match[1]);
    });
  });
  return {
    url,
    photos,
    uploads,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode === null ? child.once("exit", r) : r()));
    },
  };
}

/**
 * Opens `url` in a fresh context; resolves to the bytes of its first view
 * (everything up to the load event and the network going quiet), of its
 * photos once scrolled to the end (`scroll`), and for each picture shown
 * its address, type, pixels sent against device pixels shown, and bytes.
 */
export async function visit(browser, url, { scroll = false } = {}) {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const requests = new Map();
  let bytes = 0;
  cdp.on("Network.responseReceived", ({ requestId, type, response }) => {
    requests.set(requestId, { url: response.url, type, mime: response.mimeType, status: response.status, bytes: 0 });
  });
  cdp.on("Network.loadingFinished", ({ requestId, encodedDataLength }) => {
    const request = requests.get(requestId);
    if (request) request.bytes = encodedDataLength;
    bytes += encodedDataLength;
  });
  try {
    await page.goto(url, { waitUntil: "load", timeout: 120_000 });
    await page.waitForLoadState("networkidle", { timeout: 60_000 }).catch(() => {});
    const firstView = bytes;
    const firstImages = [...requests.values()].filter((r) => r.type === "Image");
    if (scroll) {
      await page.evaluate(async () => {
        while (window.scrollY + window.innerHeight < document.documentElement.scrollHeight - 2) {
          window.scrollBy(0, window.innerHeight / 2);
          await new Promise((r) => setTimeout(r, 150));
        }
      });
      await page.waitForLoadState("networkidle", { timeout: 60_000 }).catch(() => {});
      await page.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 60_000 });
    }
    const shown = await page.evaluate(() =>
      [...document.images]
        .filter((img) => img.complete && img.naturalWidth > 0 && img.currentSrc)
        .map((img) => ({ src: img.currentSrc, natural: img.naturalWidth, naturalHeight: img.naturalHeight, devicePixels: img.getBoundingClientRect().width * devicePixelRatio, lazy: img.loading === "lazy" })),
    );
    const images = [...requests.values()].filter((r) => r.type === "Image");
    return {
      firstView,
      firstImages,
      imageBytes: images.reduce((sum, r) => sum + r.bytes, 0),
      images,
      shown,
      /** The pictures fetched first: a page's main picture. */
      first: await page.evaluate(() => [...document.querySelectorAll("img[fetchpriority=high]")].map((img) => img.currentSrc)),
    };
  } finally {
    await context.close();
  }
}

/**
 * The same visit as the markup before the image endpoint would have cost
 * it: each photo it showed sent as uploaded (the original's bytes) instead.
 */
export function asUploaded(measured, photos, images) {
  const original = (address) => {
    const path = new URL(address).pathname;
    const upload = path.startsWith("/img/") ? `/${path.split("/").slice(4).join("/")}` : path;
    return photos[upload];
  };
  return images.reduce((sum, r) => sum - r.bytes + (original(r.url) ?? r.bytes), measured);
}
