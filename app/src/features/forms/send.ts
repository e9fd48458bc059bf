/**
 * Sending a form from the page's script, through the site's API client
 * (`app/api.ts`): JSON (or, with a file, multipart with the JSON in an
 * `application` part) to `/api/forms/<form>`, under the fill's idempotency
 * key. The server answers 201 `{"reference"}` or its `Feedback` with
 * `{"errors": {"<field path>": <problem>}}` (see `problems.ts`). How the
 * page's fields become that JSON is the server's rule too (`nest`).
 */
import { PROTOCOL, type FormReceived, type Problem } from "../../contract";
import type { Lang } from "../../routes";
import { callApi } from "../../app/api";
import { CSRF_FIELD } from "../../app/csrf";

/** What is wrong with the form, by field path (`form`: the whole form). */
export type Errors = Record<string, Problem>;

export type Sent = { reference: string } | { errors: Errors } | { offline: true };

/** A new key for one fill of a form. */
export function newKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sendForm(
  action: string,
  lang: Lang,
  key: string,
  body: object,
  file?: File | null,
  csrf?: string,
): Promise<Sent> {
  let sent: object | FormData = body;
  if (file) {
    const multipart = new FormData();
    multipart.append(PROTOCOL.scriptPart, JSON.stringify(body));
    multipart.append("proposal", file);
    sent = multipart;
  }
  const answer = await callApi<FormReceived>("POST", action, lang, { body: sent, csrf, idempotencyKey: key });
  if (answer.ok && typeof answer.body.reference === "string") return { reference: answer.body.reference };
  if (answer.body.errors && typeof answer.body.errors === "object") return { errors: answer.body.errors };
  return { offline: true };
}

/** Fields every post carries besides the form's own (see the server's `forms::http`). */
const COMMON = new Set(["lang", "returnTo", CSRF_FIELD, "proposal"]);

/** The form's text fields as pairs, in document order (files left out). */
export function fieldPairs(form: HTMLFormElement): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of new FormData(form)) {
    if (typeof value === "string" && !COMMON.has(name)) pairs.push([name, value]);
  }
  return pairs;
}

type Json = string | Json[] | { [key: string]: Json } | null;
type Holder = Record<string | number, Json>;
/** One step of an input name: a field, or a row of a list. */
type Step = string | number;

/** The highest row a flat input name may address, plus one (`budget[63].item`). */
const MAX_ROW = 64;

/**
 * `applicants[1].email` as its steps; `null` for a name that is no path
 * (`a[b]`, `[0]`, `a..b`, a row past [MAX_ROW]), which is left out.
 */
function steps(name: string): Step[] | null {
  const found: Step[] = [];
  let rest = name;
  while (rest) {
    let end: number;
    if (rest.startsWith("[")) {
      end = rest.indexOf("]");
      const row = rest.slice(1, end);
      if (end < 0 || !/^\d+$/.test(row) || Number(row) >= MAX_ROW) return null;
      found.push(Number(row));
      end += 1;
    } else {
      end = rest.search(/[.[]/);
      if (end === 0) return null;
      if (end < 0) end = rest.length;
      found.push(rest.slice(0, end));
    }
    rest = rest.slice(end);
    if (rest.startsWith(".")) rest = rest.slice(1);
  }
  return typeof found[0] === "string" ? found : null;
}

/** What `holder` holds under `key` itself (not what `Object.prototype` has there). */
function own(holder: Holder, key: Step): Json {
  return Object.prototype.hasOwnProperty.call(holder, key) ? holder[key] : null;
}

/** Sets `key` as holder's own, even `__proto__`. */
function put<T extends Json>(holder: Holder, key: Step, value: T): T {
  Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
  return value;
}

/**
 * Flat input names as the JSON the server reads, by the server's rule for a
 * form posted without JavaScript (`forms::nest`; both are checked against
 * `tests/twins/form-fields.json`): `applicants[1].email` is
 * `{"applicants": [null, {"email": …}]}`, a name given twice is a list, and
 * a step that finds the other kind of value there replaces it. `lists` are
 * names that are lists even with one value or none (checkboxes).
 */
export function nest(pairs: [string, string][], lists: string[] = []): Record<string, Json> {
  const root: Record<string, Json> = {};
  for (const name of lists) put(root, name, []);
  for (const [name, value] of pairs) {
    const path = steps(name);
    if (!path) continue;
    let holder: Holder = root;
    const last = path.length - 1;
    for (let index = 0; index < last; index++) {
      const [step, next] = [path[index], path[index + 1]];
      const slot = own(holder, step);
      if (typeof next === "number") {
        const rows = Array.isArray(slot) ? slot : put(holder, step, []);
        while (rows.length <= next) rows.push(null);
        holder = rows as unknown as Holder;
      } else {
        holder = slot !== null && typeof slot === "object" && !Array.isArray(slot) ? slot : put(holder, step, {});
      }
    }
    const earlier = own(holder, path[last]);
    put(holder, path[last], earlier === null ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value]);
  }
  return root;
}
