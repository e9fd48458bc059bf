import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { formFields } from "../../testing/twins";
import { nest } from "./send";

describe("nest", () => {
  it("builds the JSON the server reads from flat input names", () => {
    const value = nest(
      [
        ["name", "Amina"],
        ["services", "iot"],
        ["services", "hosting"],
        ["applicants[1].email", "b@example.org"],
        ["applicants[0].email", "a@example.org"],
        ["organisation.type", "ngo"],
      ],
      ["services"],
    );
    assert.deepEqual(JSON.parse(JSON.stringify(value)), {
      services: ["iot", "hosting"],
      name: "Amina",
      applicants: [{ email: "a@example.org" }, { email: "b@example.org" }],
      organisation: { type: "ngo" },
    });
  });

  it("keeps a list a list when one box is ticked, or none", () => {
    assert.deepEqual(nest([["services", "iot"]], ["services"]), { services: ["iot"] });
    assert.deepEqual(nest([], ["services"]), { services: [] });
  });

  it("nests every case in tests/twins as the server nests a form posted without JavaScript", () => {
    for (const { pairs, value } of formFields)
      assert.deepEqual(JSON.parse(JSON.stringify(nest(pairs))), value, JSON.stringify(pairs));
  });
});
