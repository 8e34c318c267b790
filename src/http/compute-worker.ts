/**
 * Runs in a compute thread (src/http/compute-pool.ts): gets the series (from its own read-only
 * connection to the server's database, with the market layer's cache, or the generated sample) and runs the engine's
 * computeChart for one request at a time, serialised here so the event loop only receives a
 * string. A ChartError (the data cannot serve the request) comes back as its code and message;
 * anything else as an internal failure whose message is for the log only.
 */
import { Database } from "bun:sqlite";
import { ChartError } from "../engine/types.ts";
import { inlineCompute, READY, type CLOSE, type ComputeReply, type ComputeRequest } from "./compute-pool.ts";
import { inputOf } from "./series-source.ts";

declare const self: Worker;
/** The worker's global close(): ends this thread. */
declare function close(): void;

let db: { path: string; sqlite: Database } | null = null;

function connection(path: string): Database {
  if (db?.path !== path) {
    const sqlite = new Database(path, { create: false });
    sqlite.exec("PRAGMA busy_timeout = 1000");
    sqlite.exec("PRAGMA query_only = 1");
    db = { path, sqlite };
  }
  return db.sqlite;
}

self.onmessage = (event: MessageEvent<ComputeRequest | typeof CLOSE>) => {
  if ("close" in event.data) {
    db?.sqlite.close();
    db = null;
    close();
    return;
  }
  const { id, source, params } = event.data;
  let reply: ComputeReply;
  try {
    reply = { id, ok: true, ...inlineCompute(inputOf(source, params, connection), params) };
  } catch (err) {
    reply =
      err instanceof ChartError
        ? { id, ok: false, chartError: { code: err.code, message: err.message } }
        : { id, ok: false, internal: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
  postMessage(reply);
};

postMessage(READY);
