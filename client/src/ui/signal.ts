/** The your-turn signal: a title mark while the tab is in the background, and an optional beep. */

/** Turns the signal on and off; restores the title when the tab comes back. */
export class TurnSignal {
  private baseTitle = document.title;
  private marked = false;
  private audio: AudioContext | null = null;
  private readonly onVisible = (): void => {
    if (!document.hidden) this.clear();
  };

  constructor(private readonly markedTitle: () => string) {
    document.addEventListener('visibilitychange', this.onVisible);
  }

  /** The page title when nothing is signalled. */
  setTitle(title: string): void {
    this.baseTitle = title;
    if (!this.marked) document.title = title;
  }

  /** It became the viewer's turn. */
  yourTurn(sound: boolean): void {
    if (document.hidden) {
      this.marked = true;
      document.title = this.markedTitle();
    }
    if (sound) this.beep();
  }

  /** The turn is over (or the tab is visible again). */
  clear(): void {
    if (!this.marked) return;
    this.marked = false;
    document.title = this.baseTitle;
  }

  dispose(): void {
    document.removeEventListener('visibilitychange', this.onVisible);
    void this.audio?.close().catch(() => undefined);
  }

  private beep(): void {
    try {
      this.audio ??= new AudioContext();
      const ctx = this.audio;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.35);
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.4);
    } catch {
      /* no audio here */
    }
  }
}
