/**
 * Whether the visitor's connection is measured fast: then an island's code
 * may load before the visitor starts its flow, and the service worker may
 * keep more than what the visitor fetched. Browsers call a link of 400 ms
 * and 50 KB/s `3g` (and `effectiveType` is missing in many), so the page's
 * own load decides: the document's first byte soon after it was asked for
 * (less the server's own time, which a rendered page's `Server-Timing`
 * says), and its body arriving quickly. Saving data, or a link the browser itself
 * calls 2G, is never fast; Wi-Fi without Save-Data is.
 */

interface Connection {
  saveData?: boolean;
  effectiveType?: string;
  type?: string;
}

/** Longest wait for the document's first byte on a fast connection, ms, the server's time taken off (a 2G-like link waits 400 ms or more). */
export const FAST_FIRST_BYTE_MS = 200;
/** Slowest a fast connection brings the document's body, bytes per ms (200 KB/s). */
export const FAST_BYTES_PER_MS = 200;
/** A body that arrives within this long, ms, says nothing of the rate. */
const INSTANT_MS = 20;

/** What `fastConnection` reads of the page's own load. */
export interface Timing {
  requestStart: number;
  responseStart: number;
  responseEnd: number;
  /** Bytes on the wire; 0 when the document came from a cache (which says nothing of the link). */
  transferSize: number;
  /** The server's `Server-Timing`: `app` is its own time on the page. */
  serverTiming?: readonly { name: string; duration: number }[];
}

export function fastConnection(
  connection: Connection | undefined = (navigator as Navigator & { connection?: Connection }).connection,
  timing: Timing | undefined = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined,
): boolean {
  if (connection?.saveData || /(^|-)2g$/.test(connection?.effectiveType ?? "")) return false;
  if (connection?.type === "wifi") return true;
  if (!timing || timing.transferSize === 0) return false;
  const server = timing.serverTiming?.find((entry) => entry.name === "app")?.duration ?? 0;
  if (timing.responseStart - timing.requestStart - server > FAST_FIRST_BYTE_MS) return false;
  const body = timing.responseEnd - timing.responseStart;
  return body <= INSTANT_MS || timing.transferSize / body >= FAST_BYTES_PER_MS;
}
