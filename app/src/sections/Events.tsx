import { useT } from "../i18n/context";
import { useSite } from "../app/site";
import { formatDate } from "../format";
import { DataTable, LabelledCell } from "./DataTable";

export interface EventEntry {
  id?: number;
  title: string;
  date: string;
  time?: string | null;
  location?: string | null;
}

/** A calendar of dated events (results, meetings). */
export function Events({ title, events }: { title?: string | null; events: EventEntry[] }) {
  const t = useT();
  const { lang } = useSite();
  return (
    <DataTable title={title} columns={[t("events.event"), t("events.date"), t("events.time"), t("events.location")]}>
      {events.map((event, index) => (
        <tr key={event.id ?? index}>
          <th scope="row">{event.title}</th>
          <LabelledCell label={t("events.date")}>
            <time dateTime={event.date}>{formatDate(event.date, lang)}</time>
          </LabelledCell>
          <LabelledCell label={t("events.time")}>{event.time}</LabelledCell>
          <LabelledCell label={t("events.location")}>{event.location}</LabelledCell>
        </tr>
      ))}
    </DataTable>
  );
}
