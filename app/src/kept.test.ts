import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Kept } from "./kept";

describe("Kept", () => {
  it("gives back what it keeps, false and empty answers too", () => {
    const kept = new Kept<string | boolean>();
    assert.equal(kept.get("a"), undefined);
    assert.equal(kept.keep("a", ""), "");
    assert.equal(kept.keep("b", false), false);
    assert.equal(kept.get("a"), "");
    assert.equal(kept.get("b"), false);
  });

  it("forgets everything once full, then keeps again", () => {
    const kept = new Kept<number>(2);
    kept.keep("a", 1);
    kept.keep("b", 2);
    kept.keep("c", 3);
    assert.equal(kept.get("a"), undefined);
    assert.equal(kept.get("b"), undefined);
    assert.equal(kept.get("c"), 3);
  });
});
