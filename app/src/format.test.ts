import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { formatCount, formatDate, formatTzs } from "./format";

describe("formatTzs", () => {
  it("groups thousands the same way on every engine", () => {
    assert.equal(formatTzs(500), "TSh 500");
    assert.equal(formatTzs(25000), "TSh 25,000");
    assert.equal(formatTzs(1250000), "TSh 1,250,000");
  });
});

describe("formatCount", () => {
  it("groups as the thousands pattern does, whatever the number", () => {
    const pattern = (amount: number) =>
      Math.round(amount)
        .toString()
        .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    const amounts = [
      0,
      -0,
      1,
      12,
      123,
      1234,
      12345,
      123456,
      1234567,
      999.5,
      -1,
      -999,
      -1000,
      -1234567.6,
      2 ** 53,
      1e21,
      1.2345e21,
      -1e22,
      NaN,
      Infinity,
      -Infinity,
    ];
    for (let digits = 1; digits <= 21; digits++) amounts.push(Number("9".repeat(digits)), -Number("1".repeat(digits)));
    for (const amount of amounts) assert.equal(formatCount(amount), pattern(amount), String(amount));
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
