import i18next, { type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import type { Lang } from "../routes";
import en from "./en";
import sw from "./sw";

export const resources = { en: { translation: en }, sw: { translation: sw } } as const;

declare module "i18next" {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
  }
}

/**
 * A fresh i18next instance per render on the server (renders share one JS
 * realm) and one for the browser. Initialisation is synchronous: resources
 * are bundled, nothing is fetched.
 */
export function createI18n(lang: Lang): i18n {
  const instance = i18next.createInstance();
  instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: "en",
    supportedLngs: ["en", "sw"],
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });
  return instance;
}
