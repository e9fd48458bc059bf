import { describe, it } from "node:test";
import assert from "node:assert/strict";
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
    assert.equal(swahili.size, english.length);
    for (const [key] of english) {
      const text = swahili.get(key);
      assert.equal(typeof text, "string", key);
      assert.notEqual((text as string).trim(), "", key);
    }
  });

  it("keeps interpolation placeholders in both languages", () => {
    const swahili = new Map(leaves(sw));
    for (const [key, text] of leaves(en)) {
      for (const placeholder of String(text).match(/{{\w+}}/g) ?? []) {
        assert.ok(String(swahili.get(key)).includes(placeholder), `${key} keeps ${placeholder}`);
      }
    }
  });
});
