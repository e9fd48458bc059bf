import type { LocationHit } from "../contract";

/** An M-Pesa agent in Kariakoo, open, 1.24 km away: what the locator's tests list. */
export const AGENT_HIT: LocationHit = {
  id: 7,
  name: "Mama Neema Shop",
  kind: "agent",
  region: "Dar es Salaam",
  district: "Ilala",
  street: "Kariakoo",
  landmark: "Opposite the market",
  latitude: -6.8187,
  longitude: 39.2775,
  services: ["cash-in", "cash-out"],
  hours: { weekdays: "07:30–21:00", saturday: "08:00–14:00", sunday: null },
  openNow: true,
  distance: 1240,
  phone: "+255754000111",
};
