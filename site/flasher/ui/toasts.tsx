'use client';
// Toast notifications: a title, a message, a close button, gone after their duration (5 s for
// success, 9 s for errors). Errors are announced assertively, the rest politely.

import { useCallback, useEffect, useRef, useState } from 'react';
import styles from '../flasher.module.css';

export interface Toast {
  id: number;
  kind: 'success' | 'error';
  title: string;
  message: string;
  durationMs: number;
}

export function useToasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback(
    (id: number) => setToasts((list) => list.filter((t) => t.id !== id)),
    [],
  );
  const show = useCallback((toast: Omit<Toast, 'id'>) => {
    const id = next.current++;
    setToasts((list) => [...list, { ...toast, id }]);
    return id;
  }, []);
  return { toasts, show, dismiss };
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast.id, toast.durationMs, onDismiss]);
  return (
    <div
      className={`${styles.toast} ${toast.kind === 'error' ? styles.toastError : styles.toastSuccess}`}
      data-toast={toast.kind}
    >
      <div>
        <p className={styles.toastTitle}>{toast.title}</p>
        <p className={styles.toastMessage}>{toast.message}</p>
      </div>
      <button
        type="button"
        className={styles.toastClose}
        onClick={() => onDismiss(toast.id)}
        aria-label={`Close notification: ${toast.title}`}
      >
        ×
      </button>
    </div>
  );
}

export function Toasts({
  toasts,
  onDismiss,
}: {
  toasts: Toast[];
  onDismiss: (id: number) => void;
}) {
  const errors = toasts.filter((t) => t.kind === 'error');
  const others = toasts.filter((t) => t.kind !== 'error');
  return (
    <div className={styles.toasts}>
      <div role="alert" className={styles.toastList}>
        {errors.map((t) => (
          <ToastItem key={t.id} toast={t} onDismiss={onDismiss} />
        ))}
      </div>
      <div role="status" className={styles.toastList}>
        {others.map((t) => (
          <ToastItem key={t.id} toast={t} onDismiss={onDismiss} />
        ))}
      </div>
    </div>
  );
}
