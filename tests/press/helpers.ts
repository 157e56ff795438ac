/** Test helpers for the press modules: positions from a short list, turns found by their effects, an inbox per member. */
import { legalTurns, playTurn, type Colour, type Effect, type Position, type Turn } from '@djambi/shared';
import type { Delivery, MemberId, Press, PressResult } from '../../server/src/press/index.js';

export { position } from '../support/positions.js';

/** A played turn: what the room would hand to `press.afterTurn`. */
export interface Played {
  readonly turn: Turn;
  readonly before: Position;
  readonly after: Position;
  readonly effects: Effect[];
  readonly mover: Colour;
}

/** Plays a turn (throws if the engine refuses it). */
export function play(before: Position, turn: Turn): Played {
  const r = playTurn(before, turn);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return { turn, before, after: r.value.position, effects: r.value.effects, mover: before.toMove! };
}

/** The first legal turn whose effects satisfy `want` (throws if none does). */
export function findTurn(pos: Position, want: (effects: Effect[], turn: Turn) => boolean): Played {
  for (const turn of legalTurns(pos)) {
    const r = playTurn(pos, turn);
    if (r.ok && want(r.value.effects, turn)) return { turn, before: pos, after: r.value.position, effects: r.value.effects, mover: pos.toMove! };
  }
  throw new Error('no legal turn with the wanted effects');
}

/** A quiet turn: moves a piece and nothing else happens to anyone. */
export function quietTurn(pos: Position): Played {
  return findTurn(pos, (fx) => fx.every((e) => e.type === 'move'));
}

/** Every delivery each member received, as the room would `client.send` them. */
export class Inbox {
  readonly byMember = new Map<MemberId, { type: string; payload: unknown }[]>();

  take(deliveries: readonly Delivery[]): void {
    for (const d of deliveries) {
      expect(d.to.length).toBeGreaterThan(0);
      expect(new Set(d.to).size).toBe(d.to.length);
      for (const m of d.to) {
        const list = this.byMember.get(m) ?? [];
        list.push({ type: d.type, payload: JSON.parse(JSON.stringify(d.payload)) });
        this.byMember.set(m, list);
      }
    }
  }

  of(member: MemberId): { type: string; payload: unknown }[] {
    return this.byMember.get(member) ?? [];
  }

  types(member: MemberId): string[] {
    return this.of(member).map((m) => m.type);
  }

  clear(): void {
    this.byMember.clear();
  }
}

/** Runs one client message through the press and the inbox; returns the result. */
export function act(press: Press, inbox: Inbox, member: MemberId, type: string, payload: unknown, now: number): PressResult {
  const r = press.handle(member, type, payload, now);
  if (r.ok) inbox.take(r.deliveries);
  return r;
}

/** Like `act`, but the action must be accepted. */
export function ok(press: Press, inbox: Inbox, member: MemberId, type: string, payload: unknown, now: number): Delivery[] {
  const r = act(press, inbox, member, type, payload, now);
  if (!r.ok) throw new Error(`${type} by ${member} refused: ${r.error.code} ${r.error.message}`);
  return r.deliveries;
}

/** Like `act`, but the action must be refused; returns the code. */
export function refused(press: Press, inbox: Inbox, member: MemberId, type: string, payload: unknown, now: number): string {
  const r = act(press, inbox, member, type, payload, now);
  if (r.ok) throw new Error(`${type} by ${member} was accepted`);
  return r.error.code;
}

/** A state fingerprint: what every member can see, for "changes nothing" checks. */
export function fingerprint(press: Press, members: readonly MemberId[]): string {
  return JSON.stringify(members.map((m) => press.historyFor(m)));
}

/** Sequential pact ids for tests. */
export function counterIds(prefix = 'p'): () => string {
  let n = 0;
  return () => `${prefix}${++n}`;
}

export { seeded } from '../support/random.js';
