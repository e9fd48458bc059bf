import { useT } from "../i18n/context";
import type { Sidebar } from "../contract";
import { LocalLink } from "../app/site";

/** Where the site's privacy and terms are, on every page. */
const LEGAL = [
  { to: "/privacy", label: "nav.privacy" },
  { to: "/terms-conditions", label: "nav.terms-conditions" },
] as const;

/** The operator's own channels. */
const SOCIAL = [
  { name: "Facebook", url: "https://www.facebook.com/VodacomTanzania" },
  { name: "Instagram", url: "https://www.instagram.com/vodacomtanzania" },
  { name: "X", url: "https://x.com/VodacomTanzania" },
  { name: "YouTube", url: "https://www.youtube.com/@VodacomTanzania" },
  { name: "TikTok", url: "https://www.tiktok.com/@vodacomtanzania" },
  { name: "LinkedIn", url: "https://www.linkedin.com/company/vodacom-tanzania" },
];

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
      <nav aria-label={t("visitor.followUs")}>
        <h2>{t("visitor.followUs")}</h2>
        <ul className="social-links">
          {SOCIAL.map((channel) => (
            <li key={channel.name}>
              <a href={channel.url} rel="noopener">
                {channel.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {sidebar?.footerNote && <p className="footer-note">{sidebar.footerNote}</p>}
      <nav aria-label={t("visitor.legal")} className="legal-links">
        <ul>
          {LEGAL.map((link) => (
            <li key={link.to}>
              <LocalLink to={link.to}>{t(link.label)}</LocalLink>
            </li>
          ))}
        </ul>
      </nav>
      <p className="copyright">{t("footer.copyright", { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
