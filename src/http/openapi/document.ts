/**
 * The OpenAPI 3.1 document, generated from the zod schemas that validate requests
 * (parameters.ts, over params/params-fields.ts) and describe responses (response-schemas.ts).
 * Served at /openapi.json and committed as docs/openapi.json (`npm run openapi`); a test keeps
 * the two equal and validates real responses against it.
 */
import { z } from "zod";
import { DEMO_MAX_PERIODS } from "../demo-service.ts";
import { chartParameters } from "./parameters.ts";
import { RATE_LIMIT_HEADER_NAMES } from "../../metering/headers.ts";
import { registry } from "./response-schemas.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

const RATE_HEADERS: string[] = [...RATE_LIMIT_HEADER_NAMES];

/**
 * Header objects of a response. Each header is a reference to its component (declared `required`);
 * a name in `optional` is inlined without `required`, for answers that carry it only sometimes
 * (a 503 carries the rate-limit headers only when the meter could be read: docs/api.md § Headers).
 */
function headers(names: string[], optional: string[] = []): Record<string, object> {
  return Object.fromEntries(
    ["X-Request-Id", ...names].map((n) => {
      const { required: _, ...spec } = HEADERS[n as keyof typeof HEADERS];
      return [n, optional.includes(n) ? spec : header(n)];
    }),
  );
}

function envelope(description: string, schema: string, headerNames: string[] = [], optional: string[] = []) {
  return { description, headers: headers(headerNames, optional), content: { "application/json": { schema: ref(schema) } } };
}

const error = (description: string, headerNames: string[] = [], optional: string[] = []) =>
  envelope(description, "ErrorEnvelope", headerNames, optional);

/** An integer header; `required` because every response that declares one carries it (docs/api.md § Headers). */
const intHeader = (description: string) => ({ description, required: true, schema: { type: "string", pattern: "^[0-9]+$" } });
const HEADERS = {
  "X-Request-Id": {
    description: "The caller's X-Request-Id when it is 1-64 of A-Z a-z 0-9 . _ -, else a new one; also in meta.request_id.",
    required: true,
    schema: { type: "string" },
  },
  "X-RateLimit-Limit": intHeader("Requests allowed per rolling minute."),
  "X-RateLimit-Remaining": intHeader("Requests left in the current minute window."),
  "X-RateLimit-Daily-Limit": intHeader("Requests allowed per UTC day."),
  "X-RateLimit-Daily-Remaining": intHeader("Requests left today (UTC)."),
  "X-RateLimit-Reset": intHeader("Unix time (seconds) at which a minute slot frees."),
  RateLimit: {
    description: 'IETF draft form of the tightest window, e.g. "minute";r=0;t=42.',
    required: true,
    schema: { type: "string" },
  },
  "RateLimit-Policy": {
    description: 'Both windows, e.g. "minute";q=1;w=60, "day";q=30;w=86400.',
    required: true,
    schema: { type: "string" },
  },
  "Retry-After": intHeader("Seconds to wait before retrying."),
  "WWW-Authenticate": {
    description: 'RFC 6750: Bearer realm="graph-stats", with error="invalid_token" and error_description when a token was sent.',
    required: true,
    schema: { type: "string" },
  },
  ETag: {
    description: 'A weak tag naming the data version, W/"dv<version>": send it back in If-None-Match for a 304 until the data changes.',
    required: true,
    schema: { type: "string" },
  },
  Allow: { description: "The methods the path answers.", required: true, schema: { type: "string", const: "GET" } },
  "Cache-Control": {
    description: "no-store on live and health answers; public, max-age=60 on the demo; private, no-cache on /v1/universes.",
    required: true,
    schema: { type: "string" },
  },
};

const CHART_DESCRIPTION = `Builds a correlation network of the chosen stocks' returns and returns, per stock, five centrality metrics and its community: a snapshot (periods=1) or a rolling series (periods>1, or start/end). Metered: each admitted request counts against the caller's per-minute and per-day limits; refusals before admission (401, 403, 400, 404) are free.

Tidy exports: format=csv or format=ndjson return long rows date,symbol,metric,value,community (the TidyRow schema), ready for pandas:

    import pandas as pd
    url = "http://127.0.0.1:8080/v1/graph-stats/chart?periods=20&format=csv"
    df = pd.read_csv(url, storage_options={"Authorization": "Bearer <token>"})

With curl: \`curl -s -H "Authorization: Bearer $TOKEN" 'http://127.0.0.1:8080/v1/graph-stats/chart?symbols=ALPHABANK,BETABANK,CODEWAVE&lookback=30'\``;

