#!/bin/sh
# Writes the configuration from the template with this container's port and upstreams (a comma
# list of host:port), checks it, then runs nginx in the foreground as PID 1.
set -eu
servers=""
for u in $(echo "$UPSTREAMS" | tr ',' ' '); do
  servers="$servers    server $u max_fails=3 fail_timeout=10s;\n"
done
sed -e "s|@NGINX_PORT@|$NGINX_PORT|" -e "s|@UPSTREAM_SERVERS@|$servers|" \
  /etc/nginx/graph-stats.conf.template >/etc/nginx/conf.d/graph-stats.conf
nginx -t -q
exec nginx -g 'daemon off;'
