/**
 * The {@code troupe-client} command line, private to the bundle (not exported): a user of the
 * library's API and of the deploy folder's rules ({@link io.troupe.client.deploy}), nothing more.
 *
 * <pre>
 *   Main ── picocli CommandLine(ClientCommand): connection options before or after the command,
 *    │        OptionValues converts numbers and durations; usage error → problem + synopsis + "try --help", 64
 *    ├── request NAME CONTENT ─► ServerTarget (options, else troupe.home's etc/*.cfg; --host a:1,b:2 servers)
 *    │                           RequestCommand: one TroupeClient, one request, reply bytes + "\n" on stdout
 *    ├── bench [BenchOptions] ─► Bench: N TroupeClients on one ClientLoop
 *    │                             └── BenchConnection × N: keep `pipeline` requests in flight, check echoes
 *    │                                   └── BenchResults: HdrHistogram of latencies after warm-up, errors by kind
 *    └── deploy JAR ─► DeployCommand: DeployFolder.put (troupe.home's deploy/ or --deploy-dir), then the
 *                      host's outcome from deploy/.status/JAR
 * </pre>
 *
 * <p>Only this package needs picocli, and only the bench needs HdrHistogram; the bundle imports both
 * with {@code resolution:=optional}. Exit status: 0 success, 2 ERROR from the server (bench: failed
 * requests), 3 unreachable or no answer in time, 4 deploy refused, 5 no deploy outcome in time, 64
 * usage or configuration, 1 anything else.
 */
package io.troupe.client.cli;
