/**
 * The JSON Schema validator the fuzzer judges with: ajv in the 2020-12 dialect (OpenAPI 3.1's; 3.0
 * documents are rewritten to it on loading), lenient about keywords it does not know (OpenAPI adds
 * some), with the OpenAPI formats. Formats are checked only where a wrong value is unambiguous.
 */
import Ajv2020 from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A calendar date that exists (2024-02-30 does not), as JSON Schema's `date` format means. */
export function isCalendarDate(s: string): boolean {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

export function newAjv(): InstanceType<typeof Ajv2020> {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
  ajv.addFormat("date", isCalendarDate);
  ajv.addFormat("date-time", (s: string) => DATE_TIME.test(s) && !Number.isNaN(Date.parse(s)));
  // Formats whose wrong values the fuzzer cannot tell from right ones without guessing: accepted as written.
  for (const f of ["time", "email", "uri", "uri-reference", "uuid", "int32", "int64", "float", "double", "byte", "binary", "password"]) {
    ajv.addFormat(f, true);
  }
  return ajv;
}

/** ajv's errors as short readable lines: `/meta/diagnostics/n_in_graph must be integer`. */
export function ajvErrors(errors: ErrorObject[] | null | undefined, limit = 4): string[] {
  const lines = (errors ?? []).map((e) => {
    const where = e.instancePath || "(root)";
    const extra =
      e.keyword === "additionalProperties"
        ? ` (${(e.params as { additionalProperty?: string }).additionalProperty})`
        : e.keyword === "enum" || e.keyword === "const"
          ? ` (${JSON.stringify((e.params as { allowedValues?: unknown; allowedValue?: unknown }).allowedValues ?? (e.params as { allowedValue?: unknown }).allowedValue)?.slice(0, 80)})`
          : "";
    return `${where} ${e.message ?? e.keyword}${extra}`;
  });
  // oneOf/anyOf report every branch; the first few lines name the field that is wrong.
  const unique = [...new Set(lines)];
  return unique.length > limit ? [...unique.slice(0, limit), `… ${unique.length - limit} more`] : unique;
}

const standalone = new WeakMap<object, ValidateFunction>();
/** By the schema's JSON text: each run loads the document afresh, so its schema objects are new every run. */
const byText = new Map<string, ValidateFunction>();
const MAX_BY_TEXT = 1000;
const shared = newAjv();

/**
 * A validator for a self-contained schema (no $ref), compiled once per schema text in the process:
 * a process that runs the kit many times against one document (the kill test, one run per mutant)
 * compiles each schema once instead of once a run; ajv's compile was a third of a fuzz run's CPU.
 */
export function validatorFor(schema: object): ValidateFunction {
  let v = standalone.get(schema);
  if (!v) {
    const text = JSON.stringify(schema);
    v = byText.get(text);
    if (!v) {
      v = shared.compile(schema);
      if (byText.size >= MAX_BY_TEXT) byText.clear();
      byText.set(text, v);
    }
    standalone.set(schema, v);
  }
  return v;
}
