/**
 * Under the board: the prompt, the turn buttons (no kill, undo, cancel, confirm), the keyboard
 * input and the options (confirm turns, sound). Renders the controller's view.
 */
import type { Colour } from '@djambi/shared';
import type { ControllerView, GameController } from '../game/controller.js';
import { S } from '../i18n/strings.js';
import { h, setText } from './dom.js';
import { pref } from './prefs.js';

/** Makes a handler finish a running animation first. */
export type Guard = <A extends unknown[]>(handler: (...args: A) => unknown) => (...args: A) => void;

export class ControlsView {
  readonly prompt = h('p', { id: 'prompt', class: 'prompt', 'aria-live': 'polite' });
  readonly promptBar: HTMLElement;
  readonly optionsRow: HTMLElement;
  sound = pref.get('sound', false);
  /** A server refusal (or "not sent"), shown with the prompt until the next choice. */
  message = '';
  private readonly buttons = {
    undo: h('button', { type: 'button', id: 'undo' }, S.controls.undo),
    cancel: h('button', { type: 'button', id: 'cancel' }, S.controls.cancel),
    noKill: h('button', { type: 'button', id: 'no-kill' }, S.controls.noKill),
    confirm: h('button', { type: 'button', id: 'confirm', class: 'primary' }, S.controls.confirm),
  };
  /** The options of a seat holder (type a square, confirm turns, notify), hidden from a spectator. */
  private readonly playerOnly: HTMLElement[];
  private readonly keyInput = h('input', {
    id: 'square-input',
    autocomplete: 'off',
    spellcheck: 'false',
    autocapitalize: 'none',
    placeholder: S.controls.keyboardPlaceholder,
    'aria-describedby': 'square-hint',
  });

  constructor(controller: GameController, input: Guard) {
    const b = this.buttons;
    b.undo.addEventListener(
      'click',
      input(() => controller.undo()),
    );
    b.cancel.addEventListener(
      'click',
      input(() => controller.cancel()),
    );
    b.noKill.addEventListener(
      'click',
      input(() => controller.noKill()),
    );
    b.confirm.addEventListener(
      'click',
      input(() => controller.confirm()),
    );
    const confirmBox = h('input', { type: 'checkbox', id: 'confirm-toggle', checked: pref.get('confirm', false) });
    confirmBox.addEventListener('change', () => {
      pref.set('confirm', confirmBox.checked);
      controller.setConfirm(confirmBox.checked);
    });
    const soundBox = h('input', { type: 'checkbox', id: 'sound-toggle', checked: this.sound });
    soundBox.addEventListener('change', () => {
      this.sound = soundBox.checked;
      pref.set('sound', soundBox.checked);
    });
    const notify = h('button', { type: 'button', id: 'notify-toggle', class: 'link-button', title: S.table.notifyHint }, S.table.notify);
    const showNotify = (): void => {
      const perm = typeof Notification === 'function' ? Notification.permission : 'denied';
      const on = perm === 'granted' && pref.get('notify', false);
      notify.textContent = perm === 'denied' ? S.table.notifyDenied : on ? S.table.notifyOn : S.table.notify;
      notify.setAttribute('aria-pressed', String(on));
      (notify as HTMLButtonElement).disabled = perm === 'denied';
    };
    // Asked only when the player clicks, never on load.
    notify.addEventListener('click', () => {
      if (typeof Notification !== 'function') return;
      if (Notification.permission === 'granted') {
        pref.set('notify', !pref.get('notify', false));
        showNotify();
        return;
      }
      void Notification.requestPermission().then((perm) => {
        pref.set('notify', perm === 'granted');
        showNotify();
      });
    });
    showNotify();
    // A permission granted (or revoked) in the browser's site settings shows at once, not after a reload.
    void navigator.permissions
      ?.query({ name: 'notifications' })
      .then((status) => status.addEventListener('change', showNotify))
      .catch(() => undefined);
    const keyForm = h(
      'form',
      { class: 'keyboard' },
      h('label', { for: 'square-input' }, S.controls.keyboardLabel),
      this.keyInput,
      h('small', { id: 'square-hint', class: 'sr-only' }, S.controls.keyboardHint),
    );
    keyForm.addEventListener(
      'submit',
      input((e: SubmitEvent) => {
        e.preventDefault();
        controller.input(this.keyInput.value);
        this.keyInput.value = '';
      }),
    );
    this.keyInput.addEventListener(
      'keydown',
      input((e: KeyboardEvent) => {
        if (e.key === 'Backspace' && this.keyInput.value === '') controller.undo();
        if (e.key === 'Escape') controller.cancel();
      }),
    );
    this.promptBar = h('div', { class: 'prompt-bar' }, this.prompt, h('div', { class: 'turn-buttons' }, b.noKill, b.undo, b.cancel, b.confirm));
    const confirmLabel = h('label', {}, confirmBox, ' ', S.controls.confirmToggle);
    this.playerOnly = [keyForm, confirmLabel, notify];
    this.optionsRow = h('div', { class: 'options-row' }, keyForm, confirmLabel, h('label', {}, soundBox, ' ', S.controls.sound), notify);
  }

  render(v: ControllerView, seatName: (c: Colour) => string): void {
    const message = this.message;
    const p = v.prompt;
    let text: string;
    switch (p.key) {
      case 'notYourTurn':
        text = S.prompt.notYourTurn(seatName(p.colour ?? 'R'));
        break;
      case 'breaksPact':
        text = S.prompt.breaksPact((p.partners ?? []).map(seatName));
        break;
      default:
        text = S.prompt[p.key];
    }
    // A server refusal is shown until the next choice; a refused click is flagged once.
    if (message) text = `${message} ${text}`;
    else if (v.error) text = `${S.prompt.illegal} ${text}`;
    setText(this.prompt, text);
    this.prompt.classList.toggle('mine', v.interactive);
    this.buttons.undo.hidden = !v.canUndo;
    this.buttons.cancel.hidden = !v.canUndo;
    this.buttons.noKill.hidden = !v.canSkipKill;
    this.buttons.confirm.hidden = !(v.pending && !v.sending);
    this.keyInput.disabled = !v.interactive && !v.pending;
    for (const el of this.playerOnly) el.hidden = v.seat === null;
  }
}
