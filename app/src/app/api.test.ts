import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { callApi } from "./api";
import { PROTOCOL } from "../contract";

const realFetch = globalThis.fetch;
/** The requests made, each answered by `answer`. */
function stubFetch(answer: () => Promise<Response>) {
  const made: { url: string; init: RequestInit }[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    made.push({ url, init });
    return answer();
  }) as typeof fetch;
  return made;
}

describe("callApi", () => {
  afterEach(() => {
    globalThis.fetch = realFetch;
    console.warn = realWarn;
  });
  const realWarn = console.warn;

  it("sends JSON in the page's language with the form token and the fill's key, never from a cache", async () => {
    const made = stubFetch(async () => Response.json({ reference: "F-1" }, { status: 201 }));
    const answer = await callApi<{ reference: string }>("POST", "/api/forms/x", "sw", {
      body: { name: "Amina" },
      csrf: "t0k",
      idempotencyKey: "k1",
    });
    assert.deepEqual(answer, { status: 201, ok: true, body: { reference: "F-1" } });
    const { init } = made[0];
    const headers = init.headers as Record<string, string>;
    assert.equal(headers[PROTOCOL.langHeader], "sw");
    assert.equal(headers[PROTOCOL.csrfHeader], "t0k");
    assert.equal(headers[PROTOCOL.idempotencyHeader], "k1");
    assert.equal(headers["content-type"], "application/json");
    assert.equal(init.body, '{"name":"Amina"}');
    assert.equal(init.cache, "no-store");
  });

  it("sends a form with a file as multipart, its type left to the browser", async () => {
    const made = stubFetch(async () => Response.json({}, { status: 201 }));
    const body = new FormData();
    body.append("application", "{}");
    await callApi("POST", "/api/forms/y", "en", { body });
    const headers = made[0].init.headers as Record<string, string>;
    assert.equal(headers["content-type"], undefined);
    assert.equal(made[0].init.body, body);
    assert.equal(headers[PROTOCOL.csrfHeader], undefined, "no token on a page without one");
  });

  it("answers status 0 with 'Something went wrong' when no answer comes, or no JSON", async () => {
    console.warn = () => {};
    stubFetch(async () => {
      throw new TypeError("Failed to fetch");
    });
    const dropped = await callApi("GET", "/api/account", "en");
    assert.deepEqual(dropped, { status: 0, ok: false, body: { notice: { type: "error", key: "somethingWentWrong" } } });
    stubFetch(async () => new Response("<html>proxy error</html>", { status: 502 }));
    assert.equal((await callApi("GET", "/api/account", "en")).status, 0);
  });
});
