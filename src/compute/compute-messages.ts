/**
 * The messages between the compute pool (compute-threads.ts) and its threads (compute-worker.ts),
 * and what a finished computation answers (Computed), on a thread or on the event loop.
 */
import type { ChartPart } from "../engine/chart.ts";
import type { ChartData, ChartError, ChartParams, EngineDiagnostics } from "../engine/types.ts";
import { serialise, type TidyFormat } from "./serialise.ts";
import type { SeriesSource } from "./series-source.ts";

/** Tells a thread to close its database connection and exit. */
export const CLOSE = { close: true } as const;

export interface ComputeRequest {
  id: number;
  source: SeriesSource;
  params: ChartParams;
  /** Only this share of the as-ofs (a split job): part `index` of `of`, answered as a ChartPart. */
  part?: { index: number; of: number };
  /** Also render the data in this format (Computed.tidy). */
  render?: TidyFormat;
}

/** Tells a thread to join a split job's parts (in order) into its answer. */
export interface ComputeJoin {
  id: number;
  join: { symbols: string[]; params: ChartParams; parts: ChartPart[]; render?: TidyFormat };
}

/** Tells a thread to render a computed result's JSON in a tidy format (answered as `rendered`). */
export interface ComputeRender {
  id: number;
  tidy: { json: string; format: TidyFormat };
}

/** Tells a thread to compute the next slice of a job it holds. */
export interface ComputeResume {
  resume: number;
}

/** Tells a thread to drop the state of a job whose caller went away (its remaining slices never run). */
export interface ComputeDrop {
  drop: number;
}

/** A thread posts this once it has loaded, before any job. */
export const READY = { ready: true } as const;

/** A thread's reply; each also says how many bytes its series cache holds after the slice (`seriesBytes`). */
export type ComputeReply = (
  | ({ id: number; ok: true } & Computed)
  | { id: number; yielded: true }
  | { id: number; part: ChartPart; symbols: string[] }
  | { id: number; rendered: string }
  | { id: number; ok: false; chartError: { kind: ChartError["kind"]; message: string } }
  | { id: number; ok: false; internal: string }
) & { seriesBytes?: number };

/** What a thread is sent, and what it posts back. */
export type ToThread = ComputeRequest | ComputeResume | ComputeDrop | ComputeJoin | ComputeRender | typeof CLOSE;
export type FromThread = ComputeReply | typeof READY;

export interface Computed {
  /** The chart's `data` as JSON: what the result cache keeps, and every other format is rendered from. */
  body: string;
  /** The tidy csv/ndjson rows, when the computation was asked to render them too (serialise.ts). */
  tidy?: string;
  diagnostics: EngineDiagnostics;
  /** How many symbols the series held. */
  nSymbols: number;
}

/** A finished computation as the pool answers it: its JSON, and the tidy body when asked for. */
export function computedOf(data: ChartData, diagnostics: EngineDiagnostics, nSymbols: number, render?: TidyFormat): Computed {
  const c: Computed = { body: JSON.stringify(data), diagnostics, nSymbols };
  if (render) c.tidy = serialise(data, render);
  return c;
}
