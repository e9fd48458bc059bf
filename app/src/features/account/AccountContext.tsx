/**
 * The signed-in subscriber and what the self-service screens do with the
 * page around them: show notices as toasts, fetch the page again after
 * signing in or out, replace the balances shown, open the login dialog.
 *
 * The app provides the actions (`ClientApp` in the browser; nothing on the
 * server) and the toasts, so this feature imports no other feature.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Notice, Subscriber } from "../../contract";
import { useSite } from "../../app/site";
import { localePath } from "../../routes";
import type { Answer } from "./api";
import { LoginDialog } from "./LoginDialog";
import { noticeToast } from "./notices";

/** Spec §4: the modem-bundle marker in session storage; its value is the modem's number. */
export const MODEM_BUNDLE_KEY = "modemBundle";

export interface AccountActions {
  /** Fetches the data of `to` (a full address; default: the page shown) afresh, shows it and navigates there. */
  refresh(to?: string): Promise<void>;
  /** Replaces the subscriber shown (fresh balances, or signed out). */
  setSubscriber(subscriber: Subscriber | null): void;
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
   * when it has none); a 401 means the session is over (spec §4), so the
   * browser goes home signed out.
   */
  failed(answer: Answer<unknown>): Promise<void>;
  setSubscriber(subscriber: Subscriber | null): void;
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
  const { t } = useTranslation();
  const { lang } = useSite();
  const [login, setLogin] = useState<{ after?: string } | null>(null);
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
      subscriber,
      notify,
      openLogin: (after) => setLogin({ after }),
      signedIn,
      signedOut,
      failed: async (answer) => {
        notify(answer.body.notice ?? { type: "error", key: "somethingWentWrong" });
        if (answer.status === 401) await signedOut(localePath(lang, "/"));
      },
      setSubscriber: actions.setSubscriber,
    };
  }, [subscriber, notify, signedIn, actions, lang]);

  // triggerAuthDialog: a purchase link (`data-purchase`) opens the dialog
  // for a signed-out visitor instead of leaving the page. The capture phase
  // runs before the router's own click handling, which then stands back.
  useEffect(() => {
    if (subscriber) return;
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[data-purchase]") : null;
      if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      setLogin({ after: link.getAttribute("href") ?? undefined });
    };
    document.addEventListener("click", onClick, true);
    return () => document.removeEventListener("click", onClick, true);
  }, [subscriber]);

  return (
    <AccountContext.Provider value={account}>
      {children}
      {login && (
        <LoginDialog
          onClose={() => setLogin(null)}
          onSignedIn={async () => {
            await signedIn(login.after);
            setLogin(null);
          }}
        />
      )}
    </AccountContext.Provider>
  );
}
