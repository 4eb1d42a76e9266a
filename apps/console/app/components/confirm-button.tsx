'use client';

import { useState, type ReactNode } from 'react';

/** A button that asks once more before an action that changes production. */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  disabled = false,
  tone = 'danger',
}: {
  label: string;
  /** What will happen, said before it does (who still calls the version, ...). */
  question: ReactNode;
  onConfirm: () => void;
  disabled?: boolean;
  tone?: 'danger' | 'primary';
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className={tone} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={`Confirm: ${label}`}>
      <span>{question}</span>
      <button
        type="button"
        className={tone}
        autoFocus
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {label.toLowerCase()}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
