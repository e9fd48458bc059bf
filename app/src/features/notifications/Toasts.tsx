/**
 * Toast notifications (spec §8, §9): info grey, warning green, error red,
 * 380 px wide, 3000 ms unless a duration is given; the text gets a full stop.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useT } from "../../i18n/context";
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

interface Shown extends Notification {
  id: number;
}

const NotifyContext = createContext<(notification: Notification) => void>(() => {});

export function useNotify() {
  return useContext(NotifyContext);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setShown((list) => list.filter((n) => n.id !== id)), []);
  const notify = useCallback((notification: Notification) => {
    const id = nextId.current++;
    setShown((list) => [...list, { ...notification, id }]);
  }, []);
  const value = useMemo(() => notify, [notify]);
  return (
    <NotifyContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {shown.map((n) => (
          <Toast key={n.id} notification={n} onClose={() => dismiss(n.id)} />
        ))}
      </div>
    </NotifyContext.Provider>
  );
}

function Toast({ notification, onClose }: { notification: Shown; onClose: () => void }) {
  const t = useT();
  useEffect(() => {
    const timer = setTimeout(onClose, notification.duration ?? DEFAULT_DURATION);
    return () => clearTimeout(timer);
  }, [notification, onClose]);
  return (
    <div className={`toast toast-${notification.type}`} role={notification.type === "error" ? "alert" : undefined}>
      <div className="toast-body">
        <strong className="toast-title">{notification.title}</strong>
        <span className="toast-text">{withFullStop(notification.text)}</span>
      </div>
      <button type="button" className="toast-close" aria-label={t("notify.close")} onClick={onClose}>
        ×
      </button>
    </div>
  );
}
