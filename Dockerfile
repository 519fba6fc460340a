# The image README.md's "With Docker" builds, with its command:
#
# docker build --build-arg VERSION=$(git describe --tags --exact-match 2>/dev/null) \
#              --build-arg COMMIT=$(git rev-parse HEAD) -t twentyone .
# docker run -d --name twentyone -e TWENTYONE_TELEGRAM_TOKEN=... -v twentyone-data:/data twentyone
#
# The binary is built by scripts/build-static.sh, the same script CI runs
# (cmd/twentyone/build_test.go), so what the image holds is what is tested.
# CI also builds this file unchanged, with README's command, and tests the
# image it makes (scripts/ci-docker.sh, cmd/twentyone/docker_test.go).
#
# Behind a module proxy of your own: --build-arg GOPROXY=https://... (and
# GOSUMDB, GOPRIVATE, GONOPROXY, GONOSUMDB, as `go help environment` says).
# Behind a proxy that intercepts TLS: put its CA certificate, as PEM, into
# scripts/build-ca/ (see the README there); the build stage trusts it.
# Without either, nothing changes. No `# syntax=` line: the build needs no
# frontend image, so the classic builder and BuildKit alike build it offline
# from the two base images.

FROM golang:1.26 AS build
ARG GOPROXY
ARG GOSUMDB
ARG GOPRIVATE
ARG GONOPROXY
ARG GONOSUMDB
# Go reads every file of every directory in SSL_CERT_DIR, besides the
# image's own bundle; a directory with only the README adds nothing.
COPY scripts/build-ca/ /usr/local/share/build-ca/
ENV SSL_CERT_DIR=/etc/ssl/certs:/usr/local/share/build-ca
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=
ARG COMMIT=unknown
RUN VERSION="$VERSION" COMMIT="$COMMIT" sh scripts/build-static.sh /out/twentyone \
 && /out/twentyone version \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
ARG VERSION=
ARG COMMIT=unknown
# An untagged build is no release: its binary, unstamped, reports the newest
# release in CHANGELOG.md (the version its source continues), but the image
# may hold changes made since, so its label says "unreleased" and the
# revision label says which commit it is.
LABEL org.opencontainers.image.title="twentyone" \
      org.opencontainers.image.description="Telegram bot hosting the card game Twenty One in group chats" \
      org.opencontainers.image.source="https://github.com/twentyone-bot/twentyone" \
      org.opencontainers.image.version="${VERSION:-unreleased}" \
      org.opencontainers.image.revision="$COMMIT"
COPY --from=build /out/twentyone /twentyone
# The volume's mount point, owned by the image's user (65532, "nonroot" in
# the base image) so that a new named volume is too: Docker copies it, owner
# included, into an empty volume. A volume another container filled first
# stays root's: README's restore recipe chowns it.
COPY --from=build --chown=65532:65532 /out/data /data
ENV TWENTYONE_STORAGE_PATH=/data/twentyone.db \
    TWENTYONE_HTTP_LISTEN=0.0.0.0:9121 \
    TWENTYONE_TELEGRAM_WEBHOOK_LISTEN=0.0.0.0:8443
VOLUME /data
# 9121: /healthz, /readyz, /metrics; 8443: the webhook (telegram.mode webhook only).
EXPOSE 9121 8443
# Numeric, so that Kubernetes' runAsNonRoot can check it without the image's
# /etc/passwd.
USER 65532:65532
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["/twentyone", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/twentyone"]
CMD ["run"]
