'use client';

import { useEffect, useRef, useState } from 'react';

/** The width a chart draws at before (or without) a measured container: server render, tests. */
export const DEFAULT_CHART_WIDTH = 560;

/**
 * Measures the element the chart sits in and follows its width, so one chart fits 1440 px and
 * 390 px alike. Until a width is measured (server render, happy-dom, a hidden tab) the chart
 * draws at `fallback`, never at 0: recharts draws nothing into a zero-sized box.
 */
export function useChartWidth<TElement extends HTMLElement>(fallback = DEFAULT_CHART_WIDTH) {
  const ref = useRef<TElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (element === null || typeof ResizeObserver === 'undefined') return undefined;
    const measure = (measured: number) => {
      if (measured > 0) setWidth(Math.floor(measured));
    };
    measure(element.clientWidth);
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) measure(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
