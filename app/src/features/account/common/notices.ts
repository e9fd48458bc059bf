/**
 * What the self-service endpoints answer besides their data: a notice
 * (shown as a toast) carrying either a key the app translates or the operator's own
 * text, already in the visitor's language.
 */
import type { AskedKey, CountedKey, StringKey, TFunction } from "../../../i18n";
import type { Notice, ServerNoticeKey } from "../../../contract";
import type { Strings } from "../../../i18n/en";
import { someStrings } from "../../../i18n";

/** A key under `notify.`, a counted string's without its plural form (`codeWaitSeconds`). */
export type NoticeKey = AskedKey<keyof Strings["notify"]>;

/**
 * Every key the server sends (`contract::feedback::NoticeKey`) has a text
 * under `notify.`: `tsc` fails here, naming the key, while `en.ts` has none
 * (and `sw.ts` must have every key `en.ts` has).
 */
export type ServerNoticesHaveTexts = HasText<ServerNoticeKey>;
type HasText<K extends NoticeKey> = K;

/** The counted notices, and the parameter the server sends the count in (as a string, like every parameter). */
const COUNTED_BY: Partial<Record<NoticeKey, string>> = { codeWaitSeconds: "seconds", codeWaitMinutes: "minutes" };

function isNoticeKey(key: string): key is NoticeKey {
  const { notify } = someStrings();
  return key in notify || `${key}_other` in notify;
}

/** The words of a notice; an unknown key reads as "Something went wrong". */
export function noticeText(notice: Notice, t: TFunction): string {
  if (notice.text) return notice.text;
  const key: NoticeKey = notice.key && isNoticeKey(notice.key) ? notice.key : "somethingWentWrong";
  const counted = COUNTED_BY[key];
  return counted
    ? t(`notify.${key}` as CountedKey, { ...notice.params, count: Number(notice.params?.[counted]) })
    : t(`notify.${key}` as StringKey, notice.params);
}

const TITLES: Record<Notice["type"], StringKey> = {
  info: "notify.info",
  warning: "notify.success",
  error: "notify.error",
};

/**
 * A notice as a toast: titled by its kind ("Error", or "Success" for the
 * green warning kind the spec uses when something worked), lasting the
 * notice's duration when it gives one. Shaped as the toasts' `Notification`.
 */
export function noticeToast(notice: Notice, t: TFunction) {
  return {
    type: notice.type,
    title: t(TITLES[notice.type]),
    text: noticeText(notice, t),
    ...(notice.duration ? { duration: notice.duration } : {}),
  };
}
