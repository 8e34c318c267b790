// Generated from docs/openapi.json by scripts/generate.ts; do not edit.

export const CHART_PATH = "/v1/graph-stats/chart";
export const CHART_PARAMS = ["universe","symbols","interval","lookback","periods","step","asof","start","end","metrics","graph_method","knn_k","corr_threshold","corr_method","halflife","shrinkage","market_mode","hierarchy","hierarchy_distance","clusters","weights","denoise","detone","spectrum","include_corr","bootstrap","seed","include_graph","sort","format"] as const;
export const DEMO_PATH = "/v1/demo/chart";
export const DEMO_PARAMS = ["periods"] as const;
