/** Refusals of a turn that say the server is overloaded (its store, its budgets), not that generator and server disagree: a client tries again. */
export const OVERLOAD_CODES: ReadonlySet<string> = new Set(['storage_unavailable', 'rate_limited']);
