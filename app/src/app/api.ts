/**
 * The one client of the site's own API (`server/contract/src/protocol.rs`
 * lists its addresses), for every script that reads or posts: the body as
 * JSON, or multipart with a file; the page's language (the visitor's, which
 * the cookie may not say yet); the page's form token if it has one; for a
 * form, the fill's idempotency key, so that a retry after a dropped
 * connection never files it twice; never from a cache. The operator's token
 * never reaches the page: it lives in an httpOnly cookie the browser sends
 * along.
 */
import { PROTOCOL, type Feedback, type Notice } from "../contract";
import type { Lang } from "../routes";
import { csrfHeader } from "./csrf";

/**
 * An endpoint's answer: its data, with the server's `Feedback` beside it
 * (the whole body of a failure): a notice for the toast, a form's problems
 * by field, and where the browser goes next (after logging out, a lapsed
 * session, CPM steps).
 */
export interface Answer<T> {
  /** 0 when no answer came (the connection failed, or the answer was no JSON). */
  status: number;
  ok: boolean;
  body: Partial<T> & Feedback;
}

/** What a failed call's handling reads of any endpoint's answer: its status and feedback. */
export type Failure = Pick<Answer<object>, "status" | "body">;

/** How a call is sent besides its method, address and language. */
export interface Call {
  /** Sent as JSON; a `FormData` as multipart (a form with a file). */
  body?: object | FormData;
  csrf?: string;
  /** One fill of a form (`newKey` in `features/forms/send.ts`). */
  idempotencyKey?: string;
}

const UNREACHABLE: Notice = { type: "error", key: "somethingWentWrong" };

/**
 * Calls `path` in the visitor's language `lang`. A network failure or an
 * answer that is not JSON comes back as status 0 with "Something went
 * wrong".
 */
export async function callApi<T = Record<string, never>>(
  method: "GET" | "POST" | "PUT",
  path: string,
  lang: Lang,
  { body, csrf, idempotencyKey }: Call = {},
): Promise<Answer<T>> {
  const json = body !== undefined && !(body instanceof FormData);
  try {
    const response = await fetch(path, {
      method,
      headers: {
        accept: "application/json",
        [PROTOCOL.langHeader]: lang,
        ...csrfHeader(csrf),
        ...(idempotencyKey ? { [PROTOCOL.idempotencyHeader]: idempotencyKey } : {}),
        ...(json ? { "content-type": "application/json" } : {}),
      },
      body: json ? JSON.stringify(body) : (body as FormData | undefined),
      cache: "no-store",
    });
    const answer = await response.json();
    return { status: response.status, ok: response.ok, body: answer ?? {} };
  } catch (error) {
    // The visitor's connection, most often: the form says so and keeps what was typed.
    console.warn(`${method} ${path}`, error);
    const failed: Feedback = { notice: UNREACHABLE };
    return { status: 0, ok: false, body: failed as Partial<T> & Feedback };
  }
}
