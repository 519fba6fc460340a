# syntax=docker/dockerfile:1
#
# docker build --build-arg VERSION=$(git describe --tags --exact-match 2>/dev/null) \
#              --build-arg COMMIT=$(git rev-parse HEAD) -t twentyone .
# docker run -d --name twentyone -e TWENTYONE_TELEGRAM_TOKEN=... -v twentyone-data:/data twentyone
#
# The binary is built by scripts/build-static.sh, the same script CI runs
# (cmd/twentyone/build_test.go), so what the image holds is what is tested.

FROM golang:1.26 AS build
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
LABEL org.opencontainers.image.title="twentyone" \
      org.opencontainers.image.description="Telegram bot hosting the card game Twenty One in group chats" \
      org.opencontainers.image.source="https://github.com/twentyone-bot/twentyone" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$COMMIT"
COPY --from=build /out/twentyone /twentyone
# The volume's mount point, owned by nonroot so that a new named volume is too.
COPY --from=build --chown=nonroot:nonroot /out/data /data
ENV TWENTYONE_STORAGE_PATH=/data/twentyone.db \
    TWENTYONE_HTTP_LISTEN=0.0.0.0:9121 \
    TWENTYONE_TELEGRAM_WEBHOOK_LISTEN=0.0.0.0:8443
VOLUME /data
# 9121: /healthz, /readyz, /metrics; 8443: the webhook (telegram.mode webhook only).
EXPOSE 9121 8443
USER nonroot
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["/twentyone", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/twentyone"]
CMD ["run"]
