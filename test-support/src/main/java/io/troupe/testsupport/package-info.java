/**
 * Test helpers shared by the modules' tests, one concept per class, each once (they used to be
 * copied from module to module). Used with test scope only; never part of the distribution.
 *
 * <pre>
 *   helper       what it stands for                          used by (tests of)
 *   ------       ------------------                          -----------------
 *   Await        bounded waits: futures, or a condition       client, server (in the framework), itests
 *                polled every 5 ms, failing with what was      (in the framework)
 *                awaited and the state seen last
 *   TestClient   a blocking loopback client: raw bytes, or    host reactor (bytes), server (frames, in
 *                protocol v1 frames; every read bounded       the framework)
 *   StubRuntime  a hand-written TroupeRuntime: answering      shell commands, server sessions
 *                functions, recording handler actors
 *   TestJars     small bundle jars and non-bundles            client and shell (the deploy folder)
 *   HostStatus   the host's deploy outcome files, as its      client and shell (waiting for outcomes)
 *                deploy watcher writes them
 *   ManualClock  a clock only the test moves                  client and shell (waiting, deterministic)
 *   PrometheusText  a strict parser of a /metrics scrape       ops (the collector), distribution (scrapes
 *                (text 0.0.4, OpenMetrics 1.0)                  of a running Troupe)
 *   FreePorts    ports reserved now and bound later, drawn     cluster (Hazelcast members), server and
 *                below the kernel's ephemeral range            distribution (server processes)
 * </pre>
 *
 * <h2>In a framework</h2>
 * Pax Exam's probe holds the test module's own classes only, so in-framework tests get these helpers
 * from this jar installed as the bundle {@code io.troupe.testsupport} beside the bundles under test
 * (the probe imports the package dynamically). The bundle needs the JDK alone; it imports
 * {@code io.troupe.api} (StubRuntime) and {@code io.troupe.protocol} (TestClient's frames) optionally,
 * so it resolves in any test framework, and those classes work where the packages are installed.
 *
 * <h2>Threading</h2>
 * Each class states its own contract; in short, the helpers are for one test thread, and the waits
 * block only the calling thread.
 */
package io.troupe.testsupport;
