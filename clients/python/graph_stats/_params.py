"""Query parameter names per route, generated from docs/openapi.json by
tools/generate_params.py; do not edit (tests/test_params_module.py fails when stale).
"""

OPENAPI_VERSION = '0.1.0'
CHART_PATH = '/v1/graph-stats/chart'
CHART_PARAMS = (
    'universe',
    'symbols',
    'interval',
    'lookback',
    'periods',
    'step',
    'asof',
    'start',
    'end',
    'metrics',
    'graph_method',
    'knn_k',
    'corr_threshold',
    'corr_method',
    'halflife',
    'shrinkage',
    'market_mode',
    'hierarchy',
    'hierarchy_distance',
    'clusters',
    'weights',
    'denoise',
    'detone',
    'spectrum',
    'include_corr',
    'bootstrap',
    'seed',
    'include_graph',
    'sort',
    'format',
)
DEMO_PATH = '/v1/demo/chart'
DEMO_PARAMS = (
    'periods',
)
