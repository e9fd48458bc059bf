import { useT } from "../i18n/context";
import type { Sidebar } from "../contract";
import { LocalLink } from "../app/site";

export function Footer({ sidebar }: { sidebar: Sidebar | null }) {
  const t = useT();
  return (
    <footer className="site-footer">
      {sidebar && sidebar.links.length > 0 && (
        <nav aria-label={t("footer.quickLinks")}>
          <h2>{t("footer.quickLinks")}</h2>
          <ul>
            {sidebar.links.map((link) => (
              <li key={link.url}>
                <LocalLink to={link.url}>{link.label}</LocalLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {sidebar?.footerNote && <p className="footer-note">{sidebar.footerNote}</p>}
      <p className="copyright">{t("footer.copyright", { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
