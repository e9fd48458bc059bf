import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { inFormOrder } from "./Fields";

describe("inFormOrder", () => {
  it("puts the server's messages in the order of the form, rows with their list", () => {
    const order = [
      "applicants",
      "applicants[].name",
      "applicants[].email",
      "organisation.name",
      "budget",
      "budget[].item",
      "budget[].amountTzs",
    ];
    const errors = {
      "organisation.name": "a",
      "budget[1].item": "b",
      budget: "c",
      "applicants[1].email": "d",
      "applicants[0].name": "e",
      applicants: "f",
      "budget[0].amountTzs": "g",
    };
    assert.deepEqual(
      inFormOrder(errors, order).map(([name]) => name),
      [
        "applicants",
        "applicants[0].name",
        "applicants[1].email",
        "organisation.name",
        "budget",
        "budget[0].amountTzs",
        "budget[1].item",
      ],
    );
  });
});
