import { useT } from "../i18n/context";
import { LocalLink, useSite } from "../app/site";
import { withFullStop } from "../format";
import { navLabel } from "../navigation/menu";
import { routeByName } from "../routes";

/**
 * In place of a page whose content could not be loaded or shown
 * ("Failed to Load Content", a warning titled Error): the frame around it
 * still works, and the visitor can try again. The server answers 503.
 */
export function ContentFailure() {
  const t = useT();
  const { path, route } = useSite();
  const navigation = routeByName(route)?.meta.navigation;
  return (
    <section className="content-failure">
      <h1 className="page-title">{navigation ? navLabel(t, navigation) : t("site.name")}</h1>
      <div className="notice-box notice-warning" role="alert">
        <strong>{t("notify.error")}</strong> {withFullStop(t("notify.failedToLoadContent"))}
      </div>
      <p>{t("contentFailure.text")}</p>
      <LocalLink to={path} className="button">
        {t("contentFailure.retry")}
      </LocalLink>
    </section>
  );
}
