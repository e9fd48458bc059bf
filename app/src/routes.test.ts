import { describe, expect, it } from "vitest";
import { localePath, parseLang, routes, splitLang } from "./routes";
import { pages } from "./pages";

describe("route table", () => {
  it("has unique names and paths and ends with the not-found catch-all", () => {
    expect(new Set(routes.map((r) => r.name)).size).toBe(routes.length);
    expect(new Set(routes.map((r) => r.path)).size).toBe(routes.length);
    const last = routes[routes.length - 1];
    expect(last.path).toBe("/*");
    expect(last.page).toBe("notFound");
  });

  it("gives every route a page component", () => {
    for (const route of routes) expect(pages[route.page]).toBeTypeOf("function");
  });

  it("names the parent of every pass-through route", () => {
    for (const route of routes.filter((r) => r.meta.isPassThrough)) {
      expect(routes.some((r) => r.name === route.parent)).toBe(true);
    }
  });
});

describe("languages", () => {
  it("falls back to English for anything but en or sw (spec §5)", () => {
    expect(parseLang("sw")).toBe("sw");
    expect(parseLang("en")).toBe("en");
    expect(parseLang("fr")).toBe("en");
    expect(parseLang(undefined)).toBe("en");
  });

  it("prefixes Swahili paths and strips the prefix again", () => {
    expect(localePath("en", "/voice-sms")).toBe("/voice-sms");
    expect(localePath("sw", "/voice-sms")).toBe("/sw/voice-sms");
    expect(localePath("sw", "/")).toBe("/sw");
    expect(splitLang("/sw")).toEqual({ lang: "sw", path: "/" });
    expect(splitLang("/sw/voice-sms")).toEqual({ lang: "sw", path: "/voice-sms" });
    expect(splitLang("/swipe-win")).toEqual({ lang: "en", path: "/swipe-win" });
  });
});
