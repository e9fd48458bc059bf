/**
 * Toast notifications: info grey, warning green, error red,
 * 380 px wide, 3000 ms unless a duration is given; the text gets a full stop.
 * Plain DOM, no React: the enhancement script shows every toast of a page,
 * its own and those an island asks for (`IslandHost.toast`), in the page's
 * `.toasts` region.
 */
import { withFullStop } from "../../format";

export type NotificationType = "info" | "warning" | "error";

export interface Notification {
  title: string;
  text: string;
  type: NotificationType;
  /** Milliseconds before it closes itself. */
  duration?: number;
}

export const DEFAULT_DURATION = 3000;

/** The region toasts appear in (a polite live region; an error toast is an alert). */
export const TOASTS_CLASS = "toasts";

/** Shows `notification` in the page's toast region; `closeLabel` names its close button. */
export function showToast(notification: Notification, closeLabel: string) {
  const region = document.querySelector(`.${TOASTS_CLASS}`);
  if (!region) return;
  const element = document.createElement("div");
  element.className = `toast toast-${notification.type}`;
  if (notification.type === "error") element.setAttribute("role", "alert");
  const body = element.appendChild(document.createElement("div"));
  body.className = "toast-body";
  const title = body.appendChild(document.createElement("strong"));
  title.className = "toast-title";
  title.textContent = notification.title;
  const text = body.appendChild(document.createElement("span"));
  text.className = "toast-text";
  text.textContent = withFullStop(notification.text);
  const close = element.appendChild(document.createElement("button"));
  close.type = "button";
  close.className = "toast-close";
  close.setAttribute("aria-label", closeLabel);
  close.textContent = "×";
  const remove = () => element.remove();
  close.addEventListener("click", remove);
  setTimeout(remove, notification.duration ?? DEFAULT_DURATION);
  region.append(element);
}
