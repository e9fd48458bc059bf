import { describe, expect, it } from "vitest";
import en from "./en";
import sw from "./sw";

function leaves(value: unknown, prefix = ""): [string, unknown][] {
  if (typeof value !== "object" || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
}

describe("strings", () => {
  it("has every English string in Swahili, none empty", () => {
    const english = leaves(en);
    const swahili = new Map(leaves(sw));
    expect(swahili.size).toBe(english.length);
    for (const [key] of english) {
      expect(typeof swahili.get(key), key).toBe("string");
      expect((swahili.get(key) as string).trim(), key).not.toBe("");
    }
  });

  it("keeps interpolation placeholders in both languages", () => {
    const swahili = new Map(leaves(sw));
    for (const [key, text] of leaves(en)) {
      const placeholders = String(text).match(/{{\w+}}/g) ?? [];
      for (const placeholder of placeholders) expect(swahili.get(key), key).toContain(placeholder);
    }
  });
});
