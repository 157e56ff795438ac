/**
 * The table's sounds, synthesised with WebAudio (no audio files): a soft tick for a move, a low
 * thud for a kill, a chime for the viewer's turn, a blip for a message. One oscillator per cue.
 */
import type { SoundCue } from '../game/table.js';

/** Frequency (Hz), wave, length (s) and volume of each cue. */
const CUES: Record<SoundCue, { f: number; to: number; wave: OscillatorType; len: number; vol: number }> = {
  move: { f: 420, to: 380, wave: 'triangle', len: 0.09, vol: 0.18 },
  kill: { f: 180, to: 90, wave: 'sawtooth', len: 0.22, vol: 0.12 },
  turn: { f: 660, to: 880, wave: 'sine', len: 0.35, vol: 0.2 },
  chat: { f: 990, to: 1180, wave: 'sine', len: 0.12, vol: 0.12 },
};

/** Plays cues; the audio context is made on the first cue (after a user gesture, as browsers ask). */
export class SoundPlayer {
  private ctx: AudioContext | null = null;

  play(cue: SoundCue): void {
    try {
      this.ctx ??= new AudioContext();
      const ctx = this.ctx;
      const c = CUES[cue];
      const t = ctx.currentTime;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = c.wave;
      osc.frequency.setValueAtTime(c.f, t);
      osc.frequency.exponentialRampToValueAtTime(c.to, t + c.len);
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(c.vol, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + c.len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t);
      osc.stop(t + c.len + 0.02);
    } catch {
      /* no audio here */
    }
  }

  dispose(): void {
    void this.ctx?.close().catch(() => undefined);
    this.ctx = null;
  }
}
