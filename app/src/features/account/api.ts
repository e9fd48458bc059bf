/**
 * Calls to the self-service endpoints of the site's server (see
 * `server/src/account/mod.rs`). The operator's token never reaches the page:
 * it lives in an httpOnly cookie the browser sends along.
 */
import type { Feedback, Notice } from "../../contract";
import type { Lang } from "../../routes";
import { csrfHeader } from "../../app/csrf";

/**
 * An endpoint's answer: its data, with the server's `Feedback` beside it
 * (the whole body of a failure): a notice for the toast, and where the
 * browser goes next (after logging out, a lapsed session, CPM steps).
 */
export interface Answer<T> {
  status: number;
  ok: boolean;
  body: Partial<T> & Feedback;
}

/** What a failed call's handling reads of any endpoint's answer: its status and feedback. */
export type Failure = Pick<Answer<object>, "status" | "body">;

const UNREACHABLE: Notice = { type: "error", key: "somethingWentWrong" };

/**
 * Sends `body` as JSON in the visitor's language, with the page's form token
 * `csrf` if it has one. A network failure or an answer that is not JSON
 * comes back as status 0 with "Something went wrong".
 */
export async function callApi<T = Record<string, never>>(
  method: "GET" | "POST" | "PUT",
  path: string,
  lang: Lang,
  body?: object,
  csrf?: string,
): Promise<Answer<T>> {
  try {
    const response = await fetch(path, {
      method,
      headers: {
        accept: "application/json",
        "x-site-lang": lang,
        ...csrfHeader(csrf),
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      cache: "no-store",
    });
    const answer = await response.json();
    return { status: response.status, ok: response.ok, body: answer ?? {} };
  } catch (error) {
    console.error(`${method} ${path}`, error);
    const body: Feedback = { notice: UNREACHABLE };
    return { status: 0, ok: false, body: body as Partial<T> & Feedback };
  }
}
