/**
 * What a form post left for this page (`data.notice`, from the flash
 * cookie): a box at the top of the page, so a browser without JavaScript
 * shows it; once JavaScript runs it becomes a toast like every other notice.
 */
import { useEffect, useRef, useState } from "react";
import { useT } from "../../i18n/context";
import type { Notice } from "../../contract";
import { withFullStop } from "../../format";
import { useAccount } from "./AccountContext";
import { noticeText, noticeToast } from "./common/notices";

export function FlashNotice({ notice }: { notice?: Notice }) {
  const t = useT();
  const { notify } = useAccount();
  const [toasted, setToasted] = useState<Notice | undefined>();
  const toastedOnce = useRef<Notice | undefined>(undefined);

  useEffect(() => {
    if (!notice || toastedOnce.current === notice) return;
    toastedOnce.current = notice;
    notify(notice);
    setToasted(notice);
  }, [notice, notify]);

  if (!notice || notice === toasted) return null;
  const { title } = noticeToast(notice, t);
  return (
    <div
      className={`notice-box notice-${notice.type} flash-notice`}
      role={notice.type === "error" ? "alert" : "status"}
    >
      <strong>{title}</strong> {withFullStop(noticeText(notice, t))}
    </div>
  );
}
