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
 * A fresh i18next instance: the browser's one, whose language follows
 * navigation. Initialisation is synchronous: resources are bundled, nothing
 * is fetched.
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

const serverInstances = new Map<Lang, i18n>();

/**
 * The server's instance for `lang`, created once per engine: renders share
 * one JS realm and never change an instance's language, so every render of
 * a language reuses the same one instead of initialising its own.
 */
export function serverI18n(lang: Lang): i18n {
  let instance = serverInstances.get(lang);
  if (!instance) {
    instance = createI18n(lang);
    serverInstances.set(lang, instance);
  }
  return instance;
}
