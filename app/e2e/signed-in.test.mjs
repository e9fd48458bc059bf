// A signed-in subscriber on the pages for everyone: the server puts their
// name and "Log out" into the page it caches for everyone (issue 16), so the
// first HTML carries them, with JavaScript and without, in both languages,
// through client navigation too; logging out takes them off at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { hydrated, signInOnAccountPage, watchErrors, withSiteAndBrowser } from "./harness.mjs";

const AMINA = { local: "0754000001", international: "255754000001", names: "Amina Mwakyusa" };

let site;
let browser;
withSiteAndBrowser((started) => ({ site, browser } = started));

/** The header's account control. */
const control = (page) => page.getByRole("banner").locator(".header-tools");

/** The first HTML of `path` as the browser of `context` gets it (its cookies sent). */
async function firstHtml(context, path) {
  const response = await context.request.get(site.base + path);
  assert.equal(response.status(), 200, path);
  assert.equal(response.headers()["cache-control"], "private, no-store", path);
  return response.text();
}

test("a subscriber's name is in the first HTML of every page, with and without JavaScript, in both languages; logging out takes it off", async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signInOnAccountPage(page, site.base, site.base, AMINA);

  for (const [path, logOut] of [
    ["/voice-sms", "Log out"],
    ["/sw/internet-overview", "Toka"],
    ["/sw", "Toka"],
    ["/news-events", "Log out"],
  ]) {
    const html = await firstHtml(context, path);
    assert.match(
      html,
      new RegExp(`<a href="[^"]*" id="account-control" class="account-link">${AMINA.names}</a>`),
      `${path}: the name in the first HTML`,
    );
    assert.ok(html.includes(`<button type="submit" class="button">${logOut}</button>`), `${path}: ${logOut}`);
    await page.goto(site.base + path);
    await hydrated(page);
    await control(page).getByRole("link", { name: AMINA.names }).waitFor();
    await control(page).getByRole("button", { name: logOut }).waitFor();
  }
  await page.screenshot({ path: "/tmp/e2e-signed-in-sw.png" });
  // Client navigation: the next page, fetched by the script, names her too.
  await page.goto(site.base + "/voice-sms");
  await hydrated(page);
  await page.getByRole("banner").getByRole("link", { name: "Vodacom Tanzania" }).click();
  await page.waitForURL(site.base + "/");
  await control(page).getByRole("link", { name: AMINA.names }).waitFor();

  // Without JavaScript, the same cookies: the name, and "Log out" as a plain form.
  const plain = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await context.storageState(),
    viewport: { width: 390, height: 844 },
  });
  const plainPage = await plain.newPage();
  for (const [path, logOut] of [
    ["/internet-overview", "Log out"],
    ["/sw/voice-sms", "Toka"],
  ]) {
    await plainPage.goto(site.base + path);
    await control(plainPage).getByRole("link", { name: AMINA.names }).waitFor();
    await control(plainPage).getByRole("button", { name: logOut }).waitFor();
  }
  await plainPage.screenshot({ path: "/tmp/e2e-signed-in-nojs-sw.png" });
  await control(plainPage).getByRole("button", { name: "Toka" }).click();
  await plainPage.waitForURL(site.base + "/sw");
  await control(plainPage).getByRole("link", { name: "Ingia" }).waitFor();

  // Logged out there, the session is over here too: the page for everyone, at once.
  const after = await context.request.get(site.base + "/voice-sms");
  assert.match(after.headers()["cache-control"], /^public/, "the page for everyone again");
  assert.ok(!(await after.text()).includes(AMINA.names));
  await page.goto(site.base + "/voice-sms");
  await control(page).getByRole("link", { name: "Log in" }).waitFor();
  assert.equal(await page.getByText(AMINA.names).count(), 0);
  assert.deepEqual(errors, []);
  await plain.close();
  await context.close();
});
