/** A limit as the console's bodies give it: a positive whole number of requests. */
import { z } from "zod";

export const LIMIT = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
