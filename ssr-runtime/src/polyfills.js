// What the app's server bundle expects from a browser-like global scope and a
// bare engine lacks. Loaded into every runtime before the bundle.
((core) => {
  "use strict";
  const { op_ssr_log } = core.ops;

  const LEVEL = { debug: 0, info: 1, warn: 2, error: 3 };
  function format(args) {
    return args
      .map((arg) => {
        if (typeof arg === "string") return arg;
        if (arg instanceof Error) return arg.stack || String(arg);
        try {
          return JSON.stringify(arg);
        } catch {
          return String(arg);
        }
      })
      .join(" ");
  }
  const log = (level) => (...args) => op_ssr_log(level, format(args));
  globalThis.console = {
    debug: log(LEVEL.debug),
    trace: log(LEVEL.debug),
    log: log(LEVEL.info),
    info: log(LEVEL.info),
    warn: log(LEVEL.warn),
    error: log(LEVEL.error),
    assert: (cond, ...args) => {
      if (!cond) log(LEVEL.error)("Assertion failed:", ...args);
    },
  };

  class TextEncoder {
    get encoding() {
      return "utf-8";
    }
    encode(text = "") {
      return core.encode(String(text));
    }
    encodeInto(text, target) {
      const bytes = core.encode(String(text));
      const written = Math.min(bytes.length, target.length);
      target.set(bytes.subarray(0, written));
      return { read: text.length, written };
    }
  }
  class TextDecoder {
    get encoding() {
      return "utf-8";
    }
    decode(buffer) {
      if (buffer === undefined) return "";
      const view = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer.buffer ?? buffer);
      return core.decode(view);
    }
  }

  // Timers never hold a render open: they are unreferenced, so the event loop
  // finishes without them, and a render that awaits one hits its time budget.
  const setTimeout = (callback, delay = 0, ...args) =>
    core.createTimer(() => callback(...args), Number(delay) || 0, undefined, false, false);
  const clearTimeout = (id) => {
    if (id) core.cancelTimer(id);
  };

  class MessagePort {
    constructor() {
      this.onmessage = null;
      this.other = null;
    }
    postMessage(data) {
      const target = this.other;
      queueMicrotask(() => target.onmessage && target.onmessage({ data }));
    }
    start() {}
    close() {}
  }
  class MessageChannel {
    constructor() {
      this.port1 = new MessagePort();
      this.port2 = new MessagePort();
      this.port1.other = this.port2;
      this.port2.other = this.port1;
    }
  }

  Object.assign(globalThis, {
    TextEncoder,
    TextDecoder,
    MessageChannel,
    setTimeout,
    clearTimeout,
    setInterval: () => 0,
    clearInterval: () => {},
    self: globalThis,
    window: undefined,
    process: { env: { NODE_ENV: "production" } },
  });
})(Deno.core);
