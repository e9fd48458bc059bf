/** English strings: the typed source of truth; `sw.ts` must have the same shape. */
const en = {
  site: {
    name: "Vodacom Tanzania",
    tagline: "Together we can",
    skipToContent: "Skip to main content",
    anniversary: "25 years",
  },
  nav: {
    menu: "Menu",
    mainMenu: "Main menu",
    home: "Home",
    internet: "Internet",
    voice: "Voice & SMS",
  },
  language: {
    label: "Language",
    en: "English",
    sw: "Kiswahili",
    switchTo: "Switch to {{language}}",
  },
  footer: {
    quickLinks: "Quick links",
    copyright: "© {{year}} Vodacom Tanzania PLC. All rights reserved.",
  },
  loading: "Loading…",
  notFound: {
    title: "Page not found",
    text: "The page you are looking for does not exist or has moved.",
    home: "Go to the home page",
  },
  notify: {
    close: "Close notification",
    error: "Error",
    failedToLoadContent: "Failed to Load Content",
  },
};

export type Strings = typeof en;
export default en;
