import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { jsonLdText } from "./structuredData";

describe("jsonLdText", () => {
  it("cannot close its script element or open a comment", () => {
    const text = jsonLdText({ name: "</script><script>alert(1)</script><!-- & -->" });
    assert.ok(!/[<>&]/.test(text), text);
    assert.equal(
      text,
      '{"name":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\u003c!-- \\u0026 --\\u003e"}',
    );
  });

  it("escapes the line and paragraph separators", () => {
    const text = jsonLdText({ text: "a\u2028b\u2029c" });
    assert.equal(text, '{"text":"a\\u2028b\\u2029c"}');
  });

  it("reads back as the same value", () => {
    const value = { headline: "M-Pesa <Ada & Makato>\u2028", n: 1 };
    assert.deepEqual(JSON.parse(jsonLdText(value)), value);
  });
});
