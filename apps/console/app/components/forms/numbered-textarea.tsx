'use client';

import { useRef, type TextareaHTMLAttributes } from 'react';

/**
 * A code textarea with line numbers in a gutter; `errorLines` are marked there, so a parser's
 * "line 3" is found at a glance.
 */
export function NumberedTextarea({
  value,
  errorLines = new Set<number>(),
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  value: string;
  errorLines?: ReadonlySet<number>;
}) {
  const gutter = useRef<HTMLDivElement>(null);
  const count = Math.max(value.split('\n').length, Number(props.rows ?? 1));
  return (
    <div className="numbered-textarea">
      <div className="line-numbers" ref={gutter} aria-hidden="true">
        {Array.from({ length: count }, (_, index) => index + 1).map((line) => (
          <span key={line} className={errorLines.has(line) ? 'error-line' : undefined}>
            {line}
          </span>
        ))}
      </div>
      <textarea
        {...props}
        value={value}
        wrap="off"
        onScroll={(event) => {
          // the gutter follows the text when it scrolls
          if (gutter.current) gutter.current.scrollTop = event.currentTarget.scrollTop;
        }}
      />
    </div>
  );
}
