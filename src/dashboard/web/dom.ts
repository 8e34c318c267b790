/// <reference lib="dom" />
/** Small DOM helpers for the browser script. */

/** The element with this id, or null (sections of the page exist only when they apply). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

/** Sets a live region's text; clearing first makes a repeated message announced again. */
export function announce(el: HTMLElement | null, text: string): void {
  if (!el) return;
  el.textContent = "";
  if (text) window.setTimeout(() => (el.textContent = text), 30);
}

/** Whether the user asked the system for less motion (WCAG 2.3.3): the network is then drawn without its transitions. */
export function reducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Whether the primary pointer is a mouse: touch screens keep page scrolling instead of chart panning. */
export function finePointer(): boolean {
  return window.matchMedia("(pointer: fine)").matches;
}

let measure: CanvasRenderingContext2D | null = null;

/** The width (px) of `text` in `fontSize` px sans-serif, as a chart's canvas draws it (its labels set that family). */
export function textWidth(text: string, fontSize: number): number {
  measure ??= document.createElement("canvas").getContext("2d");
  if (!measure) return text.length * fontSize * 0.8;
  measure.font = `${fontSize}px sans-serif`;
  return measure.measureText(text).width;
}
