/**
 * The {@code troupe-client} command line, private to the bundle (not exported): a user of the
 * library's API, nothing more.
 *
 * <pre>
 *   Main ── Arguments (options anywhere, -- ends them) ── ServerTarget (options, else troupe.home's etc/*.cfg)
 *    ├── request NAME CONTENT ─► RequestCommand: one TroupeClient, one request, reply bytes + "\n" on stdout
 *    └── bench ─► Bench: N TroupeClients on one ClientLoop
 *                   └── BenchConnection × N: keep `pipeline` requests in flight, check echoes
 *                         └── BenchResults: HdrHistogram of latencies after warm-up, errors by kind
 * </pre>
 *
 * <p>Only the bench needs HdrHistogram; the bundle imports it with {@code resolution:=optional}.
 * Exit status: 0 success, 2 ERROR from the server (bench: failed requests), 3 unreachable or no
 * answer in time, 64 usage or configuration, 1 anything else.
 */
package io.troupe.client.cli;
