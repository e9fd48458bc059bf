/**
 * The signed-in subscriber and what the self-service screens do with the
 * page around them: show notices as toasts, fetch the page again after
 * signing in or out, replace the balances shown, open the login dialog
 * (also over a form whose session lapsed, so its input is kept).
 *
 * The app provides the actions (the page island's host in the browser;
 * nothing on the server) and the toasts, so this feature imports no other
 * feature.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useT } from "../../i18n/context";
import type { Notice, Subscriber } from "../../contract";
import { useSite } from "../../app/site";
import { localePath } from "../../routes";
import type { Failure } from "../../app/api";
import { LoginDialog } from "./sign-in/LoginDialog";
import { MODEM_BUNDLE_KEY } from "./common/ids";
import { noticeToast } from "./common/notices";

export interface AccountActions {
  /** Fetches the data of `to` (a full address; default: the page shown) afresh, shows it and navigates there. */
  refresh(to?: string): Promise<void>;
  /** Replaces the subscriber shown (fresh balances, or signed out). */
  setSubscriber(subscriber: Subscriber | null): void;
  /** The session lapsed under a form kept on the page: what is outside the island (the header) shows signed out. */
  lapsed?(): void;
}

/** The shape of `features/notifications`' toast, given by the app. */
export type Toast = ReturnType<typeof noticeToast>;

export interface Account {
  subscriber: Subscriber | null;
  /** Shows a notice as a toast. */
  notify(notice: Notice): void;
  /** Opens the login dialog; after signing in the browser goes to `after` (default: stays). */
  openLogin(after?: string): void;
  /** Signed in: the page is fetched again (now with the subscriber), or `after` is shown. */
  signedIn(after?: string): Promise<void>;
  /** Signed out (logged out, or the session lapsed): the browser goes to `redirect`. */
  signedOut(redirect: string): Promise<void>;
  /**
   * A call that did not work: its notice as a toast ("Something went wrong"
   * when it has none). A 401 means the session is over: the
   * browser goes home signed out. A form whose input is worth keeping
   * passes `signedInAgain` instead: the page stays as it is (the header
   * shows "Log in"), the login dialog opens over it saying why
   * ("Your session has expired"), and `signedInAgain` runs once the visitor
   * has signed in there.
   */
  failed(answer: Failure, signedInAgain?: () => void): Promise<void>;
  setSubscriber(subscriber: Subscriber | null): void;
}

/** A login dialog: where to go after signing in, why it opened, and what runs then. */
interface Login {
  after?: string;
  reason?: Notice;
  signedInAgain?: () => void;
}

const noActions: AccountActions = { refresh: async () => {}, setSubscriber: () => {} };

const AccountContext = createContext<Account>({
  subscriber: null,
  notify: () => {},
  openLogin: () => {},
  signedIn: async () => {},
  signedOut: async () => {},
  failed: async () => {},
  setSubscriber: () => {},
});

export function useAccount(): Account {
  return useContext(AccountContext);
}

function forgetModem() {
  try {
    sessionStorage.removeItem(MODEM_BUNDLE_KEY);
  } catch {
    // storage unavailable: nothing to forget
  }
}

export function AccountProvider({
  subscriber,
  actions = noActions,
  toast,
  children,
}: {
  subscriber: Subscriber | null;
  actions?: AccountActions;
  toast: (toast: Toast) => void;
  children: ReactNode;
}) {
  const t = useT();
  const { lang } = useSite();
  const [login, setLogin] = useState<Login | null>(null);
  // The subscriber whose session lapsed under a form kept on the page: the
  // header shows them signed out until the page has a fresh subscriber.
  const [lapsed, setLapsed] = useState<Subscriber | null>(null);
  const shownSubscriber = subscriber === lapsed ? null : subscriber;
  const signedIn = useCallback(
    async (after?: string) => {
      forgetModem();
      await actions.refresh(after);
    },
    [actions],
  );
  const notify = useCallback((notice: Notice) => toast(noticeToast(notice, t)), [toast, t]);
  const account = useMemo<Account>(() => {
    const signedOut = async (redirect: string) => {
      forgetModem();
      actions.setSubscriber(null);
      await actions.refresh(redirect);
    };
    return {
      subscriber: shownSubscriber,
      notify,
      openLogin: (after) => setLogin({ after }),
      signedIn,
      signedOut,
      failed: async (answer, signedInAgain) => {
        const notice = answer.body.notice ?? { type: "error", key: "somethingWentWrong" };
        notify(notice);
        if (answer.status !== 401) return;
        if (!signedInAgain) return signedOut(localePath(lang, "/"));
        setLapsed(subscriber);
        actions.lapsed?.();
        setLogin({ reason: notice, signedInAgain });
      },
      setSubscriber: actions.setSubscriber,
    };
  }, [subscriber, shownSubscriber, notify, signedIn, actions, lang]);

  // triggerAuthDialog: a purchase link (`data-purchase`) opens the dialog
  // for a signed-out visitor instead of leaving the page. The capture phase
  // runs before the enhancement script's link navigation, which then stands back.
  useEffect(() => {
    if (shownSubscriber) return;
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[data-purchase]") : null;
      if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      setLogin({ after: link.getAttribute("href") ?? undefined });
    };
    document.addEventListener("click", onClick, true);
    return () => document.removeEventListener("click", onClick, true);
  }, [shownSubscriber]);

  return (
    <AccountContext.Provider value={account}>
      {children}
      {login && (
        <LoginDialog
          reason={login.reason}
          onClose={() => setLogin(null)}
          onSignedIn={async () => {
            await signedIn(login.after);
            setLogin(null);
            login.signedInAgain?.();
          }}
        />
      )}
    </AccountContext.Provider>
  );
}

/**
 * What a form kept through a lapsed session says once its visitor has
 * signed in again in the dialog. It takes focus when it appears (after the
 * dialog has handed focus back), so it is read out where the visitor is.
 */
export function SignedInAgain({ text }: { text: string }) {
  const line = useRef<HTMLParagraphElement>(null);
  useEffect(() => line.current?.focus(), []);
  return (
    <p ref={line} tabIndex={-1} className="form-message form-message-info signed-in-again" role="status">
      {text}
    </p>
  );
}
