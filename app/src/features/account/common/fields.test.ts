import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readCode, readNumber } from "./fields";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("reading the sign-in forms", () => {
  it("sends numbers in international form and refuses bad ones before any call", () => {
    assert.deepEqual(readNumber(form({ msisdn: "0754 000 001" })), { body: { msisdn: "255754000001" } });
    assert.deepEqual(readNumber(form({ msisdn: "12345" })), { invalid: "invalidMsisdn", field: "msisdn" });
    assert.deepEqual(readCode(form({ msisdn: "255754000001", code: "12a456" })), {
      invalid: "invalidCode",
      field: "code",
    });
  });
});
