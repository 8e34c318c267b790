/// <reference lib="dom" />
/**
 * Keeps the Usage section current while the page is in view. Calls made elsewhere (a program or
 * curl with a token) count against the same quota and nothing tells the page about them, so it
 * asks again every 30 s while visible, and at once when the tab or window comes back.
 */

export const REFRESH_EVERY_MS = 30_000;

/**
 * Runs `refresh` on that schedule; `refresh` answers false when there is no point asking again
 * (the session has ended). One run at a time: focus and visibilitychange often come together.
 */
export function keepUsageFresh(refresh: () => Promise<boolean>): void {
  let timer: number | undefined;
  let running = false;
  let stopped = false;
  const visible = () => document.visibilityState === "visible";
  const schedule = () => {
    window.clearTimeout(timer);
    if (!stopped && visible()) timer = window.setTimeout(run, REFRESH_EVERY_MS);
  };
  const run = async () => {
    if (running || stopped) return;
    running = true;
    try {
      stopped = !(await refresh());
    } finally {
      running = false;
    }
    schedule();
  };
  document.addEventListener("visibilitychange", () => {
    if (visible()) void run();
    else window.clearTimeout(timer);
  });
  window.addEventListener("focus", () => void run());
  schedule();
}
