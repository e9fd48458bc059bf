import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { formatDate, formatTzs } from "./format";

describe("formatTzs", () => {
  it("groups thousands the same way on every engine", () => {
    assert.equal(formatTzs(500), "TSh 500");
    assert.equal(formatTzs(25000), "TSh 25,000");
    assert.equal(formatTzs(1250000), "TSh 1,250,000");
  });
});

describe("formatDate", () => {
  it("writes a CMS date out in the page's language", () => {
    assert.equal(formatDate("2025-03-05", "en"), "5 March 2025");
    assert.equal(formatDate("2025-12-31", "sw"), "31 Desemba 2025");
  });

  it("leaves what it does not understand as it is", () => {
    assert.equal(formatDate("soon", "en"), "soon");
    assert.equal(formatDate("2025-13-01", "en"), "2025-13-01");
  });
});
