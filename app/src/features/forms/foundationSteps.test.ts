import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { firstStepWith, STEPS, stepOf } from "./foundationSteps";

describe("the foundation application's steps", () => {
  it("asks each field in its step: rows by their list, the proposal with the budget, the rest with the project", () => {
    const asked: [string, string][] = [
      ["applicants[2].email", "applicants"],
      ["organisation.registrationNumber", "organisation"],
      ["budget[0].amountTzs", "budget"],
      ["proposal", "budget"],
      ["location.district", "project"],
      ["team.size", "project"],
    ];
    assert.deepEqual(
      asked.map(([field]) => [field, stepOf(field)]),
      asked,
    );
  });

  it("shows the first step with a refused field, whatever order the server names them in", () => {
    assert.equal(
      firstStepWith({ "budget[1].item": { key: "required" }, "organisation.name": { key: "required" } }),
      STEPS.indexOf("organisation"),
    );
    assert.equal(
      firstStepWith({ form: { key: "unreadable" } }),
      undefined,
      "a problem with the whole form is no step's",
    );
    assert.equal(firstStepWith({}), undefined);
  });
});
