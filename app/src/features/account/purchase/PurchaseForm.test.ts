import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readPurchase } from "./PurchaseForm";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("reading the purchase form", () => {
  it("buys for a friend only when a friend is chosen", () => {
    const chosen = { bundleId: "data-daily-1gb", purchaseChannel: "MPESA", subscriber: "0754000002" };
    assert.deepEqual(readPurchase(form({ ...chosen, recipient: "self" }), false), {
      body: { bundleId: "data-daily-1gb", purchaseChannel: "MPESA" },
    });
    assert.deepEqual(readPurchase(form({ ...chosen, recipient: "friend" }), false), {
      body: { bundleId: "data-daily-1gb", purchaseChannel: "MPESA", subscriber: "255754000002" },
    });
    assert.deepEqual(readPurchase(form({ ...chosen, recipient: "friend", subscriber: "07" }), false), {
      invalid: "invalidMsisdn",
      field: "subscriber",
    });
    assert.deepEqual(readPurchase(form({ purchaseChannel: "AIRTIME" }), false), {
      invalid: "chooseBundle",
      field: "bundleId",
    });
    assert.deepEqual(readPurchase(form({ ...chosen, recipient: "friend" }), true), {
      body: { bundleId: "data-daily-1gb", purchaseChannel: "MPESA", forModem: "true" },
    });
  });
});
