// A fault-injecting HTTP proxy in front of an operator API (the sandbox a
// `site` serves at `/sandbox/digital`) or a CMS, for browser tests,
// `bench/operator-hang.mjs` and `bench/soak.mjs`: it forwards every request,
// or, once told, hangs (never answers), answers slowly, resets the
// connection, answers 500 or passes the upstream's answer cut in half
// (malformed JSON), for every path or only those a pattern matches.
// Loopback only.
import { createServer, request as forward } from "node:http";

/**
 * Starts the proxy on a free loopback port in front of `upstream` (a base
 * URL without trailing slash). `url` is what `DIGITAL_API_URL` points at.
 */
export async function startOperatorProxy(upstream) {
  let fault = { mode: "pass", only: null, delayMs: 0 };
  const seen = [];
  const server = createServer((incoming, answer) => {
    seen.push(incoming.url);
    const faulty = !fault.only || fault.only.test(incoming.url);
    const mode = faulty ? fault.mode : "pass";
    if (mode === "hang") return; // kept open until the client gives up or the proxy stops
    if (mode === "reset") return incoming.socket.destroy();
    if (mode === "500") return answer.writeHead(500, { "content-type": "application/json" }).end("{}");
    const pass = () => {
      const target = new URL(upstream + incoming.url);
      const outgoing = forward(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (upstreamAnswer) => {
        if (mode === "malformed") return cutInHalf(upstreamAnswer, answer);
        answer.writeHead(upstreamAnswer.statusCode ?? 502, upstreamAnswer.headers);
        upstreamAnswer.pipe(answer);
      });
      outgoing.on("error", () => answer.destroy());
      incoming.pipe(outgoing);
    };
    if (mode === "slow") setTimeout(pass, fault.delayMs);
    else pass();
  });
  await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    /**
     * From now on: `pass`, `hang`, `slow` (after `delayMs`), `reset`,
     * `500` or `malformed` (the upstream's status and the first half of its
     * body), for the paths `only` matches (default: every path).
     */
    behave(mode, { only = null, delayMs = 0 } = {}) {
      fault = { mode, only, delayMs };
    },
    /** Every path asked for so far, in order. */
    requests: () => [...seen],
    async stop() {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

/** Answers with the upstream's status and headers and the first half of its body. */
function cutInHalf(upstreamAnswer, answer) {
  const chunks = [];
  upstreamAnswer.on("data", (chunk) => chunks.push(chunk));
  upstreamAnswer.on("end", () => {
    const body = Buffer.concat(chunks);
    const { "content-length": _length, "transfer-encoding": _chunked, ...headers } = upstreamAnswer.headers;
    answer.writeHead(upstreamAnswer.statusCode ?? 502, headers).end(body.subarray(0, Math.floor(body.length / 2)));
  });
  upstreamAnswer.on("error", () => answer.destroy());
}
