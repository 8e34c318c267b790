// Generated from docs/openapi.json by openapi-typescript (scripts/generate.ts); do not edit.
export interface paths {
    "/v1/graph-stats/chart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The live, metered chart
         * @description Builds a correlation network of the chosen stocks' returns and returns, per stock, five centrality metrics and its community: a snapshot (periods=1) or a rolling series (periods>1, or start/end). Metered: each admitted request counts against the caller's per-minute and per-day limits; refusals before admission (401, 403, 400, 404) are free.
         *
         *     Tidy exports: format=csv or format=ndjson return long rows date,symbol,metric,value,community (the TidyRow schema), ready for pandas:
         *
         *         import pandas as pd
         *         url = "http://127.0.0.1:8080/v1/graph-stats/chart?periods=20&format=csv"
         *         df = pd.read_csv(url, storage_options={"Authorization": "Bearer <token>"})
         *
         *     With curl: `curl -s -H "Authorization: Bearer $TOKEN" 'http://127.0.0.1:8080/v1/graph-stats/chart?symbols=ALPHABANK,BETABANK,CODEWAVE&lookback=30'`
         */
        get: operations["getChart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/universes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The stored universes (not metered)
         * @description Requires a bearer token, verified exactly as on the live endpoint (the same 401s and 403), but not metered: no quota is used and no X-RateLimit-* header is sent. Every universe is visible to every token holder. Answers are held in memory per data version and carry a weak ETag; If-None-Match with it answers 304 until an import, a removal or a metadata change moves the data version. No query parameters are accepted.
         */
        get: operations["listUniverses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/universes/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One universe: each member's coverage and metadata (not metered)
         * @description Requires a bearer token, verified exactly as on the live endpoint (the same 401s and 403), but not metered: no quota is used and no X-RateLimit-* header is sent. Every universe is visible to every token holder. Answers are held in memory per data version and carry a weak ETag; If-None-Match with it answers 304 until an import, a removal or a metadata change moves the data version. No query parameters are accepted.
         */
        get: operations["getUniverse"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/demo/chart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A fixed chart of the synthetic sample (public, unmetered)
         * @description Any Authorization header is ignored. Cache-Control: public, max-age=60.
         */
        get: operations["getDemoChart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness and the database check (public, unmetered)
         * @description Answers 200 while the process serves and its database answers a probe, else 503 naming the failing check in meta.checks. Needs no token; use it for load balancers and container health checks.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document (public, unmetered)
         * @description This OpenAPI 3.1 document as JSON, the same as docs/openapi.json in the repository; clients generate their types from it.
         */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document as a web page, self-contained (public, unmetered)
         * @description The reference generated from this document as one HTML page with no scripts and no external resources.
         */
        get: operations["getDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The graph's communities against its stocks' sectors over the labelled nodes (import-metadata). */
        SectorAgreement: {
            /** @description adjusted Rand index (scikit-learn's adjusted_rand_score), not rounded */
            ari: number | null;
            /** @description normalised mutual information, arithmetic mean (normalized_mutual_info_score), not rounded */
            nmi: number | null;
            /** @description nodes with a known sector; ari and nmi are null when fewer than 2 */
            labelled: number;
        };
        Edge: {
            source: string;
            target: string;
            weight: number;
            corr: number;
            /** @description share of the bootstrap replicates whose graph holds this edge; only with bootstrap */
            reliability?: number;
        };
        /** @description spectrum=true: the eigenvalues of the as-of's correlation matrix before denoise and detone (after shrinkage) */
        Spectrum: {
            /** @description descending, rounded to 6 decimals */
            eigenvalues: (number | null)[];
            /** @description Marchenko-Pastur edge (1 + sqrt(n/L))^2 */
            lambda_plus: number;
            /** @description eigenvalues strictly above lambda_plus */
            n_above: number;
            /** @description sum of the top ceil(n/5) eigenvalues / n */
            absorption_ratio: number | null;
        };
        /** @description include_corr=true: the matrix the graph was built from, after every filter */
        CorrMatrix: {
            /** @description the as-of's symbols in stocks order */
            symbols: string[];
            /** @description row i, column j: rho between symbols[i] and symbols[j], rounded to 6 decimals */
            matrix: (number | null)[][];
        };
        /** @description With include_graph=false only nodes, edges and method (and spectrum with spectrum=true). */
        Graph: {
            /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
            asof_date?: string;
            nodes: number;
            edges: number;
            /** @enum {string} */
            method: "mst" | "knn" | "threshold" | "complete" | "tmfg" | "pmfg";
            edge_list?: components["schemas"]["Edge"][];
            communities?: {
                [key: string]: number;
            };
            n_communities?: number;
            modularity?: number | null;
            sector_agreement?: components["schemas"]["SectorAgreement"];
            /** @description mean adjusted Rand index of the bootstrap replicates' communities against these; only with bootstrap */
            community_stability?: number | null;
            spectrum?: components["schemas"]["Spectrum"];
            corr_matrix?: components["schemas"]["CorrMatrix"];
        };
        GraphStats: {
            /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
            date: string;
            nodes: number;
            edges: number;
            n_communities: number;
            modularity: number | null;
            /** @description mean adjusted Rand index of the bootstrap replicates' communities against these; only with bootstrap */
            community_stability?: number | null;
            mean_abs_corr: number | null;
            tree_length: number | null;
            avg_shortest_path: number | null;
        };
        DatedGraph: {
            /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
            asof_date: string;
            nodes: number;
            edges: number;
            /** @enum {string} */
            method: "mst" | "knn" | "threshold" | "complete" | "tmfg" | "pmfg";
            edge_list: components["schemas"]["Edge"][];
            sector_agreement: components["schemas"]["SectorAgreement"];
            spectrum?: components["schemas"]["Spectrum"];
            corr_matrix?: components["schemas"]["CorrMatrix"];
        };
        /** @description Empty lists at an as-of with fewer than 2 usable symbols. */
        Hierarchy: {
            /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
            asof_date: string;
            /** @enum {string} */
            method: "single" | "average" | "complete" | "ward";
            /** @enum {string} */
            distance: "unsigned" | "signed";
            /** @description leaf id i is the symbol leaves[i]: the symbols in the as-of's window, in stocks order */
            leaves: string[];
            /** @description scipy's linkage matrix Z: row r merges left and right into cluster id n + r (n = leaves.length); heights non-decreasing */
            merges: [
                number,
                number,
                number | null,
                number
            ][];
            /** @description the dendrogram's leaves left to right (scipy leaves_list) */
            leaf_order: string[];
            /** @description only with clusters */
            n_clusters?: number;
            /** @description symbol → flat cluster label (1-based); only with clusters */
            clusters?: {
                [key: string]: number;
            };
        };
        SnapshotData: {
            /** @constant */
            type: "snapshot";
            /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
            asof_date: string;
            /** @enum {string} */
            interval: "1m" | "5m" | "15m" | "30m" | "1h" | "1d" | "1w";
            metrics: ("degree_strength" | "eigenvector_centrality" | "betweenness_centrality" | "closeness_centrality" | "pagerank")[];
            stocks: {
                symbol: string;
                /** @description the stock's name, where known (import-metadata) */
                name?: string;
                /** @description the stock's sector, where known */
                sector?: string;
                /** @description community id; absent with include_graph=false */
                community?: number | null;
                /** @description flat cluster label (1-based) at this as-of; only with clusters; null where the symbol is not in the window */
                cluster?: number | null;
                /** @description portfolio weight, rounded to 6 decimals; only with weights; null where the symbol is not in the window */
                weight?: number | null;
                /** @description rounded to 6 decimals; null where undefined */
                degree_strength?: number | null;
                /** @description rounded to 6 decimals; null where undefined */
                eigenvector_centrality?: number | null;
                /** @description rounded to 6 decimals; null where undefined */
                betweenness_centrality?: number | null;
                /** @description rounded to 6 decimals; null where undefined */
                closeness_centrality?: number | null;
                /** @description rounded to 6 decimals; null where undefined */
                pagerank?: number | null;
                /** @description 5th percentile of degree_strength over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                degree_strength_p05?: number | null;
                /** @description 95th percentile of degree_strength over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                degree_strength_p95?: number | null;
                /** @description 5th percentile of eigenvector_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                eigenvector_centrality_p05?: number | null;
                /** @description 95th percentile of eigenvector_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                eigenvector_centrality_p95?: number | null;
                /** @description 5th percentile of betweenness_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                betweenness_centrality_p05?: number | null;
                /** @description 95th percentile of betweenness_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                betweenness_centrality_p95?: number | null;
                /** @description 5th percentile of closeness_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                closeness_centrality_p05?: number | null;
                /** @description 95th percentile of closeness_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                closeness_centrality_p95?: number | null;
                /** @description 5th percentile of pagerank over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                pagerank_p05?: number | null;
                /** @description 95th percentile of pagerank over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                pagerank_p95?: number | null;
            }[];
            graph: components["schemas"]["Graph"];
            graph_stats?: components["schemas"]["GraphStats"][];
            /** @description with hierarchy (or weights=hrp) */
            hierarchy?: components["schemas"]["Hierarchy"];
            /** @description with weights; each stock carries its weight */
            weights?: {
                /** @enum {string} */
                method: "hrp" | "equal" | "inverse_variance";
            };
        };
        RollingData: {
            /** @constant */
            type: "rolling";
            asof_dates: string[];
            /** @enum {string} */
            interval: "1m" | "5m" | "15m" | "30m" | "1h" | "1d" | "1w";
            metrics: ("degree_strength" | "eigenvector_centrality" | "betweenness_centrality" | "closeness_centrality" | "pagerank")[];
            stocks: {
                symbol: string;
                /** @description the stock's name, where known (import-metadata) */
                name?: string;
                /** @description the stock's sector, where known */
                sector?: string;
                /** @description community id; absent with include_graph=false */
                community?: number | null;
                /** @description one per as-of; null metrics where the symbol is absent */
                points: {
                    /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
                    date: string;
                    /** @description community id; absent with include_graph=false */
                    community?: number | null;
                    /** @description flat cluster label (1-based) at this as-of; only with clusters; null where the symbol is not in the window */
                    cluster?: number | null;
                    /** @description portfolio weight, rounded to 6 decimals; only with weights; null where the symbol is not in the window */
                    weight?: number | null;
                    /** @description rounded to 6 decimals; null where undefined */
                    degree_strength?: number | null;
                    /** @description rounded to 6 decimals; null where undefined */
                    eigenvector_centrality?: number | null;
                    /** @description rounded to 6 decimals; null where undefined */
                    betweenness_centrality?: number | null;
                    /** @description rounded to 6 decimals; null where undefined */
                    closeness_centrality?: number | null;
                    /** @description rounded to 6 decimals; null where undefined */
                    pagerank?: number | null;
                    /** @description 5th percentile of degree_strength over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                    degree_strength_p05?: number | null;
                    /** @description 95th percentile of degree_strength over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                    degree_strength_p95?: number | null;
                    /** @description 5th percentile of eigenvector_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                    eigenvector_centrality_p05?: number | null;
                    /** @description 95th percentile of eigenvector_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                    eigenvector_centrality_p95?: number | null;
                    /** @description 5th percentile of betweenness_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                    betweenness_centrality_p05?: number | null;
                    /** @description 95th percentile of betweenness_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                    betweenness_centrality_p95?: number | null;
                    /** @description 5th percentile of closeness_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                    closeness_centrality_p05?: number | null;
                    /** @description 95th percentile of closeness_centrality over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                    closeness_centrality_p95?: number | null;
                    /** @description 5th percentile of pagerank over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                    pagerank_p05?: number | null;
                    /** @description 95th percentile of pagerank over the bootstrap replicates (numpy's linear interpolation); only with bootstrap */
                    pagerank_p95?: number | null;
                }[];
            }[];
            latest_graph: components["schemas"]["Graph"];
            graph_stats?: components["schemas"]["GraphStats"][];
            /** @description every as-of's edges; only with include_graph=all */
            graphs?: components["schemas"]["DatedGraph"][];
            /** @description the latest as-of's; with hierarchy (or weights=hrp) */
            latest_hierarchy?: components["schemas"]["Hierarchy"];
            /** @description every as-of's, oldest first; with hierarchy and include_graph=all */
            hierarchies?: components["schemas"]["Hierarchy"][];
            /** @description with weights; each point carries its weight */
            weights?: {
                /** @enum {string} */
                method: "hrp" | "equal" | "inverse_variance";
                /** @description one-way turnover ½Σ|Δw| from the previous as-of, one per asof_dates entry; null first and next to an as-of without weights */
                turnover: (number | null)[];
            };
        };
        EffectiveParams: {
            universe: string | null;
            symbols: string[] | null;
            /** @enum {string} */
            interval: "1m" | "5m" | "15m" | "30m" | "1h" | "1d" | "1w";
            lookback: number;
            periods: number;
            step: number;
            asof: string | null;
            start: string | null;
            end: string | null;
            metrics: ("degree_strength" | "eigenvector_centrality" | "betweenness_centrality" | "closeness_centrality" | "pagerank")[];
            /** @enum {string} */
            graph_method: "mst" | "knn" | "threshold" | "complete" | "tmfg" | "pmfg";
            knn_k: number;
            corr_threshold: number;
            /** @enum {string} */
            corr_method: "pearson" | "spearman" | "ewma" | "kendall" | "distance";
            halflife: number;
            /** @enum {string} */
            shrinkage: "none" | "ledoit_wolf";
            /** @enum {string} */
            market_mode: "keep" | "remove";
            /** @enum {string} */
            hierarchy: "none" | "single" | "average" | "complete" | "ward";
            /** @enum {string} */
            hierarchy_distance: "unsigned" | "signed";
            clusters: number | null;
            /** @enum {string} */
            weights: "none" | "hrp" | "equal" | "inverse_variance";
            /** @enum {string} */
            denoise: "none" | "mp";
            detone: number;
            spectrum: boolean;
            include_corr: boolean;
            bootstrap: number | null;
            seed: number;
            include_graph: boolean | "all";
            sort: ("degree_strength" | "eigenvector_centrality" | "betweenness_centrality" | "closeness_centrality" | "pagerank") | null;
            /** @enum {string} */
            format: "json" | "csv" | "ndjson";
        };
        Diagnostics: {
            n_requested: number;
            n_in_graph: number;
            missing_symbols: string[];
            /** @description snapshot: symbols; rolling: as-of → symbols */
            dropped_insufficient_bars: string[] | {
                [key: string]: string[];
            };
            /** @description snapshot: symbols; rolling: as-of → symbols */
            dropped_zero_variance: string[] | {
                [key: string]: string[];
            };
            window_bars: number;
            /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
            first_asof: string;
            /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
            last_asof: string;
            data_source: string;
            not_converged?: string[];
            /** @description live endpoint only */
            compute_ms?: number;
            /** @description live endpoint only: served from the result cache */
            cached?: boolean;
        };
        ErrorObject: {
            /** @enum {string} */
            code: "BAD_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "RATE_LIMITED" | "DAILY_QUOTA_EXCEEDED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE" | "CLIENT_CLOSED_REQUEST";
            message: string;
        };
        ErrorEnvelope: {
            /** @constant */
            success: false;
            /** @description one per problem */
            errors: components["schemas"]["ErrorObject"][];
            data: null;
            meta: {
                /**
                 * Format: date-time
                 * @description UTC, new Date().toISOString() form
                 */
                generated_at: string;
                /** @description the X-Request-Id of this response */
                request_id: string;
                /** @description /health only */
                checks?: {
                    database: string;
                };
            };
        };
        ChartEnvelope: {
            /** @constant */
            success: true;
            errors: unknown[];
            data: components["schemas"]["SnapshotData"] | components["schemas"]["RollingData"];
            meta: {
                /**
                 * Format: date-time
                 * @description UTC, new Date().toISOString() form
                 */
                generated_at: string;
                /** @description the X-Request-Id of this response */
                request_id: string;
                params: components["schemas"]["EffectiveParams"];
                diagnostics: components["schemas"]["Diagnostics"];
            };
        };
        DemoEnvelope: {
            /** @constant */
            success: true;
            errors: unknown[];
            data: components["schemas"]["SnapshotData"] | components["schemas"]["RollingData"];
            meta: {
                /**
                 * Format: date-time
                 * @description UTC, new Date().toISOString() form
                 */
                generated_at: string;
                /** @description the X-Request-Id of this response */
                request_id: string;
                /** @constant */
                demo: true;
                params: components["schemas"]["EffectiveParams"];
                diagnostics: components["schemas"]["Diagnostics"];
            };
        };
        HealthEnvelope: {
            /** @constant */
            success: true;
            errors: unknown[];
            data: {
                /** @constant */
                status: "ok";
                /** @constant */
                service: "graph-stats";
                version: string;
                commit?: string;
                schema?: string;
                /**
                 * Format: date-time
                 * @description UTC, new Date().toISOString() form
                 */
                time: string;
                uptime_s: number;
                checks: {
                    /** @constant */
                    database: "ok";
                };
            };
            meta: {
                /**
                 * Format: date-time
                 * @description UTC, new Date().toISOString() form
                 */
                generated_at: string;
                /** @description the X-Request-Id of this response */
                request_id: string;
            };
        };
        /** @description One line of format=ndjson (and one row of format=csv). metric is a metric name, <metric>_p05 / <metric>_p95 (with bootstrap), or cluster / weight (with clusters, weights). Graph-statistics and turnover rows have an empty symbol and the statistic (or turnover) as metric; so do spectrum rows (lambda_plus, n_above, absorption_ratio, eigenvalue_<k>). Edge reliability rows (bootstrap) have the edge's source as symbol and reliability:<target> as metric; correlation matrix rows (include_corr) the row's symbol and corr:<column symbol>. */
        TidyRow: {
            /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
            date: string;
            symbol: string;
            metric: string;
            value: number | null;
            community: number | null;
        };
        /** @description one stored universe */
        UniverseListing: {
            name: string;
            /** @description the intervals any member stores, finest first */
            intervals: ("1m" | "5m" | "15m" | "30m" | "1h" | "1d" | "1w")[];
            /** @description the earliest bar of any member at any interval; null when no member has bars */
            first_bar: string | null;
            /** @description the latest bar of any member at any interval */
            last_bar: string | null;
            /** @enum {string} */
            data_source: "synthetic" | "imported";
            /** @description the data version this answer was read at (also its ETag) */
            data_version: number;
            /** @description how many members */
            symbols: number;
        };
        SymbolCoverage: {
            /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
            first: string;
            /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
            last: string;
            bars: number;
            /** @description bars of the universe's calendar at this interval between first and last that this symbol lacks */
            missing: number;
        };
        UniverseMember: {
            symbol: string;
            /** @description from import-metadata; null where unknown */
            name: string | null;
            sector: string | null;
            industry: string | null;
            /** @description per interval this symbol stores; empty when it has no bars */
            coverage: {
                [key: string]: components["schemas"]["SymbolCoverage"];
            };
        };
        UniverseDetail: {
            name: string;
            /** @description the intervals any member stores, finest first */
            intervals: ("1m" | "5m" | "15m" | "30m" | "1h" | "1d" | "1w")[];
            /** @description the earliest bar of any member at any interval; null when no member has bars */
            first_bar: string | null;
            /** @description the latest bar of any member at any interval */
            last_bar: string | null;
            /** @enum {string} */
            data_source: "synthetic" | "imported";
            /** @description the data version this answer was read at (also its ETag) */
            data_version: number;
            /** @description per interval, the union of the members' bar starts: what missing is counted against */
            calendar: {
                [key: string]: {
                    /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
                    first: string;
                    /** @description ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30 */
                    last: string;
                    bars: number;
                };
            };
            /** @description the members in universe order */
            symbols: components["schemas"]["UniverseMember"][];
        };
        UniverseListEnvelope: {
            /** @constant */
            success: true;
            errors: unknown[];
            data: {
                /** @description alphabetical */
                universes: components["schemas"]["UniverseListing"][];
            };
            meta: {
                /**
                 * Format: date-time
                 * @description UTC, new Date().toISOString() form
                 */
                generated_at: string;
                /** @description the X-Request-Id of this response */
                request_id: string;
            };
        };
        UniverseEnvelope: {
            /** @constant */
            success: true;
            errors: unknown[];
            data: components["schemas"]["UniverseDetail"];
            meta: {
                /**
                 * Format: date-time
                 * @description UTC, new Date().toISOString() form
                 */
                generated_at: string;
                /** @description the X-Request-Id of this response */
                request_id: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The caller's X-Request-Id when it is 1-64 of A-Z a-z 0-9 . _ -, else a new one; also in meta.request_id. */
        "X-Request-Id": string;
        /** @description Requests allowed per rolling minute. */
        "X-RateLimit-Limit": string;
        /** @description Requests left in the current minute window. */
        "X-RateLimit-Remaining": string;
        /** @description Requests allowed per UTC day. */
        "X-RateLimit-Daily-Limit": string;
        /** @description Requests left today (UTC). */
        "X-RateLimit-Daily-Remaining": string;
        /** @description Unix time (seconds) at which a minute slot frees. */
        "X-RateLimit-Reset": string;
        /** @description IETF draft form of the tightest window, e.g. "minute";r=0;t=42. */
        RateLimit: string;
        /** @description Both windows, e.g. "minute";q=1;w=60, "day";q=30;w=86400. */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": string;
        /** @description RFC 6750: Bearer realm="graph-stats", with error="invalid_token" and error_description when a token was sent. */
        "WWW-Authenticate": string;
        /** @description A weak tag naming the data version, W/"dv<version>": send it back in If-None-Match for a 304 until the data changes. */
        ETag: string;
        /** @description The methods the path answers. */
        Allow: "GET";
        /** @description no-store on live and health answers; public, max-age=60 on the demo; private, no-cache on /v1/universes. */
        "Cache-Control": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getChart: {
        parameters: {
            query?: {
                /**
                 * @description name; default configured default (`sample` on a fresh install); allowed: a known universe; 1-64 of A-Z a-z 0-9 . _ -; not together with symbols.
                 * @example sample
                 */
                universe?: string;
                /**
                 * @description comma list; default none; allowed: 2-500 distinct symbols, each 1-32 of A-Z a-z 0-9 & . _ - (exact case; encode & as %26).
                 * @example ALPHABANK,BETABANK,CODEWAVE
                 */
                symbols?: string;
                /** @description code; default 1d; allowed: 1m 5m 15m 30m 1h 1d 1w. */
                interval?: "1m" | "5m" | "15m" | "30m" | "1h" | "1d" | "1w";
                /** @description integer; default 60; allowed: 2-1000 return bars. */
                lookback?: number;
                /** @description integer; default 1; allowed: 1-250; periods x symbols <= 50000. */
                periods?: number;
                /** @description integer; default 1; allowed: 1-250 bars between as-of bars. */
                step?: number;
                /** @description YYYY-MM-DD; default latest bar; allowed: a calendar date; the last bar whose local date is on or before it; not with start/end. */
                asof?: string;
                /** @description YYYY-MM-DD; default none; allowed: with end, instead of periods and asof: as-ofs every step bars back from end's bar to the first bar on or after start; at most 250 as-ofs. */
                start?: string;
                /** @description YYYY-MM-DD; default none; allowed: with start; on or after start; the last bar whose local date is on or before it. */
                end?: string;
                /** @description comma list; default all five; allowed: subset of degree_strength eigenvector_centrality betweenness_centrality closeness_centrality pagerank; order kept, duplicates dropped. */
                metrics?: string;
                /** @description name; default mst; allowed: mst knn threshold complete tmfg pmfg. */
                graph_method?: "mst" | "knn" | "threshold" | "complete" | "tmfg" | "pmfg";
                /** @description integer; default 4; allowed: 1-50. */
                knn_k?: number;
                /** @description number; default 0.5; allowed: 0-1. */
                corr_threshold?: number;
                /** @description name; default pearson; allowed: pearson spearman ewma kendall distance. */
                corr_method?: "pearson" | "spearman" | "ewma" | "kendall" | "distance";
                /** @description number; default 20; allowed: 1-1000 bars; only with corr_method=ewma. */
                halflife?: number;
                /** @description name; default none; allowed: none ledoit_wolf; ledoit_wolf only with corr_method=pearson. */
                shrinkage?: "none" | "ledoit_wolf";
                /** @description name; default keep; allowed: keep remove; remove regresses each return series on the equal-weighted market return. */
                market_mode?: "keep" | "remove";
                /** @description name; default none (single with weights=hrp); allowed: none single average complete ward; a hierarchical clustering per as-of; its tree is in format=json only (csv/ndjson need clusters or weights=hrp). */
                hierarchy?: "none" | "single" | "average" | "complete" | "ward";
                /** @description name; default unsigned; allowed: unsigned signed: sqrt(2(1-|rho|)) or sqrt(2(1-rho)); only with hierarchy or weights=hrp; signed not with corr_method=distance. */
                hierarchy_distance?: "unsigned" | "signed";
                /** @description integer; default none; allowed: 1-500: at most k flat clusters of the hierarchy per as-of (k >= the symbols there: one each); only with hierarchy or weights=hrp. */
                clusters?: number;
                /** @description name; default none; allowed: none hrp equal inverse_variance; portfolio weights per as-of (hrp on the hierarchy's tree) and, rolling, their turnover. */
                weights?: "none" | "hrp" | "equal" | "inverse_variance";
                /** @description name; default none; allowed: none mp; mp: eigenvalues at or below the Marchenko-Pastur edge (1+sqrt(n/L))^2 replaced by their mean, after shrinkage. */
                denoise?: "none" | "mp";
                /** @description integer; default 0; allowed: 0-5 leading eigen-components removed (after denoise); the graph then reads the residual |rho|. */
                detone?: number;
                /** @description boolean; default false; allowed: true false 1 0: per graph, the eigenvalues before filtering, lambda_plus, n_above and the absorption ratio. */
                spectrum?: "0" | "1" | "true" | "false";
                /** @description boolean; default false; allowed: true false 1 0: per graph, the matrix it was built from (after every filter); csv/ndjson: corr rows. */
                include_corr?: "0" | "1" | "true" | "false";
                /** @description integer; default none; allowed: 1-1000 resamples of each window's return rows: edge reliability, <metric>_p05/_p95, community_stability. */
                bootstrap?: number;
                /** @description integer; default 0; allowed: 0-4294967295; seeds bootstrap's SplitMix64 row draws (replicate b: seed*2^32+b); only with bootstrap. */
                seed?: number;
                /** @description boolean or all; default true; allowed: true false 1 0 all (all: every as-of's edges too). */
                include_graph?: "0" | "1" | "true" | "false" | "all";
                /** @description metric name; default none (request order); allowed: one of the requested metrics; descending, nulls last. */
                sort?: "degree_strength" | "eigenvector_centrality" | "betweenness_centrality" | "closeness_centrality" | "pagerank";
                /** @description name; default json; allowed: json csv ndjson; csv/ndjson: long rows date,symbol,metric,value. */
                format?: "json" | "csv" | "ndjson";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The chart (format=json), or its tidy rows (format=csv, format=ndjson). Cache-Control: no-store. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChartEnvelope"];
                    "text/csv": string;
                    "application/x-ndjson": string;
                };
            };
            /** @description BAD_REQUEST: a parameter problem (each message names the parameter, the value and what is allowed), more history than exists, or a query over 8 KiB. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHORIZED: the token is missing, malformed, badly signed, of another algorithm, expired, not yet valid or revoked. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description FORBIDDEN: a valid token of a disabled user; like a 401, without rate-limit headers. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: an unknown universe, or fewer than 2 usable symbols. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A method other than GET, HEAD or OPTIONS. */
            405: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RATE_LIMITED (per-minute) or DAILY_QUOTA_EXCEEDED (per UTC day); not counted. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: an unexpected failure; the message carries the request id. Refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or busy, the process is at its bound of admitted work, or the server is shutting down. Refunded. The rate-limit headers when the caller's meter could be read. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed per rolling minute. */
                    "X-RateLimit-Limit"?: string;
                    /** @description Requests left in the current minute window. */
                    "X-RateLimit-Remaining"?: string;
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Daily-Limit"?: string;
                    /** @description Requests left today (UTC). */
                    "X-RateLimit-Daily-Remaining"?: string;
                    /** @description Unix time (seconds) at which a minute slot frees. */
                    "X-RateLimit-Reset"?: string;
                    /** @description IETF draft form of the tightest window, e.g. "minute";r=0;t=42. */
                    RateLimit?: string;
                    /** @description Both windows, e.g. "minute";q=1;w=60, "day";q=30;w=86400. */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listUniverses: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalogue, read at the data version its ETag names. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UniverseListEnvelope"];
                };
            };
            /** @description Not modified: If-None-Match names the current ETag. No body. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BAD_REQUEST: a query parameter was sent; these routes take none. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHORIZED: as on the live endpoint. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description FORBIDDEN: a valid token of a disabled user. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A method other than GET, HEAD or OPTIONS. */
            405: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: an unexpected failure; the message carries the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or busy, or the server is shutting down. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getUniverse: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A universe's name (1-64 of A-Z a-z 0-9 . _ -). Names . and .. cannot be addressed: URLs drop such path segments.
                 * @example sample
                 */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalogue, read at the data version its ETag names. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UniverseEnvelope"];
                };
            };
            /** @description Not modified: If-None-Match names the current ETag. No body. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BAD_REQUEST: a query parameter was sent; these routes take none. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHORIZED: as on the live endpoint. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description FORBIDDEN: a valid token of a disabled user. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND: no universe of that name; the message lists the known ones. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A method other than GET, HEAD or OPTIONS. */
            405: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR: an unexpected failure; the message carries the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or busy, or the server is shutting down. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDemoChart: {
        parameters: {
            query?: {
                /** @description 2-10 for a rolling sample; anything else (or none) gives the snapshot. Other parameters are ignored. */
                periods?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The demo chart; meta.demo is true. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DemoEnvelope"];
                };
            };
            /** @description A method other than GET, HEAD or OPTIONS. */
            405: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL_ERROR. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: shutting down. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy. Cache-Control: no-store. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthEnvelope"];
                };
            };
            /** @description A method other than GET, HEAD or OPTIONS. */
            405: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database does not answer, or shutting down; meta.checks names the failing check. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description A method other than GET, HEAD or OPTIONS. */
            405: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the server is shutting down. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML reference rendered from this document; no scripts, no external resources. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A method other than GET, HEAD or OPTIONS. */
            405: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the server is shutting down. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
