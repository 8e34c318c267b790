# graph-stats as a container image: the single binary on a root filesystem holding nothing else
# but the C library it links, bash for the health check, and a non-root user.
#
# Both stages start from a local Debian image (no registry is needed, or reachable where this was
# made): deploy/base/build-base.sh makes localhost/debian:bookworm with debootstrap. The build
# stage compiles the binary from the build context with the Bun that `npm ci` installed into
# node_modules (the npm package `bun` ships the real executable), so the image is built from the
# same source and lockfile as `npm run build`, whichever host builds it. Build with:
#
#   podman build --format docker --runtime runc --network host \
#     --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
#     --build-arg VERSION=$(node -p 'require("./package.json").version') -t localhost/graph-stats .
#
# `--format docker` keeps the HEALTHCHECK (the OCI format has no field for it); the other flags are
# what podman needs on hosts with hybrid cgroups and fixed limits (docs/deploy.md).

ARG BASE=localhost/debian:bookworm

FROM ${BASE} AS build
WORKDIR /src
COPY . .
# The server target only: the conformance kit is not part of the image.
RUN set -eu; \
    bun=node_modules/bun/bin/bun.exe; [ -x "$bun" ] || bun=$(ls node_modules/@oven/bun-linux-x64*/bin/bun | head -n 1); \
    "$bun" -e 'import { compile, TARGETS } from "./src/build-targets.ts"; await compile(TARGETS[0], "/out/graph-stats");'; \
    /out/graph-stats --version
# The runtime root: the binary, the libraries ldd names for it and for bash (bash answers the
# health check through /dev/tcp, so no curl), and a passwd entry for the unprivileged user.
RUN set -eu; \
    mkdir -p /rootfs/usr/local/bin /rootfs/bin /rootfs/etc /rootfs/data /rootfs/tmp; \
    cp /out/graph-stats /rootfs/usr/local/bin/; cp /bin/bash /rootfs/bin/; \
    for lib in $(ldd /out/graph-stats /bin/bash | grep -o '/[^ ]*\.so[^ ]*' | sort -u); do \
      cp -L --parents "$lib" /rootfs/; \
    done; \
    echo 'root:x:0:0:root:/root:/bin/bash' > /rootfs/etc/passwd; \
    echo 'graphstats:x:10001:10001:graph-stats:/data:/bin/bash' >> /rootfs/etc/passwd; \
    printf 'root:x:0:\ngraphstats:x:10001:\n' > /rootfs/etc/group; \
    echo 'hosts: files dns' > /rootfs/etc/nsswitch.conf; \
    chown 10001:10001 /rootfs/data; chmod 1777 /rootfs/tmp

FROM scratch
ARG VERSION=0.0.0
LABEL org.opencontainers.image.title="graph-stats" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="MIT"
COPY --from=build /rootfs/ /
# SQLite mode keeps its file in the volume; on PostgreSQL (GRAPH_STATS_DATABASE_URL) nothing is
# written there.
ENV GRAPH_STATS_DB=/data/graph-stats.sqlite \
    GRAPH_STATS_PORT=8080 \
    GRAPH_STATS_HOST=0.0.0.0
VOLUME /data
WORKDIR /data
USER 10001:10001
EXPOSE 8080
# /health is public and unmetered, and answers 503 while the database does not; HTTP/1.0 makes the
# server close the connection, so `read` returns the status line and the check ends.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${GRAPH_STATS_PORT} && printf 'GET /health HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && read -r line <&3 && [[ $line == HTTP/1.?' 200 '* ]]"]
# The binary is PID 1: it handles SIGTERM itself (new requests 503, in-flight ones finish, the
# database closes, exit 0), and it starts no child processes unless --workers > 1, which reaps them.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/graph-stats"]
CMD ["serve"]
