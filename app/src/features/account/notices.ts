/**
 * What the self-service endpoints answer besides their data: a notice
 * (spec §8) carrying either a key the app translates or the operator's own
 * text, already in the visitor's language.
 */
import type { TFunction } from "../../i18n";
import type { Notice } from "../../contract";
import type { Strings } from "../../i18n/en";
import en from "../../i18n/en";

export type NoticeKey = keyof Strings["notify"];

/** The words of a notice; an unknown key reads as "Something went wrong". */
export function noticeText(notice: Notice, t: TFunction): string {
  if (notice.text) return notice.text;
  const key: NoticeKey = notice.key && notice.key in en.notify ? (notice.key as NoticeKey) : "somethingWentWrong";
  return t(`notify.${key}`, notice.params);
}

const TITLES: Record<Notice["type"], NoticeKey> = { info: "info", warning: "success", error: "error" };

/**
 * A notice as a toast: titled by its kind ("Error", or "Success" for the
 * green warning kind the spec uses when something worked), lasting the
 * notice's duration when it gives one. Shaped as the toasts' `Notification`.
 */
export function noticeToast(notice: Notice, t: TFunction) {
  return {
    type: notice.type,
    title: t(`notify.${TITLES[notice.type]}`),
    text: noticeText(notice, t),
    ...(notice.duration ? { duration: notice.duration } : {}),
  };
}
