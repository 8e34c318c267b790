/**
 * Runs in a worker thread: checkpoints the WAL of the server's database every `intervalMs`
 * (PASSIVE: never waits for readers or writers). The checkpoint's fsync then blocks this thread,
 * not the event loop that serves requests.
 */
import { openDatabase } from "./open.ts";

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ path: string; intervalMs: number }>) => {
  const { path, intervalMs } = event.data;
  const { sqlite } = openDatabase(path, { attach: true, busyTimeoutMs: 1000 });
  const checkpoint = sqlite.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  setInterval(() => {
    try {
      const r = checkpoint.get() as { busy: number; log: number; checkpointed: number };
      postMessage({ ok: true, ...r });
    } catch (err) {
      postMessage({ ok: false, error: (err as Error).message });
    }
  }, intervalMs);
};