/** The base URL the examples above are written against; the /docs page shows the server's public URL instead. */
export const EXAMPLE_BASE_URL = "http://127.0.0.1:8080";

const json = { "application/json": { schema: ref("ChartEnvelope") } };

const UNIVERSES_DESCRIPTION =
  "Requires a bearer token, verified exactly as on the live endpoint (the same 401s and 403), but not metered: no quota is used and no X-RateLimit-* header is sent. Every universe is visible to every token holder. Answers are held in memory per data version and carry a weak ETag; If-None-Match with it answers 304 until an import, a removal or a metadata change moves the data version. No query parameters are accepted.";

/** A GET of the catalogue (routes/universes.ts): the same security, headers and refusals for the list and one universe. */
function universeOperation(operationId: string, summary: string, schema: string) {
  const one = operationId === "getUniverse";
  return {
    tags: ["data"],
    operationId,
    summary,
    description: UNIVERSES_DESCRIPTION,
    security: [{ bearerAuth: [] }],
    responses: {
      "200": envelope("The catalogue, read at the data version its ETag names.", schema, ["ETag", "Cache-Control"]),
      "304": { description: "Not modified: If-None-Match names the current ETag. No body.", headers: headers(["ETag", "Cache-Control"]) },
      "400": error("BAD_REQUEST: a query parameter was sent; these routes take none."),
      "401": error("UNAUTHORIZED: as on the live endpoint.", ["WWW-Authenticate"]),
      "403": error("FORBIDDEN: a valid token of a disabled user."),
      ...(one ? { "404": error("NOT_FOUND: no universe of that name; the message lists the known ones.") } : {}),
      "405": error("A method other than GET, HEAD or OPTIONS.", ["Allow"]),
      "500": error("INTERNAL_ERROR: an unexpected failure; the message carries the request id."),
      "503": error("SERVICE_UNAVAILABLE: the database is unavailable or busy, or the server is shutting down.", ["Retry-After"]),
    },
  };
}

