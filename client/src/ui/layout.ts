/**
 * Where the talk goes (a column left of the board on wide screens, at the end of the side column
 * on phones once the game is on, so that the turn, the clocks and Resign/Draw come first, else
 * after the seats), the header's talk link with its unread badge, and
 * whether the talk is on screen (a channel counts as read only then).
 */
import type { PressModel } from '../game/press.js';
import { S } from '../i18n/strings.js';
import { SoundPlayer } from '../render/sound.js';
import { h, setText } from './dom.js';
import { pref } from './prefs.js';
import type { PressPanel } from './pressPanel.js';

/** Screens wide enough for a talk column left of the board (as `styles.css`). */
const WIDE_LAYOUT = '(min-width: 1180px) and (orientation: landscape)';
/** Phones held upright (as `styles.css`): one column. */
const NARROW_LAYOUT = '(max-width: 820px), (orientation: portrait)';

export class TalkLayout {
  readonly column = h('aside', { class: 'talk-col' });
  readonly link: HTMLElement;
  private readonly badge = h('span', { class: 'badge', hidden: true });
  private readonly wide = window.matchMedia(WIDE_LAYOUT);
  private readonly narrow = window.matchMedia(NARROW_LAYOUT);
  private readonly onMedia = (): void => this.place();
  private readonly onVisibility = (): void => this.updateViewing();
  private readonly observer: IntersectionObserver | null;
  private feedVisible = false;
  private unreadShown = 0;
  private readonly sounds = new SoundPlayer();
  private started = false;

  constructor(
    private readonly press: PressModel,
    private readonly panel: PressPanel,
    /** The seats card, the talk's neighbour before the start (its parent is the side column). */
    private readonly seatsBox: HTMLElement,
    /** The live region that announces new messages. */
    private readonly announce: HTMLElement,
  ) {
    this.link = h(
      'a',
      {
        href: '#talk',
        id: 'talk-link',
        class: 'talk-link',
        // Not a navigation (the router would reload the page): bring the talk into view.
        onclick: ((e: MouseEvent) => {
          e.preventDefault();
          panel.element.scrollIntoView({ block: 'start', behavior: 'smooth' });
          (panel.element.querySelector('[role="tab"][aria-selected="true"]') as HTMLElement | null)?.focus({ preventScroll: true });
        }) as EventListener,
      },
      S.press.headerLink,
      ' ',
      this.badge,
    );
    press.subscribe(() => this.refreshBadge());
    this.observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver(
            (entries) => {
              for (const e of entries) this.feedVisible = e.isIntersecting;
              this.updateViewing();
            },
            { threshold: 0.3 },
          )
        : null;
  }

  /** Start following the screen (once the page is built). */
  attach(): void {
    document.addEventListener('visibilitychange', this.onVisibility);
    this.wide.addEventListener('change', this.onMedia);
    this.narrow.addEventListener('change', this.onMedia);
    this.place();
    if (this.observer) this.observer.observe(this.panel.feed);
    else this.feedVisible = true;
    this.updateViewing();
  }

  dispose(): void {
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.wide.removeEventListener('change', this.onMedia);
    this.narrow.removeEventListener('change', this.onMedia);
    this.observer?.disconnect();
    this.sounds.dispose();
  }

  /** The game is on (or not): phones then put the talk under the board. */
  setStarted(started: boolean): void {
    this.started = started;
    this.place();
  }

  private place(): void {
    const card = this.panel.element;
    if (this.wide.matches) {
      if (card.parentElement !== this.column) this.column.appendChild(card);
    } else if (this.narrow.matches && this.started) {
      const side = this.seatsBox.parentElement;
      if (side && card !== side.lastElementChild) side.appendChild(card);
    } else if (card.previousElementSibling !== this.seatsBox) {
      this.seatsBox.after(card);
    }
    this.column.hidden = !this.wide.matches;
  }

  /** A channel counts as read only while its messages are on screen in a visible page. */
  private updateViewing(): void {
    this.press.setViewing(document.visibilityState === 'visible' && this.feedVisible && !this.panel.feed.hidden);
  }

  private refreshBadge(): void {
    const n = this.press.totalUnread;
    // Screen readers hear that something new was said (the feed itself is not a live region).
    if (n > this.unreadShown) {
      this.announce.textContent = S.press.unread(n);
      // A new message: the chat cue, when the sound switch is on.
      if (pref.get('sound', false)) this.sounds.play('chat');
    }
    this.unreadShown = n;
    this.badge.hidden = n === 0;
    setText(this.badge, n ? String(n) : '');
    this.link.setAttribute('aria-label', n ? `${S.press.headerLink}: ${S.press.unread(n)}` : S.press.headerLink);
    // The reveal tab hides the feed: whether the channel is in view changes with the tab.
    this.updateViewing();
  }
}
