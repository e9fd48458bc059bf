/**
 * The page's language for components: `useT()` gives its `t`. The server
 * provides a fixed language per render (`LanguageProvider`); in the browser
 * `ClientLanguage` holds it as state, changed by client navigation with
 * `useSetLanguage` when the next page's data is in another language.
 */
import { createContext, useContext, useState, type ReactNode } from "react";
import type { Lang } from "../routes";
import { translator, type TFunction, type Translator } from "./index";

const TranslatorContext = createContext<Translator>(translator("en"));
const SetLanguageContext = createContext<(lang: Lang) => void>(() => {});

export function useTranslator(): Translator {
  return useContext(TranslatorContext);
}

export function useT(): TFunction {
  return useContext(TranslatorContext).t;
}

export function useSetLanguage(): (lang: Lang) => void {
  return useContext(SetLanguageContext);
}

export function LanguageProvider({ lang, children }: { lang: Lang; children: ReactNode }) {
  return <TranslatorContext.Provider value={translator(lang)}>{children}</TranslatorContext.Provider>;
}

export function ClientLanguage({ initial, children }: { initial: Lang; children: ReactNode }) {
  const [lang, setLang] = useState(initial);
  return (
    <SetLanguageContext.Provider value={setLang}>
      <LanguageProvider lang={lang}>{children}</LanguageProvider>
    </SetLanguageContext.Provider>
  );
}
