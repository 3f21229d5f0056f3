// Brief confirmations and errors ("Deleted Kitchen. Undo"), announced politely by Radix Toast.
// Any code can call toast(); the one <Toasts /> in the app shows them.
import { Toast } from 'radix-ui';
import { useSyncExternalStore } from 'react';

export interface ToastAction {
  readonly label: string;
  readonly run: () => void;
}

export interface ToastMessage {
  readonly id: number;
  readonly title: string;
  readonly description?: string;
  readonly action?: ToastAction;
  readonly tone: 'info' | 'error';
  /** ms on screen (an undo lasts as long as its toast). */
  readonly duration: number;
}

let toasts: readonly ToastMessage[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

export function toast(
  message: Omit<ToastMessage, 'id' | 'tone' | 'duration'> &
    Partial<Pick<ToastMessage, 'tone' | 'duration'>>,
): void {
  const full: ToastMessage = { tone: 'info', duration: 5000, ...message, id: nextId++ };
  toasts = [...toasts, full].slice(-4);
  emit();
}

export function toastError(title: string, description: string): void {
  toast({ title, description, tone: 'error', duration: 8000 });
}

function dismiss(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export function Toasts() {
  const list = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
  );
  return (
    <Toast.Provider swipeDirection="right" label="Notification">
      {list.map((t) => (
        <Toast.Root
          key={t.id}
          className="toast"
          data-tone={t.tone}
          duration={t.duration}
          type={t.tone === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => !open && dismiss(t.id)}
        >
          <Toast.Title className="toast-title">{t.title}</Toast.Title>
          {t.description && (
            <Toast.Description className="toast-description">{t.description}</Toast.Description>
          )}
          {t.action && (
            <Toast.Action
              className="button button-small"
              altText={t.action.label}
              onClick={t.action.run}
            >
              {t.action.label}
            </Toast.Action>
          )}
          <Toast.Close className="toast-close" aria-label="Dismiss">
            ×
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="toast-viewport" />
    </Toast.Provider>
  );
}
