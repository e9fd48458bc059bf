/**
 * The login dialog: a native modal `<dialog>`, which keeps focus
 * inside and the page behind inert; Escape or the close button closes it,
 * and focus goes back to what opened it (or, once signed in, to the header's
 * account link that replaced it). Notices show inside the dialog: a toast
 * behind a modal would be hidden from assistive technology. So does the
 * `reason` it opened for (a lapsed session), as the dialog's description.
 */
import { useEffect, useId, useRef } from "react";
import { useT } from "../../../i18n/context";
import type { Notice } from "../../../contract";
import { withFullStop } from "../../../format";
import { noticeText } from "../common/notices";
import { ACCOUNT_CONTROL_ID } from "../common/ids";
import { LoginFlow } from "./SignIn";

export function LoginDialog({
  reason,
  onClose,
  onSignedIn,
}: {
  reason?: Notice;
  onClose(): void;
  onSignedIn(): Promise<void>;
}) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const title = useId();
  const description = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    element.querySelector<HTMLElement>("input:not([type=hidden])")?.focus();
    return () => {
      element.close();
      (opener?.isConnected ? opener : document.getElementById(ACCOUNT_CONTROL_ID))?.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className="login-dialog"
      aria-labelledby={title}
      aria-describedby={reason ? description : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="dialog-body">
        <div className="dialog-head">
          <h2 id={title}>{t("account.loginTitle")}</h2>
          <button type="button" className="dialog-close" aria-label={t("account.close")} onClick={onClose}>
            ×
          </button>
        </div>
        {reason && (
          <p id={description} className={`dialog-reason form-message form-message-${reason.type}`}>
            {withFullStop(noticeText(reason, t))}
          </p>
        )}
        <LoginFlow onSignedIn={onSignedIn} />
      </div>
    </dialog>
  );
}
