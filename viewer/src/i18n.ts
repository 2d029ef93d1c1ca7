// English and Simplified Chinese for every string people see. Each part of the page keeps its own
// table (viewer/strings.ts, chat/strings.ts) and gets a `t` from `defineStrings`; the language is
// chosen here: ?lang=en|zh in the URL, else the user's last choice, else the browser's language.

export type Lang = "en" | "zh";
export const LANGS: readonly Lang[] = ["en", "zh"];
const STORAGE_KEY = "scene-agent.lang";

type Vars = Record<string, string | number>;
export type Table = Record<string, string>;
export type Translate<K extends string> = (key: K, vars?: Vars) => string;

function initialLang(): Lang {
  const fromUrl = new URLSearchParams(window.location.search).get("lang");
  if (fromUrl === "en" || fromUrl === "zh") return fromUrl;
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    if (stored === "en" || stored === "zh") return stored;
  } catch {
    // storage may be unavailable (privacy mode); fall through to the browser's language
  }
  const browser = navigator.languages?.length ? navigator.languages : [navigator.language];
  return browser.some((l) => l?.toLowerCase().startsWith("zh")) ? "zh" : "en";
}

let current: Lang = initialLang();
const listeners = new Set<(lang: Lang) => void>();

export function getLang(): Lang {
  return current;
}

/** Switch the language of the whole page; every `onLangChange` listener re-renders its strings. */
export function setLang(lang: Lang): void {
  if (lang === current) return;
  current = lang;
  try {
    window.localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // not remembered, still switched
  }
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  for (const listener of listeners) listener(lang);
}

const CHINESE = /[\u3400-\u9fff\uf900-\ufaff]/;

/** Whether `text` holds Chinese characters. */
export function hasChinese(text: string): boolean {
  return CHINESE.test(text);
}

/** The `lang` attribute of an element showing `text` on a page in the language shown: Chinese words in an English
 *  page are marked so (app.css draws them in a Chinese face). */
export function langOf(text: string): string | undefined {
  return current !== "zh" && hasChinese(text) ? "zh-CN" : undefined;
}

/** Call `listener` after every language switch; returns a function that removes it. */
export function onLangChange(listener: (lang: Lang) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A translator over one table: both languages must have the same keys (the type checks it). */
export function defineStrings<T extends Table>(tables: { en: T; zh: { [K in keyof T]: string } }): Translate<Extract<keyof T, string>> {
  return (key, vars) => {
    const template = (tables[current] as Table)[key] ?? (tables.en as Table)[key] ?? key;
    return vars ? template.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : template;
  };
}

document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
