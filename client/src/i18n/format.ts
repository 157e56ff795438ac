/**
 * Plurals, lists, numbers, durations and relative times for one locale, through the built-in
 * `Intl` APIs (`Intl.PluralRules`, `Intl.ListFormat`, `Intl.NumberFormat`, `Intl.RelativeTimeFormat`).
 * Each language module makes its own `Formatters` once and uses it in its strings.
 */

/** The forms of a counted phrase by plural category; `#` stands for the number. `other` is required. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { readonly other: string };

/** A time unit of `duration`. */
export type DurationUnit = 'second' | 'minute' | 'hour' | 'day';

/** The formatting helpers of one locale. */
export interface Formatters {
  /** The BCP 47 tag the helpers format for. */
  readonly locale: string;
  /** A number in the locale's way ("1 234", "1,234"). */
  number(n: number): string;
  /** The form of `forms` that `n` takes in this language, with `#` replaced by the number. */
  plural(n: number, forms: PluralForms): string;
  /** "a, b and c" (`conjunction`), "a, b or c" (`disjunction`) or "a, b, c" (`unit`). */
  list(items: readonly string[], type?: Intl.ListFormatType): string;
  /** A short duration: "5 min", "3 s". */
  duration(n: number, unit: DurationUnit): string;
  /** A time in the past, `seconds` ago, in the largest whole unit: "5 minutes ago", "il y a 5 minutes". */
  ago(seconds: number): string;
}

/** The helpers for `locale` (a BCP 47 tag; numbers may pick a numbering system with `-u-nu-`). */
export function formatters(locale: string): Formatters {
  const numbers = new Intl.NumberFormat(locale);
  const rules = new Intl.PluralRules(locale);
  const lists = new Map<Intl.ListFormatType, Intl.ListFormat>();
  const units = new Map<DurationUnit, Intl.NumberFormat>();
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const listFormat = (type: Intl.ListFormatType): Intl.ListFormat => {
    let f = lists.get(type);
    if (!f) lists.set(type, (f = new Intl.ListFormat(locale, { type, style: 'long' })));
    return f;
  };
  const unitFormat = (unit: DurationUnit): Intl.NumberFormat => {
    let f = units.get(unit);
    if (!f) units.set(unit, (f = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' })));
    return f;
  };
  return {
    locale,
    number: (n) => numbers.format(n),
    plural: (n, forms) => (forms[rules.select(n)] ?? forms.other).replace('#', numbers.format(n)),
    list: (items, type = 'conjunction') => listFormat(type).format(items),
    duration: (n, unit) => unitFormat(unit).format(n),
    ago: (seconds) => {
      const s = Math.max(0, Math.round(seconds));
      if (s < 60) return relative.format(-s, 'second');
      if (s < 3600) return relative.format(-Math.floor(s / 60), 'minute');
      if (s < 86400) return relative.format(-Math.floor(s / 3600), 'hour');
      return relative.format(-Math.floor(s / 86400), 'day');
    },
  };
}
