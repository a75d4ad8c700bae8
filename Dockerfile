# syntax=docker/dockerfile:1
#
# The Troupe distribution as a container image. Build it from the root of the source tree:
#
#   docker build -t troupe .
#   docker run -d --name troupe -p 127.0.0.1:7878:7878 -p 127.0.0.1:7879:7879 \
#       -v troupe-etc:/opt/troupe/etc -v troupe-deploy:/opt/troupe/deploy -v troupe-data:/opt/troupe/data troupe
#
# README, "Run in production: Docker and systemd", says what to configure before the ports are reachable
# from outside the container (both listen on the container's loopback by default).

# --- build: the README's build, in a Maven + JDK 17 image ---
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# The cache mount keeps ~/.m2 between builds (BuildKit); the build needs the network the first time.
RUN --mount=type=cache,target=/root/.m2 mvn -B -q -DskipTests package

# --- runtime: a JRE 17 and the unpacked distribution ---
FROM eclipse-temurin:17-jre
ARG TROUPE_UID=10001
ENV TROUPE_HOME=/opt/troupe \
    JAVA_OPTS="-XX:MaxRAMPercentage=75"
RUN groupadd --system --gid "$TROUPE_UID" troupe \
    && useradd --system --uid "$TROUPE_UID" --gid troupe --home-dir /opt/troupe/data --no-create-home \
        --shell /usr/sbin/nologin troupe
COPY --from=build /src/distribution/target/troupe /opt/troupe
# In a container the log goes to the console too (docker logs), beside log/troupe.log. defaults/ keeps the
# image's etc/ and deploy/, which bin/troupe-entrypoint copies into an empty volume mounted over them.
# Everything belongs to root but the four folders Troupe writes.
RUN sed -i 's/^console = auto$/console = true/' /opt/troupe/etc/io.troupe.log.cfg \
    && grep -q '^console = true$' /opt/troupe/etc/io.troupe.log.cfg \
    && mkdir /opt/troupe/defaults \
    && cp -R /opt/troupe/etc /opt/troupe/deploy /opt/troupe/defaults/ \
    && mkdir -p /opt/troupe/data /opt/troupe/log \
    && chown -R troupe:troupe /opt/troupe/etc /opt/troupe/deploy /opt/troupe/data /opt/troupe/log
USER troupe
WORKDIR /opt/troupe
VOLUME ["/opt/troupe/etc", "/opt/troupe/deploy", "/opt/troupe/data", "/opt/troupe/log"]
# 7878: the message server (etc/io.troupe.server.cfg); 7879: HTTP, /health, /metrics, /console
# (etc/io.troupe.http.cfg). Both bind 127.0.0.1 until host = 0.0.0.0 is set in those files.
EXPOSE 7878 7879
# Asks GET http://127.0.0.1:7879/health/ready from inside the container, which reaches the loopback binding.
HEALTHCHECK --interval=15s --timeout=6s --start-period=60s --retries=3 CMD ["/opt/troupe/bin/troupe-healthcheck"]
# Runs Troupe as process 1 (exec), without a terminal: a server until SIGTERM (docker stop; give a cluster
# node time to hand its tenants over: docker stop -t 60).
ENTRYPOINT ["/opt/troupe/bin/troupe-entrypoint"]
