import { describe, expect, it } from "vitest";
import { DEFAULT_DURATION, withFullStop } from "./Toasts";

describe("toasts", () => {
  it("appends a full stop to the text unless it ends a sentence already (spec §8)", () => {
    expect(withFullStop("Failed to Load Content")).toBe("Failed to Load Content.");
    expect(withFullStop("Sent The OTP to your Phone Number.")).toBe("Sent The OTP to your Phone Number.");
    expect(withFullStop("Something is not right!")).toBe("Something is not right!");
  });

  it("lasts 3000 ms by default (spec §9)", () => {
    expect(DEFAULT_DURATION).toBe(3000);
  });
});
