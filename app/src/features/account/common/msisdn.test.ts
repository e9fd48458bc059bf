import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { codes, phoneNumbers } from "../../../testing/twins";
import { isOtpCode, localMsisdn, parseMsisdn } from "./msisdn";
import { readCode, readNumber } from "./fields";
import { formData } from "../../../testing/formData";

describe("parseMsisdn", () => {
  it("accepts every Tanzanian form and gives international digits", () => {
    for (const input of [
      "+255754000001",
      "255754000001",
      "0754000001",
      "754000001",
      "0754 000 001",
      "+255 (754) 000-001",
      " 0754.000.001 ",
    ]) {
      assert.equal(parseMsisdn(input), "255754000001", input);
    }
    assert.equal(parseMsisdn("0654123456"), "255654123456");
  });

  it("refuses what is not a Tanzanian mobile number", () => {
    for (const input of [
      "",
      "12345",
      "+254712345678",
      "07540000011",
      "075400000",
      "abc",
      "0222123456",
      "255",
      "+255 754 000 00",
      "++255754000001",
      "00255754000001",
    ]) {
      assert.equal(parseMsisdn(input), null, input);
    }
  });
});

describe("isOtpCode", () => {
  it("wants exactly six digits", () => {
    assert.ok(isOtpCode("123456"));
    assert.ok(isOtpCode(" 123456 "));
    for (const input of ["", "12345", "1234567", "12a456", "12 456"]) assert.equal(isOtpCode(input), false, input);
  });
});

describe("showing numbers", () => {
  it("writes a number the local way", () => {
    assert.equal(localMsisdn("255754000001"), "0754 000 001");
    assert.equal(localMsisdn("not a number"), "not a number");
  });
});

describe("the server's cases (tests/twins)", () => {
  it("reads every phone number as the server does, and refuses with its notice", () => {
    for (const { input, msisdn, local } of phoneNumbers.accepted) {
      assert.equal(parseMsisdn(input), msisdn, JSON.stringify(input));
      assert.equal(localMsisdn(msisdn), local, msisdn);
      assert.deepEqual(readNumber(formData({ msisdn: input })), { body: { msisdn } }, JSON.stringify(input));
    }
    for (const input of phoneNumbers.refused) {
      assert.equal(parseMsisdn(input), null, JSON.stringify(input));
      assert.deepEqual(
        readNumber(formData({ msisdn: input })),
        { invalid: phoneNumbers.notice, field: "msisdn" },
        JSON.stringify(input),
      );
    }
  });

  it("reads every code as the server does, and refuses with its notice", () => {
    for (const { input, code } of codes.accepted) {
      assert.ok(isOtpCode(input), JSON.stringify(input));
      assert.deepEqual(
        readCode(formData({ msisdn: "255754000001", code: input })),
        { body: { msisdn: "255754000001", code } },
        JSON.stringify(input),
      );
    }
    for (const input of codes.refused) {
      assert.equal(isOtpCode(input), false, JSON.stringify(input));
      assert.deepEqual(
        readCode(formData({ msisdn: "255754000001", code: input })),
        { invalid: codes.notice, field: "code" },
        JSON.stringify(input),
      );
    }
  });
});

describe("reading the sign-in forms", () => {
  it("sends numbers in international form and refuses bad ones before any call", () => {
    assert.deepEqual(readNumber(formData({ msisdn: "0754 000 001" })), { body: { msisdn: "255754000001" } });
    assert.deepEqual(readNumber(formData({ msisdn: "12345" })), { invalid: "invalidMsisdn", field: "msisdn" });
    assert.deepEqual(readCode(formData({ msisdn: "255754000001", code: "12a456" })), {
      invalid: "invalidCode",
      field: "code",
    });
  });
});
