# Tributary's container image: the daemon with its audio engine and dashboard, run as the user
# tributary with its configuration in the volume /var/lib/tributary. Build stage: Rust and the
# builds, by scripts/release/package/container-build.sh (the same steps the packaging tests run on a
# plain machine). Runtime stage: Node.js on Debian slim and the staged files, nothing else.
#   docker build -t tributary .
#   docker compose up -d          (compose.yaml: host networking; compose.ports.yaml: ports)
# Base images pinned by tag; Debian bookworm, as the machines the build steps are tested on.
FROM node:24.11.1-bookworm AS build
WORKDIR /src
COPY scripts/release/package/container-build.sh scripts/release/package/
RUN sh scripts/release/package/container-build.sh toolchain
ENV PATH=/root/.cargo/bin:$PATH
COPY . .
RUN sh scripts/release/package/container-build.sh build \
 && sh scripts/release/package/container-build.sh stage /out

FROM node:24.11.1-bookworm-slim
COPY scripts/release/package/container-build.sh /tmp/
RUN sh /tmp/container-build.sh runtime && rm /tmp/container-build.sh
COPY --from=build /out/ /
ENV NODE_ENV=production \
    CONFIG_PATH=/var/lib/tributary/config.yaml
VOLUME /var/lib/tributary
# HTTPS API and its HTTP redirect (443 and 80 where they may be bound: Docker lets a container's
# user bind them with port mapping; with host networking an unprivileged user gets 8443 and 8080),
# Scream, per-application Scream, RTP and RTCP.
EXPOSE 443/tcp 80/tcp 8443/tcp 8080/tcp 4010/udp 16401/udp 16402/udp 40000/udp 40001/udp
USER tributary
WORKDIR /var/lib/tributary
CMD ["tributary", "serve"]
