import type { Strings } from "./en";

/** Swahili strings; `satisfies Strings` makes a missing key a type error. */
const sw = {
  site: {
    name: "Vodacom Tanzania",
    tagline: "Pamoja tunaweza",
    skipToContent: "Ruka hadi maudhui makuu",
    anniversary: "Miaka 25",
  },
  nav: {
    menu: "Menyu",
    mainMenu: "Menyu kuu",
    home: "Mwanzo",
    internet: "Intaneti",
    voice: "Simu na SMS",
  },
  language: {
    label: "Lugha",
    en: "English",
    sw: "Kiswahili",
    switchTo: "Badilisha kuwa {{language}}",
  },
  footer: {
    quickLinks: "Viungo vya haraka",
    copyright: "© {{year}} Vodacom Tanzania PLC. Haki zote zimehifadhiwa.",
  },
  loading: "Inapakia…",
  notFound: {
    title: "Ukurasa haujapatikana",
    text: "Ukurasa unaoutafuta haupo au umehamishwa.",
    home: "Nenda ukurasa wa mwanzo",
  },
  notify: {
    close: "Funga taarifa",
    error: "Hitilafu",
    failedToLoadContent: "Imeshindwa Kupakia Maudhui",
  },
} satisfies Strings;

export default sw;
