import { useT } from "../i18n/context";
import { LocalLink } from "../app/site";

export default function NotFoundPage() {
  const t = useT();
  return (
    <section className="not-found">
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.text")}</p>
      <LocalLink to="/" className="button">
        {t("notFound.home")}
      </LocalLink>
    </section>
  );
}
