import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { withFullStop } from "../../format";
import { DEFAULT_DURATION } from "./toast";

describe("toasts", () => {
  it("appends a full stop to the text unless it ends a sentence already", () => {
    assert.equal(withFullStop("Failed to Load Content"), "Failed to Load Content.");
    assert.equal(withFullStop("Sent The OTP to your Phone Number."), "Sent The OTP to your Phone Number.");
    assert.equal(withFullStop("Something is not right!"), "Something is not right!");
  });

  it("lasts 3000 ms by default", () => {
    assert.equal(DEFAULT_DURATION, 3000);
  });
});
