/**
 * A stand-in compute thread for src/compute/compute-pool.test.ts: answers like the real one, except
 * that a request with asof "2001-01-01" kills the thread (an uncaught error) before it answers.
 */
declare const self: Worker;

self.onmessage = (event: MessageEvent<{ id: number; params: { asof: string | null } }>) => {
  const { id, params } = event.data;
  if (params.asof === "2001-01-01") {
    setTimeout(() => {
      throw new Error("thread died");
    });
    return;
  }
  postMessage({ id, ok: true, body: JSON.stringify({ asof: params.asof }), diagnostics: {} });
};

postMessage({ ready: true });
