import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { translator } from "../../../i18n";
import { noticeText, noticeToast } from "./notices";

const en = translator("en").t;
const sw = translator("sw").t;

describe("notices as toasts", () => {
  it("translates a key into the visitor's language", () => {
    assert.deepEqual(noticeToast({ type: "warning", key: "purchaseReceived" }, en), {
      type: "warning",
      title: "Success",
      text: "Your Request has being received",
    });
    assert.equal(noticeText({ type: "warning", key: "purchaseReceived" }, sw), "Ombi Lako Limepokelewa");
    assert.equal(noticeText({ type: "error", key: "errorOccurred" }, sw), "Kuna hitilafu imetokea");
    assert.equal(
      noticeText({ type: "error", key: "sessionExpired" }, en),
      "Your session has expired. Please log in again.",
    );
    assert.equal(
      noticeText({ type: "error", key: "notRight" }, en),
      "Something is not right!, Please try Again or contact Customer Support",
    );
    assert.equal(noticeText({ type: "error", key: "balanceError" }, en), "Sorry an Error occured");
    assert.equal(noticeText({ type: "warning", key: "otpSent" }, en), "Sent The OTP to your Phone Number");
  });

  it("words the purchase and modem notices the account API sends in both languages", () => {
    assert.equal(
      noticeText({ type: "error", key: "sessionExpired" }, sw),
      "Muda wako wa kuingia umekwisha. Tafadhali ingia tena.",
    );
    assert.equal(
      noticeText({ type: "error", key: "cannotSendTo" }, en),
      "This bundle cannot be sent to that number. Check the number and try again",
    );
    assert.equal(
      noticeText({ type: "error", key: "cannotSendTo" }, sw),
      "Kifurushi hiki hakiwezi kutumwa kwa namba hiyo. Hakikisha namba kisha ujaribu tena",
    );
    for (const key of ["cannotSendTo", "modemNotRegistered", "modemCodeSent", "modemRegistered"]) {
      for (const t of [en, sw])
        assert.notEqual(
          noticeText({ type: "warning", key }, t),
          noticeText({ type: "warning", key: "fromTheFuture" }, t),
          key,
        );
    }
    assert.deepEqual(noticeToast({ type: "warning", key: "modemRegistered" }, sw), {
      type: "warning",
      title: "Imefanikiwa",
      text: "Namba yako sasa imesajiliwa kwa ajili ya modemu hii",
    });
  });

  it("words a wait in the plural its count needs, from the number the server sends", () => {
    const wait = (key: string, params: Record<string, string>) => ({ type: "error" as const, key, params });
    assert.equal(
      noticeText(wait("codeWaitSeconds", { seconds: "1" }), en),
      "Too many code requests. Please wait 1 second before asking for a new code",
    );
    assert.equal(
      noticeText(wait("codeWaitSeconds", { seconds: "42" }), en),
      "Too many code requests. Please wait 42 seconds before asking for a new code",
    );
    assert.equal(
      noticeText(wait("codeWaitMinutes", { minutes: "1" }), en),
      "Too many code requests. Please wait 1 minute before asking for a new code",
    );
    assert.equal(
      noticeText(wait("codeWaitMinutes", { minutes: "4" }), en),
      "Too many code requests. Please wait 4 minutes before asking for a new code",
    );
    assert.equal(
      noticeText(wait("codeWaitMinutes", { minutes: "1" }), sw),
      "Maombi mengi mno ya msimbo. Tafadhali subiri dakika 1 kabla ya kuomba msimbo mpya",
    );
    assert.equal(
      noticeText(wait("codeWaitSeconds", { seconds: "42" }), sw),
      "Maombi mengi mno ya msimbo. Tafadhali subiri sekunde 42 kabla ya kuomba msimbo mpya",
    );
  });

  it("titles errors Error / Hitilafu and keeps a given duration", () => {
    assert.deepEqual(noticeToast({ type: "error", key: "somethingWentWrong", duration: 7000 }, en), {
      type: "error",
      title: "Error",
      text: "Something went wrong",
      duration: 7000,
    });
    assert.equal(noticeToast({ type: "error", key: "invalidMsisdn" }, sw).title, "Hitilafu");
    assert.equal(noticeToast({ type: "info", text: "Sent" }, en).title, "Information");
  });

  it("shows the operator's text as it came, and an unknown key as a generic failure", () => {
    assert.equal(noticeText({ type: "error", text: "Salio halitoshi", key: "errorOccurred" }, sw), "Salio halitoshi");
    assert.equal(noticeText({ type: "error", key: "fromTheFuture" }, en), "Something went wrong");
    assert.equal(noticeText({ type: "error" }, en), "Something went wrong");
  });
});