export function buildDocument(version: string): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io: "output" }) as {
    schemas: Record<string, Record<string, unknown>>;
  };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  const common405 = error("A method other than GET, HEAD or OPTIONS.", ["Allow"]);
  // Every route refuses while the server drains (app.ts), not only the three of the interface.
  const shuttingDown = error("SERVICE_UNAVAILABLE: the server is shutting down.", ["Retry-After"]);
  return {
    openapi: "3.1.0",
    info: {
      title: "graph-stats",
      version,
      summary: "Stock price bars → correlation network → per-stock centrality metrics and communities.",
      description:
        "Every JSON answer is an envelope: {success, errors: [{code, message}], data, meta}; errors have data null and one error object per problem. Every response carries X-Request-Id. /health, the demo, this document and /docs are public and unmetered, and allow any CORS origin; the live endpoint and /v1/universes allow the configured origins only. JSON bodies over 1 KiB are gzip-compressed when the client accepts gzip.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/" }],
    security: [],
    tags: [
      { name: "charts", description: "The correlation network and its metrics: the live, metered chart and the public demo." },
      { name: "data", description: "The stored universes, their symbols, coverage and metadata: token required, unmetered." },
      { name: "service", description: "Health, this document and its web page: public and unmetered." },
    ],
    paths: {
      "/v1/graph-stats/chart": {
        get: {
          tags: ["charts"],
          operationId: "getChart",
          summary: "The live, metered chart",
          description: CHART_DESCRIPTION,
          security: [{ bearerAuth: [] }],
          parameters: chartParameters(),
          responses: {
            "200": {
              description: "The chart (format=json), or its tidy rows (format=csv, format=ndjson). Cache-Control: no-store.",
              headers: headers([...RATE_HEADERS, "Cache-Control"]),
              content: {
                ...json,
                "text/csv": {
                  schema: {
                    type: "string",
                    description: "Header row date,symbol,metric,value,community, then one TidyRow per line; null is an empty cell.",
                  },
                },
                "application/x-ndjson": {
                  // contentSchema (JSON Schema 2020-12) references TidyRow where linters look; x-line-schema is what the kit's fuzzer reads.
                  schema: {
                    type: "string",
                    description: "One JSON TidyRow per line.",
                    contentMediaType: "application/json",
                    contentSchema: ref("TidyRow"),
                  },
                  "x-line-schema": ref("TidyRow"),
                },
              },
            },
            "400": error(
              "BAD_REQUEST: a parameter problem (each message names the parameter, the value and what is allowed), more history than exists, or a query over 8 KiB.",
              RATE_HEADERS,
            ),
            "401": error(
              "UNAUTHORIZED: the token is missing, malformed, badly signed, of another algorithm, expired, not yet valid or revoked.",
              ["WWW-Authenticate"],
            ),
            "403": error("FORBIDDEN: a valid token of a disabled user; like a 401, without rate-limit headers."),
            "404": error("NOT_FOUND: an unknown universe, or fewer than 2 usable symbols.", RATE_HEADERS),
            "405": common405,
            "429": error("RATE_LIMITED (per-minute) or DAILY_QUOTA_EXCEEDED (per UTC day); not counted.", [...RATE_HEADERS, "Retry-After"]),
            "500": error("INTERNAL_ERROR: an unexpected failure; the message carries the request id. Refunded."),
            "503": error(
              "SERVICE_UNAVAILABLE: the database is unavailable or busy, the process is at its bound of admitted work, or the server is shutting down. Refunded. The rate-limit headers when the caller's meter could be read.",
              [...RATE_HEADERS, "Retry-After"],
              RATE_HEADERS,
            ),
          },
        },
      },
      "/v1/universes": { get: universeOperation("listUniverses", "The stored universes (not metered)", "UniverseListEnvelope") },
      "/v1/universes/{name}": {
        get: {
          ...universeOperation("getUniverse", "One universe: each member's coverage and metadata (not metered)", "UniverseEnvelope"),
          parameters: [
            {
              name: "name",
              in: "path",
              required: true,
              description:
                "A universe's name (1-64 of A-Z a-z 0-9 . _ -). Names . and .. cannot be addressed: URLs drop such path segments.",
              schema: { type: "string", pattern: "^[A-Za-z0-9._-]{1,64}$" },
              example: "sample",
            },
          ],
        },
      },
      "/v1/demo/chart": {
        get: {
          tags: ["charts"],
          operationId: "getDemoChart",
          summary: "A fixed chart of the synthetic sample (public, unmetered)",
          description: "Any Authorization header is ignored. Cache-Control: public, max-age=60.",
          parameters: [
            {
              name: "periods",
              in: "query",
              required: false,
              description: `2-${DEMO_MAX_PERIODS} for a rolling sample; anything else (or none) gives the snapshot. Other parameters are ignored.`,
              schema: { type: "string" },
            },
          ],
          responses: {
            "200": envelope("The demo chart; meta.demo is true.", "DemoEnvelope", ["Cache-Control"]),
            "405": common405,
            "500": error("INTERNAL_ERROR."),
            "503": error("SERVICE_UNAVAILABLE: shutting down.", ["Retry-After"]),
          },
        },
      },
      "/health": {
        get: {
          tags: ["service"],
          operationId: "getHealth",
          summary: "Liveness and the database check (public, unmetered)",
          description:
            "Answers 200 while the process serves and its database answers a probe, else 503 naming the failing check in meta.checks. Needs no token; use it for load balancers and container health checks.",
          responses: {
            "200": envelope("Healthy. Cache-Control: no-store.", "HealthEnvelope", ["Cache-Control"]),
            "405": common405,
            "503": error("SERVICE_UNAVAILABLE: the database does not answer, or shutting down; meta.checks names the failing check.", [
              "Retry-After",
            ]),
          },
        },
      },
      "/openapi.json": {
        get: {
          tags: ["service"],
          operationId: "getOpenApi",
          summary: "This document (public, unmetered)",
          description:
            "This OpenAPI 3.1 document as JSON, the same as docs/openapi.json in the repository; clients generate their types from it.",
          responses: {
            "200": {
              description: "The OpenAPI 3.1 document.",
              headers: headers([]),
              content: { "application/json": { schema: { type: "object" } } },
            },
            "405": common405,
            "503": shuttingDown,
          },
        },
      },
      "/docs": {
        get: {
          tags: ["service"],
          operationId: "getDocs",
          summary: "This document as a web page, self-contained (public, unmetered)",
          description: "The reference generated from this document as one HTML page with no scripts and no external resources.",
          responses: {
            "200": {
              description: "An HTML reference rendered from this document; no scripts, no external resources.",
              headers: headers([]),
              content: { "text/html": { schema: { type: "string" } } },
            },
            "405": common405,
            "503": shuttingDown,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description:
            "An HS256 JWT with sub (the user), exp and jti, from `graph-stats token create --user <name>` or the dashboard. Send it as Authorization: Bearer <token>.",
        },
      },
      headers: HEADERS,
      schemas,
    },
  };
}

let cached: string | null = null;

/** The document as served: built once per process (its input never changes while running). */
export function documentJson(version: string): string {
  cached ??= `${JSON.stringify(buildDocument(version), null, 2)}\n`;
  return cached;
}
