import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { HOME, PAGE_QUERY, localePath, parseLang, pathOf, routeByName, routes, splitLang } from "./routes";
import { pages } from "./pages";
import { languagePaths } from "./testing/twins";

describe("route table", () => {
  it("has unique names and paths and ends with the not-found catch-all", () => {
    assert.equal(new Set(routes.map((r) => r.name)).size, routes.length);
    const paths = routes.filter((r) => r.path).map((r) => r.path);
    assert.equal(new Set(paths).size, paths.length);
    const last = routes[routes.length - 1];
    assert.equal(last.path, "/*");
    assert.equal(last.page, "notFound");
  });

  it("tells every list's pages apart by their page number, and labels every visible route by its name", () => {
    const lists = routes.filter((r) => r.list);
    assert.ok(lists.length >= 10);
    for (const route of lists) assert.ok(route.query?.includes(PAGE_QUERY), route.name);
    const business = routes.filter((r) => r.page === "businessCategory");
    assert.equal(business.length, 10);
    for (const route of business)
      assert.equal(route.path, `/vodacom-business/${route.list?.filter?.value}/${route.path.split("/").pop()}`);
    for (const route of routes.filter((r) => !r.meta.invisible)) assert.equal(route.meta.navigation, route.name);
    assert.equal(routeByName("device")?.meta.navigation, undefined, "an invisible route has no label but where given");
  });

  it("finds a page kind's path as the server does: its first route's", () => {
    assert.equal(pathOf("account"), "/account");
    assert.equal(pathOf("cpmLogin"), "/cpm-login");
    assert.equal(pathOf("search"), "/search");
    assert.equal(pathOf("content"), routeByName(HOME)?.path);
    assert.equal(routeByName(HOME)?.path, "/");
  });

  it("gives every route with an address a page component or a redirect", () => {
    for (const route of routes.filter((r) => r.path)) {
      if (route.page) assert.equal(typeof pages[route.page], "function", route.name);
      else assert.ok(route.redirect, `${route.name} has neither page nor redirect`);
    }
  });

  it("gives every menu entry a parent that exists", () => {
    for (const route of routes.filter((r) => r.parent)) {
      assert.ok(
        routes.some((r) => r.name === route.parent),
        `${route.name} → ${route.parent}`,
      );
    }
  });

  it("gives popups only to content pages, whose body shows them after the heading", () => {
    for (const route of routes.filter((r) => r.popups)) assert.equal(route.page, "content", route.name);
  });

  it("names the parent of every pass-through route", () => {
    for (const route of routes.filter((r) => r.meta.isPassThrough)) {
      assert.ok(
        routes.some((r) => r.name === route.parent),
        route.name,
      );
    }
  });
});

describe("languages", () => {
  it("falls back to English for anything but en or sw", () => {
    assert.equal(parseLang("sw"), "sw");
    assert.equal(parseLang("en"), "en");
    assert.equal(parseLang("fr"), "en");
    assert.equal(parseLang(undefined), "en");
  });

  it("prefixes Swahili paths and strips the prefix again", () => {
    assert.equal(localePath("en", "/voice-sms"), "/voice-sms");
    assert.equal(localePath("sw", "/voice-sms"), "/sw/voice-sms");
    assert.equal(localePath("sw", "/"), "/sw");
    assert.deepEqual(splitLang("/sw"), { lang: "sw", path: "/" });
    assert.deepEqual(splitLang("/sw/voice-sms"), { lang: "sw", path: "/voice-sms" });
    assert.deepEqual(splitLang("/swipe-win"), { lang: "en", path: "/swipe-win" });
  });

  it("splits and prefixes every address in tests/twins as the server does", () => {
    for (const { path, lang, local, href } of languagePaths.paths) {
      assert.deepEqual(splitLang(path), { lang, path: local }, JSON.stringify(path));
      assert.equal(localePath(lang, local), href, JSON.stringify(path));
    }
    for (const { value, lang } of languagePaths.codes) assert.equal(parseLang(value), lang, JSON.stringify(value));
  });
});
