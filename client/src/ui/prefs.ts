/** The viewer's preferences and name, kept in `localStorage` (silently absent when it is not available). */

/** A boolean preference (`djambi:KEY` = '1' or '0'). */
export const pref = {
  get: (k: string, d: boolean): boolean => {
    try {
      const v = localStorage.getItem(`djambi:${k}`);
      return v === null ? d : v === '1';
    } catch {
      return d;
    }
  },
  set: (k: string, v: boolean): void => {
    try {
      localStorage.setItem(`djambi:${k}`, v ? '1' : '0');
    } catch {
      /* ignore */
    }
  },
};

/** The name last used to take a seat. */
export function savedName(): string {
  try {
    return localStorage.getItem('djambi:name') ?? '';
  } catch {
    return '';
  }
}

/** Remember the name used to take a seat. */
export function saveName(name: string): void {
  try {
    localStorage.setItem('djambi:name', name);
  } catch {
    /* ignore */
  }
}

/** The interface language chosen in the header (`djambi:lang`), or null. */
export function savedLocale(): string | null {
  try {
    return localStorage.getItem('djambi:lang');
  } catch {
    return null;
  }
}

/** Remember the interface language chosen in the header. */
export function saveLocale(tag: string): void {
  try {
    localStorage.setItem('djambi:lang', tag);
  } catch {
    /* ignore */
  }
}

/** The authors this viewer muted in game `code` (`djambi:mute:CODE`, a JSON list), for the Talk panel. */
export function muteStore(code: string): { load(): readonly string[]; save(targets: readonly string[]): void } {
  const key = `djambi:mute:${code}`;
  return {
    load: () => {
      try {
        const list: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
        return Array.isArray(list) ? list.filter((t): t is string => typeof t === 'string').slice(0, 8) : [];
      } catch {
        return [];
      }
    },
    save: (targets) => {
      try {
        if (targets.length === 0) localStorage.removeItem(key);
        else localStorage.setItem(key, JSON.stringify(targets));
      } catch {
        /* storage disabled: the mute lasts as long as the page */
      }
    },
  };
}
