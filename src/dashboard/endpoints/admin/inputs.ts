/**
 * What the console's APIs accept: a JSON body (bounded by request-body.ts) checked by its zod
 * schema, query numbers and texts within bounds; anything else a 400 naming the field.
 */
import type { z } from "zod";
import { HttpError } from "../../../http/http-error.ts";
import { readBody } from "../../request-body.ts";

/** The body parsed and checked; an empty body is `{}` (the actions that take none). */
export async function jsonBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  const text = await readBody(request);
  let raw: unknown;
  try {
    raw = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new HttpError(400, "BAD_REQUEST", "the body must be a JSON object");
  }
  const checked = schema.safeParse(raw);
  if (checked.success) return checked.data;
  throw new HttpError(
    400,
    "BAD_REQUEST",
    checked.error.issues.slice(0, 5).map((i) => `${i.path.length ? i.path.join(".") : "body"}: ${i.message.slice(0, 200)}`),
  );
}

/** An integer query parameter in [min, max], `fallback` when absent or empty. */
export function queryInt(url: URL, name: string, min: number, max: number, fallback: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new HttpError(400, "BAD_REQUEST", `${name} must be an integer from ${min} to ${max}, got '${raw.slice(0, 40)}'`);
  return n;
}

/** A text query parameter of at most `max` characters; undefined when absent or empty. */
export function queryText(url: URL, name: string, max: number): string | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return undefined;
  if (raw.length > max) throw new HttpError(400, "BAD_REQUEST", `${name} must be at most ${max} characters, got ${raw.length}`);
  return raw;
}
