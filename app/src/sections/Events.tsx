import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useSite } from "../app/site";
import { formatDate } from "../format";

export interface EventEntry {
  id?: number;
  title: string;
  date: string;
  time?: string | null;
  location?: string | null;
}

/** A calendar of dated events (results, meetings). */
export function Events({ title, events }: { title?: string | null; events: EventEntry[] }) {
  const { t } = useTranslation();
  const { lang } = useSite();
  const heading = useId();
  return (
    <section className="data-table">
      {title && <h2 id={heading}>{title}</h2>}
      <div className="table-scroll">
        <table aria-labelledby={title ? heading : undefined}>
          <thead>
            <tr>
              <th scope="col">{t("events.event")}</th>
              <th scope="col">{t("events.date")}</th>
              <th scope="col">{t("events.time")}</th>
              <th scope="col">{t("events.location")}</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event, index) => (
              <tr key={event.id ?? index}>
                <th scope="row">{event.title}</th>
                <td>
                  <time dateTime={event.date}>{formatDate(event.date, lang)}</time>
                </td>
                <td>{event.time}</td>
                <td>{event.location}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
