# syntax=docker/dockerfile:1
# Build a static binary, then ship it alone on a minimal image that has CA
# certificates and runs as a non-root user.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w" -o /out/conductor .

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/conductor /usr/local/bin/conductor
# The database lives on a volume mounted at /data (see fly.toml).
ENV CONDUCTOR_DB=/data/conductor.db CONDUCTOR_HTTP=:8080
# distroless's nonroot user, by number: fly's init mounts the volume for the
# image's user, and a numeric USER needs no lookup in /etc/passwd. The bot
# says at start which uid cannot write the database directory, if any.
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/conductor"]
CMD ["run"]
