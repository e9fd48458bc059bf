import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readPurchase } from "./PurchaseForm";
import { formData } from "../../../testing/formData";

describe("reading the purchase form", () => {
  it("buys for a friend only when a friend is chosen", () => {
    const chosen = { bundleId: "data-daily-1gb", purchaseChannel: "MPESA", subscriber: "0754000002" };
    assert.deepEqual(readPurchase(formData({ ...chosen, recipient: "self" }), false), {
      body: { bundleId: "data-daily-1gb", purchaseChannel: "MPESA" },
    });
    assert.deepEqual(readPurchase(formData({ ...chosen, recipient: "friend" }), false), {
      body: { bundleId: "data-daily-1gb", purchaseChannel: "MPESA", subscriber: "255754000002" },
    });
    assert.deepEqual(readPurchase(formData({ ...chosen, recipient: "friend", subscriber: "07" }), false), {
      invalid: "invalidMsisdn",
      field: "subscriber",
    });
    assert.deepEqual(readPurchase(formData({ purchaseChannel: "AIRTIME" }), false), {
      invalid: "chooseBundle",
      field: "bundleId",
    });
    assert.deepEqual(readPurchase(formData({ ...chosen, recipient: "friend" }), true), {
      body: { bundleId: "data-daily-1gb", purchaseChannel: "MPESA", forModem: "true" },
    });
  });
});
