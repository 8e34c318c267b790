/** Reporter lookup by name. */
import type { ReporterName, RunReport } from "../lib/types.ts";
import { jsonReport } from "./json.ts";
import { junitReport } from "./junit.ts";
import { textReport } from "./text.ts";

export const REPORTERS: Record<ReporterName, (r: RunReport) => string> = { text: textReport, json: jsonReport, junit: junitReport };
