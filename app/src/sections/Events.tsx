import { useT } from "../i18n/context";
import { useSite } from "../app/site";
import { formatDate } from "../format";
import { DataTable, labelledCell } from "./DataTable";

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
  const [date, time, location] = [t("events.date"), t("events.time"), t("events.location")];
  return (
    <DataTable title={title} columns={[t("events.event"), date, time, location]}>
      {events.map((event, index) => (
        <tr key={event.id ?? index}>
          <th scope="row">{event.title}</th>
          {labelledCell(date, <time dateTime={event.date}>{formatDate(event.date, lang)}</time>)}
          {labelledCell(time, event.time)}
          {labelledCell(location, event.location)}
        </tr>
      ))}
    </DataTable>
  );
}
