/**
 * The golden-minutes schedule. The server renders the schedule only (the
 * visitor's clock is unknown there and the page is cached); once hydrated,
 * the browser adds "on now" during the window and keeps checking.
 */
import { useEffect, useState } from "react";
import { useT } from "../../i18n/context";
import { isGoldenMinutes } from "./schedule";

const CHECK_EVERY_MS = 15_000;

export function GoldenMinutes() {
  const t = useT();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const check = () => setLive(isGoldenMinutes(new Date()));
    check();
    const timer = setInterval(check, CHECK_EVERY_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className={live ? "golden-minutes golden-minutes-live" : "golden-minutes"}>
      <p>{t("goldenMinutes.schedule")}</p>
      <p role="status">{live && <strong>{t("goldenMinutes.live")}</strong>}</p>
    </div>
  );
}
