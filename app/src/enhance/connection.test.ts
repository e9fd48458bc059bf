import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fastConnection, type Timing } from "./connection";

/** A document of `bytes` asked for at 0, its first byte after `firstByte` ms and its last `body` ms later. */
const load = (firstByte: number, body: number, bytes = 6000): Timing => ({
  requestStart: 0,
  responseStart: firstByte,
  responseEnd: firstByte + body,
  transferSize: bytes,
});

describe("fastConnection", () => {
  it("is fast when the page's own document came quickly, whatever the browser calls the link", () => {
    assert.equal(fastConnection({ effectiveType: "3g" }, load(30, 2)), true);
    assert.equal(fastConnection({}, load(100, 25, 60_000)), true);
  });

  it("is not fast on a 2G-like link the browser reports as 3g (400 ms, 50 KB/s)", () => {
    assert.equal(fastConnection({ effectiveType: "3g" }, load(420, 120)), false);
  });

  it("takes the server's own time off the wait for the first byte", () => {
    const rendered = { ...load(900, 2), serverTiming: [{ name: "app", duration: 860 }] };
    assert.equal(fastConnection({}, rendered), true);
    assert.equal(fastConnection({}, { ...rendered, serverTiming: [{ name: "db", duration: 860 }] }), false);
  });

  it("is not fast when the first byte came soon but the body slowly", () => {
    assert.equal(fastConnection({}, load(60, 300, 15_000)), false);
  });

  it("is never fast saving data or on a link the browser calls 2G, and fast on Wi-Fi without them", () => {
    assert.equal(fastConnection({ saveData: true, type: "wifi" }, load(5, 1)), false);
    assert.equal(fastConnection({ effectiveType: "slow-2g" }, load(5, 1)), false);
    assert.equal(fastConnection({ type: "wifi" }, load(900, 900)), true);
  });

  it("is not fast when the page says nothing of the link (from a cache, or no timing)", () => {
    assert.equal(fastConnection({}, { ...load(1, 1), transferSize: 0 }), false);
    assert.equal(fastConnection({}, undefined), false);
  });
});
