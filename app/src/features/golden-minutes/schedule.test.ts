import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isGoldenMinutes } from "./schedule";

describe("isGoldenMinutes", () => {
  it("is on from 19:00 to just before 20:00 East Africa Time", () => {
    assert.equal(isGoldenMinutes(new Date("2025-06-01T18:59:59+03:00")), false);
    assert.equal(isGoldenMinutes(new Date("2025-06-01T19:00:00+03:00")), true);
    assert.equal(isGoldenMinutes(new Date("2025-06-01T19:59:59+03:00")), true);
    assert.equal(isGoldenMinutes(new Date("2025-06-01T20:00:00+03:00")), false);
  });

  it("judges the instant, whatever time zone it is written in", () => {
    // 17:30 in London (UTC+1 in summer) is 19:30 in Dar es Salaam.
    assert.equal(isGoldenMinutes(new Date("2025-07-01T17:30:00+01:00")), true);
    // 19:30 in Johannesburg (UTC+2) is 20:30 in Dar es Salaam.
    assert.equal(isGoldenMinutes(new Date("2025-07-01T19:30:00+02:00")), false);
    // 16:00 UTC is 19:00 EAT; midnight UTC is 03:00 EAT.
    assert.equal(isGoldenMinutes(new Date(Date.UTC(2025, 0, 1, 16, 0, 0))), true);
    assert.equal(isGoldenMinutes(new Date(Date.UTC(2025, 0, 1, 0, 0, 0))), false);
  });
});
